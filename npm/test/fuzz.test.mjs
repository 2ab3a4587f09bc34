// A few thousand malformed scenarios, links and configs (seeded: every run feeds the same ones).
// Each call returns a result or throws ScenarioError, never anything else, and the module keeps
// working; a sample is checked against the CLI's messages and results.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { EXAMPLES, cli, cliProblems, exact, problemLines, tc } from './support.mjs';

const CASES = 3000;
const TOKENS = ['{', '}', '[', ']', '"', ',', ':', '-', '0', '-1', '1e309', '-1e-400', 'NaN', 'Infinity', 'null', 'true',
  '"x"', '\\u0000', '"\\ud800"', '99999999999999999999999', '{"a":', '\u00e9', '\u{1F600}', '\u0000', '\ud800', ' '];
const VALUES = [null, true, false, 0, -1, -0, 0.5, 1e308, -1e308, 5e-324, 2 ** 64, '', 'x'.repeat(300), 'trn2.48xlarge', [], {},
  [null], { low: 1, high: 0 }, '\u00e9\u{1F600}'];

// mulberry32: a small seeded generator, so the corpus is the same on every run and machine.
function generator(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
  const below = (n) => next() % n;
  return { below, pick: (list) => structuredClone(list[below(list.length)]) };
}

function mutateText(rng, text) {
  for (let k = 1 + rng.below(4); k > 0; k--) {
    const i = rng.below(text.length + 1);
    switch (rng.below(5)) {
      case 0: text = text.slice(0, i) + text.slice(i + 1 + rng.below(20)); break;
      case 1: text = text.slice(0, i) + rng.pick(TOKENS) + text.slice(i); break;
      case 2: { const j = rng.below(text.length + 1); text = text.slice(0, i) + text.slice(Math.min(i, j), Math.max(i, j)) + text.slice(i); break; }
      case 3: text = text.slice(0, i); break;
      default: text = text.slice(0, i) + String.fromCharCode(32 + rng.below(95)) + text.slice(i + 1);
    }
  }
  return text;
}

function* paths(node, prefix = []) {
  yield prefix;
  if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) yield* paths(v, [...prefix, Array.isArray(node) ? Number(k) : k]);
}

function mutateDocument(rng, doc) {
  for (let k = 1 + rng.below(3); k > 0; k--) {
    const all = [...paths(doc)];
    const path = all[rng.below(all.length)];
    if (path.length === 0) continue;
    const parent = path.slice(0, -1).reduce((node, key) => node[key], doc);
    const key = path[path.length - 1];
    const op = rng.below(3);
    if (op === 0) parent[key] = rng.pick(VALUES);
    else if (op === 1 && !Array.isArray(parent)) delete parent[key];
    else if (!Array.isArray(parent)) parent[`unknown_${rng.below(10)}`] = rng.pick(VALUES);
    else parent.push(rng.pick(VALUES));
  }
  return doc;
}

function* corpus(seed = 20250101) {
  const rng = generator(seed);
  const texts = EXAMPLES.map((p) => readFileSync(p, 'utf8'));
  for (let n = 0; n < CASES; n++) {
    const base = texts[n % texts.length];
    yield n % 2 ? mutateText(rng, base) : JSON.stringify(mutateDocument(rng, JSON.parse(base)));
  }
}

function outcome(fn, ...args) {
  try {
    return fn(...args);
  } catch (e) {
    assert.ok(e instanceof tc.ScenarioError, `${fn.name} threw ${e}`);
    assert.ok(e.problems.length > 0 && e.problems.every((p) => typeof p.path === 'string' && typeof p.message === 'string'));
    return e;
  }
}

test('malformed scenarios never crash, and give what the CLI gives', () => {
  let valid = 0, invalid = 0, n = 0;
  for (const text of corpus()) {
    const result = outcome(tc.evaluate, text);
    if (result instanceof tc.ScenarioError) {
      invalid++;
      if (n % 10 === 0) for (const fn of [tc.explain, tc.encodeLink, tc.analyze]) assert.ok(outcome(fn, text) instanceof tc.ScenarioError);
      if (n % 50 === 0) assert.deepEqual(problemLines(result.problems), cliProblems(['evaluate', '-'], text), text);
    } else {
      valid++;
      assert.ok(Array.isArray(result.workloads));
      if (n % 10 === 0) {
        outcome(tc.analyze, text, { samples: 100 });
        const { link } = tc.encodeLink(text);
        assert.equal(exact(tc.evaluate(tc.decodeLink(link).scenario)), exact(result));
      }
      if (n % 50 === 0) {
        const done = cli(['evaluate', '-', '--format', 'json'], text);
        assert.equal(done.status, 0);
        assert.equal(exact(result), exact(JSON.parse(done.stdout)));
      }
    }
    n++;
  }
  assert.ok(valid > 0 && invalid > valid, `valid ${valid}, invalid ${invalid}`);
  assert.equal(tc.evaluate(readFileSync(EXAMPLES[0], 'utf8')).workloads.length > 0, true, 'the module still works');
});

test('malformed links and configs never crash', () => {
  const rng = generator(7);
  const { link } = tc.encodeLink(readFileSync(EXAMPLES[0], 'utf8'));
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=#s%';
  for (let i = 0; i < 1000; i++) {
    const broken = rng.below(2) ? mutateText(rng, link) : Array.from({ length: rng.below(80) }, () => alphabet[rng.below(alphabet.length)]).join('');
    outcome(tc.decodeLink, broken);
  }
  const config = JSON.stringify({ hidden_size: 4096, num_hidden_layers: 32, num_attention_heads: 32, num_key_value_heads: 8,
    intermediate_size: 14336, vocab_size: 128256, max_position_embeddings: 8192 });
  for (let i = 0; i < 1000; i++) {
    outcome(tc.importHf, rng.below(2) ? mutateText(rng, config) : JSON.stringify(mutateDocument(rng, JSON.parse(config))));
  }
});
