#pragma once
// Each formula with the scenario's numbers substituted, so a reader can check every step by
// hand. The CLI's `explain` prints these; the web page shows the same steps under each result.
#include <string>
#include <vector>

#include "traincost/engine/evaluate.hpp"
#include "traincost/engine/pilot.hpp"

namespace traincost {

struct ExplainStep {
  std::string quantity;     // "Training FLOPs"
  std::string formula;      // "C = (6·N + 12·l·h·s) · D"
  std::string substituted;  // "(6 × 8.03e9 + 12 × 32 × 4096 × 8192) × 1.53e13"
  std::string result;       // "= 7.88e23 FLOP"
};

// `catalog` is the one the pair was resolved against (a published run's chip, for mfu_from_run).
std::vector<ExplainStep> explain_pair(const WorkloadInputs& workload, const PairInputs& inputs, const OptionResult& result,
                                      double target_tokens, const Catalog& catalog);

// The pilot plan's working: the throughput threshold's solution, the pass mark at the pilot's
// size, the pilot's compute, the loss gap, and the value of information and net value.
std::vector<ExplainStep> explain_pilot(const ResolvedScenario& resolved, const PilotPlan& plan);

// The whole scenario as text: every workload, every option, every step.
std::string explain_text(const Scenario& scenario, const ResolvedScenario& resolved, const Results& results);

}  // namespace traincost
