// A heavy but valid link (issue 33 item 5): 16 mixture-of-experts workloads × 8 options, each
// workload with a deadline searched up to 100,000 instances (tests/links/heavy-moe.txt). The page
// evaluates it a slice per frame (the base evaluation, web/app.hpp) instead of holding the main
// thread for seconds; once done its verdicts are the CLI's, and an edit keeps the results before,
// marked as updating, until the new ones are in. Checked structurally (slices, frames), never by
// timing: scripts/bench prints the longest main-thread task.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, assert, assertEqual, launch, openPage, run, serve } from './lib/harness.mjs';
import { cliJson, mirror, stats } from './lib/calculator.mjs';
import * as ui from './lib/ui.mjs';

const HEAVY = readFileSync(join(ROOT, 'tests/links/heavy-moe.txt'), 'utf8').trim();
const browser = await launch();
const { server, url } = await serve();

// Waits until the base evaluation of the current scenario is done and its verdict in the mirror.
async function resultsIn(page, timeout = 300000) {
  await page.waitForFunction(() => {
    if (!(window.TrainCost && window.TrainCost.version && window.Module && Module._tc_frames_drawn && Module._tc_frames_drawn() >= 2)) return false;
    const p = Module._tc_stats();
    const s = JSON.parse(UTF8ToString(p));
    Module._free(p);
    return s.base_ready && document.querySelector('#results-mirror .verdict') && !document.querySelector('#results-mirror .updating');
  }, null, { timeout, polling: 100 });
}

// The page's stats and mirror read in one go (no frame between them).
async function snapshot(page) {
  return page.evaluate(() => {
    const p = Module._tc_stats();
    const s = JSON.parse(UTF8ToString(p));
    Module._free(p);
    return { stats: s, updating: document.querySelector('#results-mirror .updating')?.textContent || '',
             verdicts: [...document.querySelectorAll('#results-mirror .verdict')].map((n) => n.textContent) };
  });
}

function cliVerdictsOf(scenario) {
  const dir = mkdtempSync(join(tmpdir(), 'traincost-heavy-'));
  const file = join(dir, 'scenario.json');
  writeFileSync(file, JSON.stringify(scenario));
  return cliJson(['evaluate', file, '--format', 'json']).workloads.map((w) => w.verdict);
}

try {
  await run('heavy_link', {
    async 'the heavy link opens over many frames and its verdicts are the CLI\'s'() {
      const { page, context, log } = await openPage(browser, `${url}calculator.html${HEAVY}`);
      // The first frames are drawn before the results are in (the page does not freeze on opening).
      await page.waitForFunction(() => window.TrainCost && window.TrainCost.version && window.Module && Module._tc_frames_drawn &&
                                       Module._tc_frames_drawn() >= 2, null, { timeout: 60000 });
      await resultsIn(page);
      const s = await stats(page);
      // Structural: the evaluation took many frames' slices rather than one long task.
      assert(s.base_slices > 1, `the base evaluation ran in ${s.base_slices} slice(s)`);
      const verdicts = (await mirror(page)).verdicts;
      assertEqual(verdicts.length, 16, 'one verdict per workload');
      const fromCli = cliJson(['evaluate', '--link', HEAVY, '--format', 'json']).workloads.map((w) => w.verdict);
      assertEqual(JSON.stringify(verdicts), JSON.stringify(fromCli), 'verdicts');
      assertEqual('#' + s.link, HEAVY, 'the page encodes the scenario to the same link');
      // window.TrainCost answers in full at once (it is not the page's frame loop).
      const api = JSON.parse(await page.evaluate((l) => window.TrainCost.evaluate(JSON.stringify(JSON.parse(window.TrainCost.decodeLink(l)).scenario)),
                                                 HEAVY));
      assertEqual(JSON.stringify(api.workloads.map((w) => w.verdict)), JSON.stringify(fromCli), 'window.TrainCost.evaluate');
      // The accessible form too is built over several tasks (App::publish_form_slice), at most four
      // of its 27 groups each, and arrives whole and in order: the scenario, each workload, each
      // option, the pair, the ranges.
      await ui.settled(page, { timeout: 300000 });
      await page.waitForFunction(() => document.querySelectorAll('#edit-form-fields fieldset').length >= 27, null, { timeout: 60000 });
      const form = await page.evaluate(() => [...document.querySelectorAll('#edit-form-fields fieldset')].map((f) => f.id));
      const expected = ['scenario', ...[...Array(16).keys()].map((w) => `w${w}`), ...[...Array(8).keys()].map((o) => `o${o}`), 'pair', 'ranges'];
      assertEqual(JSON.stringify(form), JSON.stringify(expected.map((g) => `g-${g}`)), 'the form\'s groups');
      const settled = await stats(page);
      assert(settled.form_slices >= 7, `the form was built in ${settled.form_slices} task(s)`);
      assertEqual(log.consoleErrors.length, 0, `console errors: ${log.consoleErrors.join(' | ')}`);
      await context.close();
    },

    async 'an edit keeps the results before, marked as updating, until the new ones are in'() {
      const { page, context, log } = await openPage(browser, `${url}calculator.html${HEAVY}`);
      await resultsIn(page);
      const before = await snapshot(page);
      await ui.type(page, 'workloads[0].runs', '3', { settle: false });
      // Until the edit's evaluation is done, the mirror shows the verdicts before and says so.
      await page.waitForFunction((n) => {
        const p = Module._tc_stats();
        const s = JSON.parse(UTF8ToString(p));
        Module._free(p);
        return s.edits > n;
      }, before.stats.edits, { timeout: 30000 });
      const during = await snapshot(page);
      if (!during.stats.base_ready) {
        assert(during.updating.length > 0, 'the mirror says the results are updating');
        assertEqual(JSON.stringify(during.verdicts), JSON.stringify(before.verdicts), 'the verdicts before stay while it runs');
      }
      await resultsIn(page);
      const after = await snapshot(page);
      assert(after.stats.base_slices > 1, `the edit's evaluation ran in ${after.stats.base_slices} slice(s)`);
      const edited = await ui.scenario(page);
      assertEqual(edited.workloads[0].runs, 3, 'the edit reached the scenario');
      assertEqual(JSON.stringify(after.verdicts), JSON.stringify(cliVerdictsOf(edited)), 'verdicts after the edit');
      assertEqual(log.consoleErrors.length, 0, `console errors: ${log.consoleErrors.join(' | ')}`);
      await context.close();
    },
  });
} finally {
  await browser.close();
  server.close();
}
