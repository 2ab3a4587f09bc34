#pragma once
// Results as JSON (the contract of the CLI's --format json and the JS API), as a readable text
// report, as Markdown for wikis and as CSV for spreadsheets.
#include <string>
#include <vector>

#include "traincost/engine/evaluate.hpp"
#include "traincost/io/scenario_json.hpp"
#include "traincost/engine/thresholds.hpp"

namespace traincost {


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


// Sentences on a workload's constraints for the reports (plain text, unescaped): what its budget
// buys on each option, each option's cost of delay and expected re-porting, and its problems.
std::vector<std::string> constraint_lines(const ResolvedScenario& resolved, const Results& results, size_t workload);

}  // namespace traincost
