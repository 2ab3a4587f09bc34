// Fuzz target: scenario JSON from untrusted text (pasted, loaded from a file, sent to the JS API).
// Parse, read and validate; when the scenario is valid, resolve and evaluate it, render every
// report and (for some inputs) the cluster-size sweep, run the uncertainty analysis with a small
// sample count, and check the two round trips the product promises: JSON text and share links both
// give back the same scenario. Every report is printable on a terminal, and no time or cost in the
// JSON is negative.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_support.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/output/analysis_report.hpp"
#include "traincost/output/explain.hpp"
#include "traincost/io/link.hpp"
#include "traincost/output/report.hpp"
#include "traincost/engine/sweep.hpp"
#include "traincost/engine/uncertainty.hpp"
#include "traincost/output/sweep_report.hpp"
#include "traincost/output/verdict.hpp"

using namespace traincost;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const Catalog& catalog = builtin_catalog();

  Problems problems;
  const std::optional<Json> doc = parse_json(text, problems);
  if (!doc) {
    TRAINCOST_FUZZ_CHECK(!problems.empty(), "rejected without a problem");
    fuzz::check_problems(problems);
    return 0;
  }
  const std::optional<Scenario> read = scenario_from_json(*doc, problems);
  if (!read) {
    TRAINCOST_FUZZ_CHECK(!problems.empty(), "rejected without a problem");
    fuzz::check_problems(problems);
    return 0;
  }
  problems = validate(*read, catalog);
  fuzz::check_problems(problems);
  if (!problems.empty()) return 0;
  const Scenario& s = *read;

  // Evaluate and render everything a user can ask for.
  const ResolvedScenario r = resolve(s, catalog);
  const Results results = evaluate(r);
  for (size_t w = 0; w < results.workloads.size(); ++w)
    for (const OptionResult& o : results.workloads[w].options) {
      if (!o.feasible()) continue;
      TRAINCOST_FUZZ_CHECK(std::isfinite(o.cost_per_run) && o.cost_per_run >= 0,
                           "a feasible option costs " + std::to_string(o.cost_per_run) + " per run");
      // An option that can run a workload with a deadline is done in time.
      if (s.workloads[w].deadline_days)
        TRAINCOST_FUZZ_CHECK(o.days_to_model <= *s.workloads[w].deadline_days,
                             "a feasible option misses its deadline: " + std::to_string(o.days_to_model) + " days");
    }
  // Numeric safety: no negative time or cost in the JSON (an infeasible option's are null).
  fuzz::check_json_figures(Json::parse(results_to_json(s, r, results).dump()), "");
  // Escaping: nothing for a terminal holds a control character; no name does (validation).
  TRAINCOST_FUZZ_CHECK(fuzz::printable(report_text(s, r, results)), "report_text holds a control character");
  TRAINCOST_FUZZ_CHECK(fuzz::printable(fuzz::without_autolink_breaks(report_markdown(s, r, results, "#s=1.x"))), "report_markdown holds a control character");
  TRAINCOST_FUZZ_CHECK(fuzz::printable(report_csv(s, r, results)), "report_csv holds a control character");
  TRAINCOST_FUZZ_CHECK(fuzz::printable(explain_text(s, r, results)), "explain_text holds a control character");

  AnalyzeOptions options;
  options.samples = 200;
  options.seed = s.analysis.seed;
  options.workload = size % s.workloads.size();
  // The sweep re-predicts every option at a score of sizes: one input in eight, to keep the pace.
  if (size % 8 == 0) (void)sweep_to_json(s, r, sweep(s, r, catalog, options.workload)).dump();
  const Analysis a = analyze(s, catalog, options);
  fuzz::check_json_figures(Json::parse(analysis_to_json(s, r, a).dump()), "");
  TRAINCOST_FUZZ_CHECK(fuzz::printable(analysis_text(r, a)), "analysis_text holds a control character");
  TRAINCOST_FUZZ_CHECK(fuzz::printable(fuzz::without_autolink_breaks(analysis_markdown(r, a))), "analysis_markdown holds a control character");

  // Round trip 1: the scenario's JSON text reads back to the same scenario.
  const std::string canonical = scenario_to_json(s).dump();
  Problems again;
  const std::optional<Scenario> reread = parse_scenario(scenario_to_text(s), catalog, again);
  TRAINCOST_FUZZ_CHECK(reread, "scenario_to_text does not read back:\n" + to_string(again) + canonical);
  TRAINCOST_FUZZ_CHECK(scenario_to_json(*reread).dump() == canonical,
                       "JSON round trip changed the scenario:\n" + canonical + "\n" + scenario_to_json(*reread).dump());

  // Round trip 2: a share link opens the same scenario.
  const std::string link = encode_link(s);
  const std::optional<Scenario> opened = decode_link(link, catalog, again);
  TRAINCOST_FUZZ_CHECK(opened, "its link does not open:\n" + to_string(again) + link + "\n" + canonical);
  TRAINCOST_FUZZ_CHECK(scenario_to_json(*opened).dump() == canonical,
                       "link round trip changed the scenario:\n" + canonical + "\n" + scenario_to_json(*opened).dump());
  return 0;
}
