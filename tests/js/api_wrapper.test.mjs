// window.TrainCost never throws, whatever it is handed (issue row 16), and what reaches the core
// is exactly the text given. The real web/shell/calculator.js runs in a Node sandbox with a stub
// DOM and a stub module: its heap functions copy strings the way Emscripten 3.1.6 does (including
// its merging of a lone surrogate with the next character), and its entry points echo the text
// they receive, so the test sees what the core would read. Runs in every preset (node --test).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// TRAINCOST_CALCULATOR_JS tests another copy (an older one, to see the test fail).
const SOURCE = readFileSync(process.env.TRAINCOST_CALCULATOR_JS || join(ROOT, 'web/shell/calculator.js'), 'utf8');

// Emscripten 3.1.6's runtime_strings.js, as the page gets it.
function lengthBytesUTF8(str) {
  let len = 0;
  for (let i = 0; i < str.length; ++i) {
    let u = str.charCodeAt(i);
    if (u >= 0xD800 && u <= 0xDFFF) u = 0x10000 + ((u & 0x3FF) << 10) | (str.charCodeAt(++i) & 0x3FF);
    if (u <= 0x7F) ++len; else if (u <= 0x7FF) len += 2; else if (u <= 0xFFFF) len += 3; else len += 4;
  }
  return len;
}
function stringToUTF8Array(str, heap, outIdx, maxBytesToWrite) {
  if (!(maxBytesToWrite > 0)) return 0;
  const startIdx = outIdx, endIdx = outIdx + maxBytesToWrite - 1;
  for (let i = 0; i < str.length; ++i) {
    let u = str.charCodeAt(i);
    if (u >= 0xD800 && u <= 0xDFFF) { const u1 = str.charCodeAt(++i); u = 0x10000 + ((u & 0x3FF) << 10) | (u1 & 0x3FF); }
    if (u <= 0x7F) { if (outIdx >= endIdx) break; heap[outIdx++] = u; }
    else if (u <= 0x7FF) { if (outIdx + 1 >= endIdx) break; heap[outIdx++] = 0xC0 | (u >> 6); heap[outIdx++] = 0x80 | (u & 63); }
    else if (u <= 0xFFFF) { if (outIdx + 2 >= endIdx) break; heap[outIdx++] = 0xE0 | (u >> 12); heap[outIdx++] = 0x80 | ((u >> 6) & 63); heap[outIdx++] = 0x80 | (u & 63); }
    else { if (outIdx + 3 >= endIdx) break; heap[outIdx++] = 0xF0 | (u >> 18); heap[outIdx++] = 0x80 | ((u >> 12) & 63); heap[outIdx++] = 0x80 | ((u >> 6) & 63); heap[outIdx++] = 0x80 | (u & 63); }
  }
  heap[outIdx] = 0;
  return outIdx - startIdx;
}

// A page with calculator.js loaded and its module started; `core` replaces entry points.
function loadPage({ core = {}, start = true } = {}) {
  const heap = new Uint8Array(64 << 20);
  let top = 16;
  const element = () => ({
    hidden: false, textContent: '', style: {}, firstChild: null,
    addEventListener() {}, focus() {}, appendChild(x) { return x; }, removeChild() {}, setAttribute() {}, remove() {}, click() {},
    getContext: () => ({}), querySelector: () => null,  // no prerendered first answer in this page
  });
  const text = (p) => { let e = p; while (heap[e]) e++; return new TextDecoder().decode(heap.subarray(p, e)); };
  const give = (s) => { const b = new TextEncoder().encode(s); const p = top; heap.set(b, p); heap[p + b.length] = 0; top += b.length + 1; return p; };
  const sandbox = {
    document: { getElementById: element, createElement: element, body: element(), addEventListener() {} },
    setTimeout, console, JSON, Promise, TextDecoder, TextEncoder, Object, String,
    lengthBytesUTF8, UTF8ToString: text,
    stringToUTF8: (s, p, n) => stringToUTF8Array(s, heap, p, n),
    writeArrayToMemory: (a, p) => heap.set(a, p),
    URL: { createObjectURL: () => '', revokeObjectURL() {} },
    // The page fetches the wasm and fonts up front; here the module is faked, so they never arrive.
    fetch: () => new Promise(() => {}),
    location: { hash: '', search: '' }, requestAnimationFrame() {},
  };
  sandbox.window = sandbox;
  sandbox.self = sandbox.top = sandbox;
  sandbox.addEventListener = () => {};
  vm.createContext(sandbox);
  vm.runInContext(SOURCE, sandbox);
  const Module = sandbox.Module;
  Object.assign(Module, {
    _malloc: (n) => { const p = top; top += n; return p; }, _free() {}, _tc_font_data() {}, _tc_wake() {},
    _tc_api_version: () => give('{"traincost":"stub"}'),
    // the module's one entry point: (name, first, first length, second, second length)
    _tc_api_call: (name, a, an, b, bn) => give(JSON.stringify({ name: text(name), echo: [new TextDecoder().decode(heap.subarray(a, a + an)), ...(bn ? [new TextDecoder().decode(heap.subarray(b, b + bn))] : [])] })),
    _tc_api_ok: () => 1,
  }, core);
  if (start) Module.onRuntimeInitialized();
  return sandbox.TrainCost;
}

// Things a script may hand over.
const cyclic = {}; cyclic.self = cyclic;
const hostile = {
  'a string': '{"version":1}',
  'an empty string': '',
  undefined, null: null, 'a number': 42, NaN: NaN, 'a boolean': true, 'a BigInt': 10n, 'a symbol': Symbol('x'),
  'a function': () => 1, 'an array': [1, 2], 'a date': new Date(0), 'a String object': new String('{"version":1}'),
  'an object': { version: 1 }, 'a cyclic object': cyclic,
  'an object whose toString throws': { toString() { throw new Error('boom'); } },
  'an object whose toJSON throws': { toJSON() { throw new Error('boom'); } },
  'an object whose getter throws': { get version() { throw new Error('boom'); } },
  'an object holding a BigInt': { big: 1n },
  'a null-prototype object': Object.create(null),
  'a throwing proxy': new Proxy({}, { get() { throw new Error('trap'); }, ownKeys() { throw new Error('trap'); }, getPrototypeOf() { throw new Error('trap'); } }),
  'a revoked proxy': (() => { const r = Proxy.revocable({}, {}); r.revoke(); return r.proxy; })(),
  'a lone high surrogate': '{"name":"a\ud800b"}',
  'a lone low surrogate': '{"name":"a\udc00b"}',
  'a high surrogate at the end': 'abc\ud83d',
  'a NUL and garbage after a document': '{"version":1}\u0000garbage',
  'a NUL alone': '\u0000',
  'a huge string': 'x'.repeat(3 << 20),
  'an object too large': { text: 'x'.repeat(2 << 20) },
};

const FUNCTIONS = [
  ['evaluate', (api, v) => api.evaluate(v)],
  ['analyze (scenario)', (api, v) => api.analyze(v)],
  ['analyze (options)', (api, v) => api.analyze('{}', v)],
  ['encodeLink', (api, v) => api.encodeLink(v)],
  ['decodeLink', (api, v) => api.decodeLink(v)],
];

for (const [fname, f] of FUNCTIONS) {
  test(`${fname} never throws and answers JSON text`, () => {
    const api = loadPage();
    for (const [what, value] of Object.entries(hostile)) {
      let out;
      assert.doesNotThrow(() => { out = f(api, value); }, `${fname}(${what})`);
      assert.equal(typeof out, 'string', `${fname}(${what})`);
      const parsed = JSON.parse(out);
      assert.ok(parsed.echo || (parsed.error && Array.isArray(parsed.problems) && parsed.problems[0].message), `${fname}(${what}): ${out}`);
    }
  });
}

test('text reaches the core exactly, surrogate pairs included', () => {
  const api = loadPage();
  for (const text of ['{"version":1}', 'é ✓ 😀 训练 \u05e2', '#s=1.abc', '"\\u0000 is fine escaped"', 'x'.repeat(1 << 20)]) {
    assert.equal(JSON.parse(api.evaluate(text)).echo[0], text);
    assert.equal(JSON.parse(api.decodeLink(text)).echo[0], text);
  }
  assert.deepEqual(JSON.parse(api.analyze('{}', { samples: 100 })).echo, ['{}', '{"samples":100}']);
  assert.deepEqual(JSON.parse(api.analyze('{}')).echo, ['{}', '{}']);
  assert.equal(JSON.parse(api.evaluate({ version: 1 })).echo[0], '{"version":1}');
  assert.equal(JSON.parse(api.evaluate(new String('{"a":1}'))).echo[0], '{"a":1}');
});

test('what cannot reach the core intact is refused with a problem, not altered', () => {
  const api = loadPage();
  const cases = [
    [() => api.evaluate('{"name":"a\ud800b"}'), 'invalid scenario', '', 'lone surrogate U+D800 at character 11'],
    [() => api.evaluate('abc\ud83d'), 'invalid scenario', '', 'lone surrogate U+D83D at character 4'],
    [() => api.encodeLink('\udfff'), 'invalid scenario', '', 'lone surrogate U+DFFF at character 1'],
    [() => api.evaluate('{"version":1}\u0000garbage'), 'invalid scenario', '', 'NUL character (U+0000) at character 14'],
    [() => api.decodeLink('#s=1.ab\u0000cd'), 'invalid link', 'link', 'NUL character (U+0000) at character 8'],
    [() => api.analyze('{}', cyclic), 'invalid options', 'options', 'cannot be turned into JSON text'],
    [() => api.analyze('{}', { n: 1n }), 'invalid options', 'options', 'cannot be turned into JSON text'],
    [() => api.evaluate(cyclic), 'invalid scenario', '', 'cannot be turned into JSON text'],
    [() => api.evaluate({ toJSON() { throw new Error('boom'); } }), 'invalid scenario', '', 'boom'],
    [() => api.evaluate('x'.repeat(1048577)), 'invalid scenario', '', 'is 1048577 characters long; at most 1048576 bytes'],
  ];
  for (const [run, error, path, message] of cases) {
    const out = JSON.parse(run());
    assert.equal(out.error, error);
    assert.equal(out.problems[0].path, path);
    assert.ok(out.problems[0].message.includes(message), out.problems[0].message);
  }
});

test('an object whose toString throws is read as JSON (issue row 16)', () => {
  const api = loadPage();
  assert.equal(JSON.parse(api.evaluate({ toString() { throw new Error('x'); } })).echo[0], '{}');
});

test('a module that fails, runs out of memory or has not started answers an error', () => {
  const aborted = loadPage({ core: { _tc_api_call() { throw new Error('RuntimeError: abort'); } } });
  assert.equal(JSON.parse(aborted.evaluate('{}')).error, 'TrainCost failed');
  const full = loadPage({ core: { _malloc: () => 0 } });
  assert.equal(JSON.parse(full.evaluate('{}')).error, 'out of memory');
  const noAnswer = loadPage({ core: { _tc_api_call: () => 0 } });
  assert.equal(JSON.parse(noAnswer.decodeLink('#s=1.x')).error, 'out of memory');
  const loading = loadPage({ start: false });
  assert.match(JSON.parse(loading.evaluate('{}')).error, /loading/);
});
