#pragma once
// The cost to finish each workload on each option, fully loaded, and the decision per workload
// and across the portfolio.
#include "traincost/engine/resolved.hpp"
#include "traincost/engine/results.hpp"

namespace traincost {

// Fills `out`, reusing its storage (the Monte Carlo loop calls this 100,000 times).
void evaluate(const ResolvedScenario& scenario, Results& out);
Results evaluate(const ResolvedScenario& scenario);

// Only each workload's target tokens and per-option results, without the comparisons, the
// figures against the reference and the portfolio: all that sensitivity and Monte Carlo read,
// at about half the cost of evaluate(). The numbers are those evaluate() gives.
void evaluate_options(const ResolvedScenario& scenario, Results& out);

// One pair, for tests and the explain text.
OptionResult evaluate_pair(const WorkloadInputs& workload, const PairInputs& option, double target_tokens);

}  // namespace traincost
