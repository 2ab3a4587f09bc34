// Every editable input edits exactly its own field (issue 16, rows 1 and 2). For every numeric
// field the field table declares (`traincost schema`), on each option and each workload, the test
// opens what hides it (a section, a target kind, a custom instance…), types a new value into the
// input named by the field's scenario path, and checks that the scenario changed in that field
// and in no other. Then Tab and Shift+Tab move through the fields in reading order and typing
// lands where the focus is, and the MFU (a slider before) takes a typed 0.27.
import { assert, assertEqual, launch, openPage, run, screenshot, serve, waitForCalculator } from './lib/harness.mjs';
import { cli } from './lib/calculator.mjs';
import * as ui from './lib/ui.mjs';

const browser = await launch();
const { server, url } = await serve();

// The field table as the CLI prints it: path, bounds.
function fieldTable() {
  const rows = [];
  for (const line of cli(['schema']).split('\n')) {
    const m = /^\| `([^`]+)` \| [^|]* \| ([^|]*) \|/.exec(line);
    if (!m) continue;
    const range = m[2].trim();
    const b = /^(> )?(-?[\d,.e+]+) to (-?[\d,.e+]+)/.exec(range);
    const num = (s) => Number(s.replace(/,/g, ''));
    rows.push({ path: m[1], min: b ? num(b[2]) : -Infinity, exclusive: !!(b && b[1]), max: b ? num(b[3]) : Infinity, whole: /whole/.test(range) });
  }
  return rows;
}

// The scenario as path -> value, for comparing.
function flatten(value, prefix = '', out = {}) {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [`[${i}]`, v]) : Object.entries(value).map(([k, v]) => [prefix ? `.${k}` : k, v]);
    for (const [k, v] of entries) flatten(v, prefix + k, out);
  } else {
    out[prefix] = value;
  }
  return out;
}
function changes(before, after) {
  const a = flatten(before), b = flatten(after);
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]).sort();
}
const near = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

// A new value within the field's bounds, different from the current one.
function newValue(current, field) {
  const ok = (v) => (field.exclusive ? v > field.min : v >= field.min) && v <= field.max && (!field.whole || Number.isInteger(v)) && !near(v, current);
  // An unset field shows its default, which the new value must differ from: an odd value then.
  const odd = field.min + (Math.min(field.max, Math.max(field.min, 0) + 100) - field.min) * 0.37;
  const base = typeof current === 'number' ? current : 0;
  const candidates = typeof current === 'number' ? [base * 1.5, base * 0.5, base + 1, base - 1, odd] : [odd, odd * 0.5, 3, 1];
  for (let v of candidates) {
    if (field.whole) v = Math.round(v);
    else v = Number(v.toPrecision(4));
    if (ok(v)) return v;
  }
  throw new Error(`no new value for ${field.path} (current ${current})`);
}
// Typed with a percent sign, which every field reads (30% is 0.3), whatever it displays.
const typed = (v) => `${Number((v * 100).toPrecision(12))}%`;

function valueAt(scenario, path) {
  return flatten(scenario)[path];
}

// Types a new value into the input `name` and checks that exactly `expectChanged` changed, and
// that `path` (default: the input's name) holds the value typed.
async function editAndCheck(page, name, field, expectChanged, { path = expectChanged[0] } = {}) {
  const before = await ui.scenario(page);
  const old = valueAt(before, path);
  const v = newValue(old, field);
  await ui.type(page, name, typed(v), { settle: false });
  // Both sides parsed and written again by JavaScript, so that only a change of value counts.
  await page.waitForFunction((p) => {
    const q = Module._tc_scenario();
    const s = JSON.stringify(JSON.parse(UTF8ToString(q)));
    Module._free(q);
    return s !== p;
  }, JSON.stringify(before), { timeout: 10000 }).catch(async () => {
    const item = (await ui.items(page)).find((i) => i.name === name);
    const trace = await page.evaluate(() => { const p = Module._tc_trace(); const s = UTF8ToString(p); Module._free(p); return s; });
    throw new Error(`${name}: typing ${typed(v)} changed nothing (the field shows ${item && item.text}, active: ${item && item.active}); ` +
                    `input: ${trace.slice(-600)}`);
  });
  // What follows an edit (the Monte Carlo, the sweep, the link) can change the layout; the next
  // field is looked up once it is done, or a busy machine clicks where that field used to be.
  await ui.settled(page);
  const after = await ui.scenario(page);
  const changed = changes(before, after);
  assertEqual(JSON.stringify(changed), JSON.stringify(expectChanged), `${name}: the edit changed exactly its own field`);
  assert(near(valueAt(after, path), v), `${name}: expected ${v}, got ${valueAt(after, path)}`);
}

async function select(page, combo, item) {
  await ui.click(page, combo);
  await ui.click(page, item);
}
async function expand(page, header) {
  await ui.click(page, header);
}

try {
  await run('fields', {
    async 'every numeric field of the field table, on each option and workload, edits exactly that field'() {
      const fields = fieldTable();
      assert(fields.length > 40, `the field table has ${fields.length} fields`);
      // A modest window: SwiftShader draws every frame on the CPU, and this test draws many.
      const { page, context, log } = await openPage(browser, `${url}calculator.html`, { viewport: { width: 960, height: 660 } });
      await waitForCalculator(page);
      await ui.settled(page);
      const byPath = Object.fromEntries(fields.map((f) => [f.path, f]));
      // The platform costs, an option's own (options[].porting) and a workload's override of them.
      const costFields = fields.filter((f) => f.path.startsWith('options[].porting.')).map((f) => f.path.slice('options[].porting.'.length));
      assert(costFields.length >= 11, `the field table has ${costFields.length} platform costs`);
      const tested = new Set();
      const check = async (name, path, expect, opts) => {
        await editAndCheck(page, name, byPath[path], expect || [name], opts);
        tested.add(path);
      };
      // A second workload, so that every workload field is edited on two workloads.
      await ui.click(page, '+');
      await ui.click(page, 'GPT-3-175B-class');
      await ui.settled(page);
      const s0 = await ui.scenario(page);
      assertEqual(s0.workloads.length, 2, 'a second workload was added');
      // The tabs read the names shown: automatic (from the numbers) unless typed.
      const workloadTabs = JSON.parse(await page.evaluate((t) => TrainCost.evaluate(t), JSON.stringify(s0))).workloads.map((w) => w.name);

      for (let w = 0; w < 2; ++w) {
        await ui.click(page, workloadTabs[w]);
        const W = `workloads[${w}]`;
        // (The on-time chance is offered once a deadline is set: after deadline_days.)
        for (const f of ['model.params', 'target.tokens', 'runs', 'horizon_months', 'deadline_days', 'deadline_confidence', 'budget_usd', 'usd_per_day_of_delay', 'whole_run_factor'])
          await check(`${W}.${f}`, `workloads[].${f}`);
        await ui.click(page, `${W} > Mixture of experts`);
        await check(`${W}.model.active_params`, 'workloads[].model.active_params');
        for (const f of ['experts', 'experts_per_token']) await check(`${W}.model.${f}`, `workloads[].model.${f}`);
        await expand(page, `${W} > Architecture (attention FLOPs, activations)`);
        for (const f of ['layers', 'hidden', 'heads', 'seq_len', 'vocab', 'kv_heads', 'ffn_hidden']) await check(`${W}.model.${f}`, `workloads[].model.${f}`);
        await expand(page, `${W} > Architecture (attention FLOPs, activations)`);
        await expand(page, `${W} > Memory and recomputation`);
        for (const f of ['bytes_per_param', 'micro_batch', 'tensor_parallel', 'usable_fraction']) await check(`${W}.memory.${f}`, `workloads[].memory.${f}`);
        await check(`${W}.global_batch_tokens`, 'workloads[].global_batch_tokens');
        await expand(page, `${W} > Memory and recomputation`);
        // LoRA's fields show with an adapter mode, the fill with unpacked data.
        await expand(page, `${W} > Fine-tuning (LoRA, QLoRA) and packing`);
        await select(page, `${W}.fine_tune.mode`, 'LoRA (frozen BF16 base)');
        for (const f of ['rank', 'trainable_share']) await check(`${W}.fine_tune.${f}`, `workloads[].fine_tune.${f}`);
        await ui.click(page, `${W}.fine_tune.packed`);
        await ui.settled(page);
        await check(`${W}.fine_tune.fill`, 'workloads[].fine_tune.fill');
        await expand(page, `${W} > Fine-tuning (LoRA, QLoRA) and packing`);
        await select(page, `${W}.target`, 'Steps × batch');
        for (const f of ['steps', 'tokens_per_step']) await check(`${W}.target.${f}`, `workloads[].target.${f}`);
        await select(page, `${W}.target`, 'Target loss');
        await check(`${W}.target.loss`, 'workloads[].target.loss');
        await select(page, `${W}.target.scaling_law`, 'Custom constants');
        for (const f of ['E', 'A', 'B', 'alpha', 'beta']) await check(`${W}.target.scaling_law.${f}`, `workloads[].target.scaling_law.${f}`);
        await select(page, `${W}.target`, 'Tokens');
        // The workload's own platform costs, per option (a workload override).
        await expand(page, `${W} > Platform costs for this workload`);
        for (let o = 0; o < 2; ++o) {
          for (const f of costFields) {
            // The first value for an option makes its override ({option, …}); later ones add to it.
            const s = await ui.scenario(page);
            const overrides = s.workloads[w].overrides || [];
            const k = overrides.findIndex((ov) => ov.option === o);
            const at = k < 0 ? overrides.length : k;
            const expect = k < 0 ? [`${W}.overrides[${at}].${f}`, `${W}.overrides[${at}].option`].sort() : [`${W}.overrides[${at}].${f}`];
            await editAndCheck(page, `${W}.overrides[option ${o}].${f}`, byPath[`options[].porting.${f}`], expect,
              { path: `${W}.overrides[${at}].${f}` });
          }
        }
        tested.add('workloads[].overrides[].option');
        await expand(page, `${W} > Platform costs for this workload`);
      }

      for (let o = 0; o < 2; ++o) {
        const O = `options[${o}]`;
        for (const f of ['instances', 'price_usd_per_hour', 'discount', 'mfu']) await check(`${O}.${f}`, `options[].${f}`);
        for (const f of costFields) await check(`${O}.porting.${f}`, `options[].porting.${f}`);
      }
      await expand(page, 'Reliability and scale');
      for (let o = 0; o < 2; ++o) {
        const O = `options[${o}]`;
        for (const f of fields.filter((x) => x.path.startsWith('options[].reliability.')).map((x) => x.path.slice('options[].reliability.'.length)))
          await check(`${O}.reliability.${f}`, `options[].reliability.${f}`);
        for (const f of ['scaling_reference_chips', 'scaling_per_doubling', 'max_instances', 'wait_days']) await check(`${O}.${f}`, `options[].${f}`);
        await select(page, `${O}.throughput source`, 'My measured run');
        await check(`${O}.measured_tokens_per_sec_per_chip`, 'options[].measured_tokens_per_sec_per_chip');
        await select(page, `${O}.throughput source`, 'Predicted, or my MFU');
        // A custom instance with the user's own chip figures.
        await select(page, `${O}.instance`, 'Custom instance (your own price and specs)');
        await check(`${O}.custom.chips`, 'options[].custom.chips');
        await select(page, `${O}.custom.chip`, 'Own chip figures');
        for (const f of ['peak_tflops', 'memory_gb']) await check(`${O}.custom.${f}`, `options[].custom.${f}`);
      }
      // What a pilot measured (issue 31): the first value typed makes the option's pilot block.
      await expand(page, 'Pilot results');
      for (let o = 0; o < 2; ++o) {
        const pilotFields = fields.filter((x) => x.path.startsWith('options[].pilot.')).map((x) => x.path.slice('options[].pilot.'.length));
        for (const [k, f] of pilotFields.entries()) {
          // The block starts with what a measurement must say: its FLOP convention and source.
          const own = `options[${o}].pilot.${f}`;
          await check(own, `options[].pilot.${f}`, k === 0 ? [own, `options[${o}].pilot.flops`, `options[${o}].pilot.source`].sort() : undefined,
            { path: own });
        }
      }
      await expand(page, 'Pilot results');
      // Layout keys pinned per option on the selected workload (the second): in that workload's
      // override for the option, which the platform costs above already made.
      await expand(page, 'Pin the layout');
      for (let o = 0; o < 2; ++o) {
        for (const f of fields.filter((x) => x.path.startsWith('workloads[].overrides[].parallelism.')).map((x) => x.path.split('.').pop())) {
          const s = await ui.scenario(page);
          const k = s.workloads[1].overrides.findIndex((ov) => ov.option === o);
          assert(k >= 0, `workload 1 has an override for option ${o}`);
          await editAndCheck(page, `workloads[1].overrides[option ${o}].parallelism.${f}`, byPath[`workloads[].overrides[].parallelism.${f}`],
            [`workloads[1].overrides[${k}].parallelism.${f}`]);
          tested.add(`workloads[].overrides[].parallelism.${f}`);
        }
      }
      await expand(page, 'Pin the layout');
      // The reference option is the radio button of each option.
      const before = await ui.scenario(page);
      await ui.click(page, 'options[0] > reference');
      await page.waitForFunction(() => { const q = Module._tc_scenario(); const s = JSON.parse(UTF8ToString(q)); Module._free(q); return s.reference === 0; });
      assertEqual(JSON.stringify(changes(before, await ui.scenario(page))), JSON.stringify(['reference']), 'the radio button sets the reference only');
      tested.add('reference');
      // Analysis settings and a range, on the "How sure?" tab.
      await ui.click(page, 'How sure?');
      await ui.find(page, 'Add a range on…');
      for (const f of ['samples', 'seed']) await check(`analysis.${f}`, `analysis.${f}`);
      await select(page, 'Add a range on…', 'range on options[0].mfu');
      for (const f of ['low', 'high']) {
        const s = await ui.scenario(page);
        const range = { ...byPath[`ranges[].${f}`], min: 0, max: 1, exclusive: false };
        if (f === 'low') range.max = s.ranges[0].high;
        else range.min = s.ranges[0].low;
        await editAndCheck(page, `ranges[0].${f}`, range, [`ranges[0].${f}`]);
        tested.add(`ranges[].${f}`);
      }
      await screenshot(page, 'fields-after-every-edit');
      const untested = fields.map((f) => f.path).filter((p) => !tested.has(p));
      assertEqual(JSON.stringify((await ui.stats(page)).duplicate_ids), '[]', 'no two items share an ImGui identity');
      assertEqual(JSON.stringify(untested), '[]', 'every field of the field table was edited through the page');
      assertEqual(log.consoleErrors.length, 0, `console errors: ${log.consoleErrors.join(' | ')}`);
      await context.close();
    },

    async 'Tab and Shift+Tab move through the fields in reading order, and typing lands where the focus is'() {
      const { page, context } = await openPage(browser, `${url}calculator.html`, { viewport: { width: 1366, height: 768 } });
      await waitForCalculator(page);
      await ui.settled(page);
      // No two widgets share an identity (before issue 16, the nine platform-cost inputs of an
      // option were all "##cost" in the option's ID scope, so they edited each other).
      await ui.click(page, 'Reliability and scale');
      await ui.click(page, 'workloads[0] > Platform costs for this workload');
      assertEqual(JSON.stringify((await ui.stats(page)).duplicate_ids), '[]', 'no two items share an ImGui identity');
      // The issue's steps: Trn2's porting effort, typed and committed with Enter.
      const before = await ui.scenario(page);
      await ui.type(page, 'options[0].porting.engineer_weeks', '12');
      await ui.settled(page);
      let after = await ui.scenario(page);
      assertEqual(JSON.stringify(changes(before, after)), JSON.stringify(['options[0].porting.engineer_weeks']), 'porting effort only');
      assertEqual(after.options[0].porting.engineer_weeks, 12, 'Trn2 porting effort is 12 weeks');
      // A click into the egress price highlights that field alone, and Tab goes to the next field in
      // reading order (the same row's next option), Shift+Tab back.
      await ui.click(page, 'options[0].porting.egress_usd_per_tb');
      const items = await ui.items(page);
      const active = items.filter((i) => i.active).map((i) => i.name);
      assertEqual(JSON.stringify(active), JSON.stringify(['options[0].porting.egress_usd_per_tb']), 'one field is being edited');
      await page.keyboard.press('Tab');
      await ui.settleInput(page);
      assertEqual(await ui.focused(page), 'options[1].porting.egress_usd_per_tb', 'Tab: the next field in reading order');
      await page.keyboard.press('Tab');
      await ui.settleInput(page);
      const next = await ui.focused(page);
      assert(next && next !== 'options[1].porting.egress_usd_per_tb', `Tab moves on from the last cost field (to ${next})`);
      await page.keyboard.press('Shift+Tab');
      await ui.settleInput(page);
      assertEqual(await ui.focused(page), 'options[1].porting.egress_usd_per_tb', 'Shift+Tab: back');
      await page.keyboard.press('Shift+Tab');
      await ui.settleInput(page);
      assertEqual(await ui.focused(page), 'options[0].porting.egress_usd_per_tb', 'Shift+Tab: back again');
      // Typing after Tab edits the focused field and nothing else.
      const s1 = await ui.scenario(page);
      await page.keyboard.press('Tab');
      await ui.settleInput(page);
      await page.keyboard.type('50');
      await page.keyboard.press('Enter');
      await ui.settled(page);
      after = await ui.scenario(page);
      assertEqual(JSON.stringify(changes(s1, after)), JSON.stringify(['options[1].porting.egress_usd_per_tb']), 'Tab, 50, Enter edits the focused field');
      assertEqual(after.options[1].porting.egress_usd_per_tb, 50, 'H100 egress price 50');
      // From the workload's name, Shift+Tab goes back to what is above it, not into the options.
      await ui.click(page, 'workloads[0].name');
      await page.keyboard.press('Shift+Tab');
      await ui.settleInput(page);
      const back = await ui.focused(page);
      assert(!/^options/.test(back), `Shift+Tab from the workload name went to ${back}`);
      await screenshot(page, 'fields-focus-ring');
      await context.close();
    },

    async 'MFU takes a typed value (0.27), no slider jumps'() {
      const { page, context } = await openPage(browser, `${url}calculator.html`, { viewport: { width: 1366, height: 768 } });
      await waitForCalculator(page);
      await ui.settled(page);
      const before = await ui.scenario(page);
      await ui.type(page, 'options[0].mfu', '0.27');
      await ui.settled(page);
      let after = await ui.scenario(page);
      assertEqual(JSON.stringify(changes(before, after)), JSON.stringify(['options[0].mfu']), 'only the MFU changed');
      assertEqual(after.options[0].mfu, 0.27, 'MFU 0.27 as typed');
      // A double click into the field selects it for typing; it does not set a value.
      await ui.click(page, 'options[1].mfu', { double: true });
      await page.keyboard.press('Escape');
      await ui.settled(page);
      assertEqual(JSON.stringify(changes(after, await ui.scenario(page))), '[]', 'a double click changes nothing');
      await context.close();
    },

    async 'typing and Enter that all arrive before the next frame land in order (a busy machine)'() {
      const { page, context } = await openPage(browser, `${url}calculator.html`, { viewport: { width: 1366, height: 768 } });
      await waitForCalculator(page);
      await ui.settled(page);
      const before = await ui.scenario(page);
      await ui.click(page, 'options[0].mfu');
      assert((await ui.items(page)).some((i) => i.name === 'options[0].mfu' && i.active), 'the click starts editing the MFU');
      // Ctrl+A, "0.29" and Enter's press in one task, so no frame runs between them; Enter's
      // release comes frames later. This is what a loaded machine does to a fast typist (and what
      // failed browser.fields under load): the page feeds the characters over the next frames, and
      // Enter must stay up until its turn, or it commits the field before "0.29" is in it.
      await page.evaluate(() => {
        const fire = (type, init) => window.dispatchEvent(new KeyboardEvent(type, { bubbles: true, cancelable: true, ...init }));
        fire('keydown', { key: 'Control', keyCode: 17, ctrlKey: true });
        fire('keydown', { key: 'a', keyCode: 65, ctrlKey: true });
        fire('keyup', { key: 'a', keyCode: 65, ctrlKey: true });
        fire('keyup', { key: 'Control', keyCode: 17 });
        for (const ch of '0.29') {
          const keyCode = ch === '.' ? 190 : ch.charCodeAt(0);
          fire('keydown', { key: ch, keyCode });
          fire('keypress', { key: ch, keyCode: ch.charCodeAt(0), charCode: ch.charCodeAt(0) });
          fire('keyup', { key: ch, keyCode });
        }
        fire('keydown', { key: 'Enter', keyCode: 13 });
      });
      await ui.nextFrames(page, 4);
      await page.evaluate(() => window.dispatchEvent(new KeyboardEvent('keyup', { key: 'Enter', keyCode: 13 })));
      await ui.settled(page);
      const after = await ui.scenario(page);
      assertEqual(JSON.stringify(changes(before, after)), JSON.stringify(['options[0].mfu']), `only the MFU changed (input: ${(await ui.trace(page)).slice(-300)})`);
      assertEqual(after.options[0].mfu, 0.29, 'MFU 0.29 as typed');
      await context.close();
    },

    async 'shortcuts and Backspaces that all arrive before the next frame each take effect (a busy machine)'() {
      const { page, context } = await openPage(browser, `${url}calculator.html`, { viewport: { width: 1366, height: 768 } });
      await waitForCalculator(page);
      await ui.settled(page);
      const fire = (events) => page.evaluate((list) => {
        for (const [type, key, keyCode, ctrlKey] of list) {
          if (type === 'paste') {
            const data = new DataTransfer();
            data.setData('text/plain', key);
            document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
          } else {
            window.dispatchEvent(new KeyboardEvent(type, { key, keyCode, ctrlKey, bubbles: true, cancelable: true }));
          }
        }
      }, events);
      const chord = (key, keyCode) => [['keydown', 'Control', 17, true], ['keydown', key, keyCode, true], ['keyup', key, keyCode, true], ['keyup', 'Control', 17, false]];
      // Ctrl+A then Ctrl+V in one task: ImGui reads keys as a chord, so in one frame the paste
      // would be lost to the select-all (Import failed this way under load).
      await ui.click(page, 'name');
      await fire([...chord('a', 65), ['keydown', 'Control', 17, true], ['keydown', 'v', 86, true],
                  ['paste', 'Pasted title'], ['keyup', 'v', 86, true], ['keyup', 'Control', 17, false]]);
      await ui.nextFrames(page, 4);
      await page.keyboard.press('Enter');
      await ui.settled(page);
      assertEqual((await ui.scenario(page)).name, 'Pasted title', `the pasted text replaced the title (input: ${(await ui.trace(page)).slice(-300)})`);
      // Three Backspaces in one task delete three characters.
      await ui.click(page, 'name');
      await page.keyboard.press('End');
      await ui.settleInput(page);
      await fire([0, 1, 2].flatMap(() => [['keydown', 'Backspace', 8, false], ['keyup', 'Backspace', 8, false]]));
      await ui.nextFrames(page, 8);
      await page.keyboard.press('Enter');
      await ui.settled(page);
      assertEqual((await ui.scenario(page)).name, 'Pasted ti', `three Backspaces, three characters (input: ${(await ui.trace(page)).slice(-300)})`);
      await context.close();
    },
  });
} finally {
  await browser.close();
  server.close();
}
