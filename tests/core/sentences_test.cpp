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

}  // namespace
}  // namespace traincost
