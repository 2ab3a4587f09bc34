// A deadline sizes each option (the fewest instances in time, within its capacity), and the cost of
// waiting for the model joins the costs the verdict compares: hand-worked sizes, the limits, and
// flips of the verdict toward the faster option.
#include "traincost/api/builtin.hpp"
#include "traincost/engine/cost_parts.hpp"
#include "traincost/engine/deadline.hpp"

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/base/format.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/output/present.hpp"
#include "traincost/output/report.hpp"
#include "traincost/output/verdict.hpp"

namespace traincost {
namespace {

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A GPU whose speed is set by hand: 8 chips of 1,000 TFLOP/s at MFU 0.5, so an instance does
// 0.5 × 1e15 × 8 = 4e15 FLOP/s; an MTBF of 1e9 hours keeps goodput within 1e-4 of 1. A 1e9-parameter
// model on 1e12 tokens is 6 × 1e9 × 1e12 = 6e21 FLOPs: 6e21 / (4e15 × n) / 3600 = 416.67 / n hours.
std::string hand_scenario(const std::string& workload_extra, const std::string& option_extra = "") {
  return R"({"version":1,"workloads":[{"model":{"params":1e9},"target":{"tokens":1e12})" + workload_extra + R"(}],
    "options":[{"label":"GPU","instance":"custom","price_usd_per_hour":100,"mfu":0.5,
                "custom":{"chips":8,"peak_tflops":1000,"memory_gb":80,"family":"nvidia"},
                "reliability":{"mtbf_hours_per_instance":1e9})" + option_extra + R"(},
               {"instance":"p5.48xlarge","instances":4}]})";
}

TEST(Deadline, FewestInstancesWorkedOnPaper) {
  // Within 2 days = 48 h: 416.67 / n / g ≤ 48 needs n ≥ 8.68 / g, so 9 instances (8 take 52.1 h).
  const Scenario s = test::scenario(hand_scenario(R"(,"deadline_days":2)"));
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const DeadlineSizing& d = r.workloads[0].options[0].deadline;
  EXPECT_TRUE(d.applied);
  EXPECT_TRUE(d.met);
  EXPECT_EQ(d.instances, 9);
  EXPECT_EQ(d.configured_instances, 1);
  EXPECT_EQ(d.limit, kDefaultMaxInstances);
  const Results res = evaluate(r);
  const OptionResult& gpu = res.workloads[0].options[0];
  EXPECT_TRUE(gpu.feasible());
  EXPECT_NEAR(gpu.wall_clock_hours, 416.6666667 / 9, 0.01);  // 46.3 h
  EXPECT_LE(gpu.days_to_model, 2);
}

TEST(Deadline, TheWaitForCapacityCounts) {
  // Half a day's wait leaves 36 h: n ≥ 416.67 / 36 = 11.57, so 12 instances (11 take 37.9 h).
  const Scenario s = test::scenario(hand_scenario(R"(,"deadline_days":2)", R"(,"wait_days":0.5)"));
  const Results res = test::run(s);
  const OptionResult& gpu = res.workloads[0].options[0];
  EXPECT_EQ(gpu.deadline.instances, 12);
  EXPECT_NEAR(gpu.days_to_model, 0.5 + 416.6666667 / 12 / 24, 1e-4);
}

TEST(Deadline, TheCostAtTheSizeIsTheCostOfThatSize) {
  // Sizing changes nothing but the instance count: the same scenario at 9 instances without a
  // deadline costs the same, to the bit.
  const Results sized = test::run(test::scenario(hand_scenario(R"(,"deadline_days":2)")));
  const Results fixed = test::run(test::scenario(hand_scenario("", R"(,"instances":9)")));
  EXPECT_EQ(sized.workloads[0].options[0].cost_per_run, fixed.workloads[0].options[0].cost_per_run);
  EXPECT_EQ(sized.workloads[0].options[0].wall_clock_hours, fixed.workloads[0].options[0].wall_clock_hours);
}

TEST(Deadline, CapacityLimitGivesTheFastestPossibleRunAndNamesTheFields) {
  // Within 1 day needs 416.67 / 24 = 17.4 → 18 instances; the capacity is 10, which take 41.7 h.
  const Scenario s = test::scenario(hand_scenario(R"(,"deadline_days":1)", R"(,"max_instances":10)"));
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  const OptionResult& gpu = res.workloads[0].options[0];
  EXPECT_FALSE(gpu.deadline.met);
  EXPECT_TRUE(gpu.deadline.capacity_limited);
  EXPECT_EQ(gpu.deadline.instances, 10);
  EXPECT_EQ(gpu.infeasible, Infeasible::Deadline);
  EXPECT_NEAR(gpu.days_to_model, 416.6666667 / 10 / 24, 1e-4);  // 1.74 days
  EXPECT_TRUE(mentions(infeasibility_reason(gpu), "not done within the 1-day deadline: at best 1.74 days, on 10 instances"))
      << infeasibility_reason(gpu);
  const std::string problems = to_string(constraint_problems(r, res, 0));
  EXPECT_TRUE(mentions(problems, "workloads[0].deadline_days: is shorter than the fastest possible run on GPU: 1.74 days on 10 instances "
                                 "(options[0].max_instances)"))
      << problems;
  EXPECT_EQ(status_text(gpu), "too slow");
}

TEST(Deadline, LaterDeadlinesNeverNeedMoreInstances) {
  double previous = 1e9;
  for (const double days : {2.0, 4.0, 8.0, 16.0, 32.0}) {
    const std::string extra = R"(,"deadline_days":)" + std::to_string(days);
    const Results res = test::run(test::scenario(hand_scenario(extra)));
    const double n = res.workloads[0].options[0].deadline.instances;
    EXPECT_LE(n, previous) << days;
    previous = n;
  }
  EXPECT_EQ(previous, 1);  // 416.67 h = 17.4 days fit in 32 days on one instance
}

TEST(Deadline, ATightDeadlineTurnsTheVerdictToTheFasterPlatform) {
  // The default example: Trn2 is cheaper per run but slower. A deadline Trn2 cannot make at any size
  // leaves H100, sized for it, as the answer. The fastest run of each: what a deadline no option
  // can make reports.
  Scenario s = test::scenario(test::read_source_file("assets/scenarios/llama3-8b-pretrain.json"));
  EXPECT_EQ(test::run(s).workloads[0].comparison.cheapest, 0);
  s.workloads[0].deadline_days = 0.1;
  const Results impossible = test::run(s);
  const double trn_fastest = impossible.workloads[0].options[0].deadline.fastest_days;
  const double gpu_fastest = impossible.workloads[0].options[1].deadline.fastest_days;
  EXPECT_EQ(impossible.workloads[0].comparison.cheapest, -1);
  ASSERT_LT(gpu_fastest, trn_fastest);
  s.workloads[0].deadline_days = (trn_fastest + gpu_fastest) / 2;
  const std::string days = fmt::number(*s.workloads[0].deadline_days);
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  EXPECT_EQ(res.workloads[0].options[0].infeasible, Infeasible::Deadline);
  EXPECT_EQ(res.workloads[0].comparison.cheapest, 1);
  const std::string verdict = workload_verdict(r, res, 0);
  // The labels name the sizes the deadline chose, so the sentence does not say them twice.
  const int gpus = static_cast<int>(r.workloads[0].options[1].instances);
  const int trns = static_cast<int>(r.workloads[0].options[0].instances);
  EXPECT_TRUE(mentions(verdict, "To have the model within " + days + " days: H100 x" + std::to_string(gpus) + " (p5) is the only option")) << verdict;
  EXPECT_TRUE(mentions(verdict, "Trn2 x" + std::to_string(trns) + " cannot run it: it is not done within the " + days + "-day deadline: at best ")) << verdict;
}

TEST(Deadline, TheVerdictComparesOptionsAtTheirDeadlineSizes) {
  Scenario s = test::scenario(test::read_source_file("assets/scenarios/llama3-8b-pretrain.json"));
  s.workloads[0].deadline_days = 14;
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  for (size_t o = 0; o < 2; ++o) {
    const OptionResult& opt = res.workloads[0].options[o];
    EXPECT_TRUE(opt.feasible()) << o;
    EXPECT_LE(opt.days_to_model, 14) << o;
    EXPECT_EQ(opt.chips, opt.deadline.instances * r.workloads[0].options[o].chips_per_instance);
    // One instance fewer would be late (the search's answer is the fewest).
    Scenario fewer = s;
    fewer.workloads[0].deadline_days.reset();
    fewer.options[o].instances = static_cast<int>(opt.deadline.instances) - 1;
    EXPECT_GT(test::run(fewer).workloads[0].options[o].days_to_model, 14) << o;
  }
  const std::string verdict = workload_verdict(r, res, 0);
  EXPECT_TRUE(mentions(verdict, "To have the model within 14 days: ")) << verdict;
  // Each automatic label names the size its deadline chose.
  for (size_t o = 0; o < 2; ++o)
    EXPECT_TRUE(mentions(verdict, " x" + fmt::number(res.workloads[0].options[o].deadline.instances))) << verdict;
}

TEST(DelayCost, AHighEnoughValueOfTimeTurnsTheVerdictToTheFasterOption) {
  // Trn2 is cheaper per run and slower. The delay cost adds $/day × days to each run, so the
  // verdict flips where $/day × (days of Trn2 − days of H100) equals the difference in cost:
  //   threshold = (cost H100 − cost Trn2) / (days Trn2 − days H100)
  Scenario s = test::scenario(test::read_source_file("assets/scenarios/llama3-8b-pretrain.json"));
  const Results base = test::run(s);
  const OptionResult& trn = base.workloads[0].options[0];
  const OptionResult& gpu = base.workloads[0].options[1];
  ASSERT_LT(trn.cost_per_run, gpu.cost_per_run);
  ASSERT_GT(trn.days_to_model, gpu.days_to_model);
  const double threshold = (gpu.cost_per_run - trn.cost_per_run) / (trn.days_to_model - gpu.days_to_model);

  s.workloads[0].usd_per_day_of_delay = threshold * 0.95;
  EXPECT_EQ(test::run(s).workloads[0].comparison.cheapest, 0);
  s.workloads[0].usd_per_day_of_delay = threshold * 1.05;
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results flipped = evaluate(r);
  EXPECT_EQ(flipped.workloads[0].comparison.cheapest, 1);
  // The delay is its own part of each run's cost.
  const OptionResult& late = flipped.workloads[0].options[0];
  EXPECT_NEAR(late.delay_cost_per_run, threshold * 1.05 * late.days_to_model, 1e-6 * late.delay_cost_per_run);
  EXPECT_DOUBLE_EQ(breakdown(late, 6)[cost_part_index("delay")], late.delay_cost_per_run);
  const std::string verdict = workload_verdict(r, flipped, 0);
  EXPECT_TRUE(mentions(verdict, "H100 x32 (p5) is ")) << verdict;
  EXPECT_TRUE(mentions(verdict, "That counts the delay at ")) << verdict;
}

TEST(DelayCost, AWaitForCapacityCanCostTheCheaperOptionItsLead) {
  // A long queue for Trn2 capacity: with a value on time, its wait is paid on every run.
  Scenario s = test::scenario(test::read_source_file("assets/scenarios/llama3-8b-pretrain.json"));
  // Trn2 leads by some $10k-20k a run (with the catalog's calibration) and takes about 20 days
  // longer: at $200 a day it still leads.
  s.workloads[0].usd_per_day_of_delay = 200;
  const Results before = test::run(s);
  EXPECT_EQ(before.workloads[0].comparison.cheapest, 0);
  // A wait whose cost is one and a half times the lead left: 1.5 × lead / $200 days, paid every run.
  const double lead = before.workloads[0].options[1].cost_per_run - before.workloads[0].options[0].cost_per_run;
  ASSERT_GT(lead, 0);
  s.options[0].wait_days = 1.5 * lead / 200;
  EXPECT_EQ(test::run(s).workloads[0].comparison.cheapest, 1);
}

}  // namespace
}  // namespace traincost
