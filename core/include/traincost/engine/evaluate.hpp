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

// evaluate() in its three parts, which the page's base evaluation (EvaluationRun) runs a slice
// per frame: evaluate() is prepare_results(), evaluate_one() for every pair, then compare_options().
// prepare_results() sizes `out` and sets each workload's target tokens; evaluate_one() fills one
// pair's result; compare_options() the comparisons, the figures against the reference and the
// portfolio, from the pairs' results.
void prepare_results(const ResolvedScenario& scenario, Results& out);
void evaluate_one(const ResolvedScenario& scenario, size_t workload, size_t option, Results& out);
void compare_options(const ResolvedScenario& scenario, Results& out);

// One pair, for tests and the explain text.
OptionResult evaluate_pair(const WorkloadInputs& workload, const PairInputs& option, double target_tokens);

}  // namespace traincost
