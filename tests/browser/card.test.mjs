// The static card (`traincost embed`, TrainCost.card) and the answer before the canvas (issue 32):
// for every example the card says what the page says (verdict, headline, what would change it,
// the results table, the estimates note, the portfolio), as HTML and as SVG, with no script and
// a link that opens the same scenario; the calculator shows the default example's pre-rendered
// answer, then its own, as text before its first frame, and hides it once the canvas draws. A
// scenario of the reader's own (a link, the autosave) gets its card from the card module before
// the calculator is requested; the embed loads the calculator only when asked; a link the core
// refuses leaves the page as it was without the card module.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, assert, assertEqual, launch, openPage, run, serve, waitForCalculator } from './lib/harness.mjs';
import { cli, cliJson, cliVerdicts, linkFor, mirror, scenarioPath } from './lib/calculator.mjs';
import * as ui from './lib/ui.mjs';

const EXAMPLES = readdirSync(join(ROOT, 'assets/scenarios')).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, ''));
const browser = await launch();
const { server, url } = await serve();

// What a results text says, per workload, read from the DOM under `root` (the page's mirror or
// a card): the card marks its parts with the mirror's class names.
function answerOf(root) {
  const text = (n) => (n ? n.textContent.trim() : null);
  const names = [...root.querySelectorAll('h2, .workload-name')];
  const sections = names.map((n, w) => {
    // The nodes of a workload: from its name to the next one.
    const nodes = [];
    for (let e = n.nextElementSibling; e && e !== names[w + 1] && !e.matches('h2, .workload-name'); e = e.nextElementSibling) nodes.push(e);
    const find = (sel) => nodes.map((e) => (e.matches(sel) ? e : e.querySelector(sel))).find(Boolean);
    const table = find('table');
    return {
      name: text(n),
      verdict: text(find('.verdict')),
      headline: text(find('.headline')),
      holds: text(find('.holds-while')),
      estimates: text(find('.estimates')),
      rows: table ? [...table.rows].map((r) => [...r.cells].map((c) => c.textContent.trim())) : null,
    };
  });
  return { workloads: sections, portfolio: text(root.querySelector('.portfolio')) };
}

// The calculator's own files (the card module and the page's shell are not among them).
const CALCULATOR_FILES = /\/(traincost\.js|traincost\.wasm|fonts\/[^/]+)$/;
const file = (address) => decodeURIComponent(new URL(address).pathname.split('/').pop());
// Runs in the page from its start: the verdicts of each card #first-answer shows, in order.
function watchFirstAnswer() {
  window.__firstVerdicts = [];
  let last = null;
  new MutationObserver(() => {
    const f = document.getElementById('first-answer');
    if (!f || f.hidden) return;
    const v = [...f.querySelectorAll('figure .verdict')].map((n) => n.textContent);
    if (JSON.stringify(v) !== last) { last = JSON.stringify(v); window.__firstVerdicts.push(v); }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['hidden'] });
}

try {
  await run('card', {
    async 'the HTML card says what the page says, for every example'() {
      const blank = await (await browser.newContext()).newPage();
      for (const name of EXAMPLES) {
        const html = cli(['embed', scenarioPath(name), '--url', 'https://example.org/traincost/calculator.html']);
        const link = linkFor(name);
        assert(!/<script|\son\w+=|javascript:/i.test(html), `${name}: the card holds no script`);
        await blank.setContent(`<!doctype html><meta charset="utf-8"><body>${html}</body>`);
        const card = await blank.evaluate(`(${answerOf})(document.querySelector('figure.traincost-card'))`);
        const href = await blank.$eval('figure.traincost-card a', (a) => a.getAttribute('href'));
        assertEqual(href, `https://example.org/traincost/calculator.html${link}`, `${name}: the card links to the scenario`);

        const { page, context } = await openPage(browser, `${url}calculator.html${link}`);
        await waitForCalculator(page);
        const shown = await page.evaluate(`(${answerOf})(document.getElementById('mirror-body'))`);
        await context.close();
        assertEqual(card.workloads.length, shown.workloads.length, `${name}: workloads`);
        card.workloads.forEach((c, w) => {
          const p = shown.workloads[w];
          for (const key of ['name', 'verdict', 'holds', 'estimates']) assertEqual(c[key], p[key], `${name}, workload ${w}: ${key}`);
          assertEqual(JSON.stringify(c.rows), JSON.stringify(p.rows), `${name}, workload ${w}: the results table`);
          // The page adds the Monte Carlo's median and range to the point estimate.
          assert(c.headline === null ? p.headline === null : p.headline.startsWith(c.headline),
                 `${name}, workload ${w}: headline\n  card: ${c.headline}\n  page: ${p.headline}`);
        });
        assertEqual(card.portfolio, shown.portfolio, `${name}: portfolio`);
      }
    },

    async 'the SVG card carries the same verdicts and figures, and no script'() {
      const blank = await (await browser.newContext()).newPage();
      for (const name of EXAMPLES) {
        const svg = cli(['embed', scenarioPath(name), '--format', 'svg']);
        const html = cli(['embed', scenarioPath(name)]);
        assert(!/<script|\son\w+=|javascript:|<foreignObject/i.test(svg), `${name}: the SVG holds no script`);
        await blank.setContent(`<!doctype html><meta charset="utf-8"><body>${html}</body>`);
        const card = await blank.evaluate(`(${answerOf})(document.querySelector('figure.traincost-card'))`);
        const doc = await blank.evaluate((text) => {
          const d = new DOMParser().parseFromString(text, 'image/svg+xml');
          return { error: !!d.querySelector('parsererror'), text: [...d.querySelectorAll('text')].map((t) => t.textContent).join(' '),
                   href: d.querySelector('a')?.getAttribute('href') };
        }, svg);
        assert(!doc.error, `${name}: the SVG is well-formed XML`);
        assertEqual(doc.href, `calculator.html${linkFor(name)}`, `${name}: the SVG links to the scenario`);
        const words = doc.text.replace(/\s+/g, ' ');
        for (const w of card.workloads) {
          assert(words.includes(w.verdict), `${name}: the SVG has the verdict "${w.verdict}"`);
          if (w.headline) assert(words.includes(w.headline), `${name}: the SVG has the headline`);
          for (const row of w.rows.slice(1)) for (const cell of row.slice(1)) assert(words.includes(cell), `${name}: the SVG has ${cell}`);
        }
      }
    },

    async 'TrainCost.card returns the CLI\'s card, and refuses an address that is not a page'() {
      const { page, context } = await openPage(browser, `${url}calculator.html`);
      await waitForCalculator(page);
      const scenario = JSON.parse(readFileSync(scenarioPath('mixtral-moe'), 'utf8'));
      const reply = JSON.parse(await page.evaluate((s) => TrainCost.card(s, { format: 'svg' }), scenario));
      assertEqual(reply.card, cli(['embed', scenarioPath('mixtral-moe'), '--format', 'svg']), 'the same SVG as the CLI');
      const bad = JSON.parse(await page.evaluate((s) => TrainCost.card(s, { url: 'javascript:alert(1)' }), scenario));
      assertEqual(bad.problems?.[0]?.path, 'options.url', 'a javascript: address is refused');
      await context.close();
    },

    async 'the default example\'s answer is in the page before the module runs, and gives way to the canvas'() {
      // Without JavaScript's module: the pre-rendered card is in the HTML itself.
      const { page, context } = await openPage(browser, `${url}calculator.html`, { viewport: { width: 390, height: 844 } });
      const html = await (await fetch(`${url}calculator.html`)).text();
      assert(/<section id="first-answer"[^>]*>\s*<figure class="traincost-card">/.test(html), 'calculator.html carries the pre-rendered card');
      const defaultVerdicts = cli(['evaluate', scenarioPath('llama3-8b-pretrain'), '--format', 'json']);
      assert(html.includes(JSON.parse(defaultVerdicts).workloads[0].verdict.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&quot;')),
             'the pre-rendered verdict is the default example\'s');
      await waitForCalculator(page);
      // After the first frame: the canvas has the page, the text is visually hidden again.
      await page.waitForFunction(() => document.getElementById('first-answer').hidden &&
        document.getElementById('results-mirror').classList.contains('visually-hidden'), null, { timeout: 30000 });
      assert(!(await page.evaluate(() => document.body.classList.contains('answer-shown'))), 'the overlay is back to normal');
      await context.close();
      // With a scenario of its own in the address, the page never shows the default's answer:
      // what #first-answer shows is the link's card.
      const other = await openPage(browser, null);
      await other.page.addInitScript(watchFirstAnswer);
      await other.page.goto(`${url}calculator.html${linkFor('mixtral-moe')}`);
      await waitForCalculator(other.page);
      assertEqual(JSON.stringify(await other.page.evaluate(() => window.__firstVerdicts)), JSON.stringify([cliVerdicts('mixtral-moe')]),
                  'a link shows its own card, never the default answer');
      await other.context.close();
    },

    async 'a link or an autosave: the card module\'s answer is on screen before the calculator is requested, and it is the page\'s'() {
      for (const [name, how] of [['portfolio-multicloud', 'link'], ['mixtral-moe', 'link'], ['finetune-1b', 'autosave']]) {
        const { page, context, log } = await openPage(browser, null);
        const requested = [];
        page.on('request', (r) => requested.push(file(r.url())));
        if (how === 'autosave') {
          await page.goto(`${url}calculator.html`);
          await waitForCalculator(page);
          await ui.settled(page);  // the default scenario's own autosave written first
          await page.evaluate((text) => localStorage.setItem('traincost.autosave', text), readFileSync(scenarioPath(name), 'utf8'));
        }
        // Each of the calculator's files is held while the page is asked whether the card is shown.
        const cardShown = {};
        await page.route(CALCULATOR_FILES, async (route) => {
          cardShown[file(route.request().url())] = await page.evaluate(() =>
            !document.getElementById('first-answer').hidden && !!document.querySelector('#first-answer figure .verdict'));
          await route.continue();
        });
        requested.length = 0;
        await page.goto(`${url}calculator.html${how === 'link' ? linkFor(name) : ''}`);
        await waitForCalculator(page);
        assert(requested.includes('traincost-card.wasm'), `${name} (${how}): the card module was loaded (${requested.join(' ')})`);
        for (const f of ['traincost.js', 'traincost.wasm', 'Inter-Regular.otf'])
          assertEqual(cardShown[f], true, `${name} (${how}): the card was on screen before ${f} was requested`);
        // The card says what the page's text mirror says once the calculator has computed.
        const card = await page.evaluate(`(${answerOf})(document.querySelector('#first-answer figure'))`);
        const shown = await page.evaluate(`(${answerOf})(document.getElementById('mirror-body'))`);
        assertEqual(JSON.stringify(card.workloads.map((w) => w.verdict)), JSON.stringify(cliVerdicts(name)), `${name} (${how}): the card's verdicts`);
        assertEqual(JSON.stringify(card.workloads.map((w) => w.verdict)), JSON.stringify(shown.workloads.map((w) => w.verdict)),
                    `${name} (${how}): the card's verdicts are the page's`);
        card.workloads.forEach((c, w) => assertEqual(JSON.stringify(c.rows), JSON.stringify(shown.workloads[w].rows), `${name}, workload ${w}: the table`));
        assertEqual(card.portfolio, shown.portfolio, `${name}: portfolio`);
        // And it gives way to the canvas as the pre-rendered one does.
        await page.waitForFunction(() => document.getElementById('first-answer').hidden, null, { timeout: 30000 });
        assertEqual(log.consoleErrors.length, 0, `console errors: ${log.consoleErrors.join(' | ')}`);
        await context.close();
      }
    },

    async 'the default example never loads the card module'() {
      for (const path of ['calculator.html', 'calculator.html?embed=1']) {
        const { page, context } = await openPage(browser, null);
        const requested = [];
        page.on('request', (r) => requested.push(file(r.url())));
        await page.goto(url + path);
        if (path.includes('embed')) await page.click('#start-calculator');
        await waitForCalculator(page);
        await page.waitForLoadState('networkidle');
        assert(!requested.some((f) => f.startsWith('traincost-card')), `${path}: loaded ${requested.join(' ')}`);
        await context.close();
      }
    },

    async 'the embed shows its card and loads the calculator only when the reader asks, by mouse or keyboard'() {
      for (const [what, link, verdicts] of [['a link', linkFor('mixtral-moe'), cliVerdicts('mixtral-moe')],
                                            ['the default example', '', cliVerdicts('llama3-8b-pretrain')]]) {
        const { page, context, log } = await openPage(browser, null, { viewport: { width: 800, height: 600 } });
        const requested = [];
        page.on('request', (r) => requested.push(file(r.url())));
        await page.goto(`${url}calculator.html?embed=1${link}`);
        await page.waitForSelector('#start-calculator', { state: 'visible', timeout: 60000 });
        await page.waitForLoadState('networkidle');
        assertEqual(JSON.stringify(await page.$$eval('#first-answer .verdict', (n) => n.map((x) => x.textContent))), JSON.stringify(verdicts),
                    `${what}: the embed's card`);
        assert(!requested.some((f) => CALCULATOR_FILES.test('/' + f)), `${what}: the calculator was loaded unasked: ${requested.join(' ')}`);
        assertEqual(requested.includes('traincost-card.wasm'), !!link, `${what}: the card module is loaded for a link only`);
        // The card is the frame's content for screen readers too, and its button is in the tab order.
        assertEqual(await page.evaluate(() => document.getElementById('first-answer').getAttribute('aria-hidden')), null, `${what}: aria-hidden`);
        assertEqual(await page.$eval('#start-calculator', (b) => b.textContent), 'Change the inputs', `${what}: the button's label`);
        for (let i = 0; i < 8 && (await page.evaluate(() => document.activeElement.id)) !== 'start-calculator'; i++) await page.keyboard.press('Tab');
        assertEqual(await page.evaluate(() => document.activeElement.id), 'start-calculator', `${what}: Tab reaches the button`);
        await page.keyboard.press('Enter');
        await waitForCalculator(page);
        assertEqual(JSON.stringify((await mirror(page)).verdicts), JSON.stringify(verdicts), `${what}: the calculator's verdicts`);
        assert(await page.evaluate(() => document.getElementById('card-actions').hidden), `${what}: the button is gone`);
        assertEqual(log.consoleErrors.length, 0, `${what}: console errors: ${log.consoleErrors.join(' | ')}`);
        await context.close();
      }
    },

    async 'a heavy link gets no card (its evaluation is more work than the card module does): the calculator opens it as before'() {
      const { page, context } = await openPage(browser, null);
      const requested = [];
      page.on('request', (r) => requested.push(file(r.url())));
      await page.addInitScript(watchFirstAnswer);
      // Each call into the card module's evaluation, with the units of work it was given.
      await page.addInitScript(() => {
        window.__cardSteps = [];
        let factory;
        Object.defineProperty(window, 'TrainCostCard', {
          configurable: true,
          get: () => factory && ((options) => factory(options).then((card) => {
            // Emscripten's export replaces itself with the wasm function on its first call: the
            // wrapper stays in front of whatever it sets.
            let step = card._tc_card_step;
            Object.defineProperty(card, '_tc_card_step', {
              configurable: true,
              get: () => (units) => { const more = step(units); window.__cardSteps.push([units, more]); return more; },
              set: (f) => { step = f; },
            });
            return card;
          })),
          set: (f) => { factory = f; },
        });
      });
      await page.goto(`${url}calculator.html${readFileSync(join(ROOT, 'tests/links/heavy-moe.txt'), 'utf8').trim()}`);
      await page.waitForFunction(() => window.Module && window.Module._tc_frames_drawn, null, { timeout: 60000 });
      assert(requested.includes('traincost-card.wasm'), 'the card module was asked');
      assertEqual(JSON.stringify(await page.evaluate(() => window.__firstVerdicts)), '[]', 'no card was shown');
      // Structural, not timed: the card's 128 units of work came a few per task (calculator.js posts
      // each call as a task of its own), and the last call said there was no more to do.
      const steps = await page.evaluate(() => window.__cardSteps);
      assert(steps.length >= 8 && steps.every(([units]) => units <= 16), `the card's calls: ${JSON.stringify(steps)}`);
      assertEqual(steps[steps.length - 1][1], 0, 'the last call ends the card');
      await context.close();
    },

    async 'a link the core refuses: no card, and the calculator says what is wrong as before (page and embed)'() {
      for (const path of ['calculator.html', 'calculator.html?embed=1']) {
        const { page, context } = await openPage(browser, null);
        const requested = [];
        page.on('request', (r) => requested.push(file(r.url())));
        await page.addInitScript(watchFirstAnswer);
        await page.goto(`${url}${path}#s=1.Zm9vYmFyYmF6cXV4`);
        await waitForCalculator(page);
        assert(requested.includes('traincost-card.wasm'), `${path}: the card module was asked`);
        assertEqual(JSON.stringify(await page.evaluate(() => window.__firstVerdicts)), '[]', `${path}: no card was shown`);
        const m = await mirror(page);
        assert(m.banners.some((b) => b.startsWith('This link could not be opened: ')), `${path}: the page's banner (${m.banners})`);
        assertEqual(JSON.stringify(m.verdicts), JSON.stringify(cliVerdicts('llama3-8b-pretrain')), `${path}: and the default scenario`);
        await context.close();
      }
    },

    // The adversarial pass after issue 33: the card module opened what the page does not, or
    // answered otherwise. Each case: what #first-answer showed while the page opened, against
    // what the page itself then says.
    async 'the card module answers only as the page does: a deadline with odds, an autosave holding a link, the embed query, a changed address'() {
      const dir = mkdtempSync(join(tmpdir(), 'traincost-card-'));
      const oddsPath = join(dir, 'odds.json');
      // A deadline with odds whose search is small enough for the card module: the card would size
      // it without the replay's whole-run spread (36 instances on the card, 47 on the page).
      const odds = JSON.parse(readFileSync(scenarioPath('llama3-8b-deadline'), 'utf8'));
      odds.workloads[0].deadline_confidence = 0.6;
      odds.options[0].max_instances = 24;
      odds.options[1].max_instances = 48;
      writeFileSync(oddsPath, JSON.stringify(odds));
      const oddsLink = cli(['link', oddsPath]).trim();
      const oddsVerdicts = cliJson(['evaluate', oddsPath, '--format', 'json']).workloads.map((w) => w.verdict);
      const open = async (address, { autosave = null, press = false } = {}) => {
        const { page, context, log } = await openPage(browser, null);
        const requested = [];
        page.on('request', (r) => requested.push(file(r.url())));
        if (autosave !== null) await page.addInitScript((text) => localStorage.setItem('traincost.autosave', text), autosave);
        await page.addInitScript(watchFirstAnswer);
        await page.goto(url + address);
        if (press) await page.click('#start-calculator');
        await waitForCalculator(page);
        await ui.settled(page);
        const result = { first: await page.evaluate(() => window.__firstVerdicts), shown: await mirror(page), requested, errors: log.consoleErrors };
        await context.close();
        return result;
      };
      const mixtral = cliVerdicts('mixtral-moe'), finetune = cliVerdicts('finetune-1b'), fallback = cliVerdicts('llama3-8b-pretrain');

      let r = await open(`calculator.html${oddsLink}`);
      assert(r.requested.includes('traincost-card.wasm'), 'odds: the card module was asked');
      assertEqual(JSON.stringify(r.first), '[]', 'a deadline with odds gets no card: the page answers it');
      assertEqual(JSON.stringify(r.shown.verdicts), JSON.stringify(oddsVerdicts), 'odds: the page\'s verdict is the CLI\'s');

      // An autosave holds scenario JSON; the page does not read a link there, nor does the card.
      r = await open('calculator.html', { autosave: linkFor('mixtral-moe').replace(/^#/, '') });
      assertEqual(JSON.stringify(r.first), '[]', 'an autosave holding a link gets no card');
      assert(r.shown.banners.some((b) => b.startsWith('Your autosaved scenario could not be read')), `the page's warning (${r.shown.banners})`);
      assertEqual(JSON.stringify(r.shown.verdicts), JSON.stringify(fallback), 'and the default scenario');

      // The embed query as the core reads it: ?embed=%31 is an embed (the autosave is not read),
      // ?embed=1x is not (the autosave is the reader's scenario, card and page alike).
      const saved = readFileSync(scenarioPath('finetune-1b'), 'utf8');
      r = await open('calculator.html?embed=%31', { autosave: saved, press: true });
      assertEqual(JSON.stringify(r.first), JSON.stringify([fallback]), '?embed=%31: the default example\'s card, as an embed');
      assertEqual(JSON.stringify(r.shown.verdicts), JSON.stringify(fallback), '?embed=%31: the page opens the default example');
      r = await open('calculator.html?embed=1x', { autosave: saved });
      assertEqual(JSON.stringify(r.first), JSON.stringify([finetune]), '?embed=1x: the autosave\'s card');
      assertEqual(JSON.stringify(r.shown.verdicts), JSON.stringify(finetune), '?embed=1x: the page opens the autosave');

      // An embed whose address changes while its card is offered: the card goes, and the
      // calculator opens the new address (a good link, then a broken one).
      for (const [to, verdicts, banner] of [[linkFor('finetune-1b'), finetune, false], ['#s=1.Zm9vYmFyYmF6cXV4', fallback, true]]) {
        const { page, context, log } = await openPage(browser, `${url}calculator.html?embed=1${linkFor('mixtral-moe')}`);
        await page.waitForSelector('#start-calculator', { state: 'visible', timeout: 60000 });
        assertEqual(JSON.stringify(await page.$$eval('#first-answer .verdict', (n) => n.map((x) => x.textContent))), JSON.stringify(mixtral), 'the first card');
        await page.evaluate((hash) => { window.location.hash = hash; }, to);
        await page.waitForFunction(() => document.getElementById('first-answer').hidden, null, { timeout: 10000 });
        assert(await page.evaluate(() => document.getElementById('card-actions').hidden), 'the offer went with its card');
        await waitForCalculator(page);
        await ui.settled(page);
        const m = await mirror(page);
        assertEqual(JSON.stringify(m.verdicts), JSON.stringify(verdicts), `the calculator opened ${to.slice(0, 12)}…`);
        assertEqual(m.banners.some((b) => b.startsWith('This link could not be opened')), banner, `the banner for ${to.slice(0, 12)}…`);
        assertEqual(log.consoleErrors.length, 0, `console errors: ${log.consoleErrors.join(' | ')}`);
        await context.close();
      }
    },
  });
} finally {
  await browser.close();
  server.close();
}
