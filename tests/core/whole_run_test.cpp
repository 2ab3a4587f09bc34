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

// Five runs that took 1, 2, 4, 8 and 64 times their plan: log r = (0, 1, 2, 3, 6) · ln 2.
//   mean = 2.4 ln 2, so the median is 2^2.4 = 5.278032
//   deviations (−2.4, −1.4, −0.4, 0.6, 3.6) ln 2, squares 21.2 (ln 2)², / (n − 1) = 5.3 (ln 2)²:
//     sd = ln 2 · √5.3 = 1.595745
//   predictive sd = sd · √(1 + 1/5) = 1.748051
//   t₀.₉ with 4 degrees of freedom (Cornish-Fisher) = 1.532918 (exact 1.533206)
//   80% interval = 5.278032 · exp(∓1.532918 · 1.748051) = 0.362017 to 76.951176
//   t₀.₉₅(4) = 2.129918: 5th and 95th percentiles 0.127498 and 218.493842
//   planned figure's error |1/r − 1| = 0, 0.5, 0.75, 0.875, 0.984375: median 0.75
TEST(WholeRun, TheFitIsTheLognormalOfTheRatios) {
  const WholeRunSpread s = fit_whole_run({1, 2, 4, 8, 64});
  EXPECT_EQ(s.runs, 5);
  EXPECT_NEAR(s.median, 5.278032, 1e-6);
  EXPECT_NEAR(s.log_sd, 1.595745, 1e-6);
  EXPECT_NEAR(s.predictive_log_sd, 1.748051, 1e-6);
  EXPECT_NEAR(s.low, 0.362017, 1e-6);
  EXPECT_NEAR(s.high, 76.951176, 1e-5);
  EXPECT_NEAR(whole_run_quantile(s, -kZ95), 0.127498, 1e-6);
  EXPECT_NEAR(whole_run_quantile(s, kZ95), 218.493842, 1e-4);
  EXPECT_NEAR(s.planned_median_error, 0.75, 1e-12);
  // Fewer than three runs (or none valid) give no fit.
  EXPECT_FALSE(fit_whole_run({1, 2}).fitted());
  EXPECT_FALSE(fit_whole_run({1, 2, 0, -1}).fitted());
}

TEST(WholeRun, StudentsTQuantileMeetsTheTables) {
  // Tables of t: 0.90 → 1.8856 (ν = 2), 1.5332 (4), 1.3450 (14), 1.2816 (∞); 0.95 → 2.1318 (4), 1.7613 (14).
  EXPECT_NEAR(student_t_quantile(kZ90, 2), 1.8856, 1.8856 * 0.004);
  EXPECT_NEAR(student_t_quantile(kZ90, 4), 1.5332, 1.5332 * 0.0003);
  EXPECT_NEAR(student_t_quantile(kZ90, 14), 1.3450, 1e-4);
  EXPECT_NEAR(student_t_quantile(kZ90, 1e9), kZ90, 1e-8);
  EXPECT_NEAR(student_t_quantile(kZ95, 4), 2.1318, 2.1318 * 0.001);
  EXPECT_NEAR(student_t_quantile(kZ95, 14), 1.7613, 1e-4);
}

// Leave one out on the same runs, each fitted on the other four (t₀.₉ with 3 degrees of freedom
// = 1.636753, exact 1.637744):
//   without 64: logs (0, 1, 2, 3) ln 2, median 2^1.5 = 2.828427, sd ln 2 · √(5/3) = 0.894849,
//     predictive sd · √(5/4) = 1.000472, interval 2.828427 · exp(∓1.637525) = 0.550018 to
//     14.544988: 64 is outside
//   without 1: logs (1, 2, 3, 6) ln 2, median 2³ = 8, sd ln 2 · √(14/3) = 1.497369, predictive
//     1.674109, interval 0.516509 to 123.908834: 1 is inside
//   without 2: median 2^(11/4) = 6.727171, interval 0.282267 to 160.326053: inside
//   (4 and 8 are inside likewise) — coverage 4 of 5. The median figure misses by
//   |median₋ᵢ / rᵢ − 1| = 7, 2.363586, 0.414214, 0.405396, 0.955806: median 0.955806.
TEST(WholeRun, LeaveOneOutFitsEachRunWithoutItself) {
  const std::vector<WholeRunSpread> loo = leave_one_out({1, 2, 4, 8, 64});
  ASSERT_EQ(loo.size(), 5u);
  EXPECT_NEAR(loo[0].median, 8, 1e-9);
  EXPECT_NEAR(loo[0].low, 0.516509, 1e-6);
  EXPECT_NEAR(loo[0].high, 123.908834, 1e-5);
  EXPECT_NEAR(loo[1].median, 6.727171, 1e-6);
  EXPECT_NEAR(loo[1].low, 0.282267, 1e-6);
  EXPECT_NEAR(loo[4].median, 2.828427, 1e-6);
  EXPECT_NEAR(loo[4].low, 0.550018, 1e-6);
  EXPECT_NEAR(loo[4].high, 14.544988, 1e-5);
  const WholeRunCheck c = check_leave_one_out({1, 2, 4, 8, 64});
  EXPECT_EQ(c.runs, 5);
  EXPECT_EQ(c.inside, 4);
  EXPECT_DOUBLE_EQ(c.coverage, 0.8);
  EXPECT_NEAR(c.median_error, 0.955806, 1e-6);
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

// The default range is the fit's 5th and 95th percentiles, drawn as a lognormal. With a hand
// spread of 15 runs, median 1.2 and predictive log sd 0.3: t₀.₉₅(14) = 1.761298, so p5 =
// 1.2 · exp(−1.761298 · 0.3) = 0.707464 and p95 = 1.2 · exp(0.528390) = 2.035438. Cost per run
// here is all compute, so it scales with the factor, and its Monte Carlo P5, P50 and P95 are the
// planned cost × 0.707464, √(0.707464 · 2.035438) = 1.2 and 2.035438: the range widened by
// exactly the spread.
TEST(WholeRun, TheMonteCarloDrawsTheFittedSpread) {
  Catalog catalog = builtin_catalog();
  catalog.whole_run.runs = 15;
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
  EXPECT_NEAR(whole->low, 0.707464, 1e-6);
  EXPECT_NEAR(whole->high, 2.035438, 1e-6);

  // Only that range, to see its effect alone.
  Scenario ranged = test::scenario(kOneOption);
  ranged.ranges.push_back({"workloads[0].whole_run_factor", whole->low, whole->high, Distribution::LogNormal});
  const double planned = test::run(ranged).workloads[0].options[0].cost_per_run;
  AnalyzeOptions options;
  options.samples = 20000;
  options.sensitivity = false;
  const Percentiles p = analyze(ranged, catalog, options).monte_carlo.options[0].cost_per_run;
  // Sampling error of a 5th percentile over 20,000 draws is about 1%: 3% bounds.
  EXPECT_NEAR(p.p5 / planned, 0.707464, 0.707464 * 0.03);
  EXPECT_NEAR(p.p50 / planned, 1.2, 1.2 * 0.03);
  EXPECT_NEAR(p.p95 / planned, 2.035438, 2.035438 * 0.03);

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
