#include "traincost/engine/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "traincost/engine/deadline.hpp"
#include "traincost/engine/resolve_pair.hpp"

namespace traincost {

std::vector<double> sweep_sizes(double limit, double extra) {
  std::vector<double> sizes;
  for (double n = 1; n <= limit; n *= 2) {
    sizes.push_back(n);
    if (n >= 2 && n * 1.5 <= limit) sizes.push_back(n * 1.5);
  }
  sizes.push_back(limit);
  if (extra >= 1 && extra <= limit) sizes.push_back(extra);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

SweepSteps::SweepSteps(const Scenario& s, const ResolvedScenario& resolved, const Catalog& catalog, size_t w)
    : s_(&s), resolved_(&resolved), catalog_(&catalog) {
  out_.workload = w;
  const WorkloadInputs& wi = resolved.workloads[w];
  out_.deadline_days = wi.deadline_days.value_or(0);
  target_ = target_tokens(wi.target, wi.model);
  for (size_t o = 0; o < s.options.size(); ++o) total_ += sweep_sizes(instance_limit(s.options[o]), wi.options[o].instances).size();
  if (!s.options.empty()) start_option();
}

void SweepSteps::start_option() {
  const WorkloadInputs& wi = resolved_->workloads[out_.workload];
  option_ = OptionSweep{};
  option_.evaluated_instances = wi.options[o_].instances;
  option_.limit = instance_limit(s_->options[o_]);
  sizes_ = sweep_sizes(option_.limit, option_.evaluated_instances);
  next_ = 0;
}

bool SweepSteps::step() {
  if (o_ >= s_->options.size()) return true;
  const WorkloadInputs& wi = resolved_->workloads[out_.workload];
  const double n = sizes_[next_++];
  ++done_;
  const PairInputs p = resolve_pair(wi, s_->options[o_], o_, n, *catalog_, MinInstances::Skip);
  const OptionResult r = evaluate_pair(wi, p, target_);
  SweepPoint point;
  point.instances = n;
  point.chips = r.chips;
  point.feasible = r.infeasible == Infeasible::No || r.infeasible == Infeasible::Deadline;
  point.in_time = r.infeasible != Infeasible::Deadline;
  point.infeasible = r.infeasible;
  point.memory = r.memory;
  point.mfu = p.performance.layout_found ? p.performance.mfu : 0;
  point.wall_clock_hours = r.wall_clock_hours;
  point.days_to_model = r.days_to_model;
  point.cost_per_run = r.cost_per_run;
  if (point.feasible && point.in_time &&
      (option_.cheapest < 0 || point.cost_per_run < option_.points[static_cast<size_t>(option_.cheapest)].cost_per_run))
    option_.cheapest = static_cast<int>(option_.points.size());
  option_.points.push_back(point);
  // A size whose batch no longer spreads over the cluster ends the option's sweep.
  if (r.infeasible == Infeasible::Layout || next_ == sizes_.size()) {
    done_ += sizes_.size() - next_;
    out_.options.push_back(std::move(option_));
    if (++o_ < s_->options.size()) start_option();
  }
  return o_ >= s_->options.size();
}

Sweep sweep(const Scenario& s, const ResolvedScenario& resolved, const Catalog& catalog, size_t w) {
  SweepSteps steps(s, resolved, catalog, w);
  while (!steps.step()) {
  }
  return steps.finish();
}

}  // namespace traincost
