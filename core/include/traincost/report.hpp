#pragma once
// Results as JSON (the contract of the CLI's --format json and the JS API), as a readable text
// report, as Markdown for wikis and as CSV for spreadsheets.
#include <string>

#include "traincost/evaluate.hpp"
#include "traincost/scenario_json.hpp"
#include "traincost/thresholds.hpp"

namespace traincost {

// What one run costs, by cause; the parts add up to cost_per_run. Withheld (every part NaN) for
// an option that cannot run the job.
struct CostBreakdown {
  double compute = 0;      // training time on the cluster, including goodput losses
  double compile = 0;
  double porting = 0;      // one-time engineering ÷ runs
  double validation = 0;   // one-time validation compute ÷ runs
  double maintenance = 0;  // maintenance over the horizon ÷ runs
  double egress = 0;
};
CostBreakdown breakdown(const OptionResult& result, double runs);

const char* to_string(BreakevenKind kind);  // "from_first_run", "at_runs", "until_runs", "never"

// A threshold as the results JSON (comparison.thresholds[]) and the pilot plan write it.
OrderedJson threshold_json(const ResolvedScenario& resolved, const Threshold& threshold);

// The thresholds of a workload's leader against its runner-up (empty without both).
std::vector<Threshold> leading_thresholds(const Scenario& scenario, const ResolvedScenario& resolved, const Results& results,
                                          size_t workload);

OrderedJson results_to_json(const Scenario& scenario, const ResolvedScenario& resolved, const Results& results);
std::string report_text(const Scenario& scenario, const ResolvedScenario& resolved, const Results& results);
// `link` (may be empty) is appended so a wiki reader can open the scenario.
std::string report_markdown(const Scenario& scenario, const ResolvedScenario& resolved, const Results& results,
                            const std::string& link);
std::string report_csv(const Scenario& scenario, const ResolvedScenario& resolved, const Results& results);

std::string workload_title(const Workload& workload, size_t index);  // its name, or "Workload 2"

}  // namespace traincost
