#pragma once
// Results as JSON (the contract of the CLI's --format json and the JS API), as a readable text
// report, as Markdown for wikis and as CSV for spreadsheets.
#include <string>
#include <vector>

#include "traincost/engine/evaluate.hpp"
#include "traincost/engine/odds.hpp"
#include "traincost/io/scenario_json.hpp"
#include "traincost/engine/thresholds.hpp"

namespace traincost {


const char* to_string(BreakevenKind kind);  // "from_first_run", "at_runs", "until_runs", "never"

// A threshold as the results JSON (comparison.thresholds[]) and the pilot plan write it.
OrderedJson threshold_json(const ResolvedScenario& resolved, const Threshold& threshold);

// The thresholds of a workload's leader against its runner-up (empty without both).
std::vector<Threshold> leading_thresholds(const Scenario& scenario, const ResolvedScenario& resolved, const Results& results,
                                          size_t workload);

// Each takes the quick look at the odds (odds.hpp) to print beside the point estimates; a
// default-constructed QuickOdds (neither computed nor skipped) prints none, as the golden files and
// the page's exports (whose analysis is on its own tab) want.
OrderedJson results_to_json(const Scenario& scenario, const ResolvedScenario& resolved, const Results& results,
                            const QuickOdds& odds = QuickOdds());
std::string report_text(const Scenario& scenario, const ResolvedScenario& resolved, const Results& results,
                        const QuickOdds& odds = QuickOdds());
// `link` (may be empty) is appended so a wiki reader can open the scenario.
std::string report_markdown(const Scenario& scenario, const ResolvedScenario& resolved, const Results& results,
                            const std::string& link, const QuickOdds& odds = QuickOdds());
std::string report_csv(const Scenario& scenario, const ResolvedScenario& resolved, const Results& results,
                       const QuickOdds& odds = QuickOdds());

// Percentiles as {"p5", "p50", "p95"}, null where a figure is not finite.
OrderedJson percentiles_json(const Percentiles& percentiles);

// The quick look at a workload's odds as sentences (plain text, unescaped): each option's median,
// 90% range and chance of being cheapest; a point estimate far from its median and what pulls it;
// and when the futures favour another option than the point estimate does. Empty without odds.
std::vector<std::string> odds_lines(const ResolvedScenario& resolved, const Results& results, const QuickOdds& odds, size_t workload);


// Sentences on a workload's constraints for the reports (plain text, unescaped): what its budget
// buys on each option, each option's cost of delay and expected re-porting, and its problems.
std::vector<std::string> constraint_lines(const ResolvedScenario& resolved, const Results& results, size_t workload);

}  // namespace traincost
