// Bad input throws ScenarioError with the CLI's messages; nothing else escapes.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { EXAMPLES, SOURCE_DIR, cli, cliProblems, exact, problemLines, tc } from './support.mjs';

const NEGATIVE = {
  version: 1, workloads: [{ model: { params: 8e9 }, target: { tokens: 1e11 } }],
  options: [{ instance: 'trn2.48xlarge' }, { instance: 'p5.48xlarge', price_usd_per_hour: -3 }],
};

function thrown(fn) {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof tc.ScenarioError, `expected a ScenarioError, got ${e}`);
    return e;
  }
  assert.fail('expected a ScenarioError');
}

test('the field is named, with the CLI message', () => {
  const e = thrown(() => tc.evaluate(NEGATIVE));
  assert.deepEqual(e.problems, [{ path: 'options[1].price_usd_per_hour', message: 'must be > 0, got -3' }]);
  assert.equal(e.error, 'invalid scenario');
  assert.equal(e.name, 'ScenarioError');
  assert.ok(e instanceof Error);
  assert.equal(e.message, 'invalid scenario (1 problem):\n  options[1].price_usd_per_hour: must be > 0, got -3');
  assert.deepEqual(problemLines(e.problems), cliProblems(['evaluate', '-'], JSON.stringify(NEGATIVE)));
});

const dirs = ['tests/fuzz/corpus/scenario', 'tests/fuzz/regressions/scenario'];
const files = dirs.flatMap((d) => readdirSync(join(SOURCE_DIR, d)).map((f) => join(SOURCE_DIR, d, f)))
  .concat(['negative-price.json', 'not-json.txt'].map((f) => join(SOURCE_DIR, 'tests', 'cli', 'data', f)));
test('the fuzz corpus and the CLI tests\' bad files give the CLI\'s results or messages', () => {
  for (const file of files) {
    let text;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(file));
    } catch {
      continue;  // a JavaScript string cannot carry invalid UTF-8 to the core (the Python tests send such bytes)
    }
    const done = cli(['evaluate', file, '--format', 'json']);
    if (done.status === 0) {
      assert.equal(exact(tc.evaluate(text)), exact(JSON.parse(done.stdout)), file);
      continue;
    }
    const expected = cliProblems(['evaluate', file]);
    for (const fn of [tc.evaluate, tc.analyze, tc.pilot, tc.explain, tc.encodeLink]) {
      assert.deepEqual(problemLines(thrown(() => fn(text)).problems), expected, file);
    }
  }
});

test('wrong documents give the CLI messages', () => {
  for (const doc of ['', '[]', 'null', '3', '"text"', '{}', '{"version": 2}', '{'.repeat(100)]) {
    assert.deepEqual(problemLines(thrown(() => tc.evaluate(doc)).problems), cliProblems(['evaluate', '-'], doc), doc);
  }
  assert.deepEqual(problemLines(thrown(() => tc.evaluate([1, 2])).problems), cliProblems(['evaluate', '-'], '[1,2]'));
  assert.ok(thrown(() => tc.evaluate(undefined)).problems.length > 0);
  // A BigInt cannot become JSON text: a ScenarioError that says so (issue 33 item 10), not a raw TypeError.
  const bigint = thrown(() => tc.evaluate({ n: 1n }));
  assert.ok(/cannot be turned into JSON text/.test(bigint.problems[0].message), bigint.problems[0].message);
});

test('analyze options give the CLI messages', () => {
  const example = EXAMPLES.find((p) => p.endsWith('llama3-8b-pretrain.json'));
  const text = readFileSync(example, 'utf8');
  for (const [flag, value] of [['--samples', 5], ['--samples', 1000001], ['--seed', -1], ['--seed', 2 ** 53], ['--workload', 1]]) {
    const done = cli(['analyze', example, flag, String(value)]);
    assert.equal(done.status, 1);
    const e = thrown(() => tc.analyze(text, { [flag.slice(2)]: value }));
    assert.equal(e.error, 'invalid options');
    assert.deepEqual(e.problems.map((p) => `traincost analyze: ${flag} ${p.message}`), done.stderr.trim().split('\n'));
  }
  assert.equal(thrown(() => tc.analyze(text, { samples: 2000.5 })).problems[0].path, 'options.samples');
  assert.equal(thrown(() => tc.analyze(text, { bogus: 1 })).problems[0].path, 'options.bogus');
  assert.equal(thrown(() => tc.analyze(text, null)).problems[0].path, 'options');
});

test('pilot options give the CLI messages', () => {
  const example = EXAMPLES.find((p) => p.endsWith('llama3-8b-pretrain.json'));
  const text = readFileSync(example, 'utf8');
  for (const [flag, value] of [['--candidate', 2], ['--against', -1], ['--fraction', 0], ['--fraction', 1.5], ['--instances', 0],
    ['--samples', 5], ['--workload', 1]]) {
    const done = cli(['pilot', example, flag, String(value)]);
    assert.equal(done.status, 1);
    const e = thrown(() => tc.pilot(text, { [flag.slice(2)]: value }));
    assert.equal(e.error, 'invalid options');
    assert.deepEqual(e.problems.map((p) => `traincost pilot: ${flag} ${p.message}`), done.stderr.trim().split('\n'));
  }
  assert.equal(thrown(() => tc.pilot(text, { candidate: 0, against: 0 })).problems[0].path, 'options.against');
  assert.equal(thrown(() => tc.pilot(text, { bogus: 1 })).problems[0].path, 'options.bogus');
  // A pilot cluster that cannot hold the job is a plan with a reason, not an error.
  const plan = tc.pilot(text, { instances: 17 });
  assert.equal(plan.ok, false);
  assert.equal(plan.recommendation, 'no plan');
});

test('sweep options give the CLI messages', () => {
  const example = EXAMPLES.find((p) => p.endsWith('llama3-8b-pretrain.json'));
  const text = readFileSync(example, 'utf8');
  const done = cli(['sweep', example, '--workload', '1']);
  assert.equal(done.status, 1);
  const e = thrown(() => tc.sweep(text, { workload: 1 }));
  assert.equal(e.error, 'invalid options');
  assert.deepEqual(e.problems.map((p) => `traincost sweep: --workload ${p.message}`), done.stderr.trim().split('\n'));
  assert.equal(thrown(() => tc.sweep(text, { samples: 100 })).problems[0].path, 'options.samples');
});

test('bad links and configs', () => {
  const e = thrown(() => tc.decodeLink('#s=1.xyz'));
  assert.equal(e.error, 'invalid link');
  const done = cli(['evaluate', '--link', '#s=1.xyz']);
  assert.deepEqual(problemLines(e.problems), done.stderr.split('\n').slice(1).filter((l) => l.startsWith('  ')).map((l) => l.slice(2)));
  const config = join(SOURCE_DIR, 'tests', 'fuzz', 'corpus', 'hf_config', 'bad-missing.json');
  const c = thrown(() => tc.importHf(readFileSync(config, 'utf8')));
  assert.equal(c.error, 'invalid config');
  assert.deepEqual(problemLines(c.problems), cliProblems(['import-hf', config]));
});

// Issue 33, item 10: whatever cannot become text throws ScenarioError (never a TypeError or a
// RangeError), naming the argument; lone surrogates and over-long texts are refused before
// anything is copied into WebAssembly.
test('values that cannot become JSON text throw ScenarioError', () => {
  const cycle = {};
  cycle.self = cycle;
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  const cases = [
    ['a cycle', cycle, 'circular'],
    ['a BigInt', { version: 1n }, 'BigInt'],
    ['a BigInt alone', 10n, 'BigInt'],
    ['a throwing getter', { get version() { throw new Error('getter says no'); } }, 'getter says no'],
    ['a throwing toJSON', { toJSON() { throw new Error('toJSON says no'); } }, 'toJSON says no'],
    ['a revoked Proxy', proxy, 'revoked'],
    ['a nested revoked Proxy', { options: [proxy] }, 'revoked'],
  ];
  for (const [what, value, words] of cases) {
    for (const fn of [tc.evaluate, tc.analyze, tc.pilot, tc.sweep, tc.explain, tc.encodeLink, tc.card]) {
      const e = thrown(() => fn(value));
      assert.equal(e.error, 'invalid scenario', what);
      assert.equal(e.problems[0].path, '', what);
      assert.match(e.problems[0].message, new RegExp(`^cannot be turned into JSON text \\(.*${words}`, 'is'), what);
    }
    const config = thrown(() => tc.importHf(value));
    assert.equal(config.error, 'invalid config', what);
    const options = thrown(() => tc.analyze(EXAMPLES[0] && readFileSync(EXAMPLES[0], 'utf8'), value));
    assert.equal(options.error, 'invalid options', what);
    assert.equal(options.problems[0].path, 'options', what);
  }
});

test('a link that cannot become text throws ScenarioError', () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  for (const [link, words] of [[{ toString() { throw new Error('toString says no'); } }, 'toString says no'], [proxy, 'revoked']]) {
    const e = thrown(() => tc.decodeLink(link));
    assert.equal(e.error, 'invalid link');
    assert.equal(e.problems[0].path, 'link');
    assert.match(e.problems[0].message, new RegExp(words, 'i'));
  }
});

test('lone surrogates are refused, never merged with the next character', () => {
  const example = readFileSync(EXAMPLES[0], 'utf8');
  for (const [text, at, unit] of [
    ['{"name": "\ud800x"}', 11, 'D800'], ['{"name": "\udc00"}', 11, 'DC00'], ['{"name": "a\ud83d"}', 12, 'D83D'],
    [example.replace('{', '{"name": "\udfff\ud800", '), 11, 'DFFF'],
  ]) {
    const e = thrown(() => tc.evaluate(text));
    assert.deepEqual(e.problems, [{ path: '', message: `is not well-formed Unicode: a lone surrogate U+${unit} at character ${at}` }]);
  }
  const link = thrown(() => tc.decodeLink('#s=1.\ud800'));
  assert.equal(link.error, 'invalid link');
  assert.match(link.problems[0].message, /lone surrogate U\+D800 at character 6/);
  // A well-formed pair is one character and passes.
  // (The example has a name of its own: replace it, as a second "name" key is refused.)
  assert.equal(tc.evaluate(JSON.stringify({ ...JSON.parse(example), name: '\ud83d\ude00' })).workloads.length > 0, true);
});

test('texts over the size limit are refused before they are copied', () => {
  for (const text of ['x'.repeat(1048577), ' '.repeat(50 << 20)]) {
    const e = thrown(() => tc.evaluate(text));
    assert.deepEqual(e.problems, [{ path: '', message: `is ${text.length} characters long; at most 1048576 bytes are accepted` }]);
  }
  // 700,000 three-byte characters: within the character count, over the byte limit: the core's message.
  const e = thrown(() => tc.evaluate(`"${'€'.repeat(700000)}"`));
  assert.match(e.problems[0].message, /the document is 2100002 bytes; at most 1048576 are accepted/);
});
