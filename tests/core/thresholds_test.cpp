// Thresholds: solved by hand on a linear case, solved by bisection when the gap is not affine, and on
// every example scenario, the answer flips when the scenario's field is set just past the threshold.
#include "traincost/api/builtin.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/engine/thresholds.hpp"

#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/base/format.hpp"
#include "traincost/output/report.hpp"
#include "traincost/output/verdict.hpp"

namespace traincost {
namespace {

// Two identical 4 × p5.48xlarge clusters at MFU 0.4, so both train for the same instance-hours h per
// run. A pays $40 an instance-hour and 2 engineer-weeks at $10,000 once; B pays $50 and nothing else.
// Over 4 runs, every other platform cost 0 (no re-porting either):
//   C_A = 40·h + 2 × 10,000 / 4 = 40·h + 5,000        C_B = 50·h
// (A leads when h > 500; here h ≈ 850). Each threshold solves C_A = C_B with one input moved:
//   A's price          P·h + 5,000 = 50·h                  P* = 50 − 5,000 / h          (at most)
//   A's porting        40·h + w × 10,000 / 4 = 50·h         w* = h / 250                 (at most)
//   A's MFU            40·h × 0.4 / m + 5,000 = 50·h        m* = 16·h / (50·h − 5,000)   (at least)
//   A's penalty        40·h × (1 + p) + 5,000 = 50·h        p* = (10·h − 5,000) / (40·h) (at most)
//   A's compile time   40·h + 40 × 4 × c + 5,000 = 50·h     c* = (10·h − 5,000) / 160    (at most)
//   B's MFU            50·h × 0.4 / m = 40·h + 5,000        m* = 20·h / (40·h + 5,000)   (at most)
//   B's price          P·h = 40·h + 5,000                   P* = 40 + 5,000 / h          (at least)
//   runs               40·h + 20,000 / r = 50·h             r* = 2,000 / h               (at least)
// B's porting effort and penalty only make B dearer: no valid value flips them.
const char* const kLinear = R"({"version":1,
  "workloads":[{"model":{"params":8e9},"target":{"tokens":2e11},"runs":4}],
  "options":[
    {"label":"A","instance":"p5.48xlarge","instances":4,"mfu":0.4,"price_usd_per_hour":40,
     "porting":{"engineer_weeks":2,"usd_per_engineer_week":10000,"validation_runs":0,"convergence_penalty":0,
                "compile_hours_per_run":0,"maintenance_usd_per_year":0,"report_probability_per_year":0}},
    {"label":"B","instance":"p5.48xlarge","instances":4,"mfu":0.4,"price_usd_per_hour":50,
     "porting":{"engineer_weeks":0,"usd_per_engineer_week":10000,"validation_runs":0,"convergence_penalty":0,
                "compile_hours_per_run":0,"maintenance_usd_per_year":0,"report_probability_per_year":0}}],
  "analysis":{"default_ranges":false}})";

const Threshold& find(const std::vector<Threshold>& rows, const std::string& path) {
  for (const Threshold& t : rows)
    if (t.path == path) return t;
  ADD_FAILURE() << "no threshold on " << path;
  return rows.front();
}

TEST(Thresholds, LinearCaseMatchesTheHandDerivation) {
  const Scenario s = test::scenario(kLinear);
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  ASSERT_EQ(res.workloads[0].comparison.cheapest, 0);
  const double h = res.workloads[0].options[0].compute_cost / 40;  // instance-hours of training per run
  ASSERT_GT(h, 500);
  const std::vector<Threshold> rows = thresholds(s, r, 0, 0, 1);
  ASSERT_EQ(rows.size(), 11u);
  struct Expected {
    const char* path;
    double value;
    bool at_least;
  };
  const Expected expected[] = {
      {"options[0].price_usd_per_hour", 50 - 5000 / h, false},
      {"options[0].porting.engineer_weeks", h / 250, false},
      {"options[0].mfu", 16 * h / (50 * h - 5000), true},
      {"options[0].porting.convergence_penalty", (10 * h - 5000) / (40 * h), false},
      {"options[0].porting.compile_hours_per_run", (10 * h - 5000) / 160, false},
      {"options[1].mfu", 20 * h / (40 * h + 5000), false},
      {"options[1].price_usd_per_hour", 40 + 5000 / h, true},
      {"workloads[0].runs", 2000 / h, true},
  };
  for (const Expected& e : expected) {
    const Threshold& t = find(rows, e.path);
    EXPECT_TRUE(t.flips) << e.path;
    EXPECT_NEAR(t.value, e.value, std::fabs(e.value) * 1e-9) << e.path;
    EXPECT_EQ(t.at_least, e.at_least) << e.path;
    EXPECT_FALSE(t.bisected) << e.path;
  }
  EXPECT_FALSE(find(rows, "options[1].porting.engineer_weeks").flips);
  EXPECT_FALSE(find(rows, "options[1].porting.convergence_penalty").flips);
  EXPECT_DOUBLE_EQ(find(rows, "options[0].price_usd_per_hour").base, 40);

  // The throughput row also reads as the effective rates: MFU m*, and tokens/s per chip in proportion.
  const Threshold& mfu = find(rows, "options[0].mfu");
  EXPECT_NEAR(mfu.mfu, mfu.value, 1e-12);
  EXPECT_NEAR(mfu.tokens_per_sec_per_chip / mfu.base_tokens_per_sec_per_chip, mfu.value / 0.4, 1e-9);

  // The nearest to flipping moves least as a share of its base (here B's price, by (5,000/h − 10)/50 ≈ −8%).
  const Threshold& decisive = rows[static_cast<size_t>(most_decisive(rows))];
  for (const Threshold& t : rows)
    if (t.flips && t.base != 0) {
      EXPECT_LE(std::fabs(decisive.change()), std::fabs(t.change())) << t.path;
    }
  EXPECT_EQ(holds_while(r, rows), "Holds while " + threshold_condition(r, decisive) + ".");
}

// The table row says what threshold_condition says, in cells: the same figures and units, the
// base beside the threshold, the direction and the move in percent; "no value flips it" otherwise.
TEST(Thresholds, RowSplitsTheConditionIntoCells) {
  const Scenario s = test::scenario(kLinear);
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const std::vector<Threshold> rows = thresholds(s, r, 0, 0, 1);
  const Threshold& price = find(rows, "options[0].price_usd_per_hour");
  const ThresholdRow p = threshold_row(r, price);
  EXPECT_EQ(p.option, "A");
  EXPECT_EQ(p.input, "price per instance-hour");
  EXPECT_EQ(p.base, "$40.00 per instance-hour");
  EXPECT_EQ(p.value, fmt::usd(price.value) + " per instance-hour");
  EXPECT_EQ(p.direction, "at most");
  EXPECT_EQ(p.change, "+" + fmt::percent(price.value / 40 - 1));
  EXPECT_NE(threshold_condition(r, price).find(fmt::usd(price.value)), std::string::npos);
  // Throughput in the effective rate, as the condition gives it.
  const Threshold& mfu = find(rows, "options[0].mfu");
  const ThresholdRow m = threshold_row(r, mfu);
  EXPECT_EQ(m.input, "throughput");
  EXPECT_EQ(m.value, fmt::rounded(mfu.tokens_per_sec_per_chip) + " tokens/s per chip (MFU " + fmt::number(mfu.mfu, 2) + ")");
  EXPECT_EQ(m.base, fmt::rounded(mfu.base_tokens_per_sec_per_chip) + " tokens/s per chip (MFU 0.4)");
  EXPECT_NE(threshold_condition(r, mfu).find(m.value), std::string::npos);
  EXPECT_EQ(m.direction, "at least");
  EXPECT_EQ(m.change.rfind("−", 0), 0u) << m.change;  // a fall: a minus sign, not a hyphen
  // B's porting effort only makes B dearer.
  const ThresholdRow none = threshold_row(r, find(rows, "options[1].porting.engineer_weeks"));
  EXPECT_EQ(none.value, "no value flips it");
  EXPECT_EQ(none.base, "0 engineer-weeks");
  EXPECT_EQ(none.direction, "");
  EXPECT_EQ(none.change, "");
  // The runs belong to the workload.
  const ThresholdRow runs = threshold_row(r, find(rows, "workloads[0].runs"));
  EXPECT_EQ(runs.option, "both");
  EXPECT_EQ(runs.base, "4 runs");
  EXPECT_EQ(runs.direction, "at least");
}

TEST(Thresholds, RunsThresholdIsTheBreakEven) {
  // Mixtral as an MoE (8 experts, top-2): H200 x16 leads at 4 runs and Trn2 x8 pays its port back
  // after 4.2 runs (the verdict's break-even), so H200 stays cheaper while runs are at most that.
  const Scenario s = test::scenario(test::read_source_file("assets/scenarios/mixtral-moe.json"));
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  const std::vector<Threshold> rows = leading_thresholds(s, r, res, 0);
  const Threshold& runs = find(rows, "workloads[0].runs");
  ASSERT_TRUE(runs.flips);
  EXPECT_FALSE(runs.at_least);
  EXPECT_NEAR(runs.value, res.workloads[0].comparison.breakeven.runs, 1e-9 * runs.value);
}

TEST(Thresholds, BisectsWhenTheGapIsNotAffine) {
  // 1 − x² is no line in x: the secant through 0.5 and 2 crosses at 0.8, where the gap is 0.36, so
  // the range [0, 3] is bisected.
  const ThresholdSolution s = solve_threshold([](double x) { return 1 - x * x; }, 0.5, 2.0, InputScale::Linear, 0, 3);
  ASSERT_TRUE(s.found);
  EXPECT_TRUE(s.bisected);
  EXPECT_NEAR(s.value, 1.0, 1e-8);
  EXPECT_FALSE(s.at_least);  // positive below 1
  // No crossing within the range: nothing found.
  EXPECT_FALSE(solve_threshold([](double x) { return 1 - x * x; }, 0.5, 2.0, InputScale::Linear, 0, 0.9).found);
  // An input that does not move the gap flips nothing.
  EXPECT_FALSE(solve_threshold([](double) { return 0.25; }, 1, 2, InputScale::Linear, 0, 10).found);
}

// The scenario with one field set: `path` as in a threshold ("options[0].porting.engineer_weeks",
// "workloads[2].overrides[0].engineer_weeks") becomes a JSON pointer into the full form.
Scenario with_field(const Scenario& s, const std::string& path, double value) {
  std::string pointer;
  for (char c : path) pointer += c == '.' || c == '[' ? '/' : c == ']' ? '\0' : c;
  pointer.erase(std::remove(pointer.begin(), pointer.end(), '\0'), pointer.end());
  OrderedJson j = scenario_to_json(s);
  j[OrderedJson::json_pointer("/" + pointer)] = value;
  return test::scenario(j.dump());
}

// Second's cost minus first's on workload w after re-reading and re-resolving the whole scenario.
double lead(const Scenario& s, size_t w, int first, int second) {
  const Results res = test::run(s);
  return res.workloads[w].options[static_cast<size_t>(second)].cost_per_run - res.workloads[w].options[static_cast<size_t>(first)].cost_per_run;
}

class ExampleThresholds : public ::testing::TestWithParam<const char*> {};

TEST_P(ExampleThresholds, TheAnswerFlipsJustPastEachThreshold) {
  const Scenario s = test::scenario(test::read_source_file(std::string("assets/scenarios/") + GetParam() + ".json"));
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  int flips = 0;
  for (size_t w = 0; w < res.workloads.size(); ++w) {
    const Comparison& c = res.workloads[w].comparison;
    const std::vector<Threshold> rows = leading_thresholds(s, r, res, w);
    ASSERT_EQ(rows.size(), 11u);
    // Under a deadline a threshold holds at the sizes the deadline chose (all else at base); a
    // changed input re-sizes the options when the whole scenario is evaluated again, so the flip
    // is not where this test looks for it.
    if (s.workloads[w].deadline_days) continue;
    for (const Threshold& t : rows) {
      if (!t.flips) continue;
      ++flips;
      // A small step either side; the leader's side is the threshold's direction.
      const double step = 1e-6 * std::fabs(t.value);
      const double holds = t.value + (t.at_least ? step : -step), flipped = t.value + (t.at_least ? -step : step);
      const Scenario kept = with_field(s, t.path, holds), turned = with_field(s, t.path, flipped);
      EXPECT_GT(lead(kept, w, c.cheapest, c.runner_up), 0) << t.path << " = " << holds;
      EXPECT_LT(lead(turned, w, c.cheapest, c.runner_up), 0) << t.path << " = " << flipped;
      if (s.options.size() == 2) {
        EXPECT_EQ(test::run(turned).workloads[w].comparison.cheapest, c.runner_up) << t.path;
      }
    }
  }
  if (!s.workloads.front().deadline_days) {
    EXPECT_GT(flips, 0);
  }
}

TEST_P(ExampleThresholds, AreInTheResultsWithTheDecisiveLine) {
  const Scenario s = test::scenario(test::read_source_file(std::string("assets/scenarios/") + GetParam() + ".json"));
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  const OrderedJson j = results_to_json(s, r, res);
  for (size_t w = 0; w < res.workloads.size(); ++w) {
    const OrderedJson& c = j["workloads"][w]["comparison"];
    const std::vector<Threshold> rows = leading_thresholds(s, r, res, w);
    ASSERT_EQ(c["thresholds"].size(), rows.size());
    for (size_t k = 0; k < rows.size(); ++k) {
      const OrderedJson& t = c["thresholds"][k];
      EXPECT_EQ(t["input"], rows[k].path);
      EXPECT_EQ(t["base"].get<double>(), rows[k].base);
      if (rows[k].flips) {
        EXPECT_EQ(t["value"].get<double>(), rows[k].value);
        EXPECT_EQ(t["direction"], rows[k].at_least ? "at least" : "at most");
      } else {
        EXPECT_TRUE(t["value"].is_null());
      }
    }
    EXPECT_EQ(c["decisive_threshold"], most_decisive(rows));
    EXPECT_EQ(c["holds_while"], holds_while(r, rows));
  }
}

INSTANTIATE_TEST_SUITE_P(Scenarios, ExampleThresholds,
                         ::testing::ValuesIn(test::kExamples));

}  // namespace
}  // namespace traincost
