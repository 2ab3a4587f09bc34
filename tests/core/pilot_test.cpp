// The pilot plan: the value of learning against hand-computed answers (a two-point distribution, and
// a uniform MFU integrated in closed form), its bounds, reproducibility by seed, and the plan's parts.
#include "traincost/api/builtin.hpp"
#include "traincost/engine/pilot.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/output/report.hpp"

namespace traincost {
namespace {

// The candidate costs a + b·g = 100 + 360·g ($k) once g is known, the incumbent 400, the porting 50;
// the pilot's compute costs 10. g is 0.5 or 1.0, each with probability 1/2:
//   candidate: 280 or 460, expected 370 < 400, so deciding now picks the candidate.
//   Knowing g: g = 0.5 keeps the candidate (regret 0); g = 1.0 takes the incumbent (regret 460 − 400 = 60).
//   Value of the information = (0 + 60) / 2 = 30; after the pilot (280 + 400) / 2 = 340 = 370 − 30.
//   With the porting spent, the candidate passes when cost − 50 < 400: at g = 0.5 only (1/2).
//   Net = mean of max(0, cost − 50 − 400) − 10 = (0 + 10) / 2 − 10 = −5: the port is paid either way,
//   so the pilot only saves the 10 above 450 in the bad case.
TEST(ValueOfLearning, TwoPointCandidateChosenNow) {
  const PilotValue v = value_of_learning({100, 360, 400, 50}, {0.5, 1.0}, 10);
  EXPECT_EQ(v.decide_now, 0);
  EXPECT_DOUBLE_EQ(v.candidate_usd, 370);
  EXPECT_DOUBLE_EQ(v.value_usd, 30);
  EXPECT_DOUBLE_EQ(v.after_pilot_usd, 340);
  EXPECT_DOUBLE_EQ(v.max_saving_usd, 60);
  EXPECT_DOUBLE_EQ(v.probability_changes, 0.5);
  EXPECT_DOUBLE_EQ(v.probability_passes, 0.5);
  EXPECT_DOUBLE_EQ(v.net_value_usd, -5);
  // Standard error of the two regrets {0, 60}: population sd 30, over √2.
  EXPECT_NEAR(v.standard_error_usd, 30 / std::sqrt(2.0), 1e-12);
  // Without porting, the net value is the value of information less the pilot: 30 − 10.
  EXPECT_DOUBLE_EQ(value_of_learning({100, 360, 400, 0}, {0.5, 1.0}, 10).net_value_usd, 20);
}

// g is 0.5 or 1.5: the candidate costs 280 or 640, expected 460 > 400, so deciding now keeps the
// incumbent. Knowing g: g = 0.5 takes the candidate (regret 400 − 280 = 120), g = 1.5 stays (0).
//   Value = 60; after = (280 + 400) / 2 = 340 = 400 − 60.
//   Net = mean of max(400 − cost, −50) − 10 = (120 − 50) / 2 − 10 = 25: a failed pilot loses its porting.
TEST(ValueOfLearning, TwoPointIncumbentChosenNow) {
  const PilotValue v = value_of_learning({100, 360, 400, 50}, {0.5, 1.5}, 10);
  EXPECT_EQ(v.decide_now, 1);
  EXPECT_DOUBLE_EQ(v.value_usd, 60);
  EXPECT_DOUBLE_EQ(v.after_pilot_usd, 340);
  EXPECT_DOUBLE_EQ(v.max_saving_usd, 120);
  EXPECT_DOUBLE_EQ(v.net_value_usd, 25);
}

TEST(ValueOfLearning, ZeroWhenTheChoiceCannotChange) {
  // The candidate is the cheaper whatever g is: nothing to learn, and the pilot only costs.
  const PilotValue v = value_of_learning({100, 100, 400, 50}, {0.5, 1.0, 2.0}, 10);
  EXPECT_EQ(v.value_usd, 0);
  EXPECT_EQ(v.max_saving_usd, 0);
  EXPECT_EQ(v.probability_changes, 0);
  EXPECT_DOUBLE_EQ(v.net_value_usd, -10);
  // The incumbent whatever g is: a pilot loses the porting and its compute.
  EXPECT_DOUBLE_EQ(value_of_learning({500, 100, 400, 50}, {0.5, 1.0}, 10).net_value_usd, -60);
}

// A: 4 × p5 at MFU uniform on [0.2, 0.6] (most likely 0.4) with $20,000 of porting; B: the same
// cluster at MFU 0.3, nothing else uncertain. Over the horizon A costs K + S × 0.4 / x at MFU x
// (S: its compute at 0.4, over all runs), B a constant H_B. With x uniform on [lo, hi]:
//   E[A] = K + 0.4·S × ln(hi/lo) / (hi − lo) < H_B: deciding now picks A.
//   A costs more than B below x* = 0.4·S / (H_B − K); the value of knowing x is the mean regret
//   V = ∫[lo, x*] (K + 0.4·S/x − H_B) dx / (hi − lo) = ((K − H_B)(x* − lo) + 0.4·S·ln(x*/lo)) / (hi − lo)
//   and the net value replaces H_B by H_B + porting (a failed pilot saves only what exceeds both),
//   less the pilot's compute.
TEST(PilotValue, UniformMfuMatchesTheIntegral) {
  const Scenario s = test::scenario(R"({"version":1,
    "workloads":[{"model":{"params":8e9},"target":{"tokens":2e11},"runs":4}],
    "options":[
      {"label":"A","instance":"p5.48xlarge","instances":4,"mfu":0.4,
       "porting":{"engineer_weeks":2,"usd_per_engineer_week":10000,"validation_runs":0,"convergence_penalty":0,
                  "compile_hours_per_run":0,"maintenance_usd_per_year":0}},
      {"label":"B","instance":"p5.48xlarge","instances":4,"mfu":0.3,
       "porting":{"engineer_weeks":0,"validation_runs":0,"convergence_penalty":0,"compile_hours_per_run":0,"maintenance_usd_per_year":0}}],
    "ranges":[{"input":"options[0].mfu","low":0.2,"high":0.6,"dist":"uniform"}],
    "analysis":{"default_ranges":false}})");
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  const OptionResult& a = res.workloads[0].options[0];
  const double runs = 4, lo = 0.2, hi = 0.6, porting = 20000;
  const double S = a.compute_cost * runs, K = a.horizon_cost - S, HB = res.workloads[0].options[1].horizon_cost;
  const auto regret_integral = [&](double against) {
    const double x = 0.4 * S / (against - K);
    return ((K - against) * (x - lo) + 0.4 * S * std::log(x / lo)) / (hi - lo);
  };
  ASSERT_LT(K + 0.4 * S * std::log(hi / lo) / (hi - lo), HB);

  PilotOptions options;
  options.samples = 40000;
  options.seed = 5;
  const PilotPlan plan = plan_pilot(s, r, builtin_catalog(), options);
  ASSERT_TRUE(plan.ok) << plan.reason;
  EXPECT_EQ(plan.candidate, 0);
  EXPECT_EQ(plan.incumbent, 1);
  EXPECT_EQ(plan.value.revealed, std::vector<std::string>{"options[0].mfu"});
  EXPECT_EQ(plan.value.decide_now, 0);
  const double tolerance = 4 * plan.value.standard_error_usd;
  EXPECT_NEAR(plan.value.value_usd, regret_integral(HB), tolerance);
  const double pilot_compute = plan.run.compute_usd + plan.run.compile_usd;
  EXPECT_NEAR(plan.value.net_value_usd, regret_integral(HB + porting) - pilot_compute, tolerance);
  EXPECT_DOUBLE_EQ(plan.value.expected_porting_usd, porting);
  // With nothing else uncertain, learning the MFU is all there is to learn.
  EXPECT_NEAR(plan.value.perfect_information_usd, plan.value.value_usd, 1e-6 * plan.value.value_usd);
}

using test::example;
using test::kExamples;

TEST(PilotValue, BoundedOnEveryExample) {
  for (const char* name : kExamples) {
    const Scenario s = example(name);
    const ResolvedScenario r = resolve(s, builtin_catalog());
    PilotOptions options;
    options.samples = 4000;
    for (size_t w = 0; w < s.workloads.size(); ++w) {
      options.workload = w;
      const PilotPlan plan = plan_pilot(s, r, builtin_catalog(), options);
      ASSERT_TRUE(plan.ok) << name << ": " << plan.reason;
      const PilotValue& v = plan.value;
      EXPECT_GE(v.value_usd, 0) << name;
      EXPECT_LE(v.value_usd, v.max_saving_usd) << name;
      EXPECT_LE(v.net_value_usd, v.value_usd - plan.run.compute_usd - plan.run.compile_usd + 1e-6 * v.incumbent_usd) << name;
      EXPECT_LE(v.value_usd, v.perfect_information_usd + 4 * v.standard_error_usd) << name;
      EXPECT_NEAR(v.after_pilot_usd, (v.decide_now == plan.candidate ? v.candidate_usd : v.incumbent_usd) - v.value_usd,
                  1e-9 * v.incumbent_usd)
          << name;
      EXPECT_EQ(plan.worth_running, v.net_value_usd > 0) << name;
    }
  }
}

TEST(PilotValue, ReproducibleBySeed) {
  const Scenario s = example("llama3-8b-pretrain");
  const ResolvedScenario r = resolve(s, builtin_catalog());
  PilotOptions options;
  options.samples = 3000;
  options.seed = 11;
  const std::string first = pilot_to_json(s, r, plan_pilot(s, r, builtin_catalog(), options)).dump();
  EXPECT_EQ(pilot_to_json(s, r, plan_pilot(s, r, builtin_catalog(), options)).dump(), first);
  options.seed = 12;
  EXPECT_NE(pilot_to_json(s, r, plan_pilot(s, r, builtin_catalog(), options)).dump(), first);
}

// The page plans a slice of samples per frame: however it is sliced, the plan is plan_pilot()'s,
// bit for bit (its JSON, every figure at full precision).
TEST(PilotValue, SlicedRunIsThePlanBitForBit) {
  for (const char* name : kExamples) {
    const Scenario s = example(name);
    const ResolvedScenario r = resolve(s, builtin_catalog());
    PilotOptions options;
    options.samples = 1500;
    options.seed = 5;
    PilotPlanRun run(s, r, builtin_catalog(), options);
    EXPECT_EQ(run.total(), 1500u) << name;
    size_t slices = 0;
    for (const size_t slice : {size_t{1}, size_t{7}, size_t{333}})
      if (!run.advance(slice)) ++slices;
    EXPECT_EQ(run.done(), 341u) << name;
    while (!run.advance(400)) ++slices;
    EXPECT_EQ(slices, 5u) << name;
    EXPECT_EQ(pilot_to_json(s, r, run.finish()).dump(), pilot_to_json(s, r, plan_pilot(s, r, builtin_catalog(), options)).dump()) << name;
  }
}

TEST(PilotPlan, RunCostAndPassMarks) {
  const Scenario s = example("llama3-8b-pretrain");
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  const OptionResult& trn2 = res.workloads[0].options[0];
  PilotOptions options;
  options.samples = 500;
  const PilotPlan plan = plan_pilot(s, r, builtin_catalog(), options);
  ASSERT_TRUE(plan.ok);
  EXPECT_EQ(plan.candidate, 0);  // the port
  EXPECT_TRUE(plan.candidate_leads);
  // The pilot is one validation run (5% by the catalog's default) on the planned cluster.
  EXPECT_DOUBLE_EQ(plan.run.fraction, r.workloads[0].options[0].validation_run_fraction);
  EXPECT_EQ(plan.run.instances, 16);
  EXPECT_DOUBLE_EQ(plan.run.compute_usd, plan.run.fraction * trn2.compute_cost);
  EXPECT_DOUBLE_EQ(plan.run.porting_usd, trn2.porting_cost);
  EXPECT_DOUBLE_EQ(plan.run.cost_usd, plan.run.porting_usd + plan.run.compute_usd + plan.run.compile_usd);
  // On the planned cluster the throughput mark is the threshold itself.
  const Threshold& x = plan.marks.throughput;
  ASSERT_TRUE(x.flips);
  EXPECT_TRUE(x.at_least);
  EXPECT_EQ(x.path, "options[0].mfu");
  EXPECT_DOUBLE_EQ(plan.marks.pilot_tokens_per_sec_per_chip, x.tokens_per_sec_per_chip);
  EXPECT_LT(x.tokens_per_sec_per_chip, x.base_tokens_per_sec_per_chip);
  // The same thresholds as the results give the leader against the runner-up (the candidate leads).
  const std::vector<Threshold> leading = leading_thresholds(s, r, res, 0);
  ASSERT_EQ(plan.thresholds.size(), leading.size());
  for (size_t k = 0; k < leading.size(); ++k) EXPECT_EQ(plan.thresholds[k].value, leading[k].value) << leading[k].path;
}

// A pilot on 4 of the 16 instances: its chips run faster by 1/0.98^log2(16/4) = 1/0.9604, so it must
// show that much more than the planned cluster's mark, and its compute costs 0.9604 × as much per token.
TEST(PilotPlan, SmallerClusterScalesTheMark) {
  // A stated MFU goes from the pilot's 64 chips to the planned 256 by the option's scaling per
  // doubling: 0.98^2 = 0.9604.
  Scenario s = example("llama3-8b-pretrain");
  s.options[0].mfu = 0.3;
  const ResolvedScenario r = resolve(s, builtin_catalog());
  PilotOptions options;
  options.samples = 500;
  options.instances = 4;
  const PilotPlan plan = plan_pilot(s, r, builtin_catalog(), options);
  ASSERT_TRUE(plan.ok) << plan.reason;
  EXPECT_FALSE(plan.run.by_model);
  EXPECT_NEAR(plan.run.efficiency, 0.9604, 1e-12);
  EXPECT_NEAR(plan.marks.pilot_tokens_per_sec_per_chip, plan.marks.throughput.tokens_per_sec_per_chip / 0.9604,
              1e-9 * plan.marks.pilot_tokens_per_sec_per_chip);
  const Results res = evaluate(r);
  EXPECT_NEAR(plan.run.compute_usd, plan.run.fraction * res.workloads[0].options[0].compute_cost * 0.9604, 1e-9 * plan.run.compute_usd);
  options.instances = 17;
  EXPECT_FALSE(plan_pilot(s, r, builtin_catalog(), options).ok);

  // A predicted throughput goes by the step-time model's own predictions at the two sizes (as a
  // pilot's measurement is carried: resolve_pair.hpp's PilotFit), so the mark at 4 instances is the
  // planned mark × predicted(4 instances) / predicted(16).
  const Scenario predicted = example("llama3-8b-pretrain");
  const ResolvedScenario rp = resolve(predicted, builtin_catalog());
  options.instances = 4;
  const PilotPlan by_model = plan_pilot(predicted, rp, builtin_catalog(), options);
  ASSERT_TRUE(by_model.ok) << by_model.reason;
  EXPECT_TRUE(by_model.run.by_model);
  Scenario four = predicted;
  four.options[0].instances = 4;
  const double at_pilot = resolve(four, builtin_catalog()).workloads[0].options[0].performance.time.tokens_per_sec_per_chip;
  const double at_plan = rp.workloads[0].options[0].performance.time.tokens_per_sec_per_chip;
  EXPECT_NEAR(by_model.run.efficiency, at_plan / at_pilot, 1e-12);
  EXPECT_NEAR(by_model.marks.pilot_tokens_per_sec_per_chip, by_model.marks.throughput.tokens_per_sec_per_chip * at_pilot / at_plan,
              1e-9 * by_model.marks.pilot_tokens_per_sec_per_chip);
}

TEST(PilotPlan, NoPlanWithoutAClusterThatHoldsTheJob) {
  // 175B with full state on one trn1n instance cannot fit.
  const Scenario s = example("gpt3-175b-ranges");
  const ResolvedScenario r = resolve(s, builtin_catalog());
  PilotOptions options;
  options.samples = 500;
  options.instances = 1;
  const PilotPlan plan = plan_pilot(s, r, builtin_catalog(), options);
  EXPECT_FALSE(plan.ok);
  EXPECT_NE(plan.reason.find("cannot hold the job"), std::string::npos) << plan.reason;
  EXPECT_EQ(std::string(recommendation(plan)), "no plan");
}

// Each line of a Markdown table has as many cells as its header: no user text breaks a row.
void expect_tables_whole(const std::string& md) {
  size_t columns = 0;
  size_t start = 0;
  while (start < md.size()) {
    const size_t end = md.find('\n', start);
    const std::string line = md.substr(start, end - start);
    start = end == std::string::npos ? md.size() : end + 1;
    if (line.empty() || line[0] != '|') {
      columns = 0;
      continue;
    }
    size_t pipes = 0;
    for (size_t i = 0; i < line.size(); ++i) pipes += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
    if (columns == 0) columns = pipes;
    EXPECT_EQ(pipes, columns) << line;
  }
}

TEST(PilotPlan, MarkdownTablesStayWholeWithHostileLabels) {
  Scenario s = example("mixtral-moe");
  s.options[0].label = "Trn2 | x8 *bold* <b>";
  s.workloads[0].name = "MoE\nrun | one";
  const ResolvedScenario r = resolve(s, builtin_catalog());
  PilotOptions options;
  options.samples = 500;
  const std::string md = pilot_markdown(s, r, plan_pilot(s, r, builtin_catalog(), options));
  expect_tables_whole(md);
  EXPECT_EQ(md.find("<b>"), std::string::npos);
  EXPECT_EQ(md.find("MoE\nrun"), std::string::npos);
  for (const char* name : kExamples) {
    const Scenario e = example(name);
    const ResolvedScenario er = resolve(e, builtin_catalog());
    expect_tables_whole(pilot_markdown(e, er, plan_pilot(e, er, builtin_catalog(), options)));
  }
}

}  // namespace
}  // namespace traincost
