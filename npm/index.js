// traincost: the TrainCost cost core (C++, compiled to WebAssembly) as an ES module. The same
// functions as the calculator page's window.TrainCost, taking and returning objects (JSON text is
// accepted too); invalid input throws a ScenarioError whose `problems` carry the CLI's messages.
// The module is ready when the import resolves (top-level await), so every function is synchronous.
import createTrainCostCore from './traincost_core.js';

const core = await createTrainCostCore();

/** Invalid input: `problems` lists each {path, message}; `error` says what was invalid. */
export class ScenarioError extends Error {
  constructor(error, problems) {
    const lines = problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message));
    super([`${error} (${lines.length} problem${lines.length === 1 ? '' : 's'}):`, ...lines].join('\n  '));
    this.name = 'ScenarioError';
    this.error = error;
    this.problems = problems;
  }
}

const MAX_BYTES = 1048576;  // the core's limit on a document (core/include/traincost/base/json_text.hpp)

function describe(e) {
  try {
    return String(e && e.message ? e.message : e);
  } catch {
    return 'an exception';
  }
}

// JSON text for the core: strings pass through (JSON text), everything else is serialized, so a
// wrong type reaches the core and gets the CLI's message ("must be an object"). Whatever cannot
// become text (a cycle, a BigInt, a throwing getter, toJSON or toString, a revoked Proxy) throws
// a ScenarioError naming `error` and `path`, as does text with a lone surrogate (UTF-8 cannot
// hold one: it was merged with the next character) or too long to be a document, refused before
// anything is copied into WebAssembly. The same rules as the page's window.TrainCost
// (web/shell/calculator.js, asText).
function text(value, error = 'invalid scenario', path = '', serialize = true) {
  let result;
  try {
    // A String object is its text; a link is always text (String()), a scenario or options JSON.
    const stringObject = value !== null && typeof value === 'object' && Object.prototype.toString.call(value) === '[object String]';
    result = typeof value === 'string' ? value : serialize && !stringObject ? JSON.stringify(value) ?? 'null' : String(value);
    if (typeof result !== 'string') result = String(result);
  } catch (e) {
    throw new ScenarioError(error, [{ path, message: `cannot be turned into JSON text (${describe(e)})` }]);
  }
  // Each UTF-16 code unit is at least one byte of UTF-8: a longer text is over the limit.
  if (result.length > MAX_BYTES) {
    throw new ScenarioError(error, [{ path, message: `is ${result.length} characters long; at most ${MAX_BYTES} bytes are accepted` }]);
  }
  for (let i = 0; i < result.length; i++) {
    const c = result.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    const next = result.charCodeAt(i + 1);
    if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      i++;
      continue;
    }
    throw new ScenarioError(error, [{ path, message: `is not well-formed Unicode: a lone surrogate U+${c.toString(16).toUpperCase()} at character ${i + 1}` }]);
  }
  return result;
}

// UTF-8 copies of the arguments in the module's memory for one call of web/js_api.cpp's entry point.
function call(name, first = '', second = '') {
  const texts = [name, first, second].map((s) => {
    const size = core.lengthBytesUTF8(s) + 1;
    const pointer = core._malloc(size);
    if (!pointer) throw new RangeError('traincost: out of WebAssembly memory');
    core.stringToUTF8(s, pointer, size);
    return { pointer, length: size - 1 };
  });
  try {
    const reply = core._tc_api_call(texts[0].pointer, texts[1].pointer, texts[1].length, texts[2].pointer, texts[2].length);
    if (!reply) throw new RangeError('traincost: out of WebAssembly memory');
    const ok = core._tc_api_ok() === 1;
    let result;
    try {
      result = JSON.parse(core.UTF8ToString(reply));
    } finally {
      core._free(reply);
    }
    if (!ok) throw new ScenarioError(result.error, result.problems);
    return result;
  } finally {
    for (const t of texts) core._free(t.pointer);
  }
}

/** Cost of every option for every workload, the verdicts and the portfolio (`traincost evaluate --format json`). */
export const evaluate = (scenario) => call('evaluate', text(scenario));
/** Sensitivity and Monte Carlo (`traincost analyze --format json`); options: {samples, seed, workload}. */
export const analyze = (scenario, options = {}) => call('analyze', text(scenario), text(options, 'invalid options', 'options'));
/** The pilot plan: thresholds, pass marks and whether a pilot is worth running (`traincost pilot --format json`);
 *  options: {workload, candidate, against, fraction, instances, samples, seed}. */
export const pilot = (scenario, options = {}) => call('pilot', text(scenario), text(options, 'invalid options', 'options'));
/** Cost per run and days until the model is done over cluster sizes, per option (`traincost sweep --format json`); options: {workload}. */
export const sweep = (scenario, options = {}) => call('sweep', text(scenario), text(options, 'invalid options', 'options'));
/** A static card of the answer for wikis without scripts or iframes (`traincost embed`): {format, card, link};
 *  options: {format: "html" (default) or "svg", url: the calculator page the card links to}. */
export const card = (scenario, options = {}) => call('card', text(scenario), text(options, 'invalid options', 'options'));
/** One model on every catalog instance and pricing: throughput per chip, MFU, time, compute-only $ per M tokens and
 *  the evidence behind each (`traincost compare --format json`). model: a scenario, a Hugging Face config.json, or a
 *  workload preset's name (plain text such as "Mixtral-8x7B-class MoE"); options: {tokens, instances | chips, sort, workload}. */
export const compare = (model, options = {}) =>
  call('compare', typeof model === 'string' && !/^\s*[{["]/.test(model) ? JSON.stringify(model) : text(model, 'invalid input'),
    text(options, 'invalid options', 'options'));
/** Every formula with the scenario's numbers (`traincost explain --format json`). */
export const explain = (scenario) => call('explain', text(scenario));
/** The share link: {fragment: "s=1.…", link: "#s=1.…"} (`traincost link`). */
export const encodeLink = (scenario) => call('encode_link', text(scenario));
/** The scenario in a share link: {scenario, notices}. Accepts the payload, s=…, #s=… or a whole address. */
export const decodeLink = (link) => call('decode_link', text(link, 'invalid link', 'link', false));
/** A model block from a Hugging Face config.json (`traincost import-hf`). */
export const importHf = (config) => call('import_hf', text(config, 'invalid config'));
/** The built-in catalog: chips, instances, prices, defaults, each with its source (`traincost catalog --format json`). */
export const catalog = () => call('catalog');
/** Every numeric scenario field: unit, range, default, meaning (`traincost schema --format json`). */
export const schema = () => call('schema');
/** Published training runs replayed with TrainCost's defaults: predicted vs published chip-hours (`traincost replay --format json`). */
export const replay = () => call('replay');
/** A pilot's training log (its text) read into the figures of a scenario's pilot block, each with the lines it came from. */
export const readLog = (log) => call('read_log', String(log));

/** {traincost, catalog, scenario_format, link_format} */
export const version = call('version');

const api = { ScenarioError, evaluate, analyze, pilot, sweep, card, compare, explain, encodeLink, decodeLink, importHf, catalog, schema, replay, readLog, version };
/** Resolves to the module's functions at once (the module is ready when imported); for code written against window.TrainCost.ready. */
export const ready = Promise.resolve(api);
api.ready = ready;
export default api;
