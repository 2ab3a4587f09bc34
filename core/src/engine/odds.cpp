#include "traincost/engine/odds.hpp"

#include <cmath>

#include "traincost/engine/resolve.hpp"

namespace traincost {

bool far_from_median(const OptionOdds& o) {
  return std::isfinite(o.point) && o.point > 0 && std::isfinite(o.cost_per_run.p50) &&
         std::fabs(o.cost_per_run.p50 - o.point) > kFarFromMedian * o.point;
}

namespace {

// The input that, set alone to the median of its own distribution, moves option `o`'s cost per run
// most towards the sampled median. An input whose range is lopsided around its base value (a price
// that can rise further than it can fall, the whole-run factor whose median is ×1.2) shifts the
// median away from the point estimate; this names the largest such shift.
void name_the_pull(const Scenario& s, const Catalog& catalog, const Analysis& a, size_t w, WorkloadOdds& odds) {
  ResolvedScenario work = resolve(s, catalog);
  Results moved = evaluate(work);
  for (const RangedInput& in : a.inputs) {
    const InputBinding binding(work, in.ref, s);
    binding.set(InputSampler(in)(0.5));
    evaluate_options(work, moved);
    binding.restore();
    for (size_t o = 0; o < odds.options.size(); ++o) {
      OptionOdds& x = odds.options[o];
      if (!far_from_median(x)) continue;
      const double shift = moved.workloads[w].options[o].cost_per_run - x.point;
      const double toward = x.cost_per_run.p50 > x.point ? shift : -shift;  // positive: towards the median
      if (std::isfinite(shift) && toward > 0 && toward > (x.pulled_by.empty() ? 0 : std::fabs(x.pulled_by_usd))) {
        x.pulled_by = in.label;
        x.pulled_by_usd = shift;
      }
    }
  }
}

}  // namespace

QuickOdds quick_odds(const Scenario& s, const Catalog& catalog, const Results& results) {
  QuickOdds q;
  const size_t pairs = s.workloads.size() * s.options.size();
  if (pairs > kQuickOddsMaxPairs) {
    q.skipped = std::to_string(s.workloads.size()) + " workloads × " + std::to_string(s.options.size()) +
                " options is more than a quick look samples; run `traincost analyze`";
    return q;
  }
  q.computed = true;
  q.samples = kQuickOddsSamples;
  q.seed = s.analysis.seed;
  for (size_t w = 0; w < s.workloads.size(); ++w) {
    AnalyzeOptions options;
    options.samples = kQuickOddsSamples;
    options.seed = s.analysis.seed;
    options.workload = w;
    options.sensitivity = false;
    const Analysis a = analyze(s, catalog, options);
    WorkloadOdds odds;
    for (size_t o = 0; o < a.monte_carlo.options.size(); ++o) {
      const OptionStats& st = a.monte_carlo.options[o];
      const OptionResult& r = results.workloads[w].options[o];
      OptionOdds x;
      x.point = r.feasible() ? r.cost_per_run : NAN;
      x.cost_per_run = st.cost_per_run;
      x.probability_cheapest = st.probability_cheapest;
      x.probability_feasible = st.probability_feasible;
      odds.options.push_back(x);
    }
    name_the_pull(s, catalog, a, w, odds);
    q.workloads.push_back(std::move(odds));
  }
  return q;
}

}  // namespace traincost
