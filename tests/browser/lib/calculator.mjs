// Helpers for tests of the calculator page: the CLI to compare against, the page's text mirror,
// and the debug hooks (frames drawn, timings).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { CLI, ROOT } from './harness.mjs';

export function cli(args) {
  return execFileSync(CLI, args, { encoding: 'utf8', cwd: ROOT });
}
export function cliJson(args) {
  return JSON.parse(cli(args));
}
export function scenarioPath(name) {
  return join(ROOT, 'assets/scenarios', `${name}.json`);
}
// "#s=1.…" for an example scenario, from the native CLI.
export function linkFor(name) {
  return cli(['link', scenarioPath(name)]).trim();
}
export function cliVerdicts(name) {
  return cliJson(['evaluate', scenarioPath(name), '--format', 'json']).workloads.map((w) => w.verdict);
}

// What the page's aria-live mirror says.
export async function mirror(page) {
  return page.evaluate(() => ({
    verdicts: [...document.querySelectorAll('#results-mirror .verdict')].map((n) => n.textContent),
    rows: [...document.querySelectorAll('#results-mirror table')].map((t) => [...t.rows].map((r) => [...r.cells].map((c) => c.textContent))),
    banners: [...document.querySelectorAll('#results-mirror .banner')].map((n) => n.textContent),
    status: document.querySelector('#results-mirror .status')?.textContent || '',
  }));
}

export async function stats(page) {
  return page.evaluate(() => {
    const p = Module._tc_stats();
    const s = UTF8ToString(p);
    Module._free(p);
    return JSON.parse(s);
  });
}

export async function framesDrawn(page) {
  return page.evaluate(() => Module._tc_frames_drawn());
}

// Waits until the Monte Carlo of the current scenario has run (the page is then at rest).
export async function waitForAnalysis(page, timeout = 30000) {
  await page.waitForFunction(() => {
    const p = Module._tc_stats();
    const s = JSON.parse(UTF8ToString(p));
    Module._free(p);
    return s.analysis_ready;
  }, null, { timeout });
}
