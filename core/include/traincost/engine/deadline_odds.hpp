#pragma once
// A deadline with odds: "we must have the model in 14 days, nine times out of ten". The point
// estimate sizes each option to the fewest instances whose *planned* run is done in time
// (deadline.hpp), which makes the deadline in about half the futures the ranges allow when the
// plan is near its median. With workloads[].deadline_confidence each option instead gets the
// fewest instances whose chance of being done in time, over the futures the analysis draws (the
// scenario's ranges and TrainCost's default ranges: ranges.hpp), reaches that probability.
//
// The chance at a size is the share of kDeadlineOddsSamples draws, from a fixed seed, in which
// the pair runs and is done within the deadline (what analyze() calls probability_on_time). Every
// size tried uses the same draws (common random numbers), so a larger cluster is never judged on
// luckier futures, and the sizing is the same bits natively and in WebAssembly.
#include <cstdint>

#include "traincost/data/catalog.hpp"
#include "traincost/engine/resolved.hpp"
#include "traincost/scenario/scenario.hpp"

namespace traincost {

inline constexpr int kDeadlineOddsSamples = 1000;
inline constexpr uint64_t kDeadlineOddsSeed = 1;

// Resizes, in `resolved` (resolve()'s, sized for the point estimate), every option of every
// workload with a deadline_confidence: from its point-estimate size up, doubling until the chance
// reaches the target (or the option's instance limit), then bisection. An option whose plan
// misses the deadline at every size keeps its point sizing. When no size reaches the target, the
// size with the highest chance (the fewest such), with `confidence_met` false.
void size_for_deadline_odds(const Scenario& scenario, const Catalog& catalog, ResolvedScenario& resolved);

// The share of the fixed draws in which option `option` of workload `workload`, as it stands in
// `resolved`, runs and is done within the workload's deadline. For tests and the sizing above.
double probability_on_time(const Scenario& scenario, const Catalog& catalog, const ResolvedScenario& resolved, size_t workload,
                           size_t option);

}  // namespace traincost
