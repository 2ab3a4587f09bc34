// Minifies the page's JavaScript for the site: the shell (calculator.js) and Emscripten's glue
// (traincost.js, traincost-card.js), with Debian's terser (node-terser).
//   node web/shell/minify.mjs IN [OUT]     (no OUT: IN is rewritten in place)
// Local names are shortened and comments and blanks dropped; nothing else changes: no property
// or global is renamed (the page calls the modules' exports and tests call Module by name) and
// no code is rewritten (no `compress`: its transforms would save 0.5 KB more for a risk we do not
// need). It took 8.8 KB off the calculator's first load, gzipped (docs/performance.md).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let terser;
try {
  terser = require('terser');  // Debian's, under /usr/share/nodejs (the build sets NODE_PATH)
} catch (e) {
  console.error(`minify.mjs: Debian's terser was not found (${e.message}); run scripts/setup-deps`);
  process.exit(1);
}
const [input, output = input] = process.argv.slice(2);
if (!input) {
  console.error('usage: node minify.mjs IN [OUT]');
  process.exit(2);
}
const source = readFileSync(input, 'utf8');
const result = await terser.minify(source, { compress: false, mangle: true, ecma: 2018, format: { comments: false } });
if (!result.code) {
  console.error(`minify.mjs: ${input} gave no code`);
  process.exit(1);
}
writeFileSync(output, result.code + '\n');
