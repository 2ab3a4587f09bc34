#pragma once
// Where each point estimate sits among the futures its ranges allow (issue 30): a small Monte Carlo
// with the scenario's seed, cheap enough to run beside every `traincost evaluate`, so the report
// never shows a point estimate without its median, its 90% range and its chance of being cheapest.
// When the median is far from the point estimate, the input that pulls it there is named.
//
// It is analyze() (uncertainty.hpp) with fewer samples and no sensitivity rows: `traincost analyze`
// gives the full picture. A scenario too large to sample quickly is skipped, and says so.
#include <string>
#include <vector>

#include "traincost/engine/uncertainty.hpp"

namespace traincost {

inline constexpr int kQuickOddsSamples = 2000;
// Above this many option-workload pairs the quick look would take noticeably long: skipped.
inline constexpr size_t kQuickOddsMaxPairs = 32;
// A median this far from the point estimate (as a share of the point) is worth a sentence.
inline constexpr double kFarFromMedian = 0.10;

struct OptionOdds {
  double point = 0;                 // the point estimate's cost per run (NaN when it cannot run)
  Percentiles cost_per_run;         // of the samples
  double probability_cheapest = 0;  // per run, among the workload's options
  double probability_feasible = 0;
  // When the median is more than kFarFromMedian from the point: the ranged input that, moved alone
  // to its own median, moves this option's cost most in the median's direction ("" when none does).
  std::string pulled_by;
  double pulled_by_usd = 0;  // that move, per run
};

struct WorkloadOdds {
  std::vector<OptionOdds> options;
};

struct QuickOdds {
  bool computed = false;
  std::string skipped;  // why not, when not computed
  int samples = 0;
  unsigned long long seed = 0;
  std::vector<WorkloadOdds> workloads;
};

// Requires a scenario that passed validate(); `results` are evaluate(resolve(scenario)).
QuickOdds quick_odds(const Scenario& scenario, const Catalog& catalog, const Results& results);

// A point estimate far from its median: |median − point| > kFarFromMedian × point.
bool far_from_median(const OptionOdds& odds);

}  // namespace traincost
