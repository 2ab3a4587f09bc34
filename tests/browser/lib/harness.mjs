// The browser tests' harness: a static server on 127.0.0.1, Debian's Chromium driven by
// playwright-core (WebGL2 through SwiftShader), a log of console errors and of every request that
// would leave 127.0.0.1, and a tiny runner that ends with "N passed, N failed".
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../../scripts/static-server.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const SITE = process.env.TRAINCOST_SITE || join(ROOT, 'build/wasm/site');
export const CLI = process.env.TRAINCOST_CLI || join(ROOT, 'build/native/traincost');
export const SHOTS = process.env.TRAINCOST_SHOTS || join(ROOT, 'build/wasm/screenshots');

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--use-gl=swiftshader', '--enable-unsafe-swiftshader',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
  '--disable-quic', '--disable-features=Translate,MediaRouter,OptimizationHints',
];

export async function launch() {
  return chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
}

export async function serve(root = SITE) {
  const server = await startServer(root, 0);
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

// Opens a page and records what the tests check on every page: console errors, page errors,
// requests to anything but 127.0.0.1, and failed requests.
export async function openPage(browser, url, { viewport = { width: 1280, height: 800 }, colorScheme = 'dark', deviceScaleFactor = 1,
  hasTouch = false, isMobile = false } = {}) {
  const context = await browser.newContext({ viewport, colorScheme, deviceScaleFactor, hasTouch, isMobile });
  const page = await context.newPage();
  const log = { consoleErrors: [], foreignRequests: [], failedRequests: [] };
  page.on('console', (m) => { if (m.type() === 'error') log.consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => log.consoleErrors.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (!['data:', 'blob:'].includes(u.protocol) && u.hostname !== '127.0.0.1') log.foreignRequests.push(r.url());
  });
  page.on('requestfailed', (r) => log.failedRequests.push(`${r.url()} ${r.failure()?.errorText}`));
  if (url) await page.goto(url);
  return { page, context, log };
}

// Waits until the calculator has started and drawn at least a few frames.
export async function waitForCalculator(page, timeout = 60000) {
  await page.waitForFunction(() => window.TrainCost && window.TrainCost.version &&
    window.Module && window.Module._tc_frames_drawn && window.Module._tc_frames_drawn() >= 2 &&
    document.querySelector('#results-mirror .verdict'), null, { timeout });
}

// The embed (?embed=1) shows the card of its scenario and loads the calculator only when the
// reader presses "Change the inputs" under it (calculator.js, offerCalculator). Presses it, on a
// page or a frame. A click event, not the mouse: a frame lower on its host page stays where it is.
export async function startEmbed(page, timeout = 60000) {
  await page.waitForSelector('#start-calculator', { state: 'visible', timeout });
  await page.$eval('#start-calculator', (b) => b.click());
}

export async function screenshot(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  const path = join(SHOTS, `${name}.png`);
  const buffer = await page.screenshot({ path });
  return { path, buffer };
}

export function assert(condition, message) {
  if (!condition) throw new Error(message);
}
export function assertEqual(actual, expected, message) {
  if (actual !== expected) throw new Error(`${message}\n  expected: ${JSON.stringify(expected)}\n  actual:   ${JSON.stringify(actual)}`);
}
// JSON equal, numbers to the last bit (or, should the native and wasm builds' arithmetic ever
// differ, within 1e-12 relative): a page figure against the CLI's.
export function sameJson(a, b, path = '') {
  if (typeof a === 'number' && typeof b === 'number') {
    assert(a === b || Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b)), `${path}: ${a} vs ${b}`);
    return;
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    assertEqual(a, b, path);
    return;
  }
  assertEqual(Object.keys(a).join(','), Object.keys(b).join(','), `${path}: keys`);
  for (const k of Object.keys(a)) sameJson(a[k], b[k], `${path}.${k}`);
}

// Closes a page after checking it logged no error (a crash in the module shows here first).
export async function closeClean(context, log) {
  assertEqual(log.consoleErrors.join(' | '), '', 'console errors');
  await context.close();
}

// Runs `tests` ({name: async fn}) one after another and prints one line each and a summary.
export async function run(suite, tests) {
  let passed = 0, failed = 0;
  // TRAINCOST_ONLY=<regular expression> runs the matching tests only (while working on them).
  const only = process.env.TRAINCOST_ONLY ? new RegExp(process.env.TRAINCOST_ONLY) : null;
  for (const [name, fn] of Object.entries(tests)) {
    if (only && !only.test(name)) continue;
    const start = Date.now();
    try {
      await fn();
      passed++;
      console.log(`ok    ${suite}: ${name} (${Date.now() - start} ms)`);
    } catch (e) {
      failed++;
      console.log(`FAIL  ${suite}: ${name}\n      ${String(e.stack || e).split('\n').join('\n      ')}`);
    }
  }
  console.log(`${suite}: ${passed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

export function writeJson(name, data) {
  mkdirSync(SHOTS, { recursive: true });
  writeFileSync(join(SHOTS, name), JSON.stringify(data, null, 2));
}
