// Times the npm package under Node: import (instantiating the WebAssembly), one `evaluate` and
// one 20,000-sample `analyze` of an example scenario (median of several calls, after one
// warm-up). Prints JSON for scripts/bench-packages.
// Usage: node bench/packages.mjs PACKAGE_DIR SCENARIO [REPEATS]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [packageDir, path, repeatsText] = process.argv.slice(2);
const repeats = Number(repeatsText ?? 10);
let t = performance.now();
const tc = await import(pathToFileURL(join(packageDir, 'index.js')).href);
const importMs = performance.now() - t;

function medianMs(fn, n) {
  fn();
  const times = [];
  for (let i = 0; i < n; i++) {
    t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return n % 2 ? times[(n - 1) / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
}

const scenario = JSON.parse(readFileSync(path, 'utf8'));
console.log(JSON.stringify({
  import_ms: importMs,
  evaluate_ms: medianMs(() => tc.evaluate(scenario), repeats * 10),
  analyze_ms: medianMs(() => tc.analyze(scenario, { samples: 20000, seed: 1 }), repeats),
}));
