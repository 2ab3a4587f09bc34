// Sentences that fit the case they describe (issue 30): an option with nothing to port or pay back
// is not said to pay back "after 1.0 runs" or to be piloted "after $0.00 of porting", and a budget
// that buys more time than the deadline allows says so.
#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/engine/pilot.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/engine/uncertainty.hpp"
#include "traincost/output/analysis_report.hpp"
#include "traincost/output/report.hpp"
#include "traincost/output/verdict.hpp"

namespace traincost {
namespace {

// Two CUDA options: neither has porting, re-porting or validation runs, so no one-time costs.
const std::string kTwoCudaOptions =
    test::simple_scenario(R"("model":{"params":8e9},"target":{"tokens":1e11})", R"("instance":"p5.48xlarge","instances":2)",
                          R"("instance":"p4d.24xlarge","instances":4)");

TEST(Sentences, NoPaybackIsStatedForAnOptionWithoutOneTimeCosts) {
  const Scenario s = test::scenario(kTwoCudaOptions);
  AnalyzeOptions options;
  options.samples = 200;
  const Analysis a = analyze(s, builtin_catalog(), options);
  ASSERT_GE(a.challenger, 0);
  EXPECT_EQ(a.challenger_one_time_usd, 0);
  const std::string text = analysis_text(resolve(s, builtin_catalog()), a);
  EXPECT_NE(text.find("has no one-time costs to pay back"), std::string::npos) << text;
  EXPECT_EQ(text.find("pays back its one-time costs after"), std::string::npos) << text;
  EXPECT_EQ(text.find("Break-even runs for"), std::string::npos) << text;
}

TEST(Sentences, AnOptionWithPortingStillPaysBack) {
  // The default example: Trn2 carries porting (engineer-weeks × rate), so its payback is stated.
  const Scenario s = test::example("llama3-8b-pretrain");
  AnalyzeOptions options;
  options.samples = 200;
  const Analysis a = analyze(s, builtin_catalog(), options);
  EXPECT_GT(a.challenger_one_time_usd, 0);
  const std::string text = analysis_text(resolve(s, builtin_catalog()), a);
  EXPECT_EQ(text.find("has no one-time costs"), std::string::npos) << text;
  EXPECT_NE(text.find("Break-even runs for"), std::string::npos) << text;
}

TEST(Sentences, APilotWithNothingToPortSaysSo) {
  const Scenario s = test::scenario(kTwoCudaOptions);
  const ResolvedScenario r = resolve(s, builtin_catalog());
  PilotOptions options;
  options.samples = 200;
  const PilotPlan plan = plan_pilot(s, r, builtin_catalog(), options);
  ASSERT_TRUE(plan.ok) << plan.reason;
  EXPECT_EQ(plan.run.porting_usd, 0);
  const std::string summary = pilot_summary(r, plan);
  EXPECT_NE(summary.find("of compute, nothing to port)"), std::string::npos) << summary;
  EXPECT_EQ(summary.find("of porting"), std::string::npos) << summary;
}

TEST(Sentences, ABudgetLongerThanTheDeadlineSaysWhatFitsWithinIt) {
  // $2M per run on 2 × p5.48xlarge buys far more than 14 days: at the p5 price (on the order of
  // $100 an instance-hour) 2 instances cost ~$200/h, so $2M is ~10,000 hours, about 400 days. The
  // line names the deadline and the tokens that fit within it: the budget's tokens × 336 h / its hours.
  const Scenario s = test::scenario(test::simple_scenario(
      R"("model":{"params":8e9},"target":{"tokens":1e11},"budget_usd":2e6,"deadline_days":14)",
      R"("instance":"p5.48xlarge","instances":2)", R"("instance":"p4d.24xlarge","instances":4)"));
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  const std::vector<std::string> lines = constraint_lines(r, res, 0);
  bool found = false;
  for (const std::string& line : lines)
    if (line.rfind("Budget ", 0) == 0) {
      found = true;
      EXPECT_NE(line.find("longer than the 14-day deadline (within it: "), std::string::npos) << line;
    }
  EXPECT_TRUE(found);
}

// The consistency pass after issue 33: "It takes N× as long per run" compared the run times
// while the cost of delay in the same verdict counted the days to the model, wait included.
TEST(Sentences, SlowerMeansLaterToHaveTheModelTheWaitIncluded) {
  Scenario s = test::example("llama3-8b-pretrain");
  const auto verdict = [](const Scenario& sc) {
    const ResolvedScenario r = resolve(sc, builtin_catalog());
    return workload_verdict(r, evaluate(r), 0);
  };
  // Trn2 x16, the cheaper, runs 31 days; H100 x32, 11 (the golden results). No wait: as before.
  EXPECT_NE(verdict(s).find("It takes 2.85× as long per run (31 days against 11 days)."), std::string::npos) << verdict(s);
  // H100 waits 10 days for its capacity: 31 days against 21 to the model, under 1.5×, no sentence.
  s.options[1].wait_days = 10;
  EXPECT_EQ(verdict(s).find("as long"), std::string::npos) << verdict(s);
  // Trn2 waits 10: 41 days against 11.
  s.options[1].wait_days = 0;
  s.options[0].wait_days = 10;
  EXPECT_NE(verdict(s).find("It takes 3.76× as long per run (41 days against 11 days, the wait for capacity included)."), std::string::npos)
      << verdict(s);
}

TEST(Sentences, SavingsThatRoundTo100PercentAreNotFree) {
  // 64 × p5 for a 1.2B model's 2B tokens against 32 Trn2 instances with 50 engineer-weeks to port:
  // the port is nearly all of Trn2's cost per run, and H100 saves 99.9%, not "100%".
  const Scenario s = test::scenario(R"({"version":1,"workloads":[{"model":{"params":1.2e9},"target":{"tokens":2e9},"runs":1}],
    "options":[{"instance":"trn2.48xlarge","instances":32,"porting":{"engineer_weeks":50}},{"instance":"p5.48xlarge","instances":1}]})");
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  ASSERT_EQ(res.workloads[0].comparison.cheapest, 1);
  ASSERT_GT(res.workloads[0].comparison.savings, 0.995);
  ASSERT_LT(res.workloads[0].comparison.savings, 1.0);
  const std::string v = workload_verdict(r, res, 0);
  EXPECT_NE(v.find("is more than 99% cheaper per run than"), std::string::npos) << v;
  EXPECT_EQ(v.find("100%"), std::string::npos) << v;
}

}  // namespace
}  // namespace traincost
