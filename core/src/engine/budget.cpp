#include "traincost/engine/budget.hpp"

#include <cmath>

#include "traincost/engine/cost_parts.hpp"
#include "traincost/engine/resolve_pair.hpp"

namespace traincost {

double cash_cost_per_run(const OptionResult& r, double runs) {
  double per_run = 0;
  for (const CostPart& part : kCostParts)
    if (part.cash && part.recurrence == Recurrence::PerRun) per_run += r.*part.member;
  return per_run + r.fixed_cost / runs;
}

BudgetPlan plan_budget(const WorkloadInputs& w, const PairInputs& p, const OptionResult& r, double target) {
  BudgetPlan b;
  const bool runs = r.infeasible == Infeasible::No || r.infeasible == Infeasible::Deadline;
  if (!w.budget_usd || !runs || !(target > 0) || !std::isfinite(target)) return b;
  b.applied = true;
  b.budget_usd = *w.budget_usd;
  b.batch_tokens = batch_tokens_of(w, p);
  // Split the cash per run into what grows with the tokens and what does not (cost_parts.hpp). A
  // re-port repeats the one-time parts, so each of those carries the factor 1 + rate × share ×
  // years (re_porting_cost()) in place of the re-porting part itself.
  const double years = w.horizon_months / 12;
  const double repeat = 1 + p.report_probability_per_year * p.report_effort_share * years;
  double variable = 0, fixed = 0, variable_once = 0, fixed_once = 0;
  for (const CostPart& part : kCostParts) {
    if (!part.cash || part.is_re_port) continue;
    const double amount = part.repeated_by_re_port ? r.*part.member * repeat : r.*part.member;
    if (part.recurrence == Recurrence::PerRun) (part.grows_with_tokens ? variable : fixed) += amount;
    else (part.grows_with_tokens ? variable_once : fixed_once) += amount;
  }
  variable += variable_once / w.runs;
  b.fixed_per_run = fixed + fixed_once / w.runs;
  b.usd_per_token = variable / target;
  b.tokens = budget_tokens(b.budget_usd, b.fixed_per_run, b.usd_per_token);
  b.covers_one_step = b.tokens >= b.batch_tokens;
  b.wall_clock_hours = realized_wall_clock_hours(r.compute_hours * b.tokens / target, r.goodput, p.compile_hours_per_run, r.whole_run_factor);

  if (w.target.kind != TargetKind::Loss || !(b.tokens > 0)) return b;
  const ScalingLaw law = scaling_law_constants(w.target.law, w.target.custom_law);
  const double n = w.model.active();
  b.has_law = true;
  b.loss = scaling_law_loss(law.E, law.A, law.B, law.alpha, law.beta, n, b.tokens);
  b.compute = chinchilla_compute(n, b.tokens);
  b.optimal_params = compute_optimal_params(law.A, law.B, law.alpha, law.beta, b.compute);
  b.optimal_tokens = compute_optimal_tokens(b.compute, b.optimal_params);
  b.optimal_loss = scaling_law_loss(law.E, law.A, law.B, law.alpha, law.beta, b.optimal_params, b.optimal_tokens);
  return b;
}

}  // namespace traincost
