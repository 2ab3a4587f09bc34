// The accessible form (issue 30, item 6): every input the field table declares is also a labelled
// DOM control that the keyboard and a screen reader can use, editing the same scenario as the
// canvas (undo, link, autosave). The accessibility check stands in for axe-core (not in Debian, and
// no npm dependency is added): it reads Chromium's own accessibility tree through the DevTools
// protocol (Accessibility.getFullAXTree) and the DOM, and counts violations of these rules:
//   - every form control (textbox, combobox, button, ...) has a non-empty accessible name,
//   - names are unique within their group (a fieldset) and within the page outside any group,
//   - every enabled control is keyboard-focusable,
//   - no two elements share an id; every label's `for` and every aria-labelledby/-describedby
//     reference points at an element that exists,
//   - the page has a main landmark, and the form is a form landmark holding every form control.
// Widgets are found by their labels and reached with the keyboard only, never by coordinates.
import { assert, assertEqual, launch, openPage, run, serve, waitForCalculator } from './lib/harness.mjs';
import { cli, cliJson, linkFor, mirror, stats } from './lib/calculator.mjs';
import * as ui from './lib/ui.mjs';

const browser = await launch();
const { server, url } = await serve();
const CONTROL_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'listbox', 'button', 'checkbox', 'radio', 'slider', 'spinbutton', 'switch', 'menuitem']);

// The violations of the rules above, as sentences (an empty list passes).
async function accessibilityViolations(page) {
  const session = await page.context().newCDPSession(page);
  await session.send('Accessibility.enable');
  const { nodes } = await session.send('Accessibility.getFullAXTree');
  await session.detach();
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const prop = (n, name) => (n.properties || []).find((p) => p.name === name)?.value?.value;
  const role = (n) => n.role?.value || '';
  const ancestor = (n, wanted) => {
    for (let p = byId.get(n.parentId); p; p = byId.get(p.parentId)) if (wanted(p)) return p;
    return null;
  };
  const violations = [];
  const names = new Map();
  let controls = 0;
  for (const n of nodes) {
    if (n.ignored || !CONTROL_ROLES.has(role(n))) continue;
    controls++;
    const name = (n.name?.value || '').trim();
    const group = ancestor(n, (p) => role(p) === 'group');
    const where = group ? `in "${group.name?.value}"` : 'on the page';
    if (!name) violations.push(`a ${role(n)} ${where} has no accessible name`);
    const key = `${group ? group.nodeId : 'page'}\u0000${name}`;
    if (name && names.has(key)) violations.push(`two controls ${where} are both named "${name}"`);
    names.set(key, true);
    if (!prop(n, 'disabled') && !prop(n, 'focusable')) violations.push(`the ${role(n)} "${name}" ${where} cannot take keyboard focus`);
  }
  const roles = new Set(nodes.filter((n) => !n.ignored).map(role));
  for (const landmark of ['main', 'form']) if (!roles.has(landmark)) violations.push(`no ${landmark} landmark`);
  const dom = await page.evaluate(() => {
    const problems = [];
    const ids = new Map();
    for (const e of document.querySelectorAll('[id]')) ids.set(e.id, (ids.get(e.id) || 0) + 1);
    for (const [id, count] of ids) if (count > 1) problems.push(`the id "${id}" is used ${count} times`);
    for (const l of document.querySelectorAll('label[for]')) if (!document.getElementById(l.htmlFor)) problems.push(`a label points at a missing id "${l.htmlFor}"`);
    for (const attribute of ['aria-labelledby', 'aria-describedby', 'aria-controls']) {
      for (const e of document.querySelectorAll(`[${attribute}]`)) {
        for (const id of e.getAttribute(attribute).split(/\s+/).filter(Boolean)) {
          if (!document.getElementById(id)) problems.push(`${attribute} of #${e.id || e.tagName} points at a missing id "${id}"`);
        }
      }
    }
    const form = document.getElementById('edit-form-fields');
    for (const c of document.querySelectorAll('#edit-form input, #edit-form select')) {
      if (!form.contains(c)) problems.push(`the control #${c.id} is outside the form landmark`);
      if (!c.labels || c.labels.length !== 1) problems.push(`the control #${c.id} has ${c.labels ? c.labels.length : 0} labels`);
    }
    return { problems, inputs: document.querySelectorAll('#edit-form input, #edit-form select').length };
  });
  return { violations: violations.concat(dom.problems), controls, inputs: dom.inputs };
}

// Moves focus with Tab (or Shift+Tab) until it is on `target` (a locator); fails after `limit` steps.
async function tabTo(page, target, { back = false, limit = 400 } = {}) {
  const handle = await target.elementHandle();
  for (let i = 0; i < limit; i++) {
    if (await page.evaluate((e) => document.activeElement === e, handle)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${await target.evaluate((e) => e.id)}`);
}

const focusedId = (page) => page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName);
const verdicts = async (page) => (await mirror(page)).verdicts;
const headlines = (page) => page.evaluate(() => [...document.querySelectorAll('#results-mirror .headline')].map((n) => n.textContent));
const cliVerdictsOfLink = (link) => cliJson(['evaluate', '--link', link, '--format', 'json']).workloads.map((w) => w.verdict);

try {
  await run('a11y', {
    async 'the page and its form have no accessibility violations (Chromium accessibility tree)'() {
      for (const example of ['', linkFor('portfolio-multicloud')]) {
        const { page, context, log } = await openPage(browser, `${url}calculator.html${example}`);
        await waitForCalculator(page);
        await ui.settled(page);
        const { violations, controls, inputs } = await accessibilityViolations(page);
        assertEqual(violations.join('\n'), '', `accessibility violations ${example ? 'with several workloads' : 'in the default scenario'}`);
        // Every field the table declares for the scenario's owners is a control: at least the
        // option's and the workload's (about 25 and 20 each).
        const s = await ui.scenario(page);
        assert(inputs >= 20 * s.workloads.length + 25 * s.options.length, `only ${inputs} form controls for ${s.workloads.length} workloads and ${s.options.length} options`);
        assert(controls >= inputs, `the accessibility tree holds ${controls} controls for ${inputs} form inputs`);
        assertEqual(log.consoleErrors.length, 0, `console errors: ${log.consoleErrors.join(' | ')}`);
        await context.close();
      }
    },

    async 'keyboard only: the tokens and an option\'s instance change the verdict, as the CLI reads the link; undo restores it'() {
      const { page, context } = await openPage(browser, `${url}calculator.html`);
      await waitForCalculator(page);
      await ui.settled(page);
      const startLink = '#' + (await stats(page)).link;
      const startVerdicts = await verdicts(page);
      const startHeadlines = await headlines(page);
      // From the canvas (focused when the page opens), the shortcut its name announces.
      assertEqual(await focusedId(page), 'canvas', 'the canvas has the focus when the page opens');
      await page.keyboard.press('Control+Shift+F');
      assert(await page.evaluate(() => document.getElementById('edit-form').contains(document.activeElement)), 'Control+Shift+F moves to the form');
      // The form shows itself once focus is in it (a panel), and only then.
      assert(await page.evaluate(() => document.getElementById('edit-form').getBoundingClientRect().width > 100), 'the form is shown while focused');

      const workload = page.getByRole('group', { name: /^Workload 1:/ });
      const tokens = workload.getByLabel('tokens', { exact: true });
      await tabTo(page, tokens);
      const tokensBefore = Number(await tokens.inputValue());
      assert(tokensBefore > 0, 'the tokens control shows the scenario\'s tokens');
      await page.keyboard.press('Control+A');
      await page.keyboard.type(String(tokensBefore * 3));
      await page.keyboard.press('Enter');
      await page.waitForFunction((h) => document.querySelector('#results-mirror .headline')?.textContent !== h, startHeadlines[0], { timeout: 20000 });
      assertEqual((await ui.scenario(page)).workloads[0].target.tokens, tokensBefore * 3, 'the tokens reached the scenario');
      assertEqual(await focusedId(page), await tokens.evaluate((e) => e.id), 'the focus stays on the tokens after the edit');

      // The second option's instance: a list, changed with the arrow key.
      const option = page.getByRole('group', { name: /^Option 2:/ });
      const instance = option.getByRole('combobox', { name: 'instance type', exact: true });
      await tabTo(page, instance);
      const instanceBefore = await instance.inputValue();
      const afterTokens = await verdicts(page);
      await page.keyboard.press('ArrowDown');
      await page.waitForFunction((v) => document.querySelector('#results-mirror .verdict')?.textContent !== v, afterTokens[0], { timeout: 20000 });
      const instanceAfter = await instance.inputValue();
      assert(instanceAfter !== instanceBefore, 'the arrow key chose another instance');
      assertEqual((await ui.scenario(page)).options[1].instance, instanceAfter, 'the instance reached the scenario');
      await ui.settled(page);
      const link = '#' + (await stats(page)).link;
      const edited = await verdicts(page);
      assert(JSON.stringify(edited) !== JSON.stringify(startVerdicts), 'the verdict changed');
      assertEqual(JSON.stringify(edited), JSON.stringify(cliVerdictsOfLink(link)), 'the page\'s verdict is the CLI\'s for the same link');
      // The address bar and the autosave follow the form's edits.
      assertEqual(await page.evaluate(() => location.hash), link, 'the address bar holds the edited scenario');
      const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('traincost.autosave')));
      assertEqual(saved.options[1].instance, instanceAfter, 'the autosave holds the edited scenario');

      // Undo, from the form's own button (Shift+Tab back to it, Enter): one step per edit.
      const undo = page.getByRole('button', { name: 'Undo', exact: true });
      await tabTo(page, undo, { back: true });
      await page.keyboard.press('Enter');
      await page.waitForFunction((v) => document.querySelector('#results-mirror .verdict')?.textContent === v, afterTokens[0], { timeout: 20000 });
      assertEqual(await instance.inputValue(), instanceBefore, 'undo brings the instance back, in the form too');
      await page.keyboard.press('Enter');
      await page.waitForFunction((v) => document.querySelector('#results-mirror .verdict')?.textContent === v, startVerdicts[0], { timeout: 20000 });
      assertEqual(Number(await tokens.inputValue()), tokensBefore, 'a second undo brings the tokens back');
      await ui.settled(page);
      assertEqual('#' + (await stats(page)).link, startLink, 'undo restores the scenario exactly');
      assertEqual(await focusedId(page), 'form-undo', 'the focus stays on Undo');
      await context.close();
    },

    async 'the form reaches every input the canvas edits: target law, fine-tune, custom instance, pilot, layout pins and cost overrides, ranges'() {
      const { page, context, log } = await openPage(browser, `${url}calculator.html`);
      await waitForCalculator(page);
      await ui.settled(page);
      await page.keyboard.press('Control+Shift+F');
      const workload = page.getByRole('group', { name: /^Workload 1:/ });
      const option = () => page.getByRole('group', { name: /^Option 2:/ });
      const pair = page.getByRole('group', { name: /^Layout pins and cost overrides:/ });
      const ranges = page.getByRole('group', { name: 'Uncertainty ranges', exact: true });
      const commit = async (control, text) => { await control.fill(text); await control.press('Enter'); };
      const edited = async (what, check) => {
        await page.waitForFunction(() => true);  // the edit's publish has run (it is synchronous)
        const s = await ui.scenario(page);
        assert(check(s), `${what} reached the scenario: ${JSON.stringify(s).slice(0, 400)}`);
      };
      const formPaths = () => page.evaluate(() => [...document.querySelectorAll('#edit-form [data-path]')].map((e) => e.getAttribute('data-path')));
      const paths = new Set(await formPaths());
      // A field the form has always shown, edited through it (each group's paths are the scenario's).
      await commit(page.getByRole('group', { name: 'Scenario', exact: true }).getByLabel(/^samples/), '5000');
      await commit(option().getByLabel(/^porting effort/), '5');
      await commit(option().getByLabel(/^MTBF/), '4000');
      await edited('the samples, porting effort and MTBF', (s) => s.analysis.samples === 5000 && s.options[1].porting?.engineer_weeks === 5 &&
                   s.options[1].reliability?.mtbf_hours_per_instance === 4000);
      // Open what the default scenario hides, from the form alone.
      await workload.getByLabel('training target', { exact: true }).selectOption('steps');
      for (const p of await formPaths()) paths.add(p);
      await workload.getByLabel('training target', { exact: true }).selectOption('loss');
      await workload.getByLabel('scaling law', { exact: true }).selectOption('custom');
      await commit(workload.getByLabel(/^E \(/), '1.9');
      await edited('the custom law', (s) => s.workloads[0].target.scaling_law.E === 1.9);
      await workload.getByLabel('fine-tune mode', { exact: true }).selectOption('lora');
      await commit(workload.getByLabel(/^adapter rank/), '16');
      await workload.getByLabel('adapts the key matrices', { exact: true }).selectOption('off');
      await workload.getByLabel('packed sequences', { exact: true }).selectOption('off');
      await commit(workload.getByLabel(/^sequence fill/), '60');
      await edited('the LoRA settings', (s) => s.workloads[0].fine_tune.mode === 'lora' && s.workloads[0].fine_tune.rank === 16 &&
                   s.workloads[0].fine_tune.fill === 0.6 && !JSON.stringify(s.workloads[0].fine_tune.targets).includes('"k"'));
      await option().getByLabel('instance type', { exact: true }).selectOption('custom');
      await option().getByLabel('custom instance\'s chip', { exact: true }).selectOption('');
      await commit(option().getByLabel(/^peak TFLOP\/s/), '500');
      await option().getByLabel('precision', { exact: true }).selectOption('fp8');
      await commit(option().getByLabel(/^pilot MFU/), '31');
      await edited('the custom instance, precision and pilot', (s) => s.options[1].custom?.peak_tflops === 500 && s.options[1].precision === 'fp8' &&
                   s.options[1].pilot?.mfu === 0.31);
      // One workload on one option: a pin and a cost override.
      await pair.getByLabel('option', { exact: true }).selectOption('1');
      await commit(pair.getByLabel(/^tensor parallel/), '4');
      await commit(pair.getByLabel(/^porting effort.*for this workload$/), '3');
      await pair.getByLabel('recomputation', { exact: true }).selectOption('full');
      await edited('the pins and the override', (s) => {
        const ov = (s.workloads[0].overrides || []).find((o) => o.option === 1);
        return ov && ov.parallelism.tensor === 4 && ov.parallelism.recompute === 'full' && ov.engineer_weeks === 3;
      });
      // A range added on the option's MFU, its low end typed.
      await ranges.getByLabel('add a range on', { exact: true }).selectOption('options[1].mfu');
      await commit(ranges.getByLabel(/: MFU, low/), '0.2');
      await edited('the range', (s) => s.ranges.some((r) => r.input === 'options[1].mfu' && r.low === 0.2));

      // Every field of the table is now a control of the form (by its scenario path).
      const canonical = (p) => p.replace(/^pair\.pin\./, 'workloads[].overrides[].parallelism.').replace(/^pair\.option$/, 'workloads[].overrides[].option')
        .replace(/\[\d+\]/g, '[]');
      for (const p of await formPaths()) paths.add(p);
      const covered = new Set([...paths].map(canonical));
      const table = cli(['schema']).split('\n').map((l) => /^\| `([^`]+)` \|/.exec(l)?.[1]).filter(Boolean);
      assert(table.length > 90, `the field table has ${table.length} rows`);
      const missing = table.filter((p) => !covered.has(p));
      assertEqual(missing.join(', '), '', 'fields of the table with no control in the form');
      // The page's verdict is the CLI's for the link the form's edits made.
      await ui.settled(page);
      assertEqual(JSON.stringify(await verdicts(page)), JSON.stringify(cliVerdictsOfLink('#' + (await stats(page)).link)), 'the page\'s verdict is the CLI\'s');
      const { violations } = await accessibilityViolations(page);
      assertEqual(violations.join('\n'), '', 'accessibility violations with every group open');
      assertEqual(log.consoleErrors.length, 0, `console errors: ${log.consoleErrors.join(' | ')}`);
      await context.close();
    },

    async 'a refused value is named next to its control; names are shown as text; canvas edits refresh the form without taking the focus'() {
      const { page, context } = await openPage(browser, `${url}calculator.html`);
      await waitForCalculator(page);
      await ui.settled(page);
      const link = (await stats(page)).link;
      await page.keyboard.press('Control+Shift+F');
      const workload = page.getByRole('group', { name: /^Workload 1:/ });
      const tokens = workload.getByLabel('tokens', { exact: true });
      await tabTo(page, tokens);
      await page.keyboard.press('Control+A');
      await page.keyboard.type('-5');
      await page.keyboard.press('Enter');
      const note = await tokens.evaluate((e) => document.getElementById(e.getAttribute('aria-describedby')).textContent);
      assert(/^tokens.*must be/.test(note), `the refusal names the field, next to it: "${note}"`);
      assertEqual(await tokens.getAttribute('aria-invalid'), 'true', 'the control is marked invalid');
      assertEqual(await tokens.inputValue(), '-5', 'what was typed stays to be corrected');
      assertEqual((await stats(page)).link, link, 'a refused value leaves the scenario as it was');

      // An unnamed workload's name field offers the name the page gives it (the group's title), not
      // that of an empty workload.
      const name = workload.getByLabel('name', { exact: true });
      const title = (await workload.locator('legend').textContent()).replace(/^Workload 1: /, '');
      assertEqual(await name.getAttribute('placeholder'), `automatic: ${title}`, 'the name\'s placeholder');
      assert(!/^0, 0 tokens/.test(title), `the title is the workload's own: "${title}"`);
      // Markup typed as a name is text, in the form and in the mirror.
      await tabTo(page, name, { back: true });
      const markup = '<img src=x onerror="window.__injected=1">';
      await page.keyboard.type(markup);
      await page.keyboard.press('Enter');
      await page.waitForFunction((m) => [...document.querySelectorAll('#edit-form legend')].some((l) => l.textContent.includes(m)), markup, { timeout: 10000 });
      assertEqual(await page.evaluate(() => document.querySelectorAll('#edit-form img, #results-mirror img').length), 0, 'no element made from a name');
      assertEqual(await page.evaluate(() => window.__injected), undefined, 'no script ran');

      // An edit from elsewhere (the canvas's path) refreshes the form; the control being typed in
      // keeps its text and the focus.
      await tabTo(page, tokens);
      await page.keyboard.press('Control+A');
      await page.keyboard.type('123');
      await page.evaluate(() => {
        const p = Module._malloc(64), v = Module._malloc(8);
        stringToUTF8('workloads[0].runs', p, 64);
        stringToUTF8('9', v, 8);
        Module._free(Module._tc_form_edit(p, v, 1));
        Module._free(p);
        Module._free(v);
      });
      assertEqual(await workload.getByLabel('runs', { exact: true }).inputValue(), '9', 'the form shows the other edit');
      assertEqual(await tokens.inputValue(), '123', 'the control being typed in keeps its text');
      assertEqual(await focusedId(page), await tokens.evaluate((e) => e.id), 'and the focus');
      // And an edit on the canvas itself.
      await ui.type(page, 'workloads[0].runs', '12');
      await page.waitForFunction(() => document.getElementById('f-workloads-0--runs')?.value === '12', null, { timeout: 10000 });
      await context.close();
    },

    async 'a refused value stays with its control when another edit rebuilds the form'() {
      // The adversarial pass after issue 33: the rebuilt control came back blank while its note
      // still named the refused value, and stopped following the scenario.
      const { page, context } = await openPage(browser, `${url}calculator.html`);
      await waitForCalculator(page);
      await ui.settled(page);
      await page.keyboard.press('Control+Shift+F');
      const workload = page.getByRole('group', { name: /^Workload 1:/ });
      const runs = workload.getByLabel('runs', { exact: true });
      await tabTo(page, runs);
      await page.keyboard.press('Control+A');
      await page.keyboard.type('-5');
      await page.keyboard.press('Enter');
      assertEqual(await runs.getAttribute('aria-invalid'), 'true', 'the refused value is marked');
      // Steps instead of tokens: controls come and go, so the form is built again.
      const before = await runs.elementHandle();
      await workload.getByLabel('training target', { exact: true }).selectOption('steps');
      await page.waitForFunction((old) => !old.isConnected, before, { timeout: 10000 });
      assertEqual(await runs.inputValue(), '-5', 'the rebuilt control has the text typed into it');
      assertEqual(await runs.getAttribute('aria-invalid'), 'true', 'and its refusal');
      assert(/-5/.test(await runs.evaluate((e) => document.getElementById(e.getAttribute('aria-describedby')).textContent)), 'the note names it');
      // Corrected, it is sent, and the control follows the scenario again.
      await tabTo(page, runs);
      await page.keyboard.press('Control+A');
      await page.keyboard.type('3');
      await page.keyboard.press('Enter');
      assertEqual(await runs.getAttribute('aria-invalid'), null, 'accepted');
      assertEqual((await ui.scenario(page)).workloads[0].runs, 3, 'the scenario has it');
      await page.evaluate(() => {
        const p = Module._malloc(64), v = Module._malloc(8);
        stringToUTF8('workloads[0].runs', p, 64);
        stringToUTF8('7', v, 8);
        Module._free(Module._tc_form_edit(p, v, 1));
        Module._free(p);
        Module._free(v);
      });
      assertEqual(await runs.inputValue(), '7', 'the control follows the next edit');
      await context.close();
    },
  });
} finally {
  await browser.close();
  server.close();
}
