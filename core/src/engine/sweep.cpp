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

Sweep sweep(const Scenario& s, const ResolvedScenario& resolved, const Catalog& catalog, size_t w) {
  Sweep out;
  out.workload = w;
  const WorkloadInputs& wi = resolved.workloads[w];
  out.deadline_days = wi.deadline_days.value_or(0);
  const double target = target_tokens(wi.target, wi.model);
  for (size_t o = 0; o < s.options.size(); ++o) {
    OptionSweep os;
    os.evaluated_instances = wi.options[o].instances;
    os.limit = instance_limit(s.options[o]);
    for (const double n : sweep_sizes(os.limit, os.evaluated_instances)) {
      const PairInputs p = resolve_pair(wi, s.options[o], o, n, catalog, MinInstances::Skip);
      const OptionResult r = evaluate_pair(wi, p, target);
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
          (os.cheapest < 0 || point.cost_per_run < os.points[static_cast<size_t>(os.cheapest)].cost_per_run))
        os.cheapest = static_cast<int>(os.points.size());
      os.points.push_back(point);
      if (r.infeasible == Infeasible::Layout) break;
    }
    out.options.push_back(std::move(os));
  }
  return out;
}

}  // namespace traincost
