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

// A link built from raw JSON, independently of the core: link format 1 with an LZ stream of
// literal runs only (valid for the decoder, which never needs matches) and the FNV-1a checksum.
// Lets tests make links the core would refuse to write (a well-formed link to an invalid scenario).
export function rawLink(jsonText) {
  const data = Buffer.from(jsonText, 'utf8');
  const parts = [];
  for (let i = 0; i < data.length; i += 128) {
    const run = data.subarray(i, i + 128);
    parts.push(Buffer.from([run.length - 1]), run);
  }
  const packed = Buffer.concat(parts);
  let h = 2166136261;
  for (const c of packed) h = Math.imul(h ^ c, 16777619) >>> 0;
  const sum = ((h >>> 16) ^ (h & 0xffff)) & 0xffff;
  const payload = Buffer.concat([packed, Buffer.from([sum >> 8, sum & 0xff])]).toString('base64url');
  return `#s=1.${payload}`;
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
