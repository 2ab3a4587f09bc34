// The page as a new user meets it (issue 16, rows 3 to 9): a scenario of one's own (title and
// labels), estimates marked wherever a figure is shown, undo and the browser's Back button, the
// keyboard through every widget, copy, import and the embed's way out, the smaller defects, and
// four screen sizes from a phone to a wall (light and dark), with first-draw figures.
import { startServer } from '../../scripts/static-server.mjs';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assert, assertEqual, launch, openPage, run, screenshot, serve, startEmbed, waitForCalculator, writeJson, SHOTS } from './lib/harness.mjs';
import { linkFor, mirror } from './lib/calculator.mjs';
import * as ui from './lib/ui.mjs';

const browser = await launch();
const { server, url } = await serve();
const measurements = {};

async function open(path = 'calculator.html', options = {}) {
  const opened = await openPage(browser, `${url}${path}`, options);
  await waitForCalculator(opened.page);
  await ui.settled(opened.page);
  return opened;
}
const notes = async (page, name) => (await ui.items(page)).filter((i) => i.name === name);
const scenarioWait = (page, test, what) => page.waitForFunction(test, null, { timeout: 10000 })
  .catch(async () => {
    // What the page shows instead: the scenario's name, its banners and any open dialog's problem.
    const name = (await ui.scenario(page)).name;
    const banners = await page.evaluate(() => [...document.querySelectorAll('#results-mirror .banner')].map((b) => b.textContent));
    const problem = (await notes(page, 'import problem')).map((i) => i.text);
    throw new Error(`${what}: timed out (scenario "${name}", banners ${JSON.stringify(banners)}, import problem ${JSON.stringify(problem)}; input: ${(await ui.trace(page)).slice(-300)})`);
  });

try {
  await run('page', {
    async 'row 3: the scenario title is editable and travels; option labels follow their instance and count'() {
      const { page, context } = await open('calculator.html', { viewport: { width: 1366, height: 768 } });
      await ui.type(page, 'name', '70B continued pretraining');
      await ui.type(page, 'workloads[0].model.params', '70.6B');
      await ui.type(page, 'options[0].instances', '32');
      await ui.type(page, 'options[1].instances', '64');
      await ui.settled(page);
      const m = await mirror(page);
      assertEqual(JSON.stringify(m.rows[0].slice(1).map((r) => r[0])), JSON.stringify(['Trn2 x32', 'H100 x64 (p5)']), 'the labels follow the counts');
      assertEqual((await ui.scenario(page)).name, '70B continued pretraining', 'the title is the scenario name');
      // Share: the embed code carries the title.
      await ui.click(page, 'Share');
      const code = await ui.find(page, 'Copy code text');
      assert(code.text.includes('title="70B continued pretraining"'), `the iframe title is the scenario's: ${code.text}`);
      const markdown = await ui.find(page, 'Copy Markdown text');
      assert(markdown.text.startsWith('### 70B continued pretraining'), 'the Markdown heading is the title');
      await ui.click(page, 'Close');
      // Export: the file name and the scenario's name.
      await ui.click(page, 'Export');
      const download = page.waitForEvent('download');
      await ui.click(page, 'Scenario as JSON');
      const file = await download;
      assertEqual(file.suggestedFilename(), '70B-continued-pretraining.json', 'the file is named after the title');
      assertEqual(JSON.parse(readFileSync(await file.path(), 'utf8')).name, '70B continued pretraining', 'the exported name');
      // A label of one's own stays put.
      await ui.type(page, 'options[1].label', 'our H100s');
      await ui.type(page, 'options[1].instances', '48');
      await ui.settled(page);
      assertEqual((await mirror(page)).rows[0][2][0], 'our H100s', "the user's label stays");
      // The embed view's header shows the title.
      const link = '#' + (await ui.stats(page)).link;
      const embed = await openPage(browser, `${url}calculator.html?embed=1${link}`, { viewport: { width: 800, height: 600 } });
      await startEmbed(embed.page);
      await waitForCalculator(embed.page);
      const header = await notes(embed.page, 'scenario name');
      assertEqual(header[0] && header[0].text, '70B continued pretraining', 'the embed header');
      await embed.context.close();
      await context.close();
    },

    async 'row 5: estimates are marked in the table, headline, embed and exports; the headline gives the Monte Carlo median and range'() {
      const { page, context } = await open('calculator.html', { viewport: { width: 1366, height: 768 } });
      const m = await mirror(page);
      const trn = m.rows[0][1];
      assert(trn[5].startsWith('≈'), `Trn2's cost per run is marked as resting on an estimate: ${trn[5]}`);
      assert(trn[1].startsWith('≈'), `and its time (its MFU is an estimate): ${trn[1]}`);
      assert(!m.rows[0][2][5].startsWith('≈'), 'p5 with catalog figures is not marked');
      const footnote = await page.evaluate(() => document.querySelector('#results-mirror .estimates')?.textContent || '');
      assert(/MFU.*estimate/.test(footnote) && /us-east-2/.test(footnote), `the footnote says why: ${footnote}`);
      const headline = await page.evaluate(() => document.querySelector('#results-mirror .headline')?.textContent || '');
      assert(/^≈\$/.test(headline) && /Monte Carlo median \$[\d.]+k?, 90% range \$/.test(headline), `the headline: ${headline}`);
      const figure = await notes(page, 'headline figure');
      assert(figure[0].text.startsWith('≈'), 'the headline figure on the canvas is marked');
      const mc = await notes(page, 'monte carlo');
      assert(/median .* 90% range/.test(mc[0].text), 'the canvas gives the median and range');
      // Two options: when the headline's option is cheapest in fewer than half the futures, the
      // canvas and the mirror say the verdict is the less likely outcome, with the same share.
      const share = Number(/cheapest in (\d+)%/.exec(mc[0].text)[1]);
      const doubt = (await notes(page, 'less likely verdict')).map((i) => i.text.replace(/\s+/g, ' '));
      const warned = await page.evaluate(() => [...document.querySelectorAll('#results-mirror .warning')].map((n) => n.textContent));
      const said = warned.filter((w) => w.includes('the verdict is the less likely outcome'));
      if (share < 50) {
        assert(doubt.length === 1 && doubt[0].includes(`(${share}%), which the point estimates favour`), `the canvas says so: ${doubt} (${mc[0].text})`);
        assert(said.length === 1 && said[0] === doubt[0], `the mirror says the same: ${warned}`);
      } else {
        assert(doubt.length === 0 && said.length === 0, `no doubt where the futures agree: ${doubt} ${warned}`);
      }
      // Exports.
      await ui.click(page, 'Export');
      const download = page.waitForEvent('download');
      await ui.click(page, 'Results as Markdown (file)');
      const md = readFileSync(await (await download).path(), 'utf8');
      assert(md.includes('| ≈') && md.includes('≈ rests on an estimate'), 'the Markdown marks estimates');
      await ui.click(page, 'Export');
      const csvDownload = page.waitForEvent('download');
      await ui.click(page, 'Results as CSV');
      const csv = readFileSync(await (await csvDownload).path(), 'utf8');
      // The column of estimates, then the odds' columns (empty here: the page's exports leave the odds to its "How sure?" tab).
      assert(csv.split('\n')[0].includes(',rests_on_estimates,median_cost_per_run_usd,') && csv.includes("MFU"), 'the CSV says which figures rest on estimates');
      // The embed view.
      const embed = await openPage(browser, `${url}calculator.html?embed=1${linkFor('llama3-8b-pretrain')}`, { viewport: { width: 800, height: 600 } });
      await startEmbed(embed.page);
      await waitForCalculator(embed.page);
      await ui.settled(embed.page);
      assert((await notes(embed.page, 'headline figure'))[0].text.startsWith('≈'), 'the embed headline is marked');
      await screenshot(embed.page, 'page-embed-estimates');
      await embed.context.close();
      await context.close();
    },

    async 'row 6: examples, imports and edits undo and redo; Back and Forward step through opened scenarios'() {
      const { page, context } = await open('calculator.html', { viewport: { width: 1366, height: 768 } });
      await ui.type(page, 'workloads[0].runs', '12');
      await ui.settled(page);
      await ui.click(page, 'Example scenarios');
      await ui.click(page, 'Weekly 1B fine-tune: Trn1 vs A100 vs H100');
      await ui.settled(page);
      assertEqual((await ui.scenario(page)).name, '1B fine-tune, weekly', 'the example is loaded');
      const banners = (await mirror(page)).banners;
      assert(banners.some((b) => /Undo/.test(b) && /Back/.test(b)), `the banner says how to get the scenario back: ${banners}`);
      // Ctrl+Z and Ctrl+Shift+Z, and the buttons: back through the example to the edit and before it.
      await page.keyboard.press('Control+z');
      await scenarioWait(page, () => { const p = Module._tc_scenario(); const s = JSON.parse(UTF8ToString(p)); Module._free(p); return s.workloads[0].runs === 12 && s.name !== '1B fine-tune, weekly'; }, 'Ctrl+Z');
      await page.keyboard.press('Control+Shift+z');
      await scenarioWait(page, () => { const p = Module._tc_scenario(); const s = JSON.parse(UTF8ToString(p)); Module._free(p); return s.name === '1B fine-tune, weekly'; }, 'Ctrl+Shift+Z');
      await ui.click(page, 'Undo');
      await scenarioWait(page, () => { const p = Module._tc_scenario(); const s = JSON.parse(UTF8ToString(p)); Module._free(p); return s.workloads[0].runs === 12 && s.name !== '1B fine-tune, weekly'; }, 'Undo');
      await ui.click(page, 'Undo');
      await scenarioWait(page, () => { const p = Module._tc_scenario(); const s = JSON.parse(UTF8ToString(p)); Module._free(p); return s.workloads[0].runs === 6; }, 'Undo the edit');
      await ui.click(page, 'Redo');
      await scenarioWait(page, () => { const p = Module._tc_scenario(); const s = JSON.parse(UTF8ToString(p)); Module._free(p); return s.workloads[0].runs === 12; }, 'Redo');
      await ui.click(page, 'Redo');
      await scenarioWait(page, () => { const p = Module._tc_scenario(); const s = JSON.parse(UTF8ToString(p)); Module._free(p); return s.name === '1B fine-tune, weekly'; }, 'Redo the example');
      await ui.settled(page);
      // Back returns to the scenario before the example, Forward to the example.
      await page.goBack();
      await scenarioWait(page, () => { const p = Module._tc_scenario(); const s = JSON.parse(UTF8ToString(p)); Module._free(p); return s.workloads[0].runs === 12 && s.name !== '1B fine-tune, weekly'; }, 'Back');
      await page.goForward();
      await scenarioWait(page, () => { const p = Module._tc_scenario(); const s = JSON.parse(UTF8ToString(p)); Module._free(p); return s.name === '1B fine-tune, weekly'; }, 'Forward');
      await ui.settled(page);
      // An import is undone the same way.
      await ui.click(page, 'Import');
      await ui.paste(page, 'Import text', readFileSync(join(import.meta.dirname, '../../assets/scenarios/mixtral-moe.json'), 'utf8'));
      await ui.click(page, 'Load');
      await scenarioWait(page, () => { const p = Module._tc_scenario(); const s = JSON.parse(UTF8ToString(p)); Module._free(p); return /Mixtral/.test(s.name); }, 'import');
      await ui.click(page, 'Undo');
      await scenarioWait(page, () => { const p = Module._tc_scenario(); const s = JSON.parse(UTF8ToString(p)); Module._free(p); return s.name === '1B fine-tune, weekly'; }, 'undo the import');
      await context.close();
    },

    async 'row 7: the keyboard reaches every kind of widget in reading order, with a visible focus ring; Enter acts'() {
      const { page, context } = await open('calculator.html', { viewport: { width: 1366, height: 768 } });
      await page.focus('#canvas');
      const seen = [];
      for (let i = 0; i < 40; ++i) {
        await page.keyboard.press('Tab');
        await ui.settleInput(page);
        seen.push(await ui.focused(page));
      }
      for (const name of ['Example scenarios', 'Share', 'Export', 'Import', 'Saved', 'Methodology', 'Theme', 'name', 'workloads[0].name',
        'workloads[0] > Fill from a preset…', 'workloads[0] > Mixture of experts', 'workloads[0].target', 'workloads[0] > Runs counted',
        'workloads[0] > Architecture (attention FLOPs, activations)'])
        assert(seen.includes(name), `Tab reaches ${name} (went through: ${seen.join(', ')})`);
      const order = ['Example scenarios', 'Share', 'name', 'workloads[0].name', 'workloads[0].target', 'workloads[0].runs'].map((n) => seen.indexOf(n));
      assertEqual(JSON.stringify(order), JSON.stringify([...order].sort((a, b) => a - b)), 'in reading order');
      await screenshot(page, 'page-keyboard-focus-ring');
      // Shift+Tab back to Share, Enter opens it.
      let guard = 0;
      while ((await ui.focused(page)) !== 'Share' && guard++ < 60) {
        await page.keyboard.press('Shift+Tab');
        await ui.settleInput(page);
      }
      assertEqual(await ui.focused(page), 'Share', 'Shift+Tab goes back to Share');
      await page.keyboard.press('Enter');
      await ui.find(page, 'Copy link');
      // Tab stays inside the dialog.
      for (let i = 0; i < 6; ++i) {
        await page.keyboard.press('Tab');
        await ui.settleInput(page);
        const f = (await ui.items(page)).find((x) => x.focused);
        assert(f && /Share this scenario/.test(f.window), `Tab stays in the dialog (${f && f.window})`);
      }
      // The results tabs, by keyboard: backwards from the top the focus wraps around to the end of
      // the results, then reaches the tabs; Space selects one.
      await page.keyboard.press('Escape');
      await ui.settleInput(page);
      assert(!(await ui.exists(page, 'Copy link')), 'Escape closes the dialog');
      guard = 0;
      while ((await ui.focused(page)) !== 'How sure?' && guard++ < 60) {
        await page.keyboard.press('Shift+Tab');
        await ui.settleInput(page);
      }
      assertEqual(await ui.focused(page), 'How sure?', 'Tab reaches the result tabs');
      await page.keyboard.press('Space');
      await ui.find(page, 'Add a range on…');
      await context.close();
    },

    async 'keys faster than frames: a burst of Tabs on a slowed CPU lands where the same Tabs land slowly, and the digit after them edits that field only (issue 33 item 6)'() {
      const presses = 21;
      // Slowly: one Tab, then wait for the page to take it.
      const slow = await open('calculator.html', { viewport: { width: 1366, height: 768 } });
      await slow.page.focus('#canvas');
      for (let i = 0; i < presses; ++i) {
        await slow.page.keyboard.press('Tab');
        await ui.settleInput(slow.page);
      }
      const target = await ui.focused(slow.page);
      await slow.context.close();
      assert(/^workloads\[0\]\.|^options\[/.test(target), `${presses} Tabs reach a scenario field (${target})`);
      // In a burst, with the CPU four times slower so that many keys arrive between two frames.
      const { page, context } = await open('calculator.html', { viewport: { width: 1366, height: 768 } });
      const before = await ui.scenario(page);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await page.focus('#canvas');
      for (let i = 0; i < presses; ++i) await page.keyboard.press('Tab');
      await page.keyboard.type('7');
      await page.keyboard.press('Enter');
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await ui.settleInput(page);
      await ui.settled(page);
      assertEqual(await ui.focused(page), target, `the burst lands on the same field (input: ${(await ui.trace(page)).slice(-3000)})`);
      // Exactly that field changed, to 7.
      const leaves = (v, at = '', out = {}) => {
        if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) leaves(x, Array.isArray(v) ? `${at}[${k}]` : (at ? `${at}.${k}` : k), out);
        else out[at] = v;
        return out;
      };
      const was = leaves(before), now = leaves(await ui.scenario(page));
      const changed = [...new Set([...Object.keys(was), ...Object.keys(now)])].filter((k) => was[k] !== now[k]);
      assertEqual(JSON.stringify(changed), JSON.stringify([target]), `only the focused field changed (input: ${(await ui.trace(page)).slice(-600)})`);
      assertEqual(now[target], 7, 'to the digit typed');
      await context.close();
    },

    async 'row 8: copies confirm; Import takes JSON, a link or a config.json and explains errors inside the dialog; the embed opens the full calculator'() {
      const { page, context } = await open('calculator.html', { viewport: { width: 1366, height: 768 } });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url.replace(/\/$/, '') });
      await ui.click(page, 'Export');
      await ui.click(page, 'Results as Markdown (copy)');
      await page.waitForFunction(() => [...document.querySelectorAll('#results-mirror .banner')].some((b) => /Copied the results/.test(b.textContent)));
      assert((await page.evaluate(() => navigator.clipboard.readText())).startsWith('### '), 'the Markdown is on the clipboard');
      // A pasted share link.
      await ui.click(page, 'Import');
      await ui.paste(page, 'Import text', `${url}calculator.html${linkFor('finetune-1b')}`);
      await ui.click(page, 'Load');
      await scenarioWait(page, () => { const p = Module._tc_scenario(); const s = JSON.parse(UTF8ToString(p)); Module._free(p); return s.name === '1B fine-tune, weekly'; }, 'a pasted link');
      // A Hugging Face config.json fills the model.
      await ui.click(page, 'Import');
      await ui.paste(page, 'Import text', readFileSync(join(import.meta.dirname, '../cli/data/llama3-8b-config.json'), 'utf8'));
      await ui.click(page, 'Load');
      await scenarioWait(page, () => { const p = Module._tc_scenario(); const s = JSON.parse(UTF8ToString(p)); Module._free(p); return s.workloads[0].model.params === 8030261248; }, 'a config.json');
      // Something else: the problem is shown in the dialog, which stays open.
      await ui.click(page, 'Import');
      await ui.paste(page, 'Import text', 'hello');
      await ui.click(page, 'Load');
      const problem = await ui.find(page, 'import problem');
      assert(problem && /not a scenario/.test(problem.text), `the dialog explains: ${problem && problem.text}`);
      assert(/Import/.test(problem.window), `inside the dialog (${problem.window})`);
      assert((await ui.find(page, 'Load')).visible, 'the dialog stays open');
      await screenshot(page, 'page-import-error');
      await ui.click(page, 'Cancel');
      await context.close();

      // The embed's "Open in the full calculator", inside an iframe on another origin: a new tab
      // with the same scenario.
      const hostDir = mkdtempSync(join(tmpdir(), 'traincost-host-'));
      const link = linkFor('mixtral-moe');
      writeFileSync(join(hostDir, 'index.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>wiki</title>
<iframe id="tc" src="${url}calculator.html?embed=1${link}" width="800" height="600" style="border:0"></iframe>`);
      const host = await startServer(hostDir, 0);
      try {
        const hosted = await openPage(browser, `http://127.0.0.1:${host.address().port}/`, { viewport: { width: 900, height: 700 } });
        const frame = await (await hosted.page.$('#tc')).contentFrame();
        await startEmbed(frame);
        await frame.waitForFunction(() => window.TrainCost && window.TrainCost.version && document.querySelector('#results-mirror .verdict'), null, { timeout: 60000 });
        await ui.settled(frame);
        const item = await ui.find(frame, 'Open in the full calculator');
        const box = await (await hosted.page.$('#tc')).boundingBox();
        const opened = hosted.context.waitForEvent('page');
        await hosted.page.mouse.click(box.x + item.x + item.w / 2, box.y + item.y + item.h / 2);
        const full = await opened;
        await full.waitForLoadState();
        assert(full.url().endsWith(`calculator.html${link}`), `the full calculator opens the same scenario: ${full.url()}`);
        await waitForCalculator(full);
        assert(!full.url().includes('embed=1'), 'not the embed view');
        await hosted.context.close();
      } finally {
        host.close();
      }
    },

    async 'an HF config.json imported on the page fills only what it states, keeps what the user typed, and says what it changed (issue 29 item 3)'() {
      const { page, context } = await open('calculator.html', { viewport: { width: 1366, height: 768 } });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url.replace(/\/$/, '') });
      // No banner on screen while the fields are typed into: one that expires moves what is below it.
      const noBanner = () => page.waitForFunction(() => !document.querySelector('#results-mirror .banner'), null, { timeout: 30000 });
      // A config fills only what it states, keeps what the user typed that it does not, and says
      // what it changed (issue 29 item 3): a training length of 2,048 and 4 kv heads typed on the
      // canvas, then a config that states neither, then Mixtral's (experts, kv heads, no length).
      await noBanner();
      await ui.click(page, 'workloads[0] > Architecture (attention FLOPs, activations)');
      await ui.settled(page);
      await ui.type(page, 'workloads[0].model.seq_len', '2048');
      await ui.type(page, 'workloads[0].model.kv_heads', '4');
      const model = () => page.evaluate(() => { const p = Module._tc_scenario(); const s = JSON.parse(UTF8ToString(p)); Module._free(p); return s.workloads[0].model; });
      // Imports `text` and returns the new "Model filled" banner (one whose text is not `before`'s:
      // the earlier one may still be shown, or may have expired).
      const importBanner = async (text, before) => {
        await ui.click(page, 'Import');
        await ui.paste(page, 'Import text', text);
        await ui.click(page, 'Load');
        await page.waitForFunction((b) => [...document.querySelectorAll('#results-mirror .banner')].map((n) => n.textContent)
          .some((t) => /Model filled from the config/.test(t) && t !== b), before, { timeout: 20000 });
        return page.evaluate((b) => [...document.querySelectorAll('#results-mirror .banner')].map((n) => n.textContent)
          .find((t) => /Model filled from the config/.test(t) && t !== b), before);
      };
      const bare = await importBanner('{"hidden_size":2048,"num_attention_heads":16,"num_hidden_layers":24,"vocab_size":32000}', '');
      let m = await model();
      assertEqual(JSON.stringify([m.hidden, m.heads, m.layers, m.vocab, m.seq_len, m.kv_heads]), '[2048,16,24,32000,2048,4]', 'the stated fields filled, the typed length and kv heads kept');
      assert(/changed .*hidden/.test(bare) && !/changed [^;]*kv_heads/.test(bare) && /seq_len kept at 2,?048/.test(bare), `the banner names what changed and what was kept: ${bare}`);
      const mixtral = await importBanner(readFileSync(join(import.meta.dirname, '../core/data/hf/mixtral-8x7b.json'), 'utf8'), bare);
      m = await model();
      assertEqual(JSON.stringify([m.experts, m.experts_per_token, m.kv_heads, m.seq_len]), '[8,2,8,2048]', 'Mixtral\'s experts and kv heads filled, the typed length kept');
      assert(/experts/.test(mixtral) && /kv_heads/.test(mixtral) && /seq_len kept at 2,?048/.test(mixtral), `the banner names the experts: ${mixtral}`);
      await context.close();
    },

    async 'row 9: the smaller defects'() {
      const { page, context } = await open('calculator.html', { viewport: { width: 1366, height: 768 } });
      // Formulas: floor and ceiling brackets drawn, "1 instance", numbers never broken after their decimal point.
      await ui.click(page, 'Trn2 x16 explain');
      await ui.settled(page);
      const texts = (await notes(page, 'text')).map((n) => n.text);
      const formulas = texts.join('\n');
      // (The step-time model's terms bring floor brackets and Greek letters; all must be drawn.)
      assert(/[⌈⌊]/.test(formulas) && /[στδ√]/.test(formulas), 'the explained steps use brackets and symbols beyond Latin-1');
      assertEqual(JSON.stringify((await ui.stats(page)).missing_glyphs), '[]', 'every glyph drawn is in the fonts');
      assert(!/\(1 instances\)/.test(formulas), '"1 instances"');
      for (const t of texts) assert(!/\d\.\n\d/.test(t), `a number broken over two lines: ${JSON.stringify(t)}`);
      // Labels and group titles are not cut.
      const cut = (await ui.items(page)).filter((i) => i.visible && i.label_w && i.w + 1 < i.label_w && i.label && !i.text_input);
      assertEqual(JSON.stringify(cut.map((i) => i.label)), '[]', 'labels cut short');
      // The catalog: every price column in view, memory in the same unit as the instance menu.
      await ui.click(page, 'Catalog');
      const pane = await ui.find(page, 'Open the hardware data page');
      for (const id of ['trn2.48xlarge', 'p5.48xlarge', 'gcp-a3-highgpu-8g']) {
        const use = await ui.find(page, `Use ${id}`);
        assert(use.visible && use.x + use.w <= 1366, `the last column (Use ${id}) is in view without scrolling sideways`);
      }
      assert(pane.visible, 'the catalog fits');
      await screenshot(page, 'page-catalog-1366x768');
      await ui.click(page, 'Results');
      await ui.click(page, 'options[0].instance');
      const entry = await ui.find(page, 'trn2.48xlarge');
      assert(/16 × AWS Trainium2 \(96(\.0)? GiB each\)/.test(entry.label), `the instance menu gives memory as the catalog does: ${entry.label}`);
      await page.keyboard.press('Escape');
      await ui.settleInput(page);
      // A range's "Edit" keeps the pane where it was.
      await ui.click(page, 'How sure?');
      const edit = await ui.find(page, 'Edit range options[0].mfu');
      const anchorBefore = await ui.rect(page, 'Add a range on…');
      await ui.click(page, 'Edit range options[0].mfu');
      await ui.settled(page);
      const anchorAfter = await ui.rect(page, 'Add a range on…');
      assert(Math.abs(anchorAfter.y - anchorBefore.y) < 3 * edit.h, `the pane jumped (${anchorBefore.y} -> ${anchorAfter.y})`);
      assert((await ui.scenario(page)).ranges.some((r) => r.input === 'options[0].mfu'), 'the range is now the scenario\'s');
      // Colours: the tornado's low/high are not the options' colours of the histogram above it.
      const hist = [...(await notes(page, 'histogram: below')), ...(await notes(page, 'histogram: above'))].map((n) => n.color);
      const tornado = [...(await notes(page, 'legend: input at its low end')), ...(await notes(page, 'legend: input at its high end'))].map((n) => n.color);
      assertEqual(tornado.length, 2, 'the tornado has its key');
      assert(!tornado.some((c) => hist.includes(c)), `the tornado reuses the options' colours (${tornado} vs ${hist})`);
      // Runs that do not fit in the horizon are flagged: the 70B preset, 2 runs of months each.
      await ui.click(page, 'Results');
      await ui.click(page, 'Fill from a preset…');
      await ui.click(page, 'Llama-3-70B-class pretraining');
      await ui.settled(page);
      const warnings = await page.evaluate(() => [...document.querySelectorAll('#results-mirror .warning')].map((n) => n.textContent));
      assert(warnings.some((w) => /longer than the 12-month horizon/.test(w)), `flagged: ${warnings}`);
      assert((await notes(page, 'schedule warning')).length > 0, 'on the canvas too');
      await context.close();
    },

    async 'eight options: "+ Add option" goes to the scenario\'s eight, and the editor stacks them rather than squeeze (issue 30 item 5)'() {
      const { page, context, log } = await open('calculator.html', { viewport: { width: 1280, height: 800 } });
      let n = (await ui.scenario(page)).options.length;
      const widths = {};
      while (n < 8) {
        await ui.click(page, '+ Add option');
        await ui.settled(page);
        n = (await ui.scenario(page)).options.length;
        // Every option's instance picker keeps a usable width, side by side or stacked.
        await ui.find(page, `options[${n - 1}].instance`);
        const pickers = (await ui.items(page)).filter((i) => /^options\[\d+\]\.instance$/.test(i.name));
        for (const p of pickers) if (p.visible) widths[`${n} options`] = Math.min(widths[`${n} options`] ?? Infinity, p.w);
      }
      assertEqual(n, 8, 'eight options, the scenario\'s most');
      assert(!(await ui.exists(page, '+ Add option')), 'no ninth');
      assertEqual(Object.keys(widths).length, 8 - 2, 'measured at every count');
      for (const [k, w] of Object.entries(widths)) assert(w >= 90, `with ${k} each instance picker is at least 90 px wide (${w})`);
      await screenshot(page, 'page-8-options-1280x800');
      measurements.eight_options_picker_widths = widths;
      assertEqual(log.consoleErrors.join(' | '), '', 'console errors');
      await context.close();
    },

    async 'a phone: the results table is one tap from the verdict, with its cost columns on screen (issue 30 item 5)'() {
      const { page, context } = await open('calculator.html', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, hasTouch: true, isMobile: true });
      const jump = await ui.find(page, 'Jump to the results table');
      assert(jump.y + jump.h <= 844, 'the button is on the first screen, under the verdict');
      const far = await ui.find(page, 'Results', { visible: false });
      assert(!far.visible || far.y > 844, 'the results start below the first screen');
      await ui.click(page, 'Jump to the results table', { touch: true });
      await ui.settled(page);
      const tab = await ui.find(page, 'Results');
      assert(tab.visible && tab.y >= 0 && tab.y < 844 / 2, `the results tab is at the top of the screen (y ${tab.y})`);
      const cells = (await ui.items(page)).filter((i) => /^cell: .* \/ (All-in \/ run|Status)$/.test(i.name));
      assert(cells.length >= 4, `the table's cost and status cells are listed (${cells.map((c) => c.name).join(', ')})`);
      for (const c of cells) assert(c.visible && c.x >= 0 && c.x + c.w <= 390 && c.y + c.h <= 844, `${c.name} is on screen (${c.x},${c.y} ${c.w}x${c.h})`);
      await screenshot(page, 'page-phone-results-390x844');
      await context.close();
    },

    async 'at 1280x800 the nine columns of the results table fit beside the editor: headers take two lines rather than the table scroll sideways (issue 30 item 5)'() {
      for (const example of ['', linkFor('portfolio-multicloud'), linkFor('finetune-1b')]) {
        const { page, context } = await open(`calculator.html${example}`, { viewport: { width: 1280, height: 800 } });
        await ui.find(page, 'Results');
        const items = await ui.items(page);
        const columns = items.filter((i) => /^column: /.test(i.name));
        assertEqual(columns.length, 9, 'the nine columns');
        for (const c of columns) assert(c.visible && c.x + c.w <= 1282 && c.fits !== false, `${c.name} is whole and in view (${c.x}+${c.w}, fits ${c.fits})`);  // a header spans its cell to the border
        const cells = items.filter((i) => /^cell: /.test(i.name));
        assert(cells.length >= 8 * 2, 'the cells are listed');
        for (const c of cells) assert(c.visible && c.x + c.w <= 1280 && c.fits !== false, `${c.name} is whole and in view (${c.x}+${c.w})`);
        if (example.includes('portfolio')) await screenshot(page, 'page-results-table-1280x800');
        await context.close();
      }
    },

    async 'row 4: a phone (390x844, touch, DPR 3): verdict first, menu, swipe with momentum, tap, long press, pinch'() {
      const { page, context } = await open('calculator.html', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, hasTouch: true, isMobile: true });
      const verdict = (await notes(page, 'verdict'))[0];
      assert(verdict && verdict.visible && verdict.y + verdict.h <= 844, 'the verdict is on the first screen');
      for (const name of ['Undo', 'Redo', 'Menu']) {
        const r = await ui.find(page, name);
        assert(r.x >= 0 && r.x + r.w <= 390, `${name} is on screen`);
      }
      // A tap on a field opens the phone's keyboard (a focused text input) and typing edits it. The
      // lift reaches the page 800 ms after the touch, as on a phone too busy to handle it sooner,
      // after the long-press timer has run: the finger was down 50 ms, so it is still a tap.
      const runs = ui.centre(await ui.find(page, 'workloads[0].runs'));
      await ui.tap(page, runs.x, runs.y, { gap: 800 });
      await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'text-proxy', null, { timeout: 10000 })
        .catch(() => { throw new Error("a tap on a field does not open the keyboard"); });
      await page.keyboard.type('7');
      await page.keyboard.press('Enter');
      await scenarioWait(page, () => { const p = Module._tc_scenario(); const s = JSON.parse(UTF8ToString(p)); Module._free(p); return s.workloads[0].runs === 7; },
                         'typing on the phone');
      await page.waitForFunction(() => document.activeElement && document.activeElement.id !== 'text-proxy', null, { timeout: 10000 })
        .catch(() => { throw new Error('the keyboard stays open after Enter'); });
      // Tap opens an expander.
      await ui.click(page, 'workloads[0] > Architecture (attention FLOPs, activations)', { touch: true });
      await ui.find(page, 'workloads[0].model.layers', { visible: false });
      // Swipe up scrolls the page, and it keeps gliding after the finger lifts.
      const t = await ui.fingers(page);
      const before = await ui.rect(page, 'workloads[0].model.params');
      await t.swipe(200, 700, 300, 10);
      const lifted = await ui.rect(page, 'workloads[0].model.params');
      assert(lifted.y < before.y - 200, `the swipe scrolled (${before.y} -> ${lifted.y})`);
      await page.waitForFunction((y) => {
        const p = Module._tc_items();
        const i = JSON.parse(UTF8ToString(p)).find((x) => x.name === 'workloads[0].model.params');
        Module._free(p);
        return i.y < y - 20;
      }, lifted.y, { timeout: 5000 }).catch(() => { throw new Error('no momentum after the swipe'); });
      await ui.settleInput(page);  // the glide comes to rest
      // Long press shows a field's tooltip, without editing it.
      const mfu = await ui.find(page, 'options[0].mfu');
      await t.longPress(mfu.x + mfu.w / 2, mfu.y + mfu.h / 2, () => {
        const p = Module._tc_items();
        const list = JSON.parse(UTF8ToString(p));
        Module._free(p);
        return list.some((n) => n.name === 'tooltip' && n.text === 'options[].mfu');
      });
      await ui.settleInput(page);
      assert((await notes(page, 'tooltip')).some((n) => n.text === 'options[].mfu'), 'the tooltip stays after the finger lifts');
      assert(!(await ui.find(page, 'options[0].mfu')).active, 'and does not start editing');
      await screenshot(page, 'page-phone-long-press');
      // The menu has everything the toolbar had.
      await ui.click(page, 'Menu', { touch: true });
      for (const name of ['Example scenarios', 'Share', 'Export', 'Import', 'Saved', 'Methodology', 'Theme']) await ui.find(page, name);
      await ui.click(page, 'Share', { touch: true });
      await ui.find(page, 'Copy link');
      await screenshot(page, 'page-phone-share');
      await ui.click(page, 'Close', { touch: true });
      // Results: headers whole, values whole (the table scrolls sideways with the option kept in view).
      await ui.find(page, 'Results');  // scrolled into view
      await ui.find(page, 'Trn2 x16 explain');
      const cells = (await ui.items(page)).filter((i) => /^(column|cell): /.test(i.name));
      assert(cells.length >= 8, 'the results table is there');
      assertEqual(JSON.stringify(cells.filter((c) => c.fits === false).map((c) => c.text)), '[]', 'no header or value is cut');
      // Pinch: no zoom, the layout stays.
      const menu = await ui.rect(page, 'Menu');
      await t.pinch(195, 400);
      await ui.settleInput(page);
      assertEqual(JSON.stringify(await ui.rect(page, 'Menu')), JSON.stringify(menu), 'a pinch leaves the layout alone');
      assertEqual(await page.evaluate(() => window.visualViewport ? window.visualViewport.scale : 1), 1, 'and does not zoom the page');
      await context.close();
    },

    async 'four sizes, light and dark: verdict on the first screen, nothing overlaps; first draw and a frame after an edit'() {
      const sizes = [
        { width: 390, height: 844, deviceScaleFactor: 3, hasTouch: true, isMobile: true },
        { width: 768, height: 1024 },
        { width: 1280, height: 800 },
        { width: 1920, height: 1080 },
      ];
      for (const size of sizes) {
        for (const colorScheme of ['light', 'dark']) {
          const { width, height, ...rest } = size;
          const { page, context, log } = await open('calculator.html', { viewport: { width, height }, colorScheme, ...rest });
          const name = `page-${width}x${height}-${colorScheme}`;
          const verdict = (await notes(page, 'verdict'))[0];
          assert(verdict && verdict.visible && verdict.y + verdict.h <= height, `${name}: the verdict is on the first screen`);
          // Items of the page itself (not popups), visible, must not overlap.
          const list = (await ui.items(page)).filter((i) => i.id && i.name && i.visible && i.w > 0 && i.h > 0 && !/Tooltip|##Popup|##Combo/.test(i.window));
          for (let a = 0; a < list.length; ++a)
            for (let b = a + 1; b < list.length; ++b) {
              const p = list[a], q = list[b];
              const ox = Math.min(p.x + p.w, q.x + q.w) - Math.max(p.x, q.x), oy = Math.min(p.y + p.h, q.y + q.h) - Math.max(p.y, q.y);
              assert(ox <= 1 || oy <= 1, `${name}: "${p.scope} ${p.name}" and "${q.scope} ${q.name}" overlap`);
            }
          for (const item of list) assert(item.x >= -1 && item.x + item.w <= width + 1, `${name}: ${item.name} is cut at the edge`);
          await screenshot(page, name);
          if (colorScheme === 'dark' && (width === 390 || width === 1920)) {
            const s = await ui.stats(page);
            const key = `${width}x${height}`;
            measurements[`first_frame_cpu_ms_${key}`] = s.first_frame_ms;
            measurements[`first_frame_on_screen_ms_${key}`] = s.first_frame_at_ms;
            await ui.type(page, 'workloads[0].runs', '9');
            await ui.settled(page);
            measurements[`frame_after_edit_cpu_ms_${key}`] = (await ui.stats(page)).last_recompute_frame_ms;
          }
          assertEqual(log.consoleErrors.length, 0, `${name}: console errors: ${log.consoleErrors.join(' | ')}`);
          await context.close();
        }
      }
    },
  });
} finally {
  writeJson('page-measurements.json', measurements);
  console.log(`measurements: ${JSON.stringify(measurements)}`);
  await browser.close();
  server.close();
}
