#include "traincost/engine/deadline_odds.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "traincost/base/random.hpp"
#include "traincost/engine/deadline.hpp"
#include "traincost/engine/evaluate.hpp"
#include "traincost/engine/ranges.hpp"
#include "traincost/engine/resolve_pair.hpp"
#include "traincost/model/formulas.hpp"

namespace traincost {

double probability_on_time(const Scenario& s, const Catalog& catalog, const ResolvedScenario& resolved, size_t w, size_t o) {
  // The inputs are ranged and bound with the pair as it stands (a predicted MFU's range is around
  // the MFU at this size), in a copy the draws may move.
  ResolvedScenario work = resolved;
  const std::vector<RangedInput> inputs = ranged_inputs(s, work, catalog);
  std::vector<InputBinding> bindings;
  std::vector<InputSampler> draw;
  for (const RangedInput& in : inputs) {
    bindings.emplace_back(work, in.ref, s);
    draw.emplace_back(in);
  }
  const WorkloadInputs& wl = work.workloads[w];
  const PairInputs& pair = wl.options[o];
  Random rng(kDeadlineOddsSeed);
  int on_time = 0;
  for (int i = 0; i < kDeadlineOddsSamples; ++i) {
    for (size_t k = 0; k < bindings.size(); ++k) bindings[k].set(draw[k](rng.uniform()));
    // With a deadline, an option that runs is on time: a late one is Infeasible::Deadline.
    on_time += evaluate_pair(wl, pair, target_tokens(wl.target, wl.model)).feasible();
  }
  return static_cast<double>(on_time) / kDeadlineOddsSamples;
}

void size_for_deadline_odds(const Scenario& s, const Catalog& catalog, ResolvedScenario& r) {
  for (size_t w = 0; w < r.workloads.size(); ++w) {
    const Workload& given = s.workloads[w];
    if (!given.deadline_days || !given.deadline_confidence) continue;
    const double target = *given.deadline_confidence;
    for (size_t o = 0; o < s.options.size(); ++o) {
      PairInputs& chosen = r.workloads[w].options[o];
      DeadlineSizing sizing = chosen.deadline;
      sizing.confidence = target;
      sizing.point_instances = sizing.instances;
      if (!sizing.met) {  // the plan misses at every size: the odds cannot be better
        sizing.probability_on_time = probability_on_time(s, catalog, r, w, o);
        chosen.deadline = sizing;
        continue;
      }
      // The pair at n instances, put in place so the inputs bind to it; its chance of being on time.
      const PairInputs point = chosen;
      struct Best {
        double n = 0, p = -1;
        PairInputs pair;
      } best;
      auto chance_at = [&](double n) {
        PairInputs trial = n == point.instances ? point : resolve_pair(r.workloads[w], s.options[o], o, n, catalog, MinInstances::Skip);
        const bool spreads = evaluate_pair(r.workloads[w], trial, target_tokens(r.workloads[w].target, r.workloads[w].model)).infeasible !=
                             Infeasible::Layout;
        chosen = trial;
        const double p = spreads ? probability_on_time(s, catalog, r, w, o) : -1;
        ++sizing.sizes_tried;
        if (p > best.p || (p == best.p && n < best.n)) best = {n, p, trial};
        return p;
      };
      // Doubling from the point estimate's size until the chance is reached, then bisection over
      // (last short of it, first reaching it]: the chance grows with the cluster as the run shortens.
      double short_of = 0, n = point.instances;
      bool found = false;
      PairInputs reached;
      double reached_p = 0;
      for (;;) {
        const double p = chance_at(n);
        if (p >= target) {
          found = true;
          reached = chosen;
          reached_p = p;
          break;
        }
        if (p < 0 || n >= sizing.limit) break;
        short_of = n;
        n = std::min(2 * n, sizing.limit);
      }
      if (found && short_of > 0) {
        while (n - short_of > 1) {
          const double mid = std::floor((short_of + n) / 2);
          const double p = chance_at(mid);
          if (p >= target) {
            n = mid;
            reached = chosen;
            reached_p = p;
          } else {
            short_of = mid;
          }
        }
      }
      if (found) {
        chosen = reached;
        sizing.instances = n;
        sizing.probability_on_time = reached_p;
        sizing.confidence_met = true;
      } else {
        chosen = best.pair;
        sizing.instances = best.n;
        sizing.probability_on_time = std::max(best.p, 0.0);
      }
      chosen.deadline = sizing;
    }
  }
}

}  // namespace traincost
