// A deadline with odds (workloads[].deadline_confidence): each option on the fewest instances whose
// chance of being done in time reaches the probability asked for, over the futures the analysis
// draws. A hand-worked size, the point estimate as the floor, and the chance stated in the report.
#include "traincost/engine/deadline_odds.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "test_support.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/engine/uncertainty.hpp"
#include "traincost/output/analysis_report.hpp"

namespace traincost {
namespace {

// The GPU of deadline_test.cpp: 8 chips × 1,000 TFLOP/s × MFU 0.5 = 4e15 FLOP/s an instance and an
// MTBF of 1e9 h (goodput within 1e-4 of 1). 6 × 1e9 × 1e12 = 6e21 FLOPs take 416.67 / n hours on
// n instances, times the whole-run factor f. The only range: f uniform on [1, 2] (no default ranges).
std::string odds_scenario(const std::string& confidence) {
  return R"({"version":1,"workloads":[{"model":{"params":1e9},"target":{"tokens":1e12},"deadline_days":2)" + confidence + R"(}],
    "options":[{"label":"GPU","instance":"custom","price_usd_per_hour":100,"mfu":0.5,
                "custom":{"chips":8,"peak_tflops":1000,"memory_gb":80,"family":"nvidia"},
                "reliability":{"mtbf_hours_per_instance":1e9}}],
    "ranges":[{"input":"workloads[0].whole_run_factor","low":1,"high":2,"dist":"uniform"}],
    "analysis":{"default_ranges":false}})";
}

TEST(DeadlineOdds, FewestInstancesForNineInTenWorkedOnPaper) {
  // Within 48 h: 416.67 f / n ≤ 48 ⇔ f ≤ 0.1152 n, so with f uniform on [1, 2] the chance of being
  // on time is 0.1152 n − 1 (between 0 and 1). The point estimate (f = 1) needs n ≥ 8.68: 9
  // instances, on time in 0.1152 × 9 − 1 = 3.7% of futures. For 90%: 0.1152 n ≥ 1.9, n ≥ 16.49:
  // 17 instances (95.8%); 16 make it in only 84.3%, far enough from 90% for 1,000 draws (±1.2%).
  const Scenario s = test::scenario(odds_scenario(R"(,"deadline_confidence":0.9)"));
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const DeadlineSizing& d = r.workloads[0].options[0].deadline;
  EXPECT_EQ(d.point_instances, 9);
  EXPECT_EQ(d.instances, 17);
  EXPECT_EQ(r.workloads[0].options[0].instances, 17);
  EXPECT_TRUE(d.confidence_met);
  EXPECT_EQ(d.confidence, 0.9);
  EXPECT_NEAR(d.probability_on_time, 0.1152 * 17 - 1, 0.03);
  // The point estimate's chance, as the same draws count it.
  const ResolvedScenario point = resolve(test::scenario(odds_scenario("")), builtin_catalog());
  EXPECT_EQ(point.workloads[0].options[0].deadline.instances, 9);
  EXPECT_NEAR(probability_on_time(s, builtin_catalog(), point, 0, 0), 0.1152 * 9 - 1, 0.02);
}

TEST(DeadlineOdds, AbsentIsThePointEstimateToTheBit) {
  // No deadline_confidence: the sizes and costs are the point estimate's (links stay as they were).
  const Scenario s = test::scenario(odds_scenario(""));
  const ResolvedScenario r = resolve(s, builtin_catalog());
  EXPECT_EQ(r.workloads[0].options[0].deadline.confidence, 0);
  EXPECT_EQ(r.workloads[0].options[0].instances, 9);
}

TEST(DeadlineOdds, NineInTenNeverTakesFewerInstancesThanThePlan) {
  // On every example with a deadline (and the hand case), asking for 90% keeps or grows each size,
  // and where it is met analyze() finds the option on time in most futures too.
  for (const std::string path : {"assets/scenarios/llama3-8b-deadline.json"}) {
    Scenario s = test::scenario(test::read_source_file(path));
    const ResolvedScenario point = resolve(s, builtin_catalog());
    for (Workload& w : s.workloads)
      if (w.deadline_days) w.deadline_confidence = 0.9;
    const ResolvedScenario sized = resolve(s, builtin_catalog());
    for (size_t w = 0; w < s.workloads.size(); ++w)
      for (size_t o = 0; o < s.options.size(); ++o) {
        const PairInputs& p = point.workloads[w].options[o];
        const PairInputs& q = sized.workloads[w].options[o];
        EXPECT_GE(q.instances, p.instances) << path << " option " << o;
        if (q.deadline.confidence_met) {
          EXPECT_GE(q.deadline.probability_on_time, 0.9) << path << " option " << o;
        }
      }
  }
  const ResolvedScenario point = resolve(test::scenario(odds_scenario("")), builtin_catalog());
  const ResolvedScenario sized = resolve(test::scenario(odds_scenario(R"(,"deadline_confidence":0.9)")), builtin_catalog());
  EXPECT_GE(sized.workloads[0].options[0].instances, point.workloads[0].options[0].instances);
}

TEST(DeadlineOdds, OnlyWithADeadline) {
  const std::string text = R"({"version":1,"workloads":[{"model":{"params":1e9},"target":{"tokens":1e12},"deadline_confidence":0.9}],
    "options":[{"instance":"p5.48xlarge","instances":4}]})";
  const std::string problems = test::problems_of(text);
  EXPECT_NE(problems.find("workloads[0].deadline_confidence"), std::string::npos) << problems;
  EXPECT_NE(problems.find("only goes with a deadline_days"), std::string::npos) << problems;
}

// A 90% range whose upper end falls among futures in which the option misses its deadline reads
// as a lower bound and the reason, never "$315k–not run in 66% of futures".
TEST(DeadlineOdds, ARangeWithoutAnUpperEndSaysFromAndWhy) {
  OptionStats st;
  st.probability_feasible = 0.34;  // runs in 34% of futures: P50 and P95 fall among the others
  st.deadline_days = 3;
  st.probability_late = 0.66;      // every future it cannot run in is a missed deadline
  // Both ends finite: "$A–$B", as fmt::usd writes each.
  EXPECT_EQ(range_text(315000, 402000, st), "$315k–$402k");
  // Upper end none: 1 − 0.34 = 66% not run, all of them late (probability_late ≥ not run).
  EXPECT_EQ(range_text(315000, INFINITY, st), "from $315k; not run in 66% of futures (misses the 3-day deadline)");
  // Both none: the reason alone.
  EXPECT_EQ(range_text(INFINITY, INFINITY, st), "not run in 66% of futures (misses the 3-day deadline)");
  // With the median, as the headline says it; without one, the reason once, not for each figure.
  EXPECT_EQ(median_range_text({315000, 402000, 520000}, st), "median $402k, 90% range $315k–$520k");
  EXPECT_EQ(median_range_text({315000, INFINITY, INFINITY}, st),
            "from $315k in its best futures, but no median: not run in 66% of futures (misses the 3-day deadline)");
  EXPECT_EQ(median_range_text({INFINITY, INFINITY, INFINITY}, st), "not run in 66% of futures (misses the 3-day deadline)");
}

}  // namespace
}  // namespace traincost
