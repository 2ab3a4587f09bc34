// The calculator page in a real browser (issues 2 and 5): it draws, it shows what the core computes
// (the same verdicts as the native CLI) at desktop and narrow sizes and for several scenarios,
// it logs no errors, never talks to another host, and stays idle when nothing happens.
import { readdirSync, readFileSync } from 'node:fs';
import { decodePng, greyVariance } from './lib/png.mjs';
import { assert, assertEqual, launch, openPage, run, screenshot, serve, waitForCalculator, writeJson } from './lib/harness.mjs';
import { cliVerdicts, framesDrawn, linkFor, mirror, stats, waitForAnalysis } from './lib/calculator.mjs';
import * as ui from './lib/ui.mjs';

const browser = await launch();
const { server, url } = await serve();
const measurements = {};
const catalogVersion = JSON.parse(readFileSync(new URL('../../assets/catalog.json', import.meta.url), 'utf8')).catalog_version;

async function checkPage(name, { path = 'calculator.html', scenario = 'llama3-8b-pretrain', viewport, colorScheme = 'dark' }) {
  const { page, context, log } = await openPage(browser, `${url}${path}`, { viewport, colorScheme });
  await waitForCalculator(page);
  await waitForAnalysis(page);
  const { buffer } = await screenshot(page, name);
  const variance = greyVariance(decodePng(buffer));
  assert(variance > 25, `${name}: the canvas looks blank (grey variance ${variance.toFixed(1)})`);
  assertEqual(JSON.stringify((await mirror(page)).verdicts), JSON.stringify(cliVerdicts(scenario)),
              `${name}: the verdicts on the page differ from the CLI's`);
  assertEqual(log.consoleErrors.length, 0, `${name}: console errors: ${log.consoleErrors.join(' | ')}`);
  assertEqual(log.foreignRequests.length, 0, `${name}: requests left 127.0.0.1: ${log.foreignRequests.join(' ')}`);
  assertEqual(log.failedRequests.length, 0, `${name}: failed requests: ${log.failedRequests.join(' ')}`);
  return { page, context, log };
}

try {
  await run('calculator', {
    async 'default scenario at 1280x800: drawn, same verdict as the CLI, no errors, no foreign requests'() {
      const { page, context } = await checkPage('calculator-default-1280x800', { viewport: { width: 1280, height: 800 } });
      const version = JSON.parse(await page.evaluate(() => TrainCost.version));
      assertEqual(version.catalog, catalogVersion, 'TrainCost.version names the catalog');
      measurements.initial_recompute_ms = (await stats(page)).last_compute_ms;
      measurements.initial_analysis_ms = (await stats(page)).last_analysis_ms;
      await context.close();
    },

    async 'default scenario at 800x1000 (columns stacked), light theme'() {
      const { context } = await checkPage('calculator-default-800x1000-light', { viewport: { width: 800, height: 1000 }, colorScheme: 'light' });
      await context.close();
    },

    async 'two other scenarios, opened from links, at both sizes'() {
      for (const scenario of ['finetune-1b', 'portfolio-multicloud']) {
        for (const viewport of [{ width: 1280, height: 800 }, { width: 800, height: 1000 }]) {
          const name = `calculator-${scenario}-${viewport.width}x${viewport.height}`;
          const { context } = await checkPage(name, { path: `calculator.html${linkFor(scenario)}`, scenario, viewport });
          await context.close();
        }
      }
    },

    async 'idle: a handful of frames at most in 5 s without input'() {
      const { page, context } = await checkPage('calculator-idle', { viewport: { width: 1280, height: 800 } });
      // One edit first, to measure what a frame that recomputes costs (figures for the notes).
      await ui.type(page, 'workloads[0].runs', '8');
      await page.waitForFunction(() => /at 8 runs/.test(document.querySelector('#results-mirror .verdict')?.textContent || ''));
      await ui.settled(page);  // Monte Carlo, address bar and autosave written, no frames pending
      const s = await stats(page);
      measurements.recompute_ms = s.last_compute_ms;
      measurements.frame_with_recompute_ms = s.last_recompute_frame_ms;
      measurements.monte_carlo_20000_samples_ms = s.last_analysis_ms;
      const before = await framesDrawn(page);
      await page.waitForTimeout(5000);
      const idle = (await framesDrawn(page)) - before;
      measurements.idle_frames_in_5s = idle;
      assert(idle <= 15, `drew ${idle} frames in 5 s of idleness (at most a few per second expected)`);
      // Moving the mouse wakes it up again.
      const chart = ui.centre(await ui.find(page, 'chart: cumulative'));
      await page.mouse.move(chart.x, chart.y);
      await page.waitForFunction((n) => Module._tc_frames_drawn() > n, before + idle, { timeout: 5000 })
        .catch(() => { throw new Error('input did not wake the page'); });
      await context.close();
    },

    async 'the mouse wheel scrolls the stacked page down (and back up)'() {
      const { page, context } = await checkPage('calculator-before-scroll-800x1000', { viewport: { width: 800, height: 1000 } });
      const field = 'workloads[0].model.params';
      const top = await ui.rect(page, field);
      const over = ui.centre(top);
      await page.mouse.move(over.x, over.y);
      await ui.settleInput(page);
      await page.mouse.wheel(0, 1200);  // down
      await ui.settleInput(page);
      const scrolled = await ui.rect(page, field);
      await screenshot(page, 'calculator-scrolled-800x1000');
      assert(scrolled.y < top.y - 200, `the wheel did not scroll the page down (the field moved from y ${top.y} to ${scrolled.y})`);
      await page.mouse.wheel(0, -5000);  // back up
      await ui.settleInput(page);
      const back = await ui.rect(page, field);
      assertEqual(back.y, top.y, 'scrolling back up returns to the top');
      await context.close();
    },

    async 'HiDPI: the framebuffer follows devicePixelRatio; no WebGL2 or a lost context gets a message'() {
      const hidpi = await openPage(browser, `${url}calculator.html`, { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2 });
      await waitForCalculator(hidpi.page);
      await waitForAnalysis(hidpi.page);
      const size = await hidpi.page.evaluate(() => {
        const c = document.getElementById('canvas');
        return { width: c.width, height: c.height, css: c.clientWidth, cssHeight: c.clientHeight };
      });
      assertEqual(`${size.width}x${size.height}`, `${size.css * 2}x${size.cssHeight * 2}`, 'the framebuffer is drawn at 2x');
      await screenshot(hidpi.page, 'calculator-default-1280x800-dpr2');
      assertEqual(hidpi.log.consoleErrors.length, 0, `console errors at 2x: ${hidpi.log.consoleErrors.join(' | ')}`);
      // A lost context (GPU reset) says so instead of leaving a frozen picture.
      await hidpi.page.evaluate(() => document.getElementById('canvas').getContext('webgl2').getExtension('WEBGL_lose_context').loseContext());
      await hidpi.page.waitForFunction(() => !document.getElementById('overlay').hidden &&
        /graphics context was lost/.test(document.getElementById('overlay-text').textContent));
      await hidpi.context.close();

      const nogl = await openPage(browser, null, { viewport: { width: 1280, height: 800 } });
      await nogl.page.addInitScript(() => {
        const original = HTMLCanvasElement.prototype.getContext;
        HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
          return kind === 'webgl2' ? null : original.call(this, kind, ...rest);
        };
      });
      await nogl.page.goto(`${url}calculator.html`);
      await nogl.page.waitForFunction(() => /needs WebGL2/.test(document.getElementById('overlay-text').textContent));
      assert(await nogl.page.evaluate(() => !document.getElementById('overlay').hidden), 'the WebGL2 message is visible');
      await screenshot(nogl.page, 'calculator-no-webgl2');
      await nogl.context.close();
    },

    async 'keyboard and fields: Tab, fast typing, Backspace, and a click into another field keep every edit'() {
      const { page, context } = await checkPage('calculator-keyboard', { viewport: { width: 1280, height: 800 } });
      const workload = async () => (await ui.scenario(page)).workloads[0];
      // Waits until the scenario being edited has these workload fields.
      const until = (fields, what) => page.waitForFunction((want) => {
        const p = Module._tc_scenario();
        const w = JSON.parse(UTF8ToString(p)).workloads[0];
        Module._free(p);
        return Object.entries(want).every(([k, v]) => w[k] === v);
      }, fields, { timeout: 10000 }).catch(async () => {
        const w = await workload();
        throw new Error(`${what}: got runs ${w.runs}, horizon_months ${w.horizon_months}`);
      });
      const runs = 'workloads[0].runs', horizon = 'workloads[0].horizon_months';
      // Tab from one field to the next, then a shortcut and typing faster than frames are drawn.
      await ui.click(page, runs);
      await page.keyboard.press('Tab');
      await ui.settleInput(page);
      assertEqual(await ui.focused(page), horizon, 'Tab moves from Runs to the horizon');
      await page.keyboard.press('Control+A');
      await page.keyboard.type('24');
      await page.keyboard.press('Enter');
      await until({ horizon_months: 24, runs: 6 }, 'Tab then Ctrl+A, 24, Enter sets the horizon');
      // Backspace typed in one burst with the characters around it acts in order.
      await ui.click(page, runs);
      await page.keyboard.type('245');
      await page.keyboard.press('Backspace');
      await page.keyboard.type('6');
      await page.keyboard.press('Enter');
      await until({ runs: 246 }, '245, Backspace, 6 gives 246 runs');
      // A click from a field straight into the one above it commits the first field's edit.
      await ui.click(page, horizon);
      await page.keyboard.type('18');
      await ui.settleInput(page);
      await ui.click(page, runs);
      await page.keyboard.type('9');
      await page.keyboard.press('Enter');
      await until({ horizon_months: 18, runs: 9 }, 'clicking into the field above keeps the horizon typed before');
      await context.close();
    },

    async 'on every example, the bars of "What one run costs" add up to the table\'s fully loaded cost per run'() {
      // Each bar stacks every part of kCostParts (core/include/traincost/engine/cost_parts.hpp). The
      // chart once drew 6 of the 8 parts, and its bars fell short of the table by up to 22.6%.
      const examples = readdirSync(new URL('../../assets/scenarios/', import.meta.url)).filter((f) => f.endsWith('.json'))
        .map((f) => f.slice(0, -'.json'.length)).sort();
      assert(examples.length >= 7, `${examples.length} examples`);
      const { page, context, log } = await openPage(browser, `${url}calculator.html`, { viewport: { width: 1280, height: 800 } });
      await waitForCalculator(page);
      const partLabels = JSON.parse(await page.evaluate(() => TrainCost.schema())).cost_parts.map((p) => p.label);
      const dollars = (text) => Number(text.replace(/[$,]/g, ''));
      let bars = 0;
      for (const name of examples) {
        const link = linkFor(name);
        await page.evaluate((h) => { location.hash = h; }, link);
        await page.waitForFunction((l) => {
          const p = Module._tc_stats();
          const s = JSON.parse(UTF8ToString(p));
          Module._free(p);
          return `#${s.link}` === l;
        }, link, { timeout: 20000 });
        await ui.settled(page);
        const scenario = await ui.scenario(page);
        const results = JSON.parse(await page.evaluate((s) => TrainCost.evaluate(s), JSON.stringify(scenario)));
        for (let w = 0; w < scenario.workloads.length; ++w) {
          if (scenario.workloads.length > 1) {
            await ui.click(page, results.workloads[w].name);  // the tab reads the name shown (automatic unless typed)
            await ui.settled(page);
          }
          // The table's cells first, while the table is in view: a table that scrolls sideways is a
          // child window, and once the chart is scrolled into view its cells are not drawn at all.
          await ui.find(page, 'Results');  // brings the results tab, and the table under it, into view
          await ui.nextFrames(page, 2);
          const table = await ui.items(page);
          await ui.find(page, 'chart: breakdown');
          const drawn = await ui.items(page);
          for (const option of results.workloads[w].options) {
            if (!option.feasible) continue;  // no cost to show: the table says why, the bar is empty
            const where = `${name}, workload ${w}, ${option.label}`;
            const cell = table.find((i) => i.name === `cell: ${option.label} / All-in / run`);
            assert(cell, `${where}: no All-in / run cell in the table`);
            const bar = drawn.find((i) => i.name === `breakdown bar: ${option.label}`);
            assert(bar, `${where}: no bar in the chart`);
            // What the eye compares: the total beside the bar and the table's figure.
            assertEqual(bar.text, cell.text.replace('≈', ''), `${where}: the bar's total against the table's fully loaded cost per run`);
            // And to the dollar: each part as its tooltip gives it (whole dollars) adds up to the cost per run.
            const parts = drawn.filter((i) => i.name.startsWith(`breakdown part: ${option.label} / `));
            for (const p of parts) assert(partLabels.includes(p.name.split(' / ').pop()), `${where}: ${p.name} is a part of the schema`);
            const sum = parts.reduce((acc, p) => acc + dollars(p.text), 0);
            assert(Math.abs(sum - option.cost_per_run_usd) <= 0.5 * parts.length + 1e-9 * option.cost_per_run_usd,
                   `${where}: the parts add up to $${sum}, the cost per run is $${option.cost_per_run_usd} (${parts.map((p) => `${p.name}=${p.text}`).join(', ')})`);
            ++bars;
          }
        }
      }
      assert(bars >= 2 * examples.length, `compared ${bars} bars`);
      measurements.cost_chart_bars_compared = bars;
      assertEqual(log.consoleErrors.length, 0, `console errors: ${log.consoleErrors.join(' | ')}`);
      await context.close();
    },

    async 'tabs, chart hover and PNG export work'() {
      const { page, context, log } = await checkPage('calculator-hover', { viewport: { width: 1280, height: 800 } });
      const chart = ui.centre(await ui.find(page, 'chart: cumulative'));
      await page.mouse.move(chart.x, chart.y);
      await ui.settleInput(page);
      await screenshot(page, 'calculator-chart-tooltip');
      // Each tab shows its own content.
      await ui.click(page, 'How sure?');
      await ui.find(page, 'Add a range on…');
      assert(!(await ui.exists(page, 'chart: cumulative')), 'the How sure? tab replaces the results');
      await ui.settled(page);
      await ui.find(page, 'chart: histogram');
      await screenshot(page, 'calculator-how-sure-1280x800');
      await ui.click(page, 'Catalog');
      await ui.find(page, 'Open the hardware data page');
      assert(!(await ui.exists(page, 'Add a range on…')), 'the Catalog tab replaces How sure?');
      await screenshot(page, 'calculator-catalog-1280x800');
      await ui.click(page, 'Results');
      await ui.find(page, 'chart: cumulative');
      assert(!(await ui.exists(page, 'Open the hardware data page')), 'the Results tab replaces the catalog');
      const download = page.waitForEvent('download', { timeout: 10000 });
      await ui.click(page, 'PNG traincost-cumulative-cost.png');
      const file = await download;
      assertEqual(file.suggestedFilename(), 'traincost-cumulative-cost.png', 'the chart downloads as a PNG');
      assertEqual(log.consoleErrors.length, 0, `console errors: ${log.consoleErrors.join(' | ')}`);
      await context.close();
    },
  });
} finally {
  writeJson('calculator-measurements.json', measurements);
  console.log(`measurements: ${JSON.stringify(measurements)}`);
  await browser.close();
  server.close();
}
