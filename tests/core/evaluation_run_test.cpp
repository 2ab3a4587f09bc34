// The base evaluation as a resumable run (evaluation_run.hpp): the same answer as resolve() and
// evaluate() however it is sliced, and bounded work in every step, checked by counting step times
// computed (never by timing).
#include "traincost/engine/evaluation_run.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "test_support.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/engine/deadline_odds.hpp"
#include "traincost/engine/evaluate.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/engine/sweep.hpp"
#include "traincost/engine/uncertainty.hpp"
#include "traincost/io/link.hpp"
#include "traincost/model/performance.hpp"
#include "traincost/output/report.hpp"
#include "traincost/output/sweep_report.hpp"

namespace traincost {
namespace {

// 16 mixture-of-experts workloads × 8 options, each workload with a deadline and each option with
// max_instances 100,000: every pair is a deadline search of up to ~17 doublings and ~17 bisections
// (issue 33 item 5). The page's browser test and scripts/bench open the same link.
Scenario heavy_scenario() {
  std::string link = test::read_source_file("tests/links/heavy-moe.txt");
  link.erase(std::remove(link.begin(), link.end(), '\n'), link.end());
  Problems problems;
  const auto s = decode_link(link, builtin_catalog(), problems);
  EXPECT_TRUE(s.has_value()) << problems.size();
  return s.value_or(Scenario{});
}

// The heavy link with every deadline asked nine times in ten (workloads[].deadline_confidence): each
// pair's size is then searched again, drawing kDeadlineOddsSamples futures at every size tried.
// The first `workloads` of its 16 (the same pairs repeated 16 times would only lengthen the test).
Scenario heavy_confidence_scenario(size_t workloads) {
  Scenario s = heavy_scenario();
  s.workloads.resize(std::min(workloads, s.workloads.size()));
  for (Workload& w : s.workloads) {
    EXPECT_TRUE(w.deadline_days.has_value());
    w.deadline_confidence = 0.9;
  }
  return s;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Every figure the reports print, and the numbers each pair was evaluated with, to the bit.
void expect_identical(const Scenario& s, const Evaluation& got, const ResolvedScenario& resolved, const Results& results) {
  EXPECT_EQ(results_to_json(s, got.resolved, got.results).dump(), results_to_json(s, resolved, results).dump());
  ASSERT_EQ(got.results.workloads.size(), results.workloads.size());
  for (size_t w = 0; w < results.workloads.size(); ++w) {
    const WorkloadResult &a = got.results.workloads[w], &b = results.workloads[w];
    EXPECT_EQ(a.comparison.cheapest, b.comparison.cheapest);
    EXPECT_EQ(a.comparison.runner_up, b.comparison.runner_up);
    EXPECT_TRUE(same_bits(a.comparison.savings, b.comparison.savings));
    ASSERT_EQ(a.options.size(), b.options.size());
    for (size_t o = 0; o < a.options.size(); ++o) {
      const OptionResult &x = a.options[o], &y = b.options[o];
      for (auto member : {&OptionResult::tokens, &OptionResult::tokens_per_sec, &OptionResult::goodput, &OptionResult::wall_clock_hours,
                          &OptionResult::days_to_model, &OptionResult::cost_per_run, &OptionResult::horizon_cost, &OptionResult::annual_cost,
                          &OptionResult::savings_vs_reference})
        EXPECT_TRUE(same_bits(x.*member, y.*member)) << "workload " << w << " option " << o;
      EXPECT_EQ(x.infeasible, y.infeasible);
      const PairInputs &p = got.resolved.workloads[w].options[o], &q = resolved.workloads[w].options[o];
      EXPECT_TRUE(same_bits(p.instances, q.instances));
      EXPECT_TRUE(same_bits(p.mfu, q.mfu));
      EXPECT_EQ(p.deadline.sizes_tried, q.deadline.sizes_tried);
      EXPECT_EQ(p.deadline.met, q.deadline.met);
      EXPECT_TRUE(same_bits(p.deadline.instances, q.deadline.instances));
      EXPECT_TRUE(same_bits(p.deadline.probability_on_time, q.deadline.probability_on_time));
      EXPECT_EQ(p.deadline.confidence_met, q.deadline.confidence_met);
    }
  }
  EXPECT_TRUE(same_bits(got.results.portfolio.best_mix_annual, results.portfolio.best_mix_annual) ||
              (std::isnan(got.results.portfolio.best_mix_annual) && std::isnan(results.portfolio.best_mix_annual)));
  EXPECT_EQ(got.results.portfolio.best_single, results.portfolio.best_single);
  for (size_t o = 0; o < got.resolved.options.size(); ++o) EXPECT_EQ(got.resolved.options[o].label, resolved.options[o].label);
}

// Runs the evaluation in slices of `slice` units; counts the slices.
Evaluation run_sliced(const Scenario& s, size_t slice, size_t* slices = nullptr) {
  EvaluationRun run(s, builtin_catalog());
  size_t n = 0;
  while (!run.advance(slice)) ++n;
  EXPECT_EQ(run.done(), run.total());
  if (slices) *slices = n + 1;
  return run.finish();
}

void expect_same_however_sliced(const Scenario& s) {
  const ResolvedScenario resolved = resolve(s, builtin_catalog());
  const Results results = evaluate(resolved);
  for (const size_t slice : {size_t{1}, size_t{7}, size_t{1} << 30}) {
    SCOPED_TRACE("slice " + std::to_string(slice));
    expect_identical(s, run_sliced(s, slice), resolved, results);
  }
}

class EvaluationRunExamples : public ::testing::TestWithParam<const char*> {};

TEST_P(EvaluationRunExamples, SameAsEvaluateHoweverSliced) {
  expect_same_however_sliced(test::scenario(test::read_source_file(std::string("assets/scenarios/") + GetParam() + ".json")));
}

INSTANTIATE_TEST_SUITE_P(Examples, EvaluationRunExamples, ::testing::ValuesIn(test::kExamples));

TEST(EvaluationRun, HeavyLinkSameAsEvaluateHoweverSliced) { expect_same_however_sliced(heavy_scenario()); }

// A deadline with odds is searched a size or a batch of draws a unit, and the sizes it picks, their
// chances and every figure are the bits resolve() gives (the draws are the same, in the same order).
TEST(EvaluationRun, DeadlineConfidenceSameAsEvaluateHoweverSliced) {
  Scenario small = test::example("llama3-8b-deadline");
  for (Workload& w : small.workloads)
    if (w.deadline_days) w.deadline_confidence = 0.9;
  expect_same_however_sliced(small);
  const Scenario heavy = heavy_confidence_scenario(2);
  const ResolvedScenario r = resolve(heavy, builtin_catalog());
  int resized = 0;  // the search must have had work to do: some size moved off the plan's
  for (const WorkloadInputs& w : r.workloads)
    for (const PairInputs& p : w.options) resized += p.deadline.instances != p.deadline.point_instances;
  EXPECT_GT(resized, 0);
  expect_same_however_sliced(heavy);
}

// A small scenario finishes in one of the page's first slices (SliceClock::kFirstSlice = 200
// units), so the default example's answer appears in the first frame as before.
TEST(EvaluationRun, SmallScenarioFitsInTheFirstSlice) {
  size_t slices = 0;
  run_sliced(test::example("llama3-8b-pretrain"), 200, &slices);
  EXPECT_EQ(slices, 1u);
}

// The structural check that the work yields (issue 33 item 5), not by timing. Steps `s` a unit at a time, checking each does bounded work: no more step times than a handful
// of layout searches (one resolve_pair() runs at most 1 + 6 searches for the smallest cluster that
// holds the model, + 1 for a pilot), and no more draws of a deadline's odds than one batch
// (kDeadlineOddsDrawsPerStep, a tenth of one size's kDeadlineOddsSamples), while the whole
// evaluation computes thousands of searches' worth. A deadline search stepped as a whole, a
// deadline_confidence's search of a size (or of every size) in one unit, or an evaluation of every
// pair at once, would break a bound by orders of magnitude.
struct UnitWork {
  size_t units = 0, step_times = 0, draws = 0, most_step_times = 0, most_draws = 0, one_search = 0;
};
UnitWork step_unit_by_unit(const Scenario& s) {
  UnitWork u;
  EvaluationRun run(s, builtin_catalog());
  const size_t layouts_before = layouts_searched(), draws_before = deadline_odds_draws();
  for (;;) {
    const size_t layouts_at = layouts_searched(), draws_at = deadline_odds_draws();
    const bool finished = run.advance(1);
    u.most_step_times = std::max(u.most_step_times, layouts_searched() - layouts_at);
    u.most_draws = std::max(u.most_draws, deadline_odds_draws() - draws_at);
    ++u.units;
    if (finished) break;
  }
  u.step_times = layouts_searched() - layouts_before;
  u.draws = deadline_odds_draws() - draws_before;
  // The most step times one layout search computes here: the largest search over every pair's
  // model at the largest cluster size considered (the layout space grows with the cluster only
  // until every pipeline degree divides it, and the heavy link's sizes all reach that).
  const Evaluation e = run.finish();
  for (const WorkloadInputs& w : e.resolved.workloads)
    for (const PairInputs& p : w.options) u.one_search = std::max(u.one_search, static_cast<size_t>(p.performance.layouts_tried));
  EXPECT_GT(u.one_search, 0u);
  EXPECT_LE(u.most_step_times, 8 * u.one_search) << "a unit computed " << u.most_step_times << " step times";
  EXPECT_LE(u.most_draws, static_cast<size_t>(kDeadlineOddsDrawsPerStep)) << "a unit drew " << u.most_draws << " futures";
  // The work is spread over a thousand units and more, no unit holding a hundredth of it.
  EXPECT_GT(u.units, 1000u);
  EXPECT_LT(u.most_step_times * 100, u.step_times) << u.most_step_times << " of " << u.step_times << " step times in one unit";
  return u;
}

TEST(EvaluationRun, EveryUnitOfTheHeavyLinkIsBoundedWork) {
  const Scenario s = heavy_scenario();
  ASSERT_EQ(s.workloads.size(), 16u);
  ASSERT_EQ(s.options.size(), 8u);
  const UnitWork u = step_unit_by_unit(s);
  EXPECT_EQ(u.draws, 0u);  // no deadline_confidence
  std::printf("heavy link: %zu units, %zu step times, at most %zu in one unit (one search: at most %zu)\n", u.units, u.step_times,
              u.most_step_times, u.one_search);
}

// The same with the deadlines asked nine times in ten (issue 33 item 5: the confidence search drew
// its 1,000 futures per size tried in one step): every size's draws are spread over ten units.
TEST(EvaluationRun, EveryUnitOfAConfidenceSearchIsBoundedWork) {
  const Scenario s = heavy_confidence_scenario(2);
  const UnitWork u = step_unit_by_unit(s);
  // Every pair draws at one size at least, so the draws span many units.
  EXPECT_GE(u.draws, s.workloads.size() * s.options.size() * static_cast<size_t>(kDeadlineOddsSamples));
  EXPECT_LT(u.most_draws * 100, u.draws) << u.most_draws << " of " << u.draws << " draws in one unit";
  std::printf("heavy link with deadline_confidence 0.9 (%zu workloads): %zu units, %zu step times, %zu draws, at most %zu step times "
              "and %zu draws in one unit\n",
              s.workloads.size(), u.units, u.step_times, u.draws, u.most_step_times, u.most_draws);
}

// What a unit of the confidence search costs natively, printed (never asserted: performance is not
// tested by timing): the whole search in one go (resolve() less the point estimate's), and the
// longest and mean unit of EvaluationRun stepped a unit at a time.
TEST(EvaluationRun, ConfidenceSearchCost) {
  using Clock = std::chrono::steady_clock;
  const auto ms = [](Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
  // 2 of the heavy link's workloads by default (a few seconds); TRAINCOST_CONFIDENCE_WORKLOADS=16
  // for all of them.
  const char* asked = std::getenv("TRAINCOST_CONFIDENCE_WORKLOADS");
  {
    const Scenario s = heavy_confidence_scenario(asked ? static_cast<size_t>(std::strtoul(asked, nullptr, 10)) : 2);
    Scenario plain = s;
    for (Workload& w : plain.workloads) w.deadline_confidence.reset();
    auto t0 = Clock::now();
    resolve(plain, builtin_catalog());
    auto t1 = Clock::now();
    resolve(s, builtin_catalog());
    auto t2 = Clock::now();
    EvaluationRun run(s, builtin_catalog());
    double longest = 0, odds_total = 0;
    size_t odds_units = 0;
    for (;;) {
      const size_t draws_at = deadline_odds_draws();
      const auto a = Clock::now();
      const bool finished = run.advance(1);
      const double took = ms(Clock::now() - a);
      longest = std::max(longest, took);
      if (deadline_odds_draws() > draws_at) {
        odds_total += took;
        ++odds_units;
      }
      if (finished) break;
    }
    std::printf("%zu workloads x %zu options: resolve() %.0f ms without deadline_confidence, %.0f ms with (the confidence search: "
                "%.0f ms); stepped: longest unit %.2f ms, %zu units of draws averaging %.3f ms\n",
                s.workloads.size(), s.options.size(), ms(t1 - t0), ms(t2 - t1), ms(t2 - t1) - ms(t1 - t0), longest, odds_units,
                odds_units ? odds_total / static_cast<double>(odds_units) : 0.0);
  }
}

// The page's cluster-size sweep runs a slice per frame too: each step of it is one size (at most
// two layout searches: the size's and a pilot's), and it sweeps what sweep() does.
TEST(SweepSteps, EveryStepOfTheHeavyLinkIsOneSize) {
  const Scenario s = heavy_scenario();
  const ResolvedScenario r = resolve(s, builtin_catalog());
  SweepSteps steps(s, r, builtin_catalog(), 0);
  size_t most = 0, n = 0;
  for (;;) {
    const size_t at = layouts_searched();
    const bool finished = steps.step();
    most = std::max(most, layouts_searched() - at);
    ++n;
    if (finished) break;
  }
  EXPECT_EQ(steps.done(), steps.total());
  size_t points = 0, searches_at_most = 0;
  const Sweep swept = steps.finish();
  for (const OptionSweep& o : swept.options) points += o.points.size();
  EXPECT_EQ(n, points);
  for (const WorkloadInputs& w : r.workloads)
    for (const PairInputs& p : w.options) searches_at_most = std::max(searches_at_most, static_cast<size_t>(p.performance.layouts_tried));
  EXPECT_LE(most, 2 * searches_at_most);
  EXPECT_EQ(sweep_to_json(s, r, swept).dump(), sweep_to_json(s, r, sweep(s, r, builtin_catalog(), 0)).dump());
}

// resolve() alone, stepped: one size of a deadline's search a step.
TEST(ResolveRun, DeadlineSearchStepsOneSizeAtATime) {
  const Scenario s = test::example("llama3-8b-deadline");
  ResolveRun run(s, builtin_catalog());
  int steps = 0;
  while (!run.step()) ++steps;
  const ResolvedScenario r = run.finish();
  int sizes = 0;
  for (const PairInputs& p : r.workloads[0].options) sizes += p.deadline.sizes_tried + (p.deadline.met ? 0 : 1);
  // One step per option's own numbers, per size tried (a search that meets its deadline ends with
  // the size that does; one missing it takes a step more to choose the fastest), and the labels'
  // step (the one that returned true).
  EXPECT_EQ(steps, static_cast<int>(s.options.size()) + sizes);
}

// The page starts its Monte Carlo on the base evaluation's resolved scenario (resolving again would
// repeat every deadline search in one go): the same analysis as from the scenario alone.
TEST(AnalysisRun, OnTheResolvedScenarioSameAsFromTheScenario) {
  const Scenario s = test::example("llama3-8b-deadline");
  AnalyzeOptions options;
  options.samples = 2000;
  AnalysisRun a(s, builtin_catalog(), options), b(s, resolve(s, builtin_catalog()), builtin_catalog(), options);
  while (!a.advance(500)) {
  }
  while (!b.advance(300)) {
  }
  const Analysis x = a.finish(), y = b.finish();
  ASSERT_EQ(x.monte_carlo.options.size(), y.monte_carlo.options.size());
  for (size_t o = 0; o < x.monte_carlo.options.size(); ++o) {
    EXPECT_TRUE(same_bits(x.monte_carlo.options[o].cost_per_run.p50, y.monte_carlo.options[o].cost_per_run.p50));
    EXPECT_TRUE(same_bits(x.monte_carlo.options[o].probability_cheapest, y.monte_carlo.options[o].probability_cheapest));
  }
  ASSERT_EQ(x.sensitivity.size(), y.sensitivity.size());
  for (size_t k = 0; k < x.sensitivity.size(); ++k) EXPECT_TRUE(same_bits(x.sensitivity[k].swing, y.sensitivity[k].swing));
}

}  // namespace
}  // namespace traincost
