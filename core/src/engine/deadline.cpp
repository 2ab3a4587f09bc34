#include "traincost/engine/deadline.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "traincost/engine/evaluate.hpp"
#include "traincost/engine/resolve_pair.hpp"

namespace traincost {

double instance_limit(const Option& o) {
  if (o.max_instances) return *o.max_instances;
  return std::max(kDefaultMaxInstances, o.instances);
}

namespace {

// One size tried: the pair there and when its model would be done (infinite when it cannot run
// for another reason than the deadline: memory, layout, failures).
struct Trial {
  PairInputs pair;
  double days = std::numeric_limits<double>::infinity();
  bool batch_exhausted = false;  // more instances than the batch can spread over
};

}  // namespace

PairInputs size_for_deadline(const WorkloadInputs& w, const Option& o, size_t index, const Catalog& catalog) {
  const double deadline = w.deadline_days.value_or(0);
  const double target = target_tokens(w.target, w.model);
  DeadlineSizing sizing;
  sizing.applied = true;
  sizing.deadline_days = deadline;
  sizing.configured_instances = o.instances;
  sizing.limit = instance_limit(o);
  sizing.capacity_limited = o.max_instances.has_value();
  sizing.fastest_days = std::numeric_limits<double>::infinity();

  Trial fastest;
  auto attempt = [&](double n) {
    Trial t;
    t.pair = resolve_pair(w, o, index, n, catalog, MinInstances::Skip);
    const OptionResult r = evaluate_pair(w, t.pair, target);
    ++sizing.sizes_tried;
    t.batch_exhausted = r.infeasible == Infeasible::Layout;
    if (r.infeasible == Infeasible::No || r.infeasible == Infeasible::Deadline) t.days = r.days_to_model;
    if (t.days < sizing.fastest_days) {
      sizing.fastest_days = t.days;
      sizing.fastest_instances = n;
      fastest = t;
    }
    return t;
  };

  // Doubling until a size is in time, then bisection over (last too slow, first in time].
  double too_slow = 0, n = 1;
  bool found = false;
  Trial in_time;
  for (;;) {
    Trial t = attempt(n);
    if (t.days <= deadline) {
      in_time = std::move(t);
      found = true;
      break;
    }
    if (t.batch_exhausted || n >= sizing.limit) break;
    too_slow = n;
    n = std::min(2 * n, sizing.limit);
  }
  if (found) {
    while (n - too_slow > 1) {
      const double mid = std::floor((too_slow + n) / 2);
      Trial t = attempt(mid);
      if (t.days <= deadline) {
        n = mid;
        in_time = std::move(t);
      } else {
        too_slow = mid;
      }
    }
    sizing.met = true;
    sizing.instances = n;
    in_time.pair.deadline = sizing;
    return in_time.pair;
  }
  // Too slow at every size: the fastest one, whose result then says by how much. When no size can
  // run the job at all, the option's own size, with the memory search that says what it lacks.
  PairInputs p = std::isfinite(sizing.fastest_days) ? fastest.pair : resolve_pair(w, o, index, o.instances, catalog);
  sizing.instances = p.instances;
  p.deadline = sizing;
  return p;
}

}  // namespace traincost
