// Every example scenario in assets/scenarios/ loads, validates and evaluates to finite numbers.
#include <cmath>

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/report.hpp"
#include "traincost/verdict.hpp"

namespace traincost {
namespace {

class Example : public ::testing::TestWithParam<const char*> {};

TEST_P(Example, EvaluatesToFiniteNumbersAndAVerdict) {
  const Scenario s = test::scenario(test::read_source_file(std::string("assets/scenarios/") + GetParam() + ".json"));
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  ASSERT_EQ(res.workloads.size(), s.workloads.size());
  for (size_t w = 0; w < res.workloads.size(); ++w) {
    for (const OptionResult& o : res.workloads[w].options) {
      EXPECT_TRUE(std::isfinite(o.cost_per_run) && o.cost_per_run > 0);
      EXPECT_TRUE(std::isfinite(o.wall_clock_hours) && o.wall_clock_hours > 0);
      EXPECT_TRUE(o.goodput > 0.5 && o.goodput < 1);
    }
    EXPECT_GE(res.workloads[w].comparison.cheapest, 0);
    EXPECT_FALSE(workload_verdict(r, res, w).empty());
  }
  const std::string json = results_to_json(s, r, res).dump();
  for (const char* key : {"\"training_flops\"", "\"wall_clock_hours\"", "\"chip_hours\"", "\"hardware_cost_per_run_usd\"",
                          "\"one_time_cost_usd\"", "\"cost_per_run_usd\"", "\"cost_per_million_tokens_usd\"", "\"fits\"",
                          "\"min_instances\"", "\"performance\"", "\"layout\"", "\"cheapest\"", "\"breakeven_runs\"", "\"portfolio\""})
    EXPECT_NE(json.find(key), std::string::npos) << key;
}

INSTANTIATE_TEST_SUITE_P(Scenarios, Example,
                         ::testing::Values("llama3-8b-pretrain", "finetune-1b", "llama3-70b-target-loss", "mixtral-moe",
                                           "portfolio-multicloud", "gpt3-175b-ranges"));

}  // namespace
}  // namespace traincost
