// window.TrainCost: the core's entry points for scripts (calculator.js wraps these). Each takes
// JSON text and returns malloc'd JSON text (the caller frees it). Errors are returned as
// {"error": "...", "problems": [{"path": ..., "message": ...}]}: the core's validation messages.
#include <emscripten.h>

#include <cstdlib>
#include <cstring>

#include "traincost/link.hpp"
#include "traincost/report.hpp"
#include "traincost/uncertainty.hpp"

namespace {

using namespace traincost;

char* give(const std::string& text) {
  char* p = static_cast<char*>(std::malloc(text.size() + 1));
  std::memcpy(p, text.c_str(), text.size() + 1);
  return p;
}

std::string error_json(const std::string& error, const Problems& problems) {
  OrderedJson j = {{"error", error}};
  OrderedJson list = OrderedJson::array();
  for (const Problem& p : problems) list.push_back({{"path", p.path}, {"message", p.message}});
  j["problems"] = list;
  return j.dump();
}

std::optional<Scenario> read(const char* text, Problems& problems) {
  return parse_scenario(text ? text : "", builtin_catalog(), problems);
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE char* tc_api_version() {
  return give(OrderedJson({{"traincost", TRAINCOST_VERSION}, {"catalog", builtin_catalog().version},
                           {"scenario_format", kScenarioVersion}, {"link_format", kLinkFormat}})
                  .dump());
}

EMSCRIPTEN_KEEPALIVE char* tc_api_evaluate(const char* scenario_json) {
  Problems problems;
  const auto s = read(scenario_json, problems);
  if (!s) return give(error_json("invalid scenario", problems));
  const ResolvedScenario r = resolve(*s, builtin_catalog());
  return give(results_to_json(*s, r, evaluate(r)).dump());
}

EMSCRIPTEN_KEEPALIVE char* tc_api_analyze(const char* scenario_json, const char* options_json) {
  Problems problems;
  const auto s = read(scenario_json, problems);
  if (!s) return give(error_json("invalid scenario", problems));
  AnalyzeOptions options;
  options.samples = s->analysis.samples;
  options.seed = s->analysis.seed;
  Problems option_problems;
  const auto o = parse_json(options_json ? options_json : "{}", option_problems);
  if (!o || !o->is_object()) {
    if (option_problems.empty()) option_problems.push_back({"options", "must be a JSON object"});
    return give(error_json("invalid options", option_problems));
  }
  for (const auto& item : o->items()) {
    const Json& v = item.value();
    const bool whole = v.is_number_integer() || v.is_number_unsigned();
    if (item.key() == "samples" && whole && v.get<long long>() >= 100 && v.get<long long>() <= 1000000)
      options.samples = static_cast<int>(v.get<long long>());
    else if (item.key() == "seed" && whole && v.get<long long>() >= 0 && v.get<long long>() <= 9007199254740991LL)
      options.seed = v.get<unsigned long long>();
    else if (item.key() == "workload" && whole && v.get<long long>() >= 0 && v.get<long long>() < static_cast<long long>(s->workloads.size()))
      options.workload = static_cast<size_t>(v.get<long long>());
    else
      option_problems.push_back({"options." + item.key(), item.key() == "samples"  ? "must be a whole number from 100 to 1000000"
                                                          : item.key() == "seed"   ? "must be a whole number from 0 to 2^53-1"
                                                          : item.key() == "workload" ? "must name one of the scenario's workloads"
                                                                                     : "unknown option"});
  }
  if (!option_problems.empty()) return give(error_json("invalid options", option_problems));
  const ResolvedScenario r = resolve(*s, builtin_catalog());
  return give(analysis_to_json(*s, r, analyze(*s, builtin_catalog(), options)).dump());
}

EMSCRIPTEN_KEEPALIVE char* tc_api_encode_link(const char* scenario_json) {
  Problems problems;
  const auto s = read(scenario_json, problems);
  if (!s) return give(error_json("invalid scenario", problems));
  // Like the page and the CLI, links record the catalog they were made with.
  Scenario stamped = *s;
  if (stamped.catalog.empty()) stamped.catalog = builtin_catalog().version;
  const std::string payload = encode_link(stamped);
  return give(OrderedJson({{"fragment", "s=" + payload}, {"link", "#s=" + payload}}).dump());
}

EMSCRIPTEN_KEEPALIVE char* tc_api_decode_link(const char* fragment) {
  Problems problems;
  std::vector<std::string> notices;
  const auto s = decode_link(fragment ? fragment : "", builtin_catalog(), problems, &notices);
  if (!s) return give(error_json("invalid link", problems));
  return give(OrderedJson({{"scenario", scenario_to_json(*s)}, {"notices", notices}}).dump());
}

}  // extern "C"
