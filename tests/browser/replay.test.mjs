// The page's "Compare with a published run" dialog and its price age (issue 14): the dialog opens
// by its label, gives a run's error as `traincost replay` does, takes a run's realized utilization
// as an option's assumption through the edit path (undo, link, autosave), and refuses a run of
// another chip family; the page says how old the prices are, and warns when they are stale.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assert, assertEqual, launch, openPage, run, screenshot, serve, waitForCalculator, closeClean } from './lib/harness.mjs';
import { cli, cliJson, linkFor, mirror } from './lib/calculator.mjs';
import * as ui from './lib/ui.mjs';

const browser = await launch();
const { server, url } = await serve();

async function open(link = '', { viewport = { width: 1280, height: 800 }, today = null } = {}) {
  const opened = await openPage(browser, null, { viewport });
  // A fixed date (the clock's timers keep running) for the stale-price case.
  if (today) await opened.page.clock.setFixedTime(new Date(`${today}T12:00:00Z`));
  await opened.page.goto(`${url}calculator.html${link}`);
  await waitForCalculator(opened.page);
  await ui.settled(opened.page);
  return opened;
}
const notes = async (page, name) => (await ui.items(page)).filter((i) => i.name === name);
const flat = (text) => text.replace(/\n/g, ' ');  // wrapped paragraphs are recorded with their line breaks
const replay = cliJson(['replay', '--format', 'json']);
const runLabel = (id) => {
  const r = replay.runs.find((x) => x.id === id);
  return `${r.name} (${r.org}, ${r.year})`;
};
// The error `traincost replay` prints for a run: "(+12%)" on its chip-hours line.
function cliError(id) {
  const lines = cli(['replay']).split('\n');
  const at = lines.findIndex((l) => l.startsWith(`${runLabel(id)} [`));
  assert(at >= 0, `the CLI lists ${id}`);
  const m = /^\s+chip-hours\s+published .*\(([^)]+)\)$/.exec(lines[at + 1]);
  assert(m, `the CLI gives ${id}'s error: ${lines[at + 1]}`);
  return m[1];
}

try {
  await run('replay', {
    async 'the dialog opens by label and gives a run\'s error as traincost replay does'() {
      const { page, context, log } = await open(linkFor('llama3-8b-pretrain'));
      await ui.click(page, 'options[0] > Published runs…');
      const summary = await ui.find(page, 'replay summary');
      const all = replay.summary.all;
      assert(flat(summary.text).includes(`over ${all.runs} runs`) && flat(summary.text).includes(`(${all.worst_run})`), `the summary: ${summary.text}`);
      for (const id of ['rinna-nekomata-14b', 'llama3-8b', 'opt-175b']) {
        await ui.click(page, runLabel(id));
        const error = await notes(page, 'replay error');
        assertEqual(error.length === 1 && error[0].text, cliError(id), `${id}: the error is the CLI's`);
      }
      await screenshot(page, 'replay-dialog-1280x800');
      await ui.click(page, 'Close');
      await closeClean(context, log);
    },

    async 'a run\'s realized utilization becomes the option\'s; undo, link and the CLI agree'() {
      const { page, context, log } = await open(linkFor('llama3-8b-pretrain'));
      const before = await mirror(page);
      await ui.click(page, 'options[0] > Published runs…');
      // An H100 run does not suit a Trainium option: the button is greyed out and says why.
      await ui.click(page, runLabel('llama3-8b'));
      assert((await ui.find(page, "Use this run's utilization")).disabled, 'greyed out for another chip family');
      assert(flat((await notes(page, 'replay apply'))[0].text).startsWith('Not for '), 'and says why');
      // A Trainium1 run does.
      await ui.click(page, runLabel('rinna-nekomata-14b'));
      assert(!(await ui.find(page, "Use this run's utilization")).disabled, 'enabled for a Trainium run');
      await ui.click(page, "Use this run's utilization");
      await ui.settled(page);
      const s = await ui.scenario(page);
      assertEqual(s.options[0].mfu_from_run, 'rinna-nekomata-14b', 'the option takes the run');
      assertEqual(s.options[0].mfu, undefined, 'and no MFU of its own');
      assertEqual((await notes(page, 'options[0].mfu source'))[0].text, 'as realized by rinna-nekomata-14b', 'the MFU field says where it comes from');
      const after = await mirror(page);
      assert(JSON.stringify(after.rows) !== JSON.stringify(before.rows), 'the results change');
      // The CLI, on the same scenario, gives the same verdict.
      const dir = mkdtempSync(join(tmpdir(), 'traincost-replay-'));
      const file = join(dir, 'edited.json');
      writeFileSync(file, JSON.stringify(s));
      assertEqual(after.verdicts[0], cliJson(['evaluate', file, '--format', 'json']).workloads[0].verdict, 'the verdict is the CLI\'s');
      // The link opens the same scenario.
      const link = '#' + (await ui.stats(page)).link;
      const other = await open(link);
      assertEqual((await ui.scenario(other.page)).options[0].mfu_from_run, 'rinna-nekomata-14b', 'the link keeps the run');
      assertEqual(JSON.stringify((await mirror(other.page)).rows), JSON.stringify(after.rows), 'and its results');
      await closeClean(other.context, other.log);
      // Undo brings the prediction back.
      await ui.click(page, 'Undo');
      await ui.settled(page);
      assertEqual((await ui.scenario(page)).options[0].mfu_from_run, undefined, 'undone');
      assertEqual(JSON.stringify((await mirror(page)).rows), JSON.stringify(before.rows), 'the results are back');
      await closeClean(context, log);
    },

    async 'the dialog at 800×1000 and 390×844'() {
      for (const [w, h] of [[800, 1000], [390, 844]]) {
        const { page, context, log } = await open(linkFor('llama3-8b-pretrain'), { viewport: { width: w, height: h } });
        await ui.click(page, 'options[0] > Published runs…');
        await ui.click(page, runLabel('rinna-nekomata-14b'));
        const button = await ui.find(page, "Use this run's utilization");
        assert(button.x >= 0 && button.x + button.w <= w, `the button is on screen at ${w}: ${JSON.stringify(button)}`);
        await screenshot(page, `replay-dialog-${w}x${h}`);
        await closeClean(context, log);
      }
    },

    async 'the price age is under the results table and in the text mirror, as the CLI gives it'() {
      const { page, context, log } = await open(linkFor('llama3-8b-pretrain'));
      const today = await page.evaluate(() => new Date().toISOString().substring(0, 10));
      const age = cliJson(['catalog', '--format', 'json', '--today', today]).price_age;
      const expected = age.stale ? `${age.summary}. ${age.warning}` : `${age.summary}.`;
      const text = await page.evaluate(() => document.querySelector('#results-mirror .prices')?.textContent || '');
      assertEqual(text, expected, 'the mirror');
      const line = await ui.find(page, 'price age');
      assertEqual(flat(line.text), expected, 'the line on the page');
      const cells = (await ui.items(page)).filter((i) => i.name.startsWith('cell: '));
      assert(cells.length > 0 && cells.every((c) => line.y >= c.y + c.h), 'below the results table');
      assertEqual((await notes(page, 'price age stale')).length, age.stale ? 1 : 0, 'flagged only when stale');
      await closeClean(context, log);
    },

    async 'stale prices are flagged with the warning'() {
      const today = '2030-01-15';
      const { page, context, log } = await open(linkFor('llama3-8b-pretrain'), { today });
      const age = cliJson(['catalog', '--format', 'json', '--today', today]).price_age;
      assert(age.stale, 'the CLI calls prices stale in 2030');
      const node = await page.evaluate(() => {
        const n = document.querySelector('#results-mirror .prices');
        return n ? { text: n.textContent, stale: n.classList.contains('stale') } : null;
      });
      assertEqual(node && node.text, `${age.summary}. ${age.warning}`, 'the warning is in the mirror');
      assert(node.stale, 'marked stale');
      const line = await ui.find(page, 'price age');
      assertEqual(flat(line.text), node.text, 'and on the page');
      const flag = await notes(page, 'price age stale');
      assert(flag.length === 1 && flag[0].color !== 0, 'in the warning colour');
      await screenshot(page, 'price-age-stale');
      await closeClean(context, log);
    },
  });
} finally {
  await browser.close();
  server.close();
}
