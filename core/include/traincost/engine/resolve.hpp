#pragma once
// A scenario resolved: every pair of a workload and an option through resolve_pair(), each option
// at its own size or, when the workload has a deadline, at the size the deadline needs
// (deadline.hpp). Evaluation, sensitivity and Monte Carlo work on this form, so a sample only
// changes a few doubles and re-evaluates, with no strings, lookups or allocation.
#include <memory>

#include "traincost/data/catalog.hpp"
#include "traincost/engine/deadline.hpp"
#include "traincost/engine/deadline_odds.hpp"
#include "traincost/engine/resolved.hpp"
#include "traincost/scenario/scenario.hpp"

namespace traincost {

// Requires a scenario that passed validate() against the same catalog.
ResolvedScenario resolve(const Scenario& scenario, const Catalog& catalog);

// resolve() a step at a time; resolve() is this run driven to completion. A step is bounded work:
// one option's own numbers, one pair through resolve_pair(), one size tried by a deadline's search
// (deadline.hpp), one step of a deadline_confidence's search (a size put in place or a batch of
// its draws: deadline_odds.hpp), or the labels at the end; step() says whether the run is done.
// done() and total() count the options, the pairs, the pairs sized for odds and the labels (a pair
// counts once however many sizes its searches try), for progress. `scenario` and `catalog` must outlive the run, which must not move.
class ResolveRun {
 public:
  ResolveRun(const Scenario& scenario, const Catalog& catalog);
  ResolveRun(const ResolveRun&) = delete;
  ResolveRun& operator=(const ResolveRun&) = delete;

  bool step();
  size_t done() const;
  size_t total() const;
  ResolvedScenario finish();  // once step() has returned true

 private:
  const Scenario* s_;
  const Catalog* catalog_;
  ResolvedScenario r_;
  WorkloadInputs wi_;      // the workload whose pairs are being resolved
  WorkloadInputs sized_;   // it with the default run length as a deadline (options with no size)
  bool started_workload_ = false;
  std::unique_ptr<DeadlineSearch> search_;  // the pair's search in progress
  std::unique_ptr<DeadlineOddsRun> odds_;   // the resizing for deadline_confidence, once every pair is resolved
  bool finished_ = false;
};

}  // namespace traincost
