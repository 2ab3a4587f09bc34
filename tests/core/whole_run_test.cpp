// Whole runs against the plan: the lognormal fit of realized / planned chip-hours, checked leave
// one out; the replay's 80% interval and its coverage; the Monte Carlo's whole-run factor.
#include "traincost/evidence/whole_run.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "test_support.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/base/format.hpp"
#include "traincost/engine/replay.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/engine/uncertainty.hpp"
#include "traincost/output/present.hpp"

namespace traincost {
namespace {

// Four runs that took 1, 2, 4 and 8 times their plan: log r = (0, 1, 2, 3) · ln 2.
//   mean = 1.5 ln 2, so the median is 2^1.5 = 2.828427
//   deviations (−1.5, −0.5, 0.5, 1.5) ln 2, squares 5 (ln 2)², / (n − 1) = 5/3 (ln 2)²:
//     sd = ln 2 · √(5/3) = 0.894849
//   predictive sd = sd · √(1 + 1/4) = 1.000472
//   80% interval = 2.828427 · exp(∓1.281552 · 1.000472) = 0.784714 to 10.194791
//   planned figure's error |1/r − 1| = 0, 0.5, 0.75, 0.875: median 0.625
TEST(WholeRun, TheFitIsTheLognormalOfTheRatios) {
  const WholeRunSpread s = fit_whole_run({1, 2, 4, 8});
  EXPECT_EQ(s.runs, 4);
  EXPECT_NEAR(s.median, 2.828427, 1e-6);
  EXPECT_NEAR(s.log_sd, 0.894849, 1e-6);
  EXPECT_NEAR(s.predictive_log_sd, 1.000472, 1e-6);
  EXPECT_NEAR(s.low, 0.784714, 1e-6);
  EXPECT_NEAR(s.high, 10.194791, 1e-5);
  EXPECT_NEAR(s.planned_median_error, 0.625, 1e-12);
  // Fewer than three runs (or none valid) give no fit.
  EXPECT_FALSE(fit_whole_run({1, 2}).fitted());
  EXPECT_FALSE(fit_whole_run({1, 2, 0, -1}).fitted());
}

// Leave one out on the same runs, each fitted on the other three:
//   without 1: logs (1, 2, 3) ln 2, median 4, sd ln 2, predictive ln 2 · √(4/3) = 0.800377,
//     interval 4 · exp(∓1.025725) = 1.434146 to 11.156467: 1 is outside
//   without 8: logs (0, 1, 2) ln 2, median 2, interval 0.717073 to 5.578233: 8 is outside
//   without 2: logs (0, 2, 3) ln 2, median 2^(5/3) = 3.174802, sd ln 2 · √(7/3) = 1.058800,
//     predictive 1.222597, interval 0.662606 to 15.211718: 2 is inside
//   without 4: logs (0, 1, 3) ln 2, median 2^(4/3) = 2.519842, interval 0.525910 to 12.073548: inside
//   coverage 2 of 4. The median figure misses by |median₋ᵢ / rᵢ − 1| = 3, 0.587401, 0.370039, 0.75:
//   median (0.587401 + 0.75) / 2 = 0.668700.
TEST(WholeRun, LeaveOneOutFitsEachRunWithoutItself) {
  const std::vector<WholeRunSpread> loo = leave_one_out({1, 2, 4, 8});
  ASSERT_EQ(loo.size(), 4u);
  EXPECT_NEAR(loo[0].median, 4, 1e-9);
  EXPECT_NEAR(loo[0].low, 1.434146, 1e-6);
  EXPECT_NEAR(loo[0].high, 11.156467, 1e-5);
  EXPECT_NEAR(loo[1].median, 3.174802, 1e-6);
  EXPECT_NEAR(loo[1].low, 0.662606, 1e-6);
  EXPECT_NEAR(loo[3].median, 2, 1e-9);
  EXPECT_NEAR(loo[3].high, 5.578233, 1e-6);
  const WholeRunCheck c = check_leave_one_out({1, 2, 4, 8});
  EXPECT_EQ(c.runs, 4);
  EXPECT_EQ(c.inside, 2);
  EXPECT_DOUBLE_EQ(c.coverage, 0.5);
  EXPECT_NEAR(c.median_error, 0.668700, 1e-6);
}

TEST(WholeRun, TheReplayPrintsEachRunsHeldOutIntervalAndTheCoverage) {
  const Replay r = replay(builtin_published_runs(), builtin_catalog());
  const std::vector<double> ratios = whole_run_ratios(r);
  ASSERT_GE(ratios.size(), 10u);
  // Each counted row's interval is the predicted chip-hours × the fit of the other runs.
  size_t k = 0;
  int inside = 0;
  for (const ReplayRow& row : r.rows) {
    if (!row.counted()) continue;
    std::vector<double> others = ratios;
    others.erase(others.begin() + static_cast<std::ptrdiff_t>(k));
    const WholeRunSpread fit = fit_whole_run(others);
    EXPECT_DOUBLE_EQ(row.ratio, row.published_chip_hours / row.predicted_chip_hours) << row.run->id;
    EXPECT_DOUBLE_EQ(row.realized_low, row.predicted_chip_hours * fit.low) << row.run->id;
    EXPECT_DOUBLE_EQ(row.realized_high, row.predicted_chip_hours * fit.high) << row.run->id;
    EXPECT_EQ(row.inside, row.published_chip_hours >= row.realized_low * (1 - 1e-12) &&
                              row.published_chip_hours <= row.realized_high * (1 + 1e-12))
        << row.run->id;
    inside += row.inside;
    ++k;
  }
  EXPECT_EQ(r.whole_run_check.runs, static_cast<int>(ratios.size()));
  EXPECT_EQ(r.whole_run_check.inside, inside);
  EXPECT_DOUBLE_EQ(r.whole_run.planned_median_error, r.all.median);
  // Printed in every format.
  const std::string coverage = fmt::percent(r.whole_run_check.coverage);
  EXPECT_NE(replay_text(r).find("coverage " + coverage), std::string::npos);
  EXPECT_NE(replay_markdown(r, builtin_published_runs()).find("coverage " + coverage), std::string::npos);
  const OrderedJson j = replay_json(r, builtin_published_runs());
  EXPECT_EQ(j["summary"]["whole_run"]["leave_one_out"]["inside"], inside);
  EXPECT_DOUBLE_EQ(j["summary"]["whole_run"]["leave_one_out"]["coverage"].get<double>(), r.whole_run_check.coverage);
  EXPECT_DOUBLE_EQ(j["summary"]["whole_run"]["low_ratio"].get<double>(), r.whole_run.low);
}

TEST(WholeRun, TheBuiltInCatalogCarriesTheFitOfTheReplay) {
  // Fitted when the data loads, never stored: it is what a refit of the replay gives.
  const Replay r = replay(builtin_published_runs(), builtin_catalog());
  const WholeRunSpread& stored = builtin_catalog().whole_run;
  ASSERT_TRUE(stored.fitted());
  EXPECT_EQ(stored.runs, r.whole_run.runs);
  EXPECT_DOUBLE_EQ(stored.median, r.whole_run.median);
  EXPECT_DOUBLE_EQ(stored.low, r.whole_run.low);
  EXPECT_DOUBLE_EQ(stored.high, r.whole_run.high);
  EXPECT_DOUBLE_EQ(stored.loo_coverage, r.whole_run_check.coverage);
}

const char* const kOneOption = R"({"version":1,
  "workloads":[{"model":{"params":8e9},"target":{"tokens":1e11}}],
  "options":[{"label":"A","instance":"p5.48xlarge","mfu":0.4}],
  "analysis":{"default_ranges":false}})";

TEST(WholeRun, TheFactorStretchesTheTimeExceptForARealizedMfu) {
  Scenario s = test::scenario(kOneOption);
  const OptionResult planned = test::run(s).workloads[0].options[0];
  s.workloads[0].whole_run_factor = 1.5;
  const OptionResult realized = test::run(s).workloads[0].options[0];
  // No compilation on H100: the whole wall clock, chip-hours and compute cost scale by 1.5.
  EXPECT_DOUBLE_EQ(realized.wall_clock_hours, planned.wall_clock_hours * 1.5);
  EXPECT_DOUBLE_EQ(realized.chip_hours, planned.chip_hours * 1.5);
  EXPECT_DOUBLE_EQ(realized.compute_cost, planned.compute_cost * 1.5);
  // A published run's realized MFU has its whole run in it already.
  s.options[0].mfu.reset();
  s.options[0].mfu_from_run = "llama3-70b";
  const OptionResult from_run = test::run(s).workloads[0].options[0];
  EXPECT_EQ(from_run.whole_run_factor, 1);
}

// The default range is the catalog's lognormal by its 5th and 95th percentiles. With a hand
// spread (median 1.2, predictive log sd 0.3): 1.2 · exp(∓1.644854 · 0.3) = 0.732615 to 1.965561.
// Cost per run here is all compute, so it scales with the factor, and its Monte Carlo P5, P50 and
// P95 are the planned cost × 0.732615, 1.2 and 1.965561 (the range widened by exactly that).
TEST(WholeRun, TheMonteCarloDrawsTheFittedSpread) {
  Catalog catalog = builtin_catalog();
  catalog.whole_run.runs = 10;
  catalog.whole_run.median = 1.2;
  catalog.whole_run.predictive_log_sd = 0.3;
  Scenario s = test::scenario(kOneOption);
  s.analysis.default_ranges = true;
  const ResolvedScenario r = resolve(s, catalog);
  const std::vector<RangedInput> inputs = ranged_inputs(s, r, catalog);
  const RangedInput* whole = nullptr;
  for (const RangedInput& in : inputs)
    if (in.path == "workloads[0].whole_run_factor") whole = &in;
  ASSERT_TRUE(whole);
  EXPECT_TRUE(whole->default_range);
  EXPECT_EQ(whole->dist, Distribution::LogNormal);
  EXPECT_DOUBLE_EQ(whole->value, 1);  // the plan stays the headline
  EXPECT_NEAR(whole->low, 0.732615, 1e-6);
  EXPECT_NEAR(whole->high, 1.965561, 1e-6);

  // Only that range, to see its effect alone.
  Scenario ranged = test::scenario(kOneOption);
  ranged.ranges.push_back({"workloads[0].whole_run_factor", whole->low, whole->high, Distribution::LogNormal});
  const double planned = test::run(ranged).workloads[0].options[0].cost_per_run;
  AnalyzeOptions options;
  options.samples = 20000;
  options.sensitivity = false;
  const Percentiles p = analyze(ranged, catalog, options).monte_carlo.options[0].cost_per_run;
  // Sampling error of a 5th percentile over 20,000 draws is about 1%: 3% bounds.
  EXPECT_NEAR(p.p5 / planned, 0.732615, 0.732615 * 0.03);
  EXPECT_NEAR(p.p50 / planned, 1.2, 1.2 * 0.03);
  EXPECT_NEAR(p.p95 / planned, 1.965561, 1.965561 * 0.03);

  // A scenario that sets its own factor gets no default range, and shows no "as realized" figures.
  s.workloads[0].whole_run_factor = 1.3;
  const ResolvedScenario own = resolve(s, catalog);
  for (const RangedInput& in : ranged_inputs(s, own, catalog)) EXPECT_NE(in.path, "workloads[0].whole_run_factor");
}

TEST(WholeRun, AsRealizedFiguresAreThePlanTimesTheSpread) {
  const Scenario s = test::scenario(kOneOption);
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results results = evaluate(r);
  const OptionResult& o = results.workloads[0].options[0];
  const WholeRunSpread& w = builtin_catalog().whole_run;
  const AsRealized a = as_realized(s.workloads[0], o, r.workloads[0].options[0], builtin_catalog());
  ASSERT_TRUE(a.shown);
  EXPECT_DOUBLE_EQ(a.chip_hours[0], o.wall_clock_hours * w.low * o.chips);
  EXPECT_DOUBLE_EQ(a.chip_hours[1], o.wall_clock_hours * w.median * o.chips);
  EXPECT_DOUBLE_EQ(a.chip_hours[2], o.wall_clock_hours * w.high * o.chips);
  EXPECT_DOUBLE_EQ(a.hardware_cost[2], o.compute_cost * w.high);
  EXPECT_NE(as_realized_line(s, r, results, 0).find("As published runs realized (80% interval"), std::string::npos);
  EXPECT_NE(whole_run_note(builtin_catalog()).find(fmt::percent(w.loo_coverage)), std::string::npos);
}

}  // namespace
}  // namespace traincost
