// The static site around the calculator, crawled from a local server: every link and asset
// resolves, every page carries its Content-Security-Policy and asks nothing of another host, the
// data page lists the whole catalog with sources, the pages read without JavaScript and on a
// phone, the transfer budgets hold, and it all works from a sub-path. Screenshots of every page
// (1280×800 and 800×1000, light and dark) land in build/wasm/screenshots/site-*.png.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmdirSync, statSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { startServer } from '../../scripts/static-server.mjs';
import { cliVerdicts } from './lib/calculator.mjs';
import { CLI, ROOT, SITE, assert, assertEqual, launch, openPage, run, screenshot, serve, waitForCalculator, writeJson } from './lib/harness.mjs';

const CALCULATOR = 'calculator.html';
// Bytes gzipped, first load, 1 KB = 1000 bytes. 400 KB when the page was a cost table; raised to
// 480 KB on 2026-12-01 when the core gained the step-time model and layout search, goodput by
// failure class, thresholds and the pilot, deadlines and the sweep, and published-run replay (the
// page measured 468 KB with them all); raised again to 500 KB the same day when the page itself
// gained the sweep chart, the published-runs dialog and the thresholds & pilot tab (488.5 KB).
// Loading the rarely used parts lazily is the way back down; the budget is a team decision.
// Raised to 560 KB on 2026-12-04 (measured 528,752 B, then 540,997 B with the pilot-log readers):
// LoRA/QLoRA, spot reclaims, storage, the software lifecycle, the quick odds, the hardened readers
// and the pilot-log readers joined the core the page carries.
// Raised to 570 KB on 2026-12-05 (measured 562,345 B): the accessible DOM form, the sliced base
// evaluation, the "By chip" tab and the pilot-results dialog.
// Raised to 580 KB on 2026-12-05, third session (measured 576,972 B from a clean clone): the form
// reaching every input the canvas edits, the Monte Carlo's input drawing compiled at -O2 with the
// cost parts unrolled (the sample path about twice as fast), per-type spot rates, error bands by
// model kind and the stepped on-time-odds search.
// Issue 32 (a lighter page, rarely used parts loaded on first use) is where it comes back down.
// Lowered to 562 KB on 2026-12-05 (measured 556,480 B, plus 1%): the wasm objects compiled with
// -Oz, -flto, -fno-rtti and -fno-exceptions (docs/performance.md, "The objects' flags").
// Set to 565 KB the same day (this test measured 559,684 B, about 3 KB more than size_report.py's
// count, which had set the 562: 1% over what this test measures).
// Lowered to 562 KB on 2026-12-07 (measured 556,991 B, plus 0.9%): the page's JavaScript minified
// by Debian's terser at build (web/shell/minify.mjs), 8.7 KB less.
const BUDGET_CALCULATOR = 562_000;
const BUDGET_PAGE = 100_000;        // every other page: strictly less
const ALREADY_COMPRESSED = /\.(png|jpe?g|webp|gif|woff2)$/i;

const catalog = JSON.parse(readFileSync(join(ROOT, 'assets/catalog.json'), 'utf8'));
const schema = JSON.parse(execFileSync(CLI, ['schema', '--format', 'json'], { encoding: 'utf8' }));
const htmlFiles = (function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : name.endsWith('.html') ? [relative(SITE, path)] : [];
  });
})(SITE).sort();
const staticPages = htmlFiles.filter((p) => p !== CALCULATOR);
const read = (file) => readFileSync(join(SITE, file), 'utf8');

// Bytes on the wire: gzip (level 6, as servers commonly do) unless the format is compressed already.
function transferSize(file) {
  const data = readFileSync(join(SITE, file));
  return ALREADY_COMPRESSED.test(file) ? data.length : gzipSync(data, { level: 6 }).length;
}

// Every URL an HTML text refers to: [{tag, attr, url}] (entities in attributes decoded).
function references(htmlText) {
  const out = [];
  for (const [tag, name] of htmlText.matchAll(/<(a|link|script|img|source|iframe|meta)\b[^>]*>/gi)) {
    const attrs = Object.fromEntries([...tag.matchAll(/([\w:-]+)="([^"]*)"/g)].map(([, k, v]) => [k.toLowerCase(), v.replace(/&amp;/g, '&')]));
    const t = name.toLowerCase();
    if (t === 'meta') {
      if (attrs.property === 'og:image' || attrs.property === 'og:url') out.push({ tag: t, attr: 'content', url: attrs.content });
      continue;
    }
    for (const attr of ['href', 'src']) if (attrs[attr] !== undefined) out.push({ tag: t, attr, url: attrs[attr] });
    if (attrs.srcset) for (const c of attrs.srcset.split(',')) out.push({ tag: t, attr: 'srcset', url: c.trim().split(/\s+/)[0] });
  }
  return out;
}

// Fetches every page reachable from `start` and every internal URL they name; checks status 200,
// that #fragments name an element of their page, and that nothing but <a> points to another host.
async function crawl(start, { under = null } = {}) {
  const origin = new URL(start).origin;
  const pages = new Map();  // url without fragment -> html text
  const checked = new Map();
  const problems = [];
  const queue = [start];
  const fetchOnce = async (url) => {
    if (!checked.has(url)) {
      const res = await fetch(url);
      checked.set(url, { status: res.status, type: res.headers.get('content-type') || '', text: await res.text() });
    }
    return checked.get(url);
  };
  while (queue.length) {
    const pageUrl = queue.shift();
    if (pages.has(pageUrl)) continue;
    const page = await fetchOnce(pageUrl);
    pages.set(pageUrl, page.text);
    for (const ref of references(page.text)) {
      const target = new URL(ref.url, pageUrl);
      const where = `${new URL(pageUrl).pathname}: <${ref.tag} ${ref.attr}="${ref.url.slice(0, 60)}">`;
      if (target.origin !== origin) {
        if (ref.tag !== 'a' && !(ref.tag === 'meta' && /^https:\/\//.test(ref.url))) problems.push(`${where} loads from another host`);
        else if (!/^https?:$/.test(target.protocol)) problems.push(`${where} is not a web link`);
        continue;
      }
      if (under && !target.pathname.startsWith(under)) problems.push(`${where} leaves ${under}`);
      const bare = target.href.split('#')[0];
      const res = await fetchOnce(bare);
      if (res.status !== 200) { problems.push(`${where} -> HTTP ${res.status}`); continue; }
      const fragment = decodeURIComponent(target.hash.slice(1));
      const isHtml = res.type.startsWith('text/html');
      if (fragment && isHtml && !fragment.startsWith('s=') && !new RegExp(`\\sid="${fragment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`).test(res.text))
        problems.push(`${where}: no element with id "${fragment}"`);
      if (isHtml && ref.tag === 'a' && !pages.has(bare)) queue.push(bare);
    }
  }
  return { pages, problems };
}

// The directives of a page's CSP <meta>, or null.
function cspOf(htmlText) {
  const m = htmlText.match(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/i);
  if (!m) return null;
  return Object.fromEntries(m[1].split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([k, ...v]) => [k, v]));
}

// Loads a page and returns the site files its main frame fetched (paths relative to the site).
async function loadedFiles(browser, base, file, colorScheme) {
  const { page, context, log } = await openPage(browser, null, { colorScheme });
  const files = new Set([file]);
  page.on('response', (r) => {
    if (r.frame() !== page.mainFrame() || !r.url().startsWith(base)) return;
    files.add(decodeURIComponent(new URL(r.url()).pathname.slice(new URL(base).pathname.length)));
  });
  await page.goto(base + file);
  if (file === CALCULATOR) await waitForCalculator(page);
  else await page.waitForLoadState('networkidle');
  // Browsers fetch the declared icon for the tab; headless Chromium may not, so count it anyway.
  const icon = await page.$eval('link[rel="icon"]', (l) => l.getAttribute('href')).catch(() => null);
  if (icon) files.add(icon);
  await context.close();
  assertEqual(log.foreignRequests.length, 0, `${file} requested other hosts: ${log.foreignRequests.join(' ')}`);
  return files;
}

// The figures of the catalog, each with the path the data page gives it (data-figure).
function catalogFigures() {
  const out = [];
  const isFigure = (v) => v && typeof v === 'object' && 'value' in v && 'source' in v;
  for (const c of catalog.chips) for (const [k, v] of Object.entries(c)) if (isFigure(v)) out.push([`chips/${c.id}/${k}`, k, v]);
  for (const i of catalog.instances) {
    out.push([`instances/${i.id}/network_gbps`, 'network_gbps', i.network_gbps]);
    for (const [k, v] of Object.entries(i.prices)) out.push([`instances/${i.id}/prices/${k}`, k, v]);
  }
  for (const [k, v] of Object.entries(catalog.defaults)) if (isFigure(v)) out.push([`defaults/${k}`, k, v]);
  for (const [fam, p] of Object.entries(catalog.defaults.platform))
    for (const [k, v] of Object.entries(p)) out.push([`defaults/platform/${fam}/${k}`, k, v]);
  return out;
}

function cliLink(scenario) {
  return execFileSync(CLI, ['link', join(ROOT, 'assets/scenarios', scenario)], { encoding: 'utf8' }).trim();
}

const browser = await launch();
const { server, url } = await serve();
try {
  await run('site', {
    async 'every page and asset resolves from the landing page, with every #anchor, and no page is orphaned'() {
      const { pages, problems } = await crawl(`${url}index.html`);
      for (const file of htmlFiles) {  // 404.html is reached by mistakes, not links; check it on its own
        if (file === '404.html') problems.push(...(await crawl(`${url}404.html`)).problems);
        else if (!pages.has(`${url}${file}`)) problems.push(`${file} is not linked from any page`);
      }
      assertEqual(problems.join('\n'), '', 'broken links');
      assert(pages.size >= 6, `only ${pages.size} pages crawled`);
    },

    async 'every HTML page has a Content-Security-Policy allowing only its own origin'() {
      const problems = [];
      for (const file of htmlFiles) {
        const text = read(file);
        const csp = cspOf(text);
        if (!csp) { problems.push(`${file}: no CSP <meta>`); continue; }
        const head = text.slice(0, text.search(/<\/head>/i));
        if (head.search(/<meta\s+http-equiv="Content-Security-Policy"/i) > head.search(/<(link|script|style)\b/i) && /<(link|script|style)\b/i.test(head))
          problems.push(`${file}: the CSP must come before any stylesheet or script`);
        if (!csp['default-src'] || csp['default-src'].join(' ') !== "'self'") problems.push(`${file}: default-src must be 'self'`);
        if (!csp['object-src'] || csp['object-src'].join(' ') !== "'none'") problems.push(`${file}: object-src must be 'none'`);
        if (!csp['base-uri']) problems.push(`${file}: base-uri missing`);
        const allowed = ["'self'", "'none'", 'data:', 'blob:'].concat(file === CALCULATOR ? ["'wasm-unsafe-eval'"] : []);
        for (const [directive, sources] of Object.entries(csp))
          for (const s of sources) if (!allowed.includes(s)) problems.push(`${file}: ${directive} allows ${s}`);
        for (const d of ['script-src', 'style-src', 'img-src', 'font-src', 'connect-src'])
          if ((csp[d] || []).some((s) => s === 'data:' || s === 'blob:') && !(d === 'img-src' && file === CALCULATOR))
            problems.push(`${file}: ${d} allows data:/blob:`);
        if (/http-equiv="X-Frame-Options"/i.test(text)) problems.push(`${file}: X-Frame-Options would stop wikis from framing it`);
        if (file !== CALCULATOR && /<script\b/i.test(text)) problems.push(`${file}: the site's pages run no script`);
        if (/<style\b|\sstyle="/i.test(text.replace(/<pre\b[\s\S]*?<\/pre>/gi, ''))) problems.push(`${file}: inline styles are blocked by the CSP`);
      }
      assertEqual(problems.join('\n'), '', 'CSP problems');
    },

    async 'every page loads without errors or foreign requests; screenshots at 1280x800 and 800x1000, light and dark'() {
      const problems = [];
      for (const file of htmlFiles) {
        const backgrounds = {};
        for (const colorScheme of ['light', 'dark']) {
          for (const [width, height] of [[1280, 800], [800, 1000]]) {
            const { page, context, log } = await openPage(browser, null, { viewport: { width, height }, colorScheme });
            const bad = [];
            page.on('response', (r) => { if (r.status() >= 400) bad.push(`${r.status()} ${r.url()}`); });
            await page.goto(url + file);
            if (file === CALCULATOR) await waitForCalculator(page);
            await page.waitForLoadState('networkidle');
            await screenshot(page, `site-${file.replace(/\.html$/, '')}-${width}x${height}-${colorScheme}`);
            backgrounds[colorScheme] = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
            for (const e of [...log.consoleErrors, ...log.failedRequests, ...bad]) problems.push(`${file} ${width}x${height} ${colorScheme}: ${e}`);
            for (const r of log.foreignRequests) problems.push(`${file}: requested ${r}`);
            await context.close();
          }
        }
        if (backgrounds.light === backgrounds.dark) problems.push(`${file}: same background in light and dark (${backgrounds.light})`);
      }
      assertEqual(problems.join('\n'), '', 'page load problems');
    },

    async 'the data page lists every chip, instance and figure of the catalog with its source, date and estimate mark'() {
      const { page, context } = await openPage(browser, `${url}data.html`, {});
      const rows = new Map((await page.$$eval('tr[data-figure]', (trs) => trs.map((tr) => [tr.dataset.figure, {
        hrefs: [...tr.querySelectorAll('a')].map((a) => a.getAttribute('href')),
        text: tr.textContent.replace(/\s+/g, ' '),
        estimate: tr.classList.contains('is-estimate') && !!tr.querySelector('.badge'),
      }]))));
      const groups = Object.fromEntries(await page.$$eval('tbody[id]', (tbs) => tbs.map((t) => [t.id, t.textContent])));
      const sources = await page.$$eval('ol.sources a', (as) => as.map((a) => a.getAttribute('href')));
      const priceAge = await page.$eval('#price-age', (p) => p.textContent.replace(/\s+/g, ' ')).catch(() => '');
      await context.close();
      const problems = [];
      // The age line names the newest price date; a partial date counts from its first day, as in the core.
      const first = (d) => `${d}-01-01`.slice(0, 10);
      const newest = catalog.instances.flatMap((i) => Object.values(i.prices).map((f) => f.as_of))
        .reduce((best, d) => (first(d) > first(best) ? d : best));
      if (!/^Prices as of .* \(newest .* old/.test(priceAge) || !priceAge.includes(newest))
        problems.push(`no price age naming the newest price (${newest}): "${priceAge}"`);
      for (const c of catalog.chips)
        if (!(groups[`chip-${c.id}`] || '').includes(c.name)) problems.push(`chip ${c.id} (${c.name}) missing`);
      for (const i of catalog.instances)
        if (!(groups[`instance-${i.id}`] || '').includes(i.id)) problems.push(`instance ${i.id} missing`);
      const percent = new Set(['mfu', 'validation_run_fraction', 'convergence_penalty', 'checkpoint_blocking_share', 'replacement_share',
                               'lost_work_share', 'report_probability_per_year', 'report_effort_share']);
      for (const [path, key, fig] of catalogFigures()) {
        const row = rows.get(path);
        if (!row) { problems.push(`${path}: no row`); continue; }
        const url = catalog.sources[fig.source].url;
        if (!row.hrefs.includes(url)) problems.push(`${path}: no link to its source ${url}`);
        if (!row.text.includes(fig.as_of)) problems.push(`${path}: no as-of date ${fig.as_of}`);
        if (row.estimate !== !!fig.estimate) problems.push(`${path}: estimate mark ${row.estimate}, catalog says ${!!fig.estimate}`);
        const shown = String(percent.has(key) ? Number((fig.value * 100).toPrecision(6)) : fig.value);
        if (!row.text.replace(/,/g, '').includes(shown)) problems.push(`${path}: value ${shown} not shown (${row.text.slice(0, 80)})`);
      }
      for (const [key, s] of Object.entries(catalog.sources)) if (!sources.includes(s.url)) problems.push(`source ${key} not listed`);
      // Every scenario field whose default is a catalog figure has its row (build_site.py makes the
      // rows from the field table, so a new field with a catalog default gets one).
      for (const f of schema.fields.filter((x) => x.catalog_default)) {
        const key = f.catalog_default;
        const row = rows.get(`defaults/${key}`) || rows.get(`defaults/platform/trainium/${key}`);
        if (!row) problems.push(`${f.path}: its default (${key}) has no row`);
        else if (!row.text.toLowerCase().includes(f.label.toLowerCase())) problems.push(`${f.path}: its row is not labelled "${f.label}"`);
      }
      assertEqual(problems.join('\n'), '', 'data page problems');
    },

    async 'the methodology explains every estimated default and states the core\'s scaling-law constants'() {
      const text = read('methodology.html');
      const estimates = text.slice(text.indexOf('id="estimates"'), text.indexOf('id="limits"'));
      const explained = new Set([...estimates.matchAll(/data-figures="([^"]+)"/g)].flatMap((m) => m[1].split(/\s+/)));
      const problems = [];
      for (const [path, , fig] of catalogFigures())
        if ((fig.source === 'traincost-estimates' || (path.startsWith('defaults/') && fig.estimate)) && !explained.has(path))
          problems.push(`${path} (an estimate) is not explained in methodology.html#estimates`);
      assertEqual(catalog.sources['traincost-estimates'].url, 'methodology.html#estimates', 'the estimates source points at the section');
      const core = readFileSync(join(ROOT, 'core/src/io/scenario_json.cpp'), 'utf8');
      for (const [, kind, numbers] of core.matchAll(/case ScalingLawKind::(\w+): return \{([^}]+)\}/g)) {
        const row = text.match(new RegExp(`<tr><th scope="row"><code>${kind.toLowerCase()}</code>[\\s\\S]*?</tr>`));
        if (!row) { problems.push(`no table row for ${kind}`); continue; }
        const shown = [...row[0].matchAll(/<td>([\d.]+)<\/td>/g)].map((m) => Number(m[1]));
        assertEqual(JSON.stringify(shown), JSON.stringify(numbers.split(',').map(Number)), `${kind} constants on the page differ from the core`);
      }
      // The parts of a run's cost, as the core lists them (`traincost schema`), and their sum.
      for (const part of schema.cost_parts) {
        const row = text.match(new RegExp(`<tr id="cost-part-${part.key}">[\\s\\S]*?</tr>`));
        if (!row) problems.push(`cost part ${part.key}: no row in methodology.html`);
        else if (!row[0].includes(`<var>${part.symbol}</var>`) || !row[0].includes(part.label)) problems.push(`cost part ${part.key}: ${row[0]}`);
      }
      if (!text.includes(`<code>${schema.total_formula}</code>`)) problems.push(`no "${schema.total_formula}" in methodology.html`);
      assertEqual(problems.join('\n'), '', 'methodology problems');
    },

    async 'the landing page links three examples whose verdicts are the calculator\'s'() {
      const { page, context } = await openPage(browser, `${url}index.html`, {});
      const cards = await page.$$eval('.cards li', (lis) => lis.map((li) => ({ href: li.querySelector('a').getAttribute('href'), verdict: li.querySelector('p').textContent })));
      await context.close();
      assertEqual(cards.length, 3, 'three examples');
      const links = Object.fromEntries(['llama3-8b-pretrain.json', 'finetune-1b.json', 'llama3-70b-target-loss.json'].map((s) => [`calculator.html${cliLink(s)}`, s]));
      for (const card of cards) assert(links[card.href], `${card.href.slice(0, 50)}… is not the native CLI's link of an example scenario`);
      const { page: calc, context: c2 } = await openPage(browser, url + cards[1].href, {});
      await waitForCalculator(calc);
      const shown = await calc.$eval('#results-mirror .verdict', (n) => n.textContent);
      await c2.close();
      assertEqual(shown, cards[1].verdict, 'the example verdict on the landing page differs from what the calculator computes');
    },

    async 'pages are readable without JavaScript'() {
      const problems = [];
      const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
      for (const file of htmlFiles) {
        const page = await context.newPage();
        await page.goto(url + file);
        if (file === CALCULATOR) {
          const note = await page.$eval('noscript', (n) => n.textContent).catch(() => '');
          if (!/JavaScript/.test(note)) problems.push('calculator.html: no <noscript> explanation');
        } else {
          const h1 = await page.$eval('main h1', (h) => h.innerText).catch(() => '');
          const body = await page.$eval('main', (m) => m.innerText.length).catch(() => 0);
          if (!h1) problems.push(`${file}: no <h1> in <main>`);
          if (body < (file === '404.html' ? 100 : 800)) problems.push(`${file}: only ${body} characters of content`);
          const images = await page.$$eval('main img', (imgs) => imgs.filter((i) => !i.complete || i.naturalWidth === 0).map((i) => i.src));
          for (const i of images) problems.push(`${file}: image not shown ${i}`);
        }
        await page.close();
      }
      await context.close();
      assertEqual(problems.join('\n'), '', 'pages without JavaScript');
    },

    async 'on a phone (390x844) no page scrolls sideways'() {
      const problems = [];
      for (const file of staticPages) {
        const { page, context } = await openPage(browser, `${url}${file}`, { viewport: { width: 390, height: 844 }, colorScheme: 'light', deviceScaleFactor: 2 });
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        if (width > 390) problems.push(`${file}: ${width}px wide`);
        await screenshot(page, `site-${file.replace(/\.html$/, '')}-390x844-light`);
        await context.close();
      }
      assertEqual(problems.join('\n'), '', 'pages wider than a phone');
    },

    async 'first-load transfer: calculator <= 562 KB gzipped, every other page < 100 KB'() {
      const sizes = {};
      const problems = [];
      for (const file of htmlFiles) {
        let worst = 0, worstFiles = [];
        for (const scheme of ['light', 'dark']) {  // the landing page's picture differs by theme
          const files = [...await loadedFiles(browser, url, file, scheme)];
          const total = files.reduce((sum, f) => sum + transferSize(f), 0);
          if (total > worst) { worst = total; worstFiles = files; }
        }
        sizes[file] = { gzipped_bytes: worst, files: Object.fromEntries(worstFiles.map((f) => [f, transferSize(f)])) };
        console.log(`      ${file.padEnd(18)} ${(worst / 1000).toFixed(1).padStart(7)} KB  (${worstFiles.length} files)`);
        const budget = file === CALCULATOR ? worst <= BUDGET_CALCULATOR : worst < BUDGET_PAGE;
        if (!budget) problems.push(`${file}: ${worst} bytes gzipped is over its budget`);
      }
      writeJson('site-sizes.json', sizes);
      assert(sizes[CALCULATOR].files['traincost.wasm'], 'the calculator load did not include traincost.wasm');
      assertEqual(problems.join('\n'), '', 'size budget');
    },

    async 'the site works from a sub-path (/traincost/): links, assets and the calculator'() {
      const parent = mkdtempSync(join(tmpdir(), 'traincost-subpath-'));
      const link = join(parent, 'traincost');
      symlinkSync(SITE, link, 'dir');
      const sub = await startServer(parent, 0);
      const base = `http://127.0.0.1:${sub.address().port}/traincost/`;
      try {
        const { pages, problems } = await crawl(base, { under: '/traincost/' });
        assert(pages.size >= 6, `only ${pages.size} pages crawled under /traincost/`);
        for (const file of htmlFiles) {
          const { page, context, log } = await openPage(browser, null, {});
          const outside = [];
          page.on('request', (r) => { if (!new URL(r.url()).pathname.startsWith('/traincost/') && r.url().startsWith('http')) outside.push(r.url()); });
          page.on('response', (r) => { if (r.status() >= 400) outside.push(`${r.status()} ${r.url()}`); });
          await page.goto(base + file);
          if (file === CALCULATOR) await waitForCalculator(page);
          await page.waitForLoadState('networkidle');
          for (const o of [...outside, ...log.consoleErrors, ...log.foreignRequests]) problems.push(`${file}: ${o}`);
          await context.close();
        }
        assertEqual(problems.join('\n'), '', 'problems under a sub-path');
      } finally {
        sub.close();
        unlinkSync(link);  // the link only, never what it points to
        rmdirSync(parent);
      }
    },

    async 'a missing page gets the styled 404 page, with links that work'() {
      const res = await fetch(`${url}no-such-page.html`);
      assertEqual(res.status, 404, 'status of a missing page');
      assert((await res.text()).includes('This page does not exist'), 'the 404 page is served');
      const { page, context, log } = await openPage(browser, `${url}no-such-page.html`, { colorScheme: 'light' });
      const styled = await page.evaluate(() => [...document.styleSheets].some((s) => s.href && s.href.endsWith('site.css') && s.cssRules.length > 10));
      const calc = await page.$eval('main a.button', (a) => a.href);
      await context.close();
      assert(styled, 'site.css applies on the 404 page');
      assertEqual(calc, `${url}calculator.html`, 'the 404 page links the calculator');
      assertEqual(log.foreignRequests.length, 0, 'no foreign requests from the 404 page');
    },

    async 'social preview, favicon and description on every page; the privacy page names every storage key'() {
      const problems = [];
      const png = readFileSync(join(SITE, 'og-image.png'));
      if (png.readUInt32BE(16) !== 1200 || png.readUInt32BE(20) !== 630) problems.push('og-image.png is not 1200x630');
      for (const file of staticPages) {
        const text = read(file);
        if (!/<meta property="og:image" content="[^"]*og-image\.png"/.test(text)) problems.push(`${file}: no og:image`);
        if (!/<link rel="icon" href="favicon\.svg"/.test(text)) problems.push(`${file}: no favicon`);
        if (!/<meta name="description" content="[^"]{40,}"/.test(text)) problems.push(`${file}: no description`);
        if (!/<html lang="en">/.test(text) || !/<main\b/.test(text) || !/<nav\b/.test(text)) problems.push(`${file}: not the shared semantic layout`);
      }
      const privacy = read('privacy.html');
      const keys = new Set(['traincost.saved.']);
      const scan = (dir) => readdirSync(dir).forEach((n) => {
        const p = join(dir, n);
        if (statSync(p).isDirectory()) scan(p);
        else if (/\.(cpp|hpp|js)$/.test(n)) for (const m of readFileSync(p, 'utf8').matchAll(/"(traincost\.[a-z_.]+)"/g)) keys.add(m[1]);
      });
      scan(join(ROOT, 'web'));
      for (const key of keys) if (!privacy.includes(key.endsWith('.') ? `${key}*` : key)) problems.push(`privacy.html does not name the storage key ${key}`);
      assertEqual(problems.join('\n'), '', 'problems');
      assert(existsSync(join(SITE, 'screenshot.png')) && existsSync(join(SITE, 'screenshot-dark.png')), 'landing screenshots');
      // The landing page's picture shows today's answer (it showed $418k / 29 days when the
      // calculator said $326k / 22 days): the verdicts it was taken with are the CLI's now.
      const shot = JSON.parse(readFileSync(join(ROOT, 'site/static/screenshot.json'), 'utf8'));
      assertEqual(JSON.stringify(shot.verdicts), JSON.stringify(cliVerdicts('llama3-8b-pretrain')),
                  'the landing screenshot shows an old answer: run scripts/update-screenshot and commit site/static');
    },
  });
} finally {
  await browser.close();
  server.close();
}
