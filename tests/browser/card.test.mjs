// The static card (`traincost embed`, TrainCost.card) and the answer before the canvas (issue 32):
// for every example the card says what the page says (verdict, headline, what would change it,
// the results table, the estimates note, the portfolio), as HTML and as SVG, with no script and
// a link that opens the same scenario; the calculator shows the default example's pre-rendered
// answer, then its own, as text before its first frame, and hides it once the canvas draws.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, assert, assertEqual, launch, openPage, run, serve, waitForCalculator } from './lib/harness.mjs';
import { cli, linkFor, scenarioPath } from './lib/calculator.mjs';

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
      // With a scenario of its own in the address, the page never shows the default's answer.
      const other = await openPage(browser, `${url}calculator.html${linkFor('mixtral-moe')}`);
      assert(await other.page.evaluate(() => document.getElementById('first-answer').hidden), 'a link hides the default answer');
      await waitForCalculator(other.page);
      await other.context.close();
    },
  });
} finally {
  await browser.close();
  server.close();
}
