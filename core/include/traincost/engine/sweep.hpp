#pragma once
// The cluster-size sweep: for each option, the cost per run and the days until the model is done
// over a range of instance counts, so a team sees the whole trade-off between money and time, not
// one point. Each size gets the step-time model's layout and utilization, and the goodput of a
// cluster that size (resolve_pair), as a deadline's sizing does.
#include <string>
#include <vector>

#include "traincost/engine/evaluate.hpp"

namespace traincost {

struct SweepPoint {
  double instances = 0;
  double chips = 0;
  bool feasible = false;        // the option can run the job at this size (a deadline aside)
  Infeasible infeasible = Infeasible::No;  // why not, when it cannot (a deadline's Deadline aside)
  MemoryFit memory;             // the memory fit at this size
  double mfu = 0;
  double wall_clock_hours = 0;
  double days_to_model = 0;     // wait for capacity + wall clock
  double cost_per_run = 0;      // fully loaded, the cost of delay included
  bool in_time = true;          // within the workload's deadline (true without one)
};

struct OptionSweep {
  std::vector<SweepPoint> points;  // ascending instances
  double evaluated_instances = 0;  // the size the results are at (the option's own, or a deadline's)
  double limit = 0;                // the largest size considered (max_instances or kDefaultMaxInstances)
  // The point with the lowest cost per run among those that run (and are in time): with a cost of
  // delay, a larger cluster than a deadline needs can cost less. -1 when none.
  int cheapest = -1;
};

struct Sweep {
  size_t workload = 0;
  double deadline_days = 0;        // 0: no deadline
  std::vector<OptionSweep> options;
};

// The sizes tried up to `limit`: 1, 2, 3, 4, 6, 8, 12, 16, … (every power of two and 1.5 times
// it: even steps on the chart's logarithmic axes), the limit itself, and `extra` (the evaluated size).
std::vector<double> sweep_sizes(double limit, double extra);

// Sweeps every option of one workload. A size whose global batch no longer spreads over the cluster
// ends an option's sweep: every larger size fails the same way. `resolved` is resolve(scenario).
Sweep sweep(const Scenario& scenario, const ResolvedScenario& resolved, const Catalog& catalog, size_t workload);

// The same sweep a size at a time: step() tries one size of one option (one resolve_pair() and
// one evaluation) and says whether the sweep is done; sweep() is this driven to completion. The
// page runs it a slice per frame: with a max_instances of 100,000, eight options try some 200
// sizes. done() and total() count the sizes (an option that stops early counts its sizes left as
// done). The arguments must outlive it.
class SweepSteps {
 public:
  SweepSteps(const Scenario& scenario, const ResolvedScenario& resolved, const Catalog& catalog, size_t workload);
  bool step();
  size_t done() const { return done_; }
  size_t total() const { return total_; }
  Sweep finish() { return std::move(out_); }

 private:
  void start_option();
  const Scenario* s_;
  const ResolvedScenario* resolved_;
  const Catalog* catalog_;
  double target_ = 0;
  Sweep out_;
  OptionSweep option_;           // the option being swept
  std::vector<double> sizes_;    // its sizes
  size_t o_ = 0, next_ = 0;      // the option, and its next size
  size_t done_ = 0, total_ = 0;
};

}  // namespace traincost
