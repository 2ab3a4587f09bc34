// Share, embed, keep (issue 6): links open the same scenario as the CLI; edits update the address
// bar without history entries and survive a reload; bad links show a banner and lose nothing;
// the embed view works in an iframe on another origin; window.TrainCost equals the CLI.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../scripts/static-server.mjs';
import { decodePng, greyVariance } from './lib/png.mjs';
import { assert, assertEqual, launch, openPage, run, screenshot, serve, startEmbed, waitForCalculator } from './lib/harness.mjs';
import { cliJson, cliVerdicts, linkFor, mirror, rawLink, scenarioPath, stats } from './lib/calculator.mjs';
import * as ui from './lib/ui.mjs';

const EXAMPLES = ['llama3-8b-pretrain', 'finetune-1b', 'llama3-70b-target-loss', 'mixtral-moe', 'portfolio-multicloud', 'gpt3-175b-ranges'];
const browser = await launch();
const { server, url } = await serve();

function deepEqual(a, b, path = '') {
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  throw new Error(`differs at ${path || 'top'}:\n  page: ${JSON.stringify(a).slice(0, 300)}\n  CLI:  ${JSON.stringify(b).slice(0, 300)}`);
}

try {
  await run('share', {
    async 'a link opens the same scenario and results as the CLI, in a fresh page'() {
      for (const name of EXAMPLES) {
        const link = linkFor(name);
        const { page, context, log } = await openPage(browser, `${url}calculator.html${link}`);
        await waitForCalculator(page);
        assertEqual(JSON.stringify((await mirror(page)).verdicts), JSON.stringify(cliVerdicts(name)), `${name}: verdicts`);
        assertEqual('#' + (await stats(page)).link, link, `${name}: the page encodes the scenario to the same link as the CLI`);
        assertEqual(log.consoleErrors.length, 0, `${name}: console errors: ${log.consoleErrors.join(' | ')}`);
        await context.close();
      }
    },

    async 'editing updates the address bar (no history entry per edit) and a reload keeps the scenario'() {
      const { page, context } = await openPage(browser, `${url}calculator.html`);
      await waitForCalculator(page);
      await ui.settled(page);  // the page has written its first address and autosave
      const historyBefore = await page.evaluate(() => history.length);
      const hashBefore = await page.evaluate(() => location.hash);
      assertEqual(hashBefore, '#' + (await stats(page)).link, 'the address bar holds the scenario once the page has settled');
      await ui.type(page, 'workloads[0].runs', '12');
      await page.waitForFunction(() => /at 12 runs/.test(document.querySelector('#results-mirror .verdict')?.textContent || ''), null, { timeout: 10000 });
      await ui.settled(page);
      const edited = (await mirror(page)).verdicts;
      const hash = await page.evaluate(() => location.hash);
      assert(hash !== hashBefore, 'the address bar follows the edit');
      assertEqual(hash, '#' + (await stats(page)).link, 'the address bar holds the edited scenario');
      assertEqual(await page.evaluate(() => history.length), historyBefore, 'edits must replace the URL, not add history entries');
      // The new address bar holds exactly the edited scenario: the CLI reads it to the same verdict.
      assertEqual(JSON.stringify(cliJson(['evaluate', '--link', hash, '--format', 'json']).workloads.map((w) => w.verdict)),
                  JSON.stringify(edited), 'the URL fragment evaluates (in the CLI) to what the page shows');
      await page.reload();
      await waitForCalculator(page);
      assertEqual(JSON.stringify((await mirror(page)).verdicts), JSON.stringify(edited), 'a reload keeps the edit');
      // Without a link, the autosave brings the scenario back.
      const fresh = await context.newPage();
      await fresh.goto(`${url}calculator.html`);
      await waitForCalculator(fresh);
      assertEqual(JSON.stringify((await mirror(fresh)).verdicts), JSON.stringify(edited), 'the autosave restores the scenario');
      await screenshot(fresh, 'share-after-reload');
      await context.close();
    },

    async 'bad links show a banner and keep the scenario; nothing from them reaches the DOM'() {
      const good = linkFor('mixtral-moe');
      const bad = {
        truncated: good.slice(0, good.length - 9),
        'one character changed': good.slice(0, 20) + (good[20] === 'A' ? 'B' : 'A') + good.slice(21),
        'markup and script': '#s=1.<img src=x onerror=alert(1)><script>alert(2)</script>',
        'future version': '#s=9.' + good.slice(5),
        'not base64': '#s=1.%%%%',
        'garbage that decodes': '#s=1.Zm9vYmFyYmF6cXV4',
        'empty': '#s=',
        'huge': '#s=1.' + 'A'.repeat(30000),
        'valid link, invalid scenario': rawLink(readFileSync(join(import.meta.dirname, '../cli/data/negative-price.json'), 'utf8')),
      };
      // Opened after the good scenario: it stays.
      const { page, context, log } = await openPage(browser, `${url}calculator.html${good}`);
      let dialogs = 0;
      page.on('dialog', (d) => { dialogs++; d.dismiss(); });
      await waitForCalculator(page);
      const before = (await mirror(page)).verdicts;
      const scripts = await page.evaluate(() => document.scripts.length);
      await ui.settled(page);
      for (const [what, link] of Object.entries(bad)) {
        // Each bad link adds a banner of its own (the newest is last) and puts the good link back.
        const shown = (await stats(page)).banners_shown;
        await page.evaluate((h) => { location.hash = h; }, link);
        await page.waitForFunction((n) => {
          const p = Module._tc_stats();
          const st = JSON.parse(UTF8ToString(p));
          Module._free(p);
          return st.banners_shown > n;
        }, shown, { timeout: 10000 }).catch(() => { throw new Error(`${what}: no banner`); });
        const m = await mirror(page);
        const newest = m.banners[m.banners.length - 1] || '';
        assert(/could not be opened/.test(newest), `${what}: banner says the link could not be opened (got ${newest})`);
        assertEqual(JSON.stringify(m.verdicts), JSON.stringify(before), `${what}: the scenario changed`);
        assertEqual(await page.evaluate(() => location.hash), good, `${what}: the address bar is back to the scenario shown`);
        if (what === 'valid link, invalid scenario')
          assert(newest.includes('options[1].price_usd_per_hour: must be > 0, got -3'), 'the banner names the field');
        if (what === 'future version') assert(/newer TrainCost/.test(newest), 'the banner says the link is from a newer version');
      }
      await screenshot(page, 'share-bad-link-banner');
      assertEqual(await page.evaluate(() => document.scripts.length), scripts, 'no script was added to the page');
      assertEqual(await page.evaluate(() => document.querySelectorAll('img').length), 0, 'no element from a link was added');
      assertEqual(dialogs, 0, 'a link opened a dialog');
      assertEqual(log.consoleErrors.length, 0, `console errors: ${log.consoleErrors.join(' | ')}`);
      await context.close();

      // Opened first, in a fresh browser: the default scenario with the banner.
      const first = await openPage(browser, `${url}calculator.html${bad.truncated}`);
      await waitForCalculator(first.page);
      const m = await mirror(first.page);
      assert(m.banners.some((b) => /could not be opened/.test(b)), 'a fresh page with a bad link shows the banner');
      assertEqual(JSON.stringify(m.verdicts), JSON.stringify(cliVerdicts('llama3-8b-pretrain')), 'and the default scenario');
      await first.context.close();
    },

    async '"Copy link" in the Share dialog puts the link on the clipboard and says so'() {
      const { page, context } = await openPage(browser, `${url}calculator.html${linkFor('finetune-1b')}`);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url.replace(/\/$/, '') });
      await waitForCalculator(page);
      await ui.click(page, 'Share');
      await ui.find(page, 'Copy link');
      await screenshot(page, 'share-dialog');
      await ui.click(page, 'Copy link');
      await page.waitForFunction(() => /Copied/.test(document.querySelector('#results-mirror .announce')?.textContent || ''), null, { timeout: 5000 })
        .catch(() => { throw new Error('the copy was not confirmed'); });
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      assertEqual(copied, `${url}calculator.html${linkFor('finetune-1b')}`, 'the clipboard holds the page address with the scenario link');
      await screenshot(page, 'share-dialog-copied');
      await context.close();
    },

    async 'a named scenario is saved in this browser, in the scenario format'() {
      const { page, context } = await openPage(browser, `${url}calculator.html${linkFor('mixtral-moe')}`);
      await waitForCalculator(page);
      await ui.click(page, 'Saved');
      await ui.type(page, 'Saved name', 'Plan A', { enter: false });
      await ui.click(page, 'Save current');
      await screenshot(page, 'share-saved-dialog');
      const saved = await page.evaluate(() => localStorage.getItem('traincost.saved.Plan A'));
      assert(saved, 'nothing was saved under traincost.saved.Plan A');
      const verdict = JSON.parse(await page.evaluate((t) => TrainCost.evaluate(t), saved)).workloads.map((w) => w.verdict);
      assertEqual(JSON.stringify(verdict), JSON.stringify(cliVerdicts('mixtral-moe')), 'the saved scenario is the one on screen');
      await context.close();
    },

    async 'the embed view works inside an iframe on another origin'() {
      const link = linkFor('llama3-8b-pretrain');
      const hostDir = mkdtempSync(join(tmpdir(), 'traincost-host-'));
      writeFileSync(join(hostDir, 'index.html'), `<!doctype html><html><head><meta charset="utf-8"><title>A wiki page</title><link rel="icon" href="data:,"></head>
<body style="margin:0;font:15px sans-serif"><h1>Our training plan</h1><p>${'Some text. '.repeat(200)}</p>
<iframe id="tc" src="${url}calculator.html?embed=1${link}" width="800" height="600" style="border:0" title="TrainCost"></iframe>
<p>More text below.</p></body></html>`);
      const host = await startServer(hostDir, 0);
      try {
        const hostUrl = `http://127.0.0.1:${host.address().port}/`;
        assert(!hostUrl.startsWith(url), 'the host page must be on another origin');
        const { page, context, log } = await openPage(browser, hostUrl, { viewport: { width: 1000, height: 900 } });
        const frame = await (await page.$('#tc')).contentFrame();
        await startEmbed(frame);
        await frame.waitForFunction(() => window.TrainCost && window.TrainCost.version && document.querySelector('#results-mirror .verdict'), null, { timeout: 60000 });
        await ui.settled(frame);
        assertEqual(JSON.stringify(await frame.$$eval('#results-mirror .verdict', (n) => n.map((x) => x.textContent))),
                    JSON.stringify(cliVerdicts('llama3-8b-pretrain')), 'the embedded view shows the CLI verdict');
        assertEqual(await page.evaluate(() => window.scrollY), 0, 'the iframe must not scroll the host page');
        await page.evaluate(() => document.querySelector('#tc').scrollIntoView());
        await page.waitForFunction(() => document.querySelector('#tc').getBoundingClientRect().top < window.innerHeight);
        await ui.nextFrames(frame, 2);
        const shot = await (await page.$('#tc')).screenshot({ path: join(process.env.TRAINCOST_SHOTS || 'build/wasm/screenshots', 'share-embed-iframe.png') });
        assert(greyVariance(decodePng(shot)) > 25, 'the embedded canvas is drawn');
        // Resizing the iframe re-lays out the view.
        await page.evaluate(() => { const f = document.querySelector('#tc'); f.width = 560; f.height = 700; });
        await frame.waitForFunction(() => document.getElementById('canvas').width === Math.round(560 * devicePixelRatio), null, { timeout: 10000 });
        await ui.settled(frame);
        await (await page.$('#tc')).screenshot({ path: join(process.env.TRAINCOST_SHOTS || 'build/wasm/screenshots', 'share-embed-iframe-560x700.png') });
        assertEqual(log.consoleErrors.length, 0, `console errors: ${log.consoleErrors.join(' | ')}`);
        await context.close();
      } finally {
        host.close();
      }
    },

    async 'the embed snippet works in sandboxed iframes: allow-scripts alone (from a host that allows cross-origin reads) and with allow-same-origin (issue 33 item 4)'() {
      const link = linkFor('llama3-8b-pretrain');
      const hostDir = mkdtempSync(join(tmpdir(), 'traincost-host-'));
      const frame = (id, sandbox) => `<iframe id="${id}" sandbox="${sandbox}" src="${url}calculator.html?embed=1${link}" width="640" height="480" style="border:0" title="TrainCost"></iframe>`;
      writeFileSync(join(hostDir, 'index.html'), `<!doctype html><html><head><meta charset="utf-8"><title>A wiki page</title><link rel="icon" href="data:,"></head>
<body style="margin:0">${frame('opaque', 'allow-scripts allow-popups')}${frame('own', 'allow-scripts allow-same-origin allow-popups')}</body></html>`);
      const host = await startServer(hostDir, 0);
      try {
        const { page, context } = await openPage(browser, `http://127.0.0.1:${host.address().port}/`, { viewport: { width: 1300, height: 600 } });
        for (const id of ['opaque', 'own']) {
          const f = await (await page.$(`#${id}`)).contentFrame();
          // The card first (the card module, fetched cross-origin from the opaque origin too), then the calculator.
          await f.waitForSelector('#first-answer .verdict', { state: 'visible', timeout: 60000 });
          assertEqual(JSON.stringify(await f.$$eval('#first-answer .verdict', (n) => n.map((x) => x.textContent))),
                      JSON.stringify(cliVerdicts('llama3-8b-pretrain')), `${id}: the sandboxed embed's card shows the CLI verdict`);
          await startEmbed(f);
          await f.waitForFunction(() => document.querySelector('#results-mirror .verdict'), null, { timeout: 60000 });
          assertEqual(await f.evaluate(() => window.origin === 'null'), id === 'opaque', `${id}: the frame's origin`);
          assertEqual(JSON.stringify(await f.$$eval('#results-mirror .verdict', (n) => n.map((x) => x.textContent))),
                      JSON.stringify(cliVerdicts('llama3-8b-pretrain')), `${id}: the sandboxed embed shows the CLI verdict`);
        }
        await context.close();
      } finally {
        host.close();
      }
    },

    async 'window.TrainCost returns what the CLI returns for every example scenario'() {
      const { page, context, log } = await openPage(browser, `${url}calculator.html`);
      await waitForCalculator(page);
      for (const name of EXAMPLES) {
        const text = readFileSync(scenarioPath(name), 'utf8');
        const evaluated = JSON.parse(await page.evaluate((t) => TrainCost.evaluate(t), text));
        deepEqual(evaluated, cliJson(['evaluate', scenarioPath(name), '--format', 'json']));
        const analyzed = JSON.parse(await page.evaluate((t) => TrainCost.analyze(t, { samples: 2000, seed: 9 }), text));
        deepEqual(analyzed, cliJson(['analyze', scenarioPath(name), '--samples', '2000', '--seed', '9', '--format', 'json']));
        const encoded = JSON.parse(await page.evaluate((t) => TrainCost.encodeLink(t), text));
        assertEqual(encoded.link, linkFor(name), `${name}: encodeLink equals the CLI's link`);
        const decoded = JSON.parse(await page.evaluate((l) => TrainCost.decodeLink(l), encoded.link));
        const reEvaluated = JSON.parse(await page.evaluate((s) => TrainCost.evaluate(JSON.stringify(s)), decoded.scenario));
        deepEqual(reEvaluated, evaluated);
        deepEqual(JSON.parse(await page.evaluate((t) => TrainCost.explain(t), text)),
                  cliJson(['explain', scenarioPath(name), '--format', 'json']));
      }
      deepEqual(JSON.parse(await page.evaluate(() => TrainCost.catalog())), cliJson(['catalog', '--format', 'json']));
      deepEqual(JSON.parse(await page.evaluate(() => TrainCost.schema())), cliJson(['schema', '--format', 'json']));
      const config = 'tests/cli/data/llama3-8b-config.json';
      deepEqual(JSON.parse(await page.evaluate((t) => TrainCost.importHf(t), readFileSync(config, 'utf8'))), cliJson(['import-hf', config]));
      // Errors come back as the core's messages, never as exceptions.
      const broken = JSON.parse(await page.evaluate(() => TrainCost.evaluate('{')));
      assert(broken.error && broken.problems[0].message.startsWith('not valid JSON'), `evaluate('{') -> ${JSON.stringify(broken)}`);
      const negative = JSON.parse(await page.evaluate(() => TrainCost.evaluate(JSON.stringify({
        version: 1, workloads: [{ model: { params: 8e9 }, target: { tokens: 1e11 } }],
        options: [{ instance: 'trn2.48xlarge' }, { instance: 'p5.48xlarge', price_usd_per_hour: -3 }] }))));
      assertEqual(`${negative.problems[0].path}: ${negative.problems[0].message}`, 'options[1].price_usd_per_hour: must be > 0, got -3',
                  'the API reports the field');
      const badOptions = JSON.parse(await page.evaluate((t) => TrainCost.analyze(t, { samples: 5 }), readFileSync(scenarioPath('mixtral-moe'), 'utf8')));
      assertEqual(badOptions.problems[0].path, 'options.samples', 'analyze checks its options');
      const badLink = JSON.parse(await page.evaluate(() => TrainCost.decodeLink('#s=1.xyz')));
      assert(badLink.error === 'invalid link', 'decodeLink reports bad links');
      assertEqual(log.consoleErrors.length, 0, `console errors: ${log.consoleErrors.join(' | ')}`);
      await context.close();
    },
  });
} finally {
  await browser.close();
  server.close();
}
