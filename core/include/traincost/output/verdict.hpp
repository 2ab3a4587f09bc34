#pragma once
// The one-sentence answer the page, the CLI and the Markdown export lead with.
#include <string>

#include "traincost/engine/evaluate.hpp"
#include "traincost/engine/thresholds.hpp"
#include "traincost/base/problems.hpp"

namespace traincost {

// "Trn2 ×4 is 31% cheaper per run than H100 ×8 at 10 runs; it wins once the recipe runs 4+
// times, below that H100 ×8 wins." followed by any option that cannot run the job and why.
std::string workload_verdict(const ResolvedScenario& scenario, const Results& results, size_t workload);

// What an option's training stack's lifecycle means for it, with its source, or "" when its stack
// is supported (catalog "software"): "Trainium1's training stack (NxD Training and PyTorch/XLA
// training (Neuron SDK)) is at end of support since Neuron 2.32 (announced 2025-12-16); its
// successor, TorchNeuron with TorchTitan, supports Trn2 and Trn3 only. Source: <url>, as of
// 2026-07-24." Every Trn1 verdict, explain and JSON result carries it.
std::string software_notice(const OptionInfo& option, const Catalog& catalog);
// The same in a verdict's words, shorter: the stack's status, its successor and the source's site
// and date (the address is in the notice).
std::string software_headline(const SoftwareLifecycle& life, const Catalog& catalog);

// "Across 3 workloads, picking per workload costs $4.1M a year, 12% less than all on Trn2."
std::string portfolio_verdict(const ResolvedScenario& scenario, const Results& results);

// Why an option cannot run a workload ("needs at least 3 instances to hold the model"), or "".
std::string infeasibility_reason(const OptionResult& result);

// The condition a threshold sets, for the first option of its pair to stay cheaper: "Trn2 x16
// reaches at least 2,650 tokens/s per chip (MFU 0.24)", "the recipe runs more than 4.3 times", or,
// when no valid value flips it, "no porting effort of H100 x32 changes it".
std::string threshold_condition(const ResolvedScenario& scenario, const Threshold& threshold);

// The line under the verdict: "Holds while " + the most decisive threshold's condition, or "" when
// no threshold flips the answer.
std::string holds_while(const ResolvedScenario& scenario, const std::vector<Threshold>& thresholds);

// A threshold as a row of a table (the page's "What would change it" tab, the tornado's labels):
// the same figures and units as threshold_condition, split into cells.
struct ThresholdRow {
  std::string option;     // the option whose input it is; "both" for the workload's runs
  std::string input;      // "throughput", "price per instance-hour", …
  std::string base;       // the value now: "2,900 tokens/s per chip (MFU 0.38)", "$35.76 per instance-hour"
  std::string value;      // where the answer flips, in the same units; "no value flips it"
  std::string direction;  // "at least" / "at most" (the leader stays cheaper while the input is …); "" without a flip
  std::string change;     // "+51%", "−33%": how far the input must move; "" without a flip or from a base of 0
};
ThresholdRow threshold_row(const ResolvedScenario& scenario, const Threshold& threshold);
// What a workload's constraints cannot give, and what its defaults chose or its inputs leave in
// doubt, each naming the field: a deadline shorter than an option's fastest possible run, a budget
// that buys less than one optimizer step on an option, the size chosen for an option without
// `instances`, a step more than kIdleShare idle (pipeline bubble and exposed gradient exchange; by
// the step-time model's layout, also where the throughput is given), and parameters, or a mixture
// of experts' active parameters, more than kParamsMismatch off the architecture's count. (The
// scenario is valid: the options still answer.)
inline constexpr double kIdleShare = 0.5;
inline constexpr double kParamsMismatch = 0.25;
std::vector<Problem> constraint_problems(const ResolvedScenario& scenario, const Results& results, size_t workload);

// When the simulated futures disagree with the point estimates: "H100 x32 is the cheapest in more
// futures (75%) than Trn2 x16 (25%), which the point estimates favour: the verdict is the less likely
// outcome." Empty when the point estimates' cheapest option (`point_leader`, -1 for none) is also the
// one cheapest in the most futures. `probability_cheapest` has one entry per option.
std::string less_likely_verdict(const ResolvedScenario& scenario, int point_leader, const std::vector<double>& probability_cheapest);

// Smallest whole number of runs strictly beyond a crossing point.
double first_run_after(double crossing);

}  // namespace traincost
