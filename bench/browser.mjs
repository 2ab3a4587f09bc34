// How fast the answer reaches a reader: first-load bytes and time to the verdict for the page and
// the embed, on a phone profile and on the desktop, three runs each, min/median/max. A benchmark,
// not a test: it prints figures, which vary with the machine and its load, and asserts nothing.
//   node bench/browser.mjs [SITE_DIR] [--runs N] [--cli build/native/traincost]
// Phone: 390x844 at 3x, touch, 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, CPU slowed 4x
// (Chrome DevTools Protocol: Network.emulateNetworkConditions, Emulation.setCPUThrottlingRate),
// the usual mobile lab profile. Desktop: 1280x800 at 1x, no throttling. The site is served from
// 127.0.0.1 gzip-compressed (level 6), as a static host serves it, with no cache between runs.
// Times are from the start of navigation (performance.now() in the page):
//   text     a verdict is readable as HTML (the page's pre-rendered answer or its text mirror shown
//            before the canvas); "-" when the page never shows one as text
//   canvas   the canvas has drawn its first frame with the core's answer
//   verdict  the earlier of the two: when the reader first sees the verdict
// and the bytes:
//   KB before the verdict  what had arrived when the verdict was first readable: the page and the
//            files complete by then (Resource Timing's transferSize: the body as sent, gzipped,
//            plus headers); a file still arriving at that moment is not counted
//   KB on the wire         everything the page loaded until its first frame and the network was idle
// The embed loads the calculator only when the reader presses "Change the inputs" under its
// card: the benchmark presses it as soon as the card is readable, so its canvas time is the
// soonest a reader could have the canvas, and its KB on the wire include the calculator.
// Then the longest main-thread task (Long Tasks API: any task over 50 ms) while the desktop page
// opens a heavy but valid link (tests/links/heavy-moe.txt: 16 mixture-of-experts workloads × 8
// options, deadlines searched up to 100,000 instances) and while it takes an edit, until the page
// is at rest (base evaluation, sweep and Monte Carlo done). --heavy-only prints this alone.
// Beside it, from a trace of the same runs, the longest task less the canvas's software readback
// (longestFromTrace says why that is this machine's and not the page's).
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import * as ui from '../tests/browser/lib/ui.mjs';

const ROOT = resolve(new URL('..', import.meta.url).pathname);
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const SITE = resolve(args.find((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--'))) || join(ROOT, 'build/wasm/site'));
const RUNS = Number(option('--runs', 3));
const CLI = option('--cli', join(ROOT, 'build/native/traincost'));

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.otf': 'font/otf', '.ttf': 'font/ttf', '.json': 'application/json' };
const COMPRESSED = new Set(['.png', '.jpg', '.webp', '.woff2']);

function startServer(root) {
  const cache = new Map();
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
    let file = normalize(join(root, path));
    if (!file.startsWith(root + sep)) { res.writeHead(403).end(); return; }
    try { if (statSync(file).isDirectory()) file = join(file, 'index.html'); } catch { res.writeHead(404).end(); return; }
    let body;
    try { body = readFileSync(file); } catch { res.writeHead(404).end(); return; }
    const ext = extname(file).toLowerCase();
    const headers = { 'content-type': TYPES[ext] || 'application/octet-stream', 'cache-control': 'no-store' };
    if (!COMPRESSED.has(ext) && /\bgzip\b/.test(req.headers['accept-encoding'] || '')) {
      if (!cache.has(file)) cache.set(file, gzipSync(body, { level: 6 }));
      body = cache.get(file);
      headers['content-encoding'] = 'gzip';
    }
    headers['content-length'] = body.length;
    res.writeHead(200, headers).end(body);
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

const PROFILES = {
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true,
           network: { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 }, cpu: 4 },
  desktop: { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, isMobile: false, hasTouch: false, network: null, cpu: 1 },
};

// Runs in the page from its first script on: notes when a verdict is first readable as text and
// when the canvas first drew.
function watch() {
  const marks = { text: null, canvas: null, textBytes: null, canvasBytes: null };
  // The bytes of the page and of every file complete so far (a file gets its entry when complete).
  const bytesNow = () => [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
    .reduce((sum, e) => sum + (e.transferSize || 0), 0);
  window.__tcMarks = marks;
  const visible = (n) => {
    if (!n || !n.textContent.trim()) return false;
    const r = n.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) return false;
    for (let e = n; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.display === 'none' || s.visibility === 'hidden' || s.clipPath === 'inset(50%)') return false;
    }
    return true;
  };
  const tick = () => {
    const now = performance.now();
    if (marks.text === null && [...document.querySelectorAll('.verdict')].some(visible)) { marks.text = now; marks.textBytes = bytesNow(); }
    // (The export throws until the module has been instantiated.)
    let frames = 0;
    try { frames = window.Module && window.Module._tc_frames_drawn ? window.Module._tc_frames_drawn() : 0; } catch (e) { frames = 0; }
    if (marks.canvas === null && frames >= 1 && document.querySelector('#results-mirror .verdict')) { marks.canvas = now; marks.canvasBytes = bytesNow(); }
    if (marks.text === null || marks.canvas === null) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  document.addEventListener('DOMContentLoaded', tick);
}

async function loadOnce(browser, url, profile, autosave) {
  const p = PROFILES[profile];
  const context = await browser.newContext({ viewport: p.viewport, deviceScaleFactor: p.deviceScaleFactor, isMobile: p.isMobile,
                                             hasTouch: p.hasTouch, colorScheme: 'light' });
  const page = await context.newPage();
  await page.addInitScript(watch);
  if (autosave) await page.addInitScript((text) => window.localStorage.setItem('traincost.autosave', text), autosave);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (p.network) await cdp.send('Network.emulateNetworkConditions', p.network);
  if (p.cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: p.cpu });
  let bytes = 0;
  cdp.on('Network.loadingFinished', (e) => { bytes += e.encodedDataLength; });
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__tcMarks && (window.__tcMarks.text !== null || window.__tcMarks.canvas !== null), null,
                             { timeout: 120000, polling: 100 });
  // The embed's card, and its button to the calculator: pressed at once.
  if (await page.evaluate(() => { const a = document.getElementById('card-actions'); return !!a && !a.hidden; }))
    await page.click('#start-calculator');
  try {
    await page.waitForFunction(() => window.__tcMarks && window.__tcMarks.canvas !== null, null, { timeout: 120000, polling: 200 });
  } catch (e) {
    const state = await page.evaluate(() => JSON.stringify({ marks: window.__tcMarks, frames: window.Module && window.Module._tc_frames_drawn &&
      window.Module._tc_frames_drawn(), verdict: !!document.querySelector('#results-mirror .verdict') })).catch((x) => String(x));
    throw new Error(`${url} (${profile}): no first frame in 120 s: ${state}`);
  }
  const marks = await page.evaluate(() => window.__tcMarks);
  // Whatever the page still fetches after its first frame is part of its first load too.
  await page.waitForLoadState('networkidle', { timeout: 30000 }).catch(() => {});
  await context.close();
  const verdict = Math.min(marks.text ?? Infinity, marks.canvas);
  return { bytes, text: marks.text, canvas: marks.canvas, verdict, verdictBytes: verdict === marks.text ? marks.textBytes : marks.canvasBytes };
}

function link(file) {
  return execFileSync(CLI, ['link', join(ROOT, 'assets/scenarios', file)], { encoding: 'utf8' }).trim();
}

const stats = (xs) => {
  const v = xs.filter((x) => x !== null && Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return '-';
  return `${(v[0] / 1000).toFixed(2)} / ${(v[Math.floor((v.length - 1) / 2)] / 1000).toFixed(2)} / ${(v[v.length - 1] / 1000).toFixed(2)}`;
};

// The longest main-thread task of each phase, in ms (0: none over 50 ms, the Long Tasks API's floor),
// and the longest script run inside one (Long Animation Frames: a callback of the page's, such as
// a frame of the main loop, a publish or a form build). The difference is the browser's own work
// in the task: style, layout and, for the canvas, the commit of its frame, which with software GL
// (SwiftShader, as on this machine) rasterizes the frame on the main thread.
function observeLongTasks() {
  window.__tcLongest = 0;
  window.__tcLongestScript = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__tcLongest = Math.max(window.__tcLongest, e.duration);
  }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      for (const s of e.scripts) window.__tcLongestScript = Math.max(window.__tcLongestScript, s.duration);
  }).observe({ type: 'long-animation-frame', buffered: true });
}
const takeLongest = () => { const v = [window.__tcLongest, window.__tcLongestScript]; window.__tcLongest = 0; window.__tcLongestScript = 0; return v; };
// The page has the current scenario's results: a verdict, and no base evaluation still running.
const resultsIn = () => !!document.querySelector('#results-mirror .verdict') && !document.querySelector('#results-mirror .updating');
const recomputes = () => { const p = Module._tc_stats(); const s = JSON.parse(UTF8ToString(p)); Module._free(p); return s.recomputes; };

// The longest task again from a trace of the main thread, and the same task less the time it waited
// for the canvas's pixels to be read back (`GLES2::ReadPixels`, in the commit's `DoUpdateLayers`).
// That readback exists because this browser composites in software (--disable-gpu: no GPU here);
// its wait includes SwiftShader drawing the frame's triangles. A browser compositing on a GPU
// samples the canvas's texture and never waits for it on the main thread, so the second figure is
// what the page's own work and the browser's style, layout and paint hold the thread.
function longestFromTrace(traceEvents) {
  const mains = traceEvents.filter((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain');
  const onThread = (m) => traceEvents.filter((e) => e.pid === m.pid && e.tid === m.tid && e.ph === 'X');
  const main = mains.map(onThread).sort((a, b) => b.length - a.length)[0] || [];
  const tasks = main.filter((e) => e.name.endsWith('RunTask') && e.dur > 50000);
  const readbacks = main.filter((e) => e.name === 'GLES2::ReadPixels');
  let all = 0, less = 0;
  for (const t of tasks) {
    const waited = readbacks.filter((r) => r.ts >= t.ts && r.ts + r.dur <= t.ts + t.dur).reduce((sum, r) => sum + r.dur, 0);
    all = Math.max(all, t.dur / 1000);
    less = Math.max(less, (t.dur - waited) / 1000);
  }
  return [all, less];
}
const TRACE_CATEGORIES = ['devtools.timeline', 'toplevel', 'gpu'];

async function heavyLinkTasks(browser, url) {
  const context = await browser.newContext({ viewport: PROFILES.desktop.viewport, colorScheme: 'light' });
  const page = await context.newPage();
  await page.addInitScript(observeLongTasks);
  await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  await page.goto(url);
  await page.waitForFunction(resultsIn, null, { timeout: 300000, polling: 100 });
  await ui.settled(page, { timeout: 300000 }).catch(() => {});
  const openTrace = longestFromTrace(JSON.parse((await browser.stopTracing()).toString()).traceEvents);
  const open = [...(await page.evaluate(takeLongest)), openTrace[1]];
  const before = await page.evaluate(recomputes);
  await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  await ui.type(page, 'workloads[0].runs', '3', { settle: false });
  await page.waitForFunction((n) => (() => { const p = Module._tc_stats(); const s = JSON.parse(UTF8ToString(p)); Module._free(p); return s.recomputes; })() > n,
                             before, { timeout: 300000, polling: 100 });
  await page.waitForFunction(resultsIn, null, { timeout: 300000, polling: 100 });
  await ui.settled(page, { timeout: 300000 }).catch(() => {});
  const editTrace = longestFromTrace(JSON.parse((await browser.stopTracing()).toString()).traceEvents);
  const edit = [...(await page.evaluate(takeLongest)), editTrace[1]];
  await context.close();
  return { open, edit };
}

const server = await startServer(SITE);
const base = `http://127.0.0.1:${server.address().port}/`;
const heavyOnly = args.includes('--heavy-only');
const portfolio = heavyOnly ? '' : link('portfolio-multicloud.json');
const targets = [
  ['page, default example', 'calculator.html'],
  ['page, a shared link', `calculator.html${portfolio}`],
  ['embed, a shared link', `calculator.html?embed=1${portfolio}`],
  // A returning reader: the scenario saved in this browser (web/app.cpp's autosave), no link.
  ['page, an autosave', 'calculator.html', readFileSync(join(ROOT, 'assets/scenarios/portfolio-multicloud.json'), 'utf8')],
];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: [
  '--no-sandbox', '--disable-gpu', '--use-gl=swiftshader', '--enable-unsafe-swiftshader', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'] });
if (!heavyOnly) {
  console.log(`site ${SITE}, ${RUNS} runs each; seconds from navigation, min / median / max`);
  console.log(`${'profile'.padEnd(8)} ${'what'.padEnd(22)} ${'KB before the verdict'.padStart(22)} ${'KB on the wire'.padStart(15)}  ` +
              `${'verdict'.padEnd(20)} ${'text'.padEnd(20)} canvas`);
  for (const profile of (option('--profiles', 'phone,desktop')).split(',')) {
    for (const [label, path, autosave] of targets) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await loadOnce(browser, base + path, profile, autosave));
      const kb = runs.map((r) => r.bytes / 1000);
      const before = runs.map((r) => r.verdictBytes / 1000);
      console.log(`${profile.padEnd(8)} ${label.padEnd(22)} ${Math.min(...before).toFixed(1).padStart(22)} ${Math.min(...kb).toFixed(1).padStart(15)}  ` +
                  `${stats(runs.map((r) => r.verdict)).padEnd(20)} ` +
                  `${stats(runs.map((r) => r.text)).padEnd(20)} ${stats(runs.map((r) => r.canvas))}`);
    }
  }
}
const heavy = readFileSync(join(ROOT, 'tests/links/heavy-moe.txt'), 'utf8').trim();
const tasks = [];
for (let i = 0; i < RUNS; i++) tasks.push(await heavyLinkTasks(browser, base + 'calculator.html' + heavy));
const ms = (xs) => xs.map((x) => x.toFixed(0)).join(' / ');
console.log(`longest main-thread task, heavy link (tests/links/heavy-moe.txt), desktop, ${RUNS} runs, ms (0: none over 50 ms):`);
console.log(`               task (all of it)    its longest script (the page's code)    task less the software readback of the canvas`);
const row = (phase) => `${ms(tasks.map((t) => t[phase][0])).padEnd(20)}${ms(tasks.map((t) => t[phase][1])).padEnd(40)}${ms(tasks.map((t) => t[phase][2]))}`;
console.log(`  opening it   ${row('open')}`);
console.log(`  an edit      ${row('edit')}`);
await browser.close();
server.close();
