// Every example scenario gives, through the npm package, the CLI's JSON to the last bit.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { test } from 'node:test';

import { EXAMPLES, SOURCE_DIR, cli, cliJson, exact, tc } from './support.mjs';

for (const path of EXAMPLES) {
  const name = basename(path, '.json');
  const text = readFileSync(path, 'utf8');
  test(`${name}: evaluate, analyze, sweep, explain and links equal the CLI`, () => {
    const evaluated = tc.evaluate(text);
    assert.equal(exact(evaluated), exact(cliJson(['evaluate', path, '--format', 'json'])));
    assert.equal(exact(tc.evaluate(JSON.parse(text))), exact(evaluated), 'an object gives what its text gives');
    assert.equal(exact(tc.analyze(text)), exact(cliJson(['analyze', path, '--format', 'json'])));
    assert.equal(exact(tc.analyze(JSON.parse(text), { samples: 2000, seed: 9, workload: 0 })),
                 exact(cliJson(['analyze', path, '--samples', '2000', '--seed', '9', '--workload', '0', '--format', 'json'])));
    assert.equal(exact(tc.analyze(text, '{"samples": 2000, "seed": 9}')), exact(tc.analyze(text, { samples: 2000, seed: 9 })));
    assert.equal(exact(tc.pilot(text)), exact(cliJson(['pilot', path, '--format', 'json'])));
    assert.equal(exact(tc.pilot(JSON.parse(text), { samples: 2000, seed: 9, fraction: 0.02 })),
                 exact(cliJson(['pilot', path, '--samples', '2000', '--seed', '9', '--fraction', '0.02', '--format', 'json'])));
    assert.equal(exact(tc.sweep(text)), exact(cliJson(['sweep', path, '--format', 'json'])));
    assert.equal(exact(tc.sweep(JSON.parse(text), { workload: 0 })), exact(cliJson(['sweep', path, '--workload', '0', '--format', 'json'])));
    assert.equal(exact(tc.compare(text, { instances: 8 })), exact(cliJson(['compare', path, '--instances', '8', '--format', 'json'])));
    const explained = tc.explain(text);
    assert.equal(exact(explained), exact(cliJson(['explain', path, '--format', 'json'])));
    assert.equal(explained.text, cli(['explain', path]).stdout);
    const link = tc.encodeLink(text);
    assert.equal(exact(link), exact(cliJson(['link', path, '--format', 'json'])));
    assert.equal(`${link.link}\n`, cli(['link', path]).stdout);
    const decoded = tc.decodeLink(`https://example.org/calculator.html${link.link}`);
    assert.deepEqual(decoded.notices, []);
    assert.equal(exact(tc.evaluate(decoded.scenario)), exact(evaluated));
    assert.equal(tc.card(text).card, cli(['embed', path]).stdout, 'the HTML card is the CLI\'s');
    assert.equal(tc.card(text, { format: 'svg', url: 'https://example.org/c.html' }).card,
                 cli(['embed', path, '--format', 'svg', '--url', 'https://example.org/c.html']).stdout, 'and the SVG card');
  });
}

test('a pilot\'s loss curves read by readLog give the CLI\'s convergence in evaluate, bit for bit', () => {
  const logs = join(SOURCE_DIR, 'tests', 'core', 'data', 'logs');
  const candidate = tc.readLog(readFileSync(join(logs, 'loss_candidate.csv'), 'utf8'));
  const reference = tc.readLog(readFileSync(join(logs, 'loss_reference.csv'), 'utf8'));
  const scenario = JSON.parse(readFileSync(join(SOURCE_DIR, 'assets', 'scenarios', 'llama3-8b-pretrain.json'), 'utf8'));
  scenario.options[0].pilot = { mfu: 0.3, loss: candidate.loss, reference_loss: reference.loss };
  const evaluated = tc.evaluate(scenario);
  const convergence = evaluated.workloads[0].options[0].convergence;
  // loss_candidate.csv is loss_reference.csv's power law stretched along tokens by 1.08.
  assert.equal(convergence.state, 'measured');
  assert.ok(Math.abs(convergence.ratio - 1.08) < 1e-6, String(convergence.ratio));
  const dir = mkdtempSync(join(tmpdir(), 'traincost-curves-'));
  try {
    const path = join(dir, 'scenario.json');
    writeFileSync(path, JSON.stringify(scenario));
    assert.equal(exact(evaluated), exact(cliJson(['evaluate', path, '--format', 'json'])));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('catalog, schema, replay, import-hf and version equal the CLI', () => {
  assert.equal(exact(tc.catalog()), exact(cliJson(['catalog', '--format', 'json'])));
  assert.equal(exact(tc.schema()), exact(cliJson(['schema', '--format', 'json'])));
  assert.equal(exact(tc.replay()), exact(cliJson(['replay', '--format', 'json'])));
  const config = join(SOURCE_DIR, 'tests', 'cli', 'data', 'llama3-8b-config.json');
  assert.equal(exact(tc.importHf(readFileSync(config, 'utf8'))), exact(cliJson(['import-hf', config])));
  assert.equal(tc.version.traincost, cli(['--version']).stdout.trim().split(' ').pop());
  assert.equal(tc.version.catalog, tc.catalog().catalog_version);
});

test('every function of the core API has a function here', () => {
  // The table in core/src/api/api.cpp: adding a function there without its JavaScript name fails here.
  const table = readFileSync(join(SOURCE_DIR, 'core', 'src', 'api', 'api.cpp'), 'utf8');
  const names = [...table.matchAll(/\{"(\w+)", \d, call_\w+\}/g)].map((m) => m[1]);
  assert.ok(names.length >= 10, names.join());
  for (const name of names) {
    const camel = name.replace(/_(\w)/g, (_, c) => c.toUpperCase());
    assert.ok(name === 'version' ? typeof tc.version === 'object' : typeof tc[camel] === 'function', `${name} -> ${camel}`);
  }
  const shell = readFileSync(join(SOURCE_DIR, 'web', 'shell', 'calculator.js'), 'utf8');
  for (const name of names) assert.ok(shell.includes(`'${name}'`), `window.TrainCost calls ${name}`);
});

test('the module has the functions of window.TrainCost, and a default export', async () => {
  for (const name of ['evaluate', 'analyze', 'pilot', 'sweep', 'card', 'compare', 'explain', 'encodeLink', 'decodeLink', 'importHf', 'catalog', 'schema', 'replay']) {
    assert.equal(typeof tc[name], 'function', name);
    assert.equal(tc.default[name], tc[name], name);
  }
  assert.equal(await tc.ready, tc.default);
  const pkg = JSON.parse(readFileSync(join(SOURCE_DIR, 'npm', 'package.json'), 'utf8'));
  assert.equal(pkg.version, tc.version.traincost, 'npm/package.json has the project version');
});

test('compare takes a preset by name and agrees with the CLI', () => {
  assert.equal(exact(tc.compare('mixtral', { tokens: 1e11, chips: 64 })),
    exact(cliJson(['compare', 'mixtral', '--tokens', '1e11', '--chips', '64', '--format', 'json'])));
});
