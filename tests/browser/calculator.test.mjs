// The calculator page in a real browser: it draws, it shows what the core computes (the same
// verdict as the native CLI), it logs no errors and it never talks to another host.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { decodePng, greyVariance } from './lib/png.mjs';
import { CLI, ROOT, assert, assertEqual, launch, openPage, run, screenshot, serve, waitForCalculator } from './lib/harness.mjs';

function cliVerdicts(scenarioFile) {
  const out = execFileSync(CLI, ['evaluate', join(ROOT, scenarioFile), '--format', 'json'], { encoding: 'utf8' });
  return JSON.parse(out).workloads.map((w) => w.verdict);
}

async function mirrorVerdicts(page) {
  return page.$$eval('#results-mirror .verdict', (nodes) => nodes.map((n) => n.textContent));
}

const browser = await launch();
const { server, url } = await serve();
try {
  await run('calculator', {
    async 'draws the page and shows the core verdict, with no errors and no foreign requests'() {
      const { page, context, log } = await openPage(browser, `${url}calculator.html`);
      await waitForCalculator(page);
      const { buffer } = await screenshot(page, 'calculator-default-1280x800');
      const variance = greyVariance(decodePng(buffer));
      assert(variance > 25, `the canvas looks blank (grey variance ${variance.toFixed(1)})`);
      assertEqual(JSON.stringify(await mirrorVerdicts(page)), JSON.stringify(cliVerdicts('assets/scenarios/llama3-8b-pretrain.json')),
                  'the verdict on the page differs from the CLI');
      const version = JSON.parse(await page.evaluate(() => TrainCost.version));
      assertEqual(version.catalog, '2026-11-30', 'TrainCost.version names the catalog');
      assertEqual(log.consoleErrors.length, 0, `console errors: ${log.consoleErrors.join(' | ')}`);
      assertEqual(log.foreignRequests.length, 0, `requests left 127.0.0.1: ${log.foreignRequests.join(' ')}`);
      assertEqual(log.failedRequests.length, 0, `failed requests: ${log.failedRequests.join(' ')}`);
      await context.close();
    },
  });
} finally {
  await browser.close();
  server.close();
}
