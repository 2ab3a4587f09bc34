#pragma once
// What evaluation finds for each (workload, option) pair, each workload and the portfolio. The
// money of an option is split into the parts of cost_parts.hpp, which add up to its cost per run.
#include <vector>

#include "traincost/engine/reliability.hpp"
#include "traincost/engine/resolved.hpp"
#include "traincost/model/formulas.hpp"

namespace traincost {

// Whether the cluster holds the job, with the layout the step-time model chose (PairPerformance).
struct MemoryFit {
  double state_bytes = 0;                // weights, gradients and optimizer state on one chip
  double activation_bytes_per_chip = 0;  // activations in flight on one chip
  double bytes_per_chip = 0;             // both, with the chosen layout (the least any layout needs when none fits)
  double usable_bytes_per_chip = 0;
  double min_instances = 0;              // when it does not fit: fewest instances that hold it (0: none up to 64×)
  bool possible = true;                  // some cluster size holds the job
  bool fits = true;                      // the chosen cluster holds it
};

// Layout: no layout spreads the global batch over the cluster (more chips than it has sequences).
// Deadline: not done within the workload's deadline at any size up to the option's limit.
enum class Infeasible { No, Memory, Goodput, Target, Layout, Deadline };

struct OptionResult {
  // Work
  double tokens = 0;              // trained tokens, with the convergence penalty
  double flops_per_token = 0;
  double training_flops = 0;
  // Speed
  double chips = 0;
  double scaling_efficiency = 1;
  double cluster_flops_per_sec = 0;  // achieved model FLOP/s
  double tokens_per_sec = 0;
  double compute_hours = 0;       // pure training time
  // Goodput (GoodputTerms)
  double cluster_mtbf_hours = 0;
  double checkpoint_bytes = 0;
  double checkpoint_pause_hours = 0;
  double restart_hours = 0;
  double checkpoint_interval_hours = 0;
  double goodput = 1;
  double interruptions = 0;       // failures expected while the run trains
  double reclaims_per_hour = 0;   // spot: reclaims of the job per hour of running (0: capacity it holds)
  double reclaim_restart_hours = 0;  // spot: the wait for capacity, relaunch and reload after each
  double reclaims = 0;            // spot reclaims expected while the run trains
  double reclaim_wait_hours = 0;  // of the training hours, waiting for capacity (not billed)
  double whole_run_factor = 1;    // realized ÷ planned time (the workload's; 1 with mfu_from_run)
  double training_hours = 0;      // compute_hours / goodput × whole_run_factor
  double wall_clock_hours = 0;    // training + compilation
  double days_to_model = 0;       // wait for capacity + wall clock, in days
  double chip_hours = 0;
  double instance_hours = 0;
  // Money
  double price_usd_per_hour = 0;  // per instance, after discount
  double compute_cost = 0;        // training_hours × instances × price
  double compile_cost = 0;
  double hardware_cost_per_run = 0;
  double porting_cost = 0;
  double validation_cost = 0;
  double one_time_cost = 0;
  double maintenance_cost = 0;    // over the horizon
  double egress_cost_per_run = 0;
  double storage_cost_per_run = 0;
  double delay_cost_per_run = 0;  // the value of the days until the model is done
  double re_porting_cost = 0;     // expected forced re-ports over the horizon
  double fixed_cost = 0;          // one-time + maintenance + re-porting: paid once whatever the runs
  double per_run_cost = 0;        // hardware + egress + delay: paid every run
  double cost_per_run = 0;        // fully loaded: per_run + fixed / runs
  double cost_per_million_tokens = 0;          // all-in: cost_per_run per million target tokens
  double compute_cost_per_million_tokens = 0;  // compute only: hardware_cost_per_run per million target tokens
  double horizon_cost = 0;        // cost_per_run × runs
  double annual_cost = 0;
  MemoryFit memory;
  DeadlineSizing deadline;        // how a deadline sized the option (applied = false without one)
  Infeasible infeasible = Infeasible::No;
  // Against the scenario's reference option
  double savings_vs_reference = 0;  // (reference - this) / reference, per run
  double wall_clock_ratio_vs_reference = 1;
  Breakeven vs_reference;

  bool feasible() const { return infeasible == Infeasible::No; }
};

struct Comparison {
  int cheapest = -1;    // feasible option with the lowest fully loaded cost per run
  int runner_up = -1;
  double savings = 0;   // (runner_up - cheapest) / runner_up
  double wall_clock_ratio = 1;  // cheapest / runner_up
  Breakeven breakeven;  // cheapest against runner-up
};

struct WorkloadResult {
  double target_tokens = 0;
  std::vector<OptionResult> options;
  Comparison comparison;
};

struct Portfolio {
  std::vector<double> single_option_annual;  // every workload on this option
  std::vector<bool> single_option_feasible;
  std::vector<int> best_per_workload;
  double best_mix_annual = 0;
  int best_single = -1;
  double savings_vs_best_single = 0;
};

struct Results {
  std::vector<WorkloadResult> workloads;
  Portfolio portfolio;
  // Not a result: each pair's goodput terms, workload by workload, kept between the evaluations
  // that reuse this Results (the Monte Carlo's samples, reliability.hpp says why).
  std::vector<GoodputMemo> goodput_memos;
};

}  // namespace traincost
