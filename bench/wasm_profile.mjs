// Where a WebAssembly benchmark's time goes: runs build/wasm/bench/traincost_bench.js (linked with
// --profiling-funcs, so its functions keep their names) under V8's sampling profiler, then prints
// each function's share of the samples, by itself (self) and with what it calls (total).
//   node bench/wasm_profile.mjs [FILTER] [--top N]
// FILTER picks the benchmark bodies to run (a substring of their names; default
// monte_carlo/100k_samples). A measuring tool, not a test.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(new URL('..', import.meta.url).pathname);
const args = process.argv.slice(2);
const top = args.includes('--top') ? Number(args[args.indexOf('--top') + 1]) : 25;
const filter = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--top') || 'monte_carlo/100k_samples';
const dir = mkdtempSync(join(tmpdir(), 'traincost-prof-'));
try {
  execFileSync('node', ['--no-experimental-fetch', '--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', dir,
                        join(ROOT, 'build/wasm/bench/traincost_bench.js'), '--only', filter], { stdio: 'inherit' });
  const profile = JSON.parse(readFileSync(join(dir, readdirSync(dir)[0]), 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const self = new Map(), total = new Map();
  let samples = 0;
  for (const id of profile.samples) {
    const leaf = byId.get(id);
    const name = leaf.callFrame.functionName || '(anonymous)';
    if (name === '(idle)' || name === '(program)' || name === '(garbage collector)') continue;
    samples++;
    self.set(name, (self.get(name) || 0) + 1);
    const seen = new Set();
    for (let n = id; n !== undefined; n = parent.get(n)) {
      const f = byId.get(n).callFrame.functionName || '(anonymous)';
      if (!seen.has(f)) { seen.add(f); total.set(f, (total.get(f) || 0) + 1); }
    }
  }
  const pct = (n) => `${(100 * n / samples).toFixed(1).padStart(5)}%`;
  console.log(`\n${samples} samples (100 µs apart) in ${filter}`);
  console.log(`${'self'.padStart(6)} ${'total'.padStart(6)}  function`);
  for (const [name, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(n)} ${pct(total.get(name))}  ${name}`);
  console.log('\nlargest totals (callers included):');
  for (const [name, n] of [...total].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(n)}  ${name}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
