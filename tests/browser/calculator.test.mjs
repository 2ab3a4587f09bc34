// The calculator page in a real browser (issues 2 and 5): it draws, it shows what the core computes
// (the same verdicts as the native CLI) at desktop and narrow sizes and for several scenarios,
// it logs no errors, never talks to another host, and stays idle when nothing happens.
import { decodePng, greyVariance } from './lib/png.mjs';
import { assert, assertEqual, launch, openPage, run, screenshot, serve, waitForCalculator, writeJson } from './lib/harness.mjs';
import { clickAndSettle, cliVerdicts, framesDrawn, linkFor, mirror, stats, waitForAnalysis } from './lib/calculator.mjs';

const browser = await launch();
const { server, url } = await serve();
const measurements = {};

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
      assertEqual(version.catalog, '2026-12-01', 'TrainCost.version names the catalog');
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
      await clickAndSettle(page, 380, 360);  // "Expected runs"
      await page.keyboard.press('Control+A');
      await page.keyboard.type('8');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => /at 8 runs/.test(document.querySelector('#results-mirror .verdict')?.textContent || ''));
      await waitForAnalysis(page);
      const s = await stats(page);
      measurements.recompute_ms = s.last_compute_ms;
      measurements.frame_with_recompute_ms = s.last_recompute_frame_ms;
      measurements.monte_carlo_20000_samples_ms = s.last_analysis_ms;
      await page.waitForTimeout(1000);  // let the autosave and the last settling frames pass
      const before = await framesDrawn(page);
      await page.waitForTimeout(5000);
      const idle = (await framesDrawn(page)) - before;
      measurements.idle_frames_in_5s = idle;
      assert(idle <= 15, `drew ${idle} frames in 5 s of idleness (at most a few per second expected)`);
      // Moving the mouse wakes it up again.
      await page.mouse.move(900, 400);
      await page.mouse.move(950, 420);
      await page.waitForTimeout(300);
      assert((await framesDrawn(page)) > before + idle, 'input did not wake the page');
      await context.close();
    },

    async 'the mouse wheel scrolls the stacked page down (and back up)'() {
      const { page, context } = await checkPage('calculator-before-scroll-800x1000', { viewport: { width: 800, height: 1000 } });
      await page.mouse.move(400, 600);
      await page.waitForTimeout(300);
      const top = await page.screenshot();
      await page.mouse.wheel(0, 1200);  // down
      await page.waitForTimeout(600);
      const { buffer: scrolled } = await screenshot(page, 'calculator-scrolled-800x1000');
      assert(!scrolled.equals(top), 'the wheel did not scroll the page');
      await page.mouse.wheel(0, -5000);  // back up
      await page.waitForTimeout(600);
      const back = await page.screenshot();
      assert(back.equals(top), 'scrolling back up did not return to the top');
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
      const workload = () => page.evaluate(() => JSON.parse(TrainCost.decodeLink(location.hash)).scenario.workloads[0]);
      // Waits until the scenario in the address bar has these workload fields.
      const until = (fields, what) => page.waitForFunction((want) => {
        const w = JSON.parse(TrainCost.decodeLink(location.hash)).scenario.workloads[0];
        return Object.entries(want).every(([k, v]) => w[k] === v);
      }, fields, { timeout: 10000 }).catch(async () => {
        const w = await workload();
        throw new Error(`${what}: got runs ${w.runs}, horizon_months ${w.horizon_months}`);
      });
      const runs = [380, 360], horizon = [380, 393];  // "Expected runs", and "Horizon (months)" under it
      // Tab from one field to the next, then a shortcut and typing faster than frames are drawn.
      await clickAndSettle(page, ...runs);
      await page.keyboard.press('Tab');
      await page.waitForTimeout(200);
      await page.keyboard.press('Control+A');
      await page.keyboard.type('24');
      await page.keyboard.press('Enter');
      await until({ horizon_months: 24, runs: 6 }, 'Tab then Ctrl+A, 24, Enter sets the horizon');
      // Backspace typed in one burst with the characters around it acts in order.
      await clickAndSettle(page, ...runs);
      await page.keyboard.type('245');
      await page.keyboard.press('Backspace');
      await page.keyboard.type('6');
      await page.keyboard.press('Enter');
      await until({ runs: 246 }, '245, Backspace, 6 gives 246 runs');
      // A click from a field straight into the one above it commits the first field's edit.
      await clickAndSettle(page, ...horizon);
      await page.keyboard.type('18');
      await page.waitForTimeout(200);
      await clickAndSettle(page, ...runs);
      await page.keyboard.type('9');
      await page.keyboard.press('Enter');
      await until({ horizon_months: 18, runs: 9 }, 'clicking into the field above keeps the horizon typed before');
      await context.close();
    },

    async 'tabs, chart hover and PNG export work'() {
      const { page, context, log } = await checkPage('calculator-hover', { viewport: { width: 1280, height: 800 } });
      await page.mouse.move(1000, 420);  // over the cumulative-cost chart
      await page.waitForTimeout(400);
      await screenshot(page, 'calculator-chart-tooltip');
      await clickAndSettle(page, 706, 151);  // the "How sure?" tab
      await screenshot(page, 'calculator-how-sure-1280x800');
      await clickAndSettle(page, 783, 151);  // the "Catalog" tab
      await screenshot(page, 'calculator-catalog-1280x800');
      await clickAndSettle(page, 631, 151);  // back to "Results"
      const download = page.waitForEvent('download', { timeout: 10000 });
      await page.mouse.click(1254, 281);  // the cumulative-cost chart's PNG button
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
