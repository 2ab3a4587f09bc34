#pragma once
// A budget: "we have $2M a run: what can we train on each platform?" Per option, at the size it is
// evaluated at, the target tokens the money buys; with a loss target, the loss those tokens reach
// under its scaling law and, next to the user's model, the compute-optimal model for the same
// compute (Hoffmann et al. 2022). The budget pays what a run costs in cash: the fully loaded cost
// without the cost of delay, which is a value the team puts on time rather than money it spends.
#include "traincost/engine/evaluate.hpp"

namespace traincost {

struct BudgetPlan {
  bool applied = false;         // the workload has a budget and the option can run it
  double budget_usd = 0;
  double usd_per_token = 0;     // cash per target token: compute, and the validation it scales
  double fixed_per_run = 0;     // cash per run whatever its length: compilation, egress, the one-time,
                                // maintenance and re-porting shares
  double tokens = 0;            // target tokens the budget buys (0 when it does not cover fixed_per_run)
  double batch_tokens = 0;      // one optimizer step
  bool covers_one_step = false;
  double wall_clock_hours = 0;  // of a run that long
  // With a loss target:
  bool has_law = false;
  double loss = 0;              // what the model reaches on `tokens`
  double compute = 0;           // 6·N·D of that run
  double optimal_params = 0;    // the compute-optimal model for the same compute
  double optimal_tokens = 0;
  double optimal_loss = 0;
};

// The cash a run of `result` costs: per run (hardware, egress) plus the fixed costs over the runs.
double cash_cost_per_run(const OptionResult& result, double runs);

// The budget's plan for one pair; `applied` is false without a budget or when the option cannot run.
BudgetPlan plan_budget(const WorkloadInputs& workload, const PairInputs& pair, const OptionResult& result, double target_tokens);

}  // namespace traincost
