#pragma once
// A deadline: "we must have the model in 30 days: what does each platform cost then?" Each option
// runs on the fewest instances whose run is done in time, counting its wait for capacity, with the
// step-time model's layout, utilization and goodput at every size tried (the scaling loss, the
// memory fit and the failure rate all change with the cluster). resolve() sizes every option of a
// workload that has a deadline; evaluation, the verdict and the analysis then work at those sizes.
#include <limits>

#include "traincost/data/catalog.hpp"
#include "traincost/engine/resolved.hpp"

namespace traincost {

// The pair at the fewest instances, up to the option's max_instances (kDefaultMaxInstances when it
// gives none), whose days until the model is done (wait + wall clock) are within the workload's
// deadline_days; when no size is, the pair at the fastest size tried. Its `deadline` says which.
//
// The search: sizes 1, 2, 4, … up to the limit until one is in time, then bisection between that
// size and the one before it. Bisection assumes the run gets shorter as the cluster grows within
// one doubling, which the model keeps to but for small steps: a size whose layout divides the batch
// worse can be a little slower than a smaller one. A size whose batch no longer spreads over the
// cluster ends the doubling, since every larger one fails the same way.
// `workload` must be resolved (its active parameters set); `index` is the option's place in the scenario.
PairInputs size_for_deadline(const WorkloadInputs& workload, const Option& option, size_t index, const Catalog& catalog);

// The same search, one size at a time: step() tries one size (one resolve_pair() and one
// evaluation of the pair) and says whether the search is done; result() is then the pair
// size_for_deadline() returns, which is this search driven to completion. The page's base
// evaluation (EvaluationRun) steps it a slice per frame, so that a deadline with a limit of
// 100,000 instances does not hold the main thread for the whole search.
// `workload`, `option` and `catalog` must outlive the search.
class DeadlineSearch {
 public:
  DeadlineSearch(const WorkloadInputs& workload, const Option& option, size_t index, const Catalog& catalog);
  bool step();
  bool done() const { return phase_ == Phase::Done; }
  PairInputs result() const { return result_; }

 private:
  // One size tried: the pair there and when its model would be done (infinite when it cannot run
  // for another reason than the deadline: memory, layout, failures).
  struct Trial {
    PairInputs pair;
    double days = std::numeric_limits<double>::infinity();
    bool batch_exhausted = false;  // more instances than the batch can spread over
  };
  Trial attempt(double instances);

  enum class Phase { Doubling, Bisecting, TooSlow, Done };
  const WorkloadInputs* w_;
  const Option* o_;
  size_t index_;
  const Catalog* catalog_;
  double deadline_ = 0, target_ = 0;
  DeadlineSizing sizing_;
  Phase phase_ = Phase::Doubling;
  double too_slow_ = 0, n_ = 1;  // the last size too slow, and the size to try (or the first in time)
  Trial fastest_, in_time_;
  PairInputs result_;
};

// The largest cluster a deadline or the sweep considers for an option.
double instance_limit(const Option& option);

}  // namespace traincost
