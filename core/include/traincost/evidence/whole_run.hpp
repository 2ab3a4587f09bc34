#pragma once
// Whole runs against the plan. TrainCost's plan for a run is its step-time model and its goodput
// (failures, checkpoints); published runs realized more or less than that plan (restarts,
// rollbacks, evaluation pauses, a cluster that changed size, chip counts or token counts stated
// loosely). The ratio r = published / predicted chip-hours of each replayed run is what the plan
// missed; its spread over the published runs is the honest uncertainty of a whole run.
//
// The fit is a lognormal: log r is taken as normal, with the mean and sample standard deviation
// of the runs' log r. The 80% interval for a new run is the predictive one,
//   exp(mean ± t₀.₉(n − 1) · sd · √(1 + 1/n)),
// since a new run varies by sd and the fitted mean is itself uncertain by sd / √n; with sd itself
// estimated from n runs, the quantile is Student's t with n − 1 degrees of freedom, not the
// normal's 1.2816 (which is too narrow for 15 runs: 1.345 is right). Leave-one-out checks it:
// each run's interval is fitted on the other runs only, and the coverage is the share of runs
// inside their own interval.
#include <vector>

#include "traincost/data/catalog.hpp"

namespace traincost {

inline constexpr double kZ90 = 1.2815515655446004;  // Φ⁻¹(0.9): an 80% interval's ends
inline constexpr double kZ95 = 1.6448536269514722;  // Φ⁻¹(0.95): a lognormal range's ends (random.hpp)

// Student's t quantile with nu degrees of freedom at the normal quantile z, by the Cornish-Fisher
// expansion (Abramowitz & Stegun 26.7.5): z + (z³ + z)/(4ν) + (5z⁵ + 16z³ + 3z)/(96ν²)
// + (3z⁷ + 19z⁵ + 17z³ − 15z)/(384ν³). Within 0.3% of the exact value at ν = 2 for z₀.₉ (1.8799
// against 1.8856), 0.02% at ν = 4, 1e-5 by ν = 14 (1.34503 against 1.34503).
double student_t_quantile(double z, double nu);

// A new run's quantile of r at the normal quantile z (kZ95 for the 95th percentile, −kZ95 for the
// 5th): median · exp(t_z(runs − 1) · predictive_log_sd). The analysis's default range on
// whole_run_factor is the 5th to the 95th.
double whole_run_quantile(const WholeRunSpread& spread, double z);

// The lognormal fit of the ratios (each > 0; others are ignored). Fewer than 3 ratios: empty.
WholeRunSpread fit_whole_run(const std::vector<double>& ratios);

// For each ratio, the fit of all the others (leave one out).
std::vector<WholeRunSpread> leave_one_out(const std::vector<double>& ratios);

struct WholeRunCheck {
  int runs = 0;           // runs with a leave-one-out interval
  int inside = 0;         // whose own ratio lies in it
  double coverage = 0;    // inside / runs
  // Of |predicted × LOO median / published − 1|: the error of the "as published runs realized"
  // figure, each run predicted without itself.
  double median_error = 0;
};
WholeRunCheck check_leave_one_out(const std::vector<double>& ratios);

}  // namespace traincost
