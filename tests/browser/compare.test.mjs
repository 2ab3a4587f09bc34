// The page's "By chip" tab (issue 30 item 3): the selected workload on every instance and pricing
// of the catalog, the same table as `traincost compare` to the bit (text and JSON, read from the
// page's text mirror), for the tab's size and order; "Use" puts a row into the scenario; the tab
// at desktop and phone sizes.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assert, assertEqual, launch, openPage, run, screenshot, serve, waitForCalculator, closeClean, sameJson } from './lib/harness.mjs';
import { cli, cliJson, linkFor, scenarioPath } from './lib/calculator.mjs';
import * as ui from './lib/ui.mjs';

const browser = await launch();
const { server, url } = await serve();

async function open(link, viewport = { width: 1280, height: 800 }) {
  const opened = await openPage(browser, `${url}calculator.html${link}`, { viewport });
  await waitForCalculator(opened.page);
  await ui.settled(opened.page);
  return opened;
}

async function mirrorComparison(page) {
  return page.evaluate(() => {
    const node = document.querySelector('#results-mirror .comparison');
    return node ? { text: node.textContent, data: JSON.parse(node.getAttribute('data-json')), workload: node.getAttribute('data-workload') } : null;
  });
}

try {
  await run('compare', {
    async 'the tab is the CLI\'s table to the bit, with every instance of the catalog'() {
      const { page, context, log } = await open(linkFor('llama3-8b-deadline'));
      assertEqual(await mirrorComparison(page), null, 'nothing is compared before the tab is opened');
      await ui.click(page, 'By chip');
      await ui.settled(page);
      const m = await mirrorComparison(page);
      assert(m, 'the mirror has the comparison');
      const file = scenarioPath('llama3-8b-deadline');
      assertEqual(m.text, cli(['compare', file]), 'the mirror reads as `traincost compare`');
      sameJson(m.data, cliJson(['compare', file, '--format', 'json']), 'comparison');
      const catalog = cliJson(['catalog', '--format', 'json']);
      for (const inst of catalog.instances)
        assert(m.data.rows.some((r) => r.instance === inst.id), `${inst.id} has a row`);
      assert((await ui.stats(page)).comparison_slices > 1, 'computed over several frames, a few rows each');
      // The table's headers are drawn and the first row's "Use" button is there.
      await ui.find(page, 'compare column: Compute $/M tok', { visible: false });
      await screenshot(page, 'page-by-chip-1280x800');
      await closeClean(context, log);
    },

    async 'size and order are the tab\'s own, and the table follows them and edits'() {
      const { page, context, log } = await open(linkFor('llama3-8b-deadline'));
      const linkBefore = (await ui.stats(page)).link;
      await ui.click(page, 'By chip');
      await ui.settled(page);
      await ui.click(page, 'compare size');
      await ui.click(page, 'At least 64 chips each');
      await ui.click(page, 'compare sort');
      await ui.click(page, 'wall clock, shortest first');
      await ui.settled(page);
      const file = scenarioPath('llama3-8b-deadline');
      const m = await mirrorComparison(page);
      assertEqual(m.text, cli(['compare', file, '--chips', '64', '--sort', 'time']), 'on 64 chips, by time');
      assertEqual((await ui.stats(page)).link, linkBefore, 'the tab\'s choices are not part of the scenario');
      // An edit to the workload recomputes the table: the CLI on the edited scenario agrees.
      await ui.click(page, 'Results');
      await ui.type(page, 'workloads[0].target.tokens', '1e12');
      await ui.click(page, 'By chip');
      await ui.settled(page);
      const dir = mkdtempSync(join(tmpdir(), 'traincost-compare-'));
      const edited = join(dir, 'edited.json');
      writeFileSync(edited, JSON.stringify(await ui.scenario(page)));
      const after = await mirrorComparison(page);
      assertEqual(after.text, cli(['compare', edited, '--chips', '64', '--sort', 'time']), 'the edited workload');
      assert(after.text !== m.text, 'the table changed with the tokens');
      await closeClean(context, log);
    },

    async '"Use" puts a row\'s instance, pricing and size into the scenario as a new option'() {
      const { page, context, log } = await open(linkFor('llama3-8b-deadline'));
      await ui.click(page, 'By chip');
      await ui.settled(page);
      const row = (await mirrorComparison(page)).data.rows.find((r) => r.feasible && r.pricing === 'spot');
      assert(row, 'a spot row that runs');
      const before = (await ui.scenario(page)).options.length;
      await ui.click(page, `Use ${row.label}`);
      await ui.click(page, 'as a new option');
      await ui.settled(page);
      const options = (await ui.scenario(page)).options;
      assertEqual(options.length, before + 1, 'one option more');
      const added = options[options.length - 1];
      assertEqual(`${added.instance} ${added.pricing} ${added.instances}`, `${row.instance} ${row.pricing} ${row.instances}`, 'the row\'s instance, pricing and size');
      await closeClean(context, log);
    },

    async 'the tab on a phone'() {
      const { page, context, log } = await open(linkFor('llama3-8b-deadline'), { width: 390, height: 844 });
      await ui.click(page, 'By chip', { touch: true });
      await ui.settled(page);
      assert(await mirrorComparison(page), 'computed on the phone too');
      // Down to the table (drawn only once scrolled into view): its buttons, then a little more.
      const copy = await ui.find(page, 'Copy as Markdown');
      await page.mouse.move(copy.x, copy.y);
      await page.mouse.wheel(0, 150);
      await ui.nextFrames(page, 3);
      // The key columns are in view beside the instance, without a sideways swipe.
      await screenshot(page, 'page-by-chip-390x844');
      for (const header of ['Instance', 'Compute $/M tok', 'Time']) {
        const column = await ui.find(page, `compare column: ${header}`);
        assert(column.visible && column.x + column.w <= 390, `${header} is in view at 390 px`);
      }
      await screenshot(page, 'page-by-chip-390x844');
      await closeClean(context, log);
    },
  });
} finally {
  await browser.close();
  server.close();
}
