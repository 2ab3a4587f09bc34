#pragma once
// The core as one JSON-text API, shared by every binding: the page's window.TrainCost
// (web/js_api.cpp), the npm package (WebAssembly, npm/) and the Python package (pybind11,
// python/). Each function takes JSON text and answers JSON text, so a binding only moves strings:
//   ok:    the result, exactly what the CLI prints for `--format json` (here compact)
//   error: {"error": "invalid scenario", "problems": [{"path": ..., "message": ...}]}, with the
//          messages the CLI prints on stderr.
// Nothing throws and no input aborts; the functions are reentrant (a binding may run them on
// several threads at once).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traincost/engine/evaluate.hpp"
#include "traincost/engine/pilot.hpp"
#include "traincost/io/scenario_json.hpp"
#include "traincost/engine/uncertainty.hpp"
#include "traincost/output/card.hpp"
#include "traincost/output/compare.hpp"

namespace traincost {

struct ApiReply {
  bool ok = false;
  std::string json;
};

ApiReply api_version();                                 // {"traincost", "catalog", "scenario_format", "link_format"}
ApiReply api_evaluate(std::string_view scenario_json);  // `traincost evaluate --format json`
// `traincost analyze --format json`. options_json: {"samples", "seed", "workload"}, each
// optional (defaults: the scenario's analysis settings, workload 0); empty text means {}.
ApiReply api_analyze(std::string_view scenario_json, std::string_view options_json);
ApiReply api_explain(std::string_view scenario_json);   // `traincost explain --format json`
// `traincost pilot --format json`: the pilot plan. options_json: {"workload", "candidate", "against",
// "fraction", "instances", "samples", "seed"}, each optional (pilot.hpp: PilotOptions).
ApiReply api_pilot(std::string_view scenario_json, std::string_view options_json);
ApiReply api_encode_link(std::string_view scenario_json);  // {"fragment": "s=1.…", "link": "#s=1.…"}
ApiReply api_decode_link(std::string_view link);        // {"scenario": {…}, "notices": […]}
ApiReply api_catalog();                                 // `traincost catalog --format json`
ApiReply api_read_log(std::string_view log_text);       // a pilot's training log read (io/pilot_log.hpp): the figures and the lines they came from
ApiReply api_import_hf(std::string_view config_json);   // `traincost import-hf`: a model block
ApiReply api_schema();                                  // `traincost schema --format json`
// `traincost sweep --format json`: cost per run and days until the model is done over cluster
// sizes, per option. options_json: {"workload"}, optional (default 0); empty text means {}.
ApiReply api_sweep(std::string_view scenario_json, std::string_view options_json);
// `traincost embed`: a static card of the answer for wikis without scripts or iframes (card.hpp):
// {"format": "html"|"svg", "card": "<figure …>" or "<svg …>", "link": "#s=1.…"}. options_json:
// {"format": "html" (default) or "svg", "url": the calculator page the card links to}.
ApiReply api_card(std::string_view scenario_json, std::string_view options_json);
ApiReply api_replay();                                  // `traincost replay --format json`: published runs vs predictions
// `traincost compare --format json`: one workload on every catalog instance and pricing (output/compare.hpp).
// model_json: a scenario (its workload `options.workload`, default 0), a Hugging Face config.json
// (then `options.tokens` is required), or a workload preset's name as a JSON string ("\"Mixtral-8x7B-class
// MoE\"", a unique case-insensitive part of it is enough). options_json: {"tokens", "instances" or
// "chips", "sort": "cost"|"time"|"throughput", "workload"}, each optional; empty text means {}.
ApiReply api_compare(std::string_view model_json, std::string_view options_json);
// The comparison api_compare() replies with (the CLI's text, Markdown and CSV, the page's tab); on
// invalid input, nothing, with `error` ("invalid scenario", "invalid options", ...) and the problems.
std::optional<ChipComparison> compare_from_json(std::string_view model_json, std::string_view options_json, std::string& error,
                                                Problems& problems);
// The names of the workload presets (assets/presets.json) `compare` takes.
std::vector<std::string> workload_preset_names();

// Every function above by name, so a binding can expose them all through one entry point:
// adding a function to the API is one line in api.cpp's table (and one in each binding's
// wrapper, which gives it its language's name, arguments and documentation).
struct ApiFunction {
  const char* name;  // "evaluate", "encode_link", ...
  int arity;         // how many text arguments it takes (0 to 2)
  ApiReply (*call)(std::string_view first, std::string_view second);
};
const std::vector<ApiFunction>& api_functions();
// Calls the function named `name` (arguments beyond its arity are ignored); an unknown name is
// an error reply.
ApiReply api_call(std::string_view name, std::string_view first = {}, std::string_view second = {});

// The JSON documents behind the replies, for the CLI's --format json (pretty-printed there).
OrderedJson version_json();
OrderedJson catalog_json();  // assets/catalog.json as built in: every figure with its source and date
OrderedJson schema_json();   // every numeric field: unit, bounds, default, meaning, typical values
OrderedJson explain_json(const Scenario& scenario, const ResolvedScenario& resolved, const Results& results);
OrderedJson link_json(const Scenario& scenario);  // stamps the catalog version, as the CLI's links do

// The analyze options (an object with "samples", "seed", "workload", each optional) checked
// against the scenario. Problems have paths "options.samples" etc.; the CLI turns them into
// "--samples ..." messages.
std::optional<AnalyzeOptions> analyze_options_from_json(const Json& options, const Scenario& scenario,
                                                        Problems& problems);
// The sweep options ({"workload"}, optional), checked the same way: the workload index to sweep.
std::optional<CardOptions> card_options_from_json(const Json& options, Problems& problems);
std::optional<size_t> sweep_options_from_json(const Json& options, const Scenario& scenario, Problems& problems);

// The pilot options checked the same way ("options.candidate", ...).
std::optional<PilotOptions> pilot_options_from_json(const Json& options, const Scenario& scenario, Problems& problems);

// {"error": error, "problems": [...]} as text.
std::string api_error_json(std::string_view error, const Problems& problems);

}  // namespace traincost
