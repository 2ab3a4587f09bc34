// Takes the site's pictures from the built calculator (run by scripts/update-screenshot):
//   site/static/screenshot.png       the calculator, light theme, 1280×800, the landing page's picture
//   site/static/screenshot-dark.png  the same in the dark theme (the landing page picks by prefers-color-scheme)
//   site/static/og-image.png         the social preview card (tools/social-card.html), 1200×630
//   site/static/screenshot.json      the verdicts the screenshot shows (a test checks they are the calculator's today)
// Each is reduced to a 256-colour PNG so the landing page stays under its 100 KB budget.
// Usage: node site/tools/capture.mjs [SITE_DIR]   (default build/wasm/site)
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodePng } from '../../tests/browser/lib/png.mjs';
import { ROOT, launch, openPage, serve, waitForCalculator } from '../../tests/browser/lib/harness.mjs';
import { settled } from '../../tests/browser/lib/ui.mjs';
import { encodeIndexedPng } from './png-palette.mjs';

const SITE = process.argv[2] || join(ROOT, 'build/wasm/site');
const OUT = join(ROOT, 'site/static');
const SCENARIO = join(ROOT, 'assets/scenarios/llama3-8b-pretrain.json');  // the landing page links the picture to it

// The link as the site build makes it: the Node build of the CLI.
const fragment = execFileSync('node', ['--no-experimental-fetch', join(ROOT, 'build/wasm/cli/traincost.js'), 'link', SCENARIO],
                              { encoding: 'utf8' }).trim();

// Fewer colours until the file fits `maxBytes` (the landing page must stay under 100 KB in all).
function save(name, buffer, maxBytes = Infinity) {
  const image = decodePng(buffer);
  let png, colors;
  for (colors of [256, 192, 128, 96, 64]) {
    png = encodeIndexedPng(image, colors);
    if (png.length <= maxBytes) break;
  }
  writeFileSync(join(OUT, name), png);
  console.log(`${name}: ${png.length.toLocaleString('en')} bytes, ${colors} colours (Chromium's PNG: ${buffer.length.toLocaleString('en')})`);
  if (png.length > maxBytes) console.warn(`${name} is over ${maxBytes} bytes even at ${colors} colours: the landing page may break its budget`);
}

const browser = await launch();
const { server, url } = await serve(SITE);
try {
  const shots = {};
  for (const scheme of ['light', 'dark']) {
    const { page, context, log } = await openPage(browser, `${url}calculator.html${fragment}`,
                                                  { viewport: { width: 1280, height: 800 }, colorScheme: scheme });
    await waitForCalculator(page);
    await settled(page);  // results, Monte Carlo and layout at rest
    if (log.consoleErrors.length) throw new Error(`calculator errors: ${log.consoleErrors.join(' | ')}`);
    shots[scheme] = await page.screenshot();
    // What the picture shows, beside it: tests/browser/site.test.mjs compares it with the CLI's
    // verdict for the same scenario, so a picture of an answer the calculator no longer gives fails.
    if (scheme === 'light') {
      const shows = await page.evaluate(() => [...document.querySelectorAll('#results-mirror .verdict')].map((n) => n.textContent));
      writeFileSync(join(OUT, 'screenshot.json'), `${JSON.stringify({ scenario: 'assets/scenarios/llama3-8b-pretrain.json', verdicts: shows }, null, 2)}\n`);
    }
    save(scheme === 'light' ? 'screenshot.png' : 'screenshot-dark.png', shots[scheme], 80_000);
    await context.close();
  }

  const card = readFileSync(join(ROOT, 'site/tools/social-card.html'), 'utf8')
    .replace('src="SCREENSHOT"', `src="data:image/png;base64,${shots.dark.toString('base64')}"`);
  const { page, context } = await openPage(browser, null, { viewport: { width: 1200, height: 630 }, colorScheme: 'dark' });
  await page.setContent(card, { waitUntil: 'load' });
  save('og-image.png', await page.screenshot());
  await context.close();
} finally {
  await browser.close();
  server.close();
}
