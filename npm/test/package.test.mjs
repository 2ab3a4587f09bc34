// `npm pack` makes a tarball with just the package's files; installed from it (offline) into a
// fresh project, `import 'traincost'` works through the exports map, and the README's
// JavaScript example runs as written.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

import { PACKAGE_DIR, SOURCE_DIR, tc } from './support.mjs';

const work = mkdtempSync(join(tmpdir(), 'traincost-npm-'));
after(() => rmSync(work, { recursive: true, force: true }));

function npm(args, cwd) {
  const done = spawnSync('npm', [...args, '--offline', '--no-audit', '--no-fund', '--loglevel=error'],
                         { cwd, encoding: 'utf8', env: { ...process.env, npm_config_cache: join(work, 'cache') } });
  assert.equal(done.status, 0, `npm ${args.join(' ')}: ${done.stderr}`);
  return done.stdout;
}

function node(script, cwd) {
  const done = spawnSync(process.execPath, [script], { cwd, encoding: 'utf8' });
  assert.equal(done.status, 0, done.stderr);
  return done.stdout;
}

let tarball;
test('npm pack makes a tarball of the package files only', () => {
  const [packed] = JSON.parse(npm(['pack', PACKAGE_DIR, '--pack-destination', work, '--json'], work));
  tarball = join(work, packed.filename);
  assert.equal(packed.name, 'traincost');
  assert.equal(packed.version, tc.version.traincost);
  assert.deepEqual(packed.files.map((f) => f.path).sort(),
                   ['README.md', 'index.d.ts', 'index.js', 'package.json', 'traincost_core.js']);
  console.log(`traincost ${packed.version}: ${packed.size} bytes packed, ${packed.unpackedSize} unpacked`);
});

test('installed from the tarball, the package imports by name and computes the same bits', () => {
  const project = join(work, 'project');
  spawnSync('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  npm(['install', tarball], project);
  writeFileSync(join(project, 'check.mjs'), [
    "import { evaluate, ScenarioError, version } from 'traincost';",
    "import traincost from 'traincost';",
    "import { createRequire } from 'node:module';",
    "const pkg = createRequire(import.meta.url)('traincost/package.json');",
    `const s = ${JSON.stringify(readFileSync(join(SOURCE_DIR, 'assets', 'scenarios', 'mixtral-moe.json'), 'utf8'))};`,
    'let error; try { evaluate("{}"); } catch (e) { error = e; }',
    'console.log(JSON.stringify({ result: evaluate(s), same: traincost.evaluate === evaluate, version, pkg: pkg.version,',
    '  typed: error instanceof ScenarioError && error.problems.length > 0 }));',
  ].join('\n'));
  const got = JSON.parse(node(join(project, 'check.mjs'), project));
  assert.deepEqual(got.result, tc.evaluate(readFileSync(join(SOURCE_DIR, 'assets', 'scenarios', 'mixtral-moe.json'), 'utf8')));
  assert.equal(got.same, true);
  assert.equal(got.pkg, got.version.traincost);
  assert.equal(got.typed, true);
});

test("the README's JavaScript example runs as written", () => {
  const readme = readFileSync(join(SOURCE_DIR, 'README.md'), 'utf8');
  const section = readme.split('\n## ').find((s) => s.startsWith('Use it from JavaScript'));
  assert.ok(section, 'README has a "Use it from JavaScript" section');
  const code = section.match(/```js\n([\s\S]*?)```/)[1];
  assert.ok(code.trim().split('\n').length <= 5, 'five lines');
  writeFileSync(join(work, 'project', 'readme.mjs'), code);
  const out = node(join(work, 'project', 'readme.mjs'), SOURCE_DIR);
  assert.match(out, /cheaper/);
});
