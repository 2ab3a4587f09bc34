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

DeadlineSearch::DeadlineSearch(const WorkloadInputs& w, const Option& o, size_t index, const Catalog& catalog)
    : w_(&w), o_(&o), index_(index), catalog_(&catalog) {
  deadline_ = w.deadline_days.value_or(0);
  target_ = target_tokens(w.target, w.model);
  sizing_.applied = true;
  sizing_.deadline_days = deadline_;
  sizing_.configured_instances = o.instances;
  sizing_.limit = instance_limit(o);
  sizing_.capacity_limited = o.max_instances.has_value();
  sizing_.fastest_days = std::numeric_limits<double>::infinity();
}

DeadlineSearch::Trial DeadlineSearch::attempt(double n) {
  Trial t;
  t.pair = resolve_pair(*w_, *o_, index_, n, *catalog_, MinInstances::Skip);
  const OptionResult r = evaluate_pair(*w_, t.pair, target_);
  ++sizing_.sizes_tried;
  t.batch_exhausted = r.infeasible == Infeasible::Layout;
  if (r.infeasible == Infeasible::No || r.infeasible == Infeasible::Deadline) t.days = r.days_to_model;
  if (t.days < sizing_.fastest_days) {
    sizing_.fastest_days = t.days;
    sizing_.fastest_instances = n;
    fastest_ = t;
  }
  return t;
}

// Doubling until a size is in time, then bisection over (last too slow, first in time]; each
// call tries one size.
bool DeadlineSearch::step() {
  switch (phase_) {
    case Phase::Doubling: {
      Trial t = attempt(n_);
      if (t.days <= deadline_) {
        in_time_ = std::move(t);
        phase_ = Phase::Bisecting;
      } else if (t.batch_exhausted || n_ >= sizing_.limit) {
        phase_ = Phase::TooSlow;
        return false;
      } else {
        too_slow_ = n_;
        n_ = std::min(2 * n_, sizing_.limit);
        return false;
      }
      break;  // found: bisect, or be done when the interval is already one size
    }
    case Phase::Bisecting: {
      const double mid = std::floor((too_slow_ + n_) / 2);
      Trial t = attempt(mid);
      if (t.days <= deadline_) {
        n_ = mid;
        in_time_ = std::move(t);
      } else {
        too_slow_ = mid;
      }
      break;
    }
    case Phase::TooSlow: {
      // Too slow at every size: the fastest one, whose result then says by how much. When no size
      // can run the job at all, the option's own size, with the memory search that says what it lacks.
      result_ = std::isfinite(sizing_.fastest_days) ? std::move(fastest_.pair) : resolve_pair(*w_, *o_, index_, o_->instances, *catalog_);
      sizing_.instances = result_.instances;
      result_.deadline = sizing_;
      phase_ = Phase::Done;
      return true;
    }
    case Phase::Done:
      return true;
  }
  if (n_ - too_slow_ > 1) return false;
  sizing_.met = true;
  sizing_.instances = n_;
  result_ = std::move(in_time_.pair);
  result_.deadline = sizing_;
  phase_ = Phase::Done;
  return true;
}

PairInputs size_for_deadline(const WorkloadInputs& w, const Option& o, size_t index, const Catalog& catalog) {
  DeadlineSearch search(w, o, index, catalog);
  while (!search.step()) {
  }
  return search.result();
}

}  // namespace traincost
