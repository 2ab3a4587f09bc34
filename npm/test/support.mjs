// Shared by the npm package's tests: the built package, the CLI to compare with, the examples.
// CTest (npm/CMakeLists.txt) sets TRAINCOST_NPM_PACKAGE and TRAINCOST_SOURCE_DIR; the CLI is the
// native build when there is one (so the tests prove WebAssembly equals native to the bit), else
// the Node build of the CLI from the same preset.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const SOURCE_DIR = process.env.TRAINCOST_SOURCE_DIR ?? resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const PACKAGE_DIR = process.env.TRAINCOST_NPM_PACKAGE ?? join(SOURCE_DIR, 'build', 'wasm', 'npm', 'traincost');
export const tc = await import(pathToFileURL(join(PACKAGE_DIR, 'index.js')).href);
export const EXAMPLES = readdirSync(join(SOURCE_DIR, 'assets', 'scenarios'))
  .filter((f) => f.endsWith('.json')).sort().map((f) => join(SOURCE_DIR, 'assets', 'scenarios', f));

const nativeCli = process.env.TRAINCOST_CLI ?? join(SOURCE_DIR, 'build', 'native', 'traincost');
const cliCommand = existsSync(nativeCli)
  ? [nativeCli]
  : [process.execPath, '--no-experimental-fetch', join(SOURCE_DIR, 'build', 'wasm', 'cli', 'traincost.js')];

/** {status, stdout, stderr} of the CLI. */
export function cli(args, input) {
  const done = spawnSync(cliCommand[0], [...cliCommand.slice(1), ...args], { input, encoding: 'utf8', maxBuffer: 64 << 20 });
  return { status: done.status, stdout: done.stdout, stderr: done.stderr };
}

export function cliJson(args) {
  const done = cli(args);
  if (done.status !== 0) throw new Error(`traincost ${args.join(' ')}: ${done.stderr}`);
  return JSON.parse(done.stdout);
}

/** The problem lines the CLI prints for bad input. */
export function cliProblems(args, input) {
  const done = cli(args, input);
  if (done.status !== 2 || !done.stderr.split('\n')[0].includes('is not valid')) {
    throw new Error(`expected the CLI to reject the input: ${done.status} ${done.stderr.slice(0, 300)}`);
  }
  return done.stderr.split('\n').slice(1).filter((l) => l.startsWith('  ')).map((l) => l.slice(2));
}

export const problemLines = (problems) => problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message));

/** JSON text that tells apart every double (shortest round-trip form, and -0 from 0) and keeps key
 * order: equal `exact` text means equal to the bit. */
export const exact = (value) => JSON.stringify(value, (_, v) => (Object.is(v, -0) ? '-0' : v));
