// Every example scenario in assets/scenarios/ loads, validates and evaluates to finite numbers.
#include <algorithm>
#include <cmath>
#include <numeric>

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/engine/cost_parts.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/output/report.hpp"
#include "traincost/output/verdict.hpp"

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

// What one run costs, part by part (cost_parts.hpp), adds up to the cost per run for every option
// that can run the job: the breakdown() the page charts, and the breakdown in the JSON results.
TEST_P(Example, CostPartsAddUpToTheCostPerRun) {
  const Scenario s = test::example(GetParam());
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  const OrderedJson json = results_to_json(s, r, res);
  int checked = 0;
  for (size_t w = 0; w < res.workloads.size(); ++w)
    for (size_t o = 0; o < res.workloads[w].options.size(); ++o) {
      const OptionResult& x = res.workloads[w].options[o];
      if (!x.feasible()) continue;
      const CostBreakdown b = breakdown(x, r.workloads[w].runs);
      EXPECT_NEAR(std::accumulate(b.begin(), b.end(), 0.0), x.cost_per_run, 1e-9 * x.cost_per_run) << w << "/" << o;
      const OrderedJson& parts = json["workloads"][w]["options"][o]["breakdown_per_run_usd"];
      ASSERT_EQ(parts.size(), kCostPartCount);
      double sum = 0;
      for (const CostPart& part : kCostParts) sum += parts[part.key].get<double>();
      EXPECT_NEAR(sum, json["workloads"][w]["options"][o]["cost_per_run_usd"].get<double>(), 1e-9 * x.cost_per_run);
      ++checked;
    }
  EXPECT_GT(checked, 0);
}

// test::kExamples names every file of assets/scenarios/ (so a test looping over it misses none).
TEST(Examples, ListIsTheFolder) {
  std::vector<std::string> listed(std::begin(test::kExamples), std::end(test::kExamples));
  std::vector<std::string> found = test::source_files("assets/scenarios", ".json");
  for (std::string& f : found) f = f.substr(0, f.size() - 5);
  std::sort(listed.begin(), listed.end());
  std::sort(found.begin(), found.end());
  EXPECT_EQ(listed, found);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, Example,
                         ::testing::ValuesIn(test::kExamples));

}  // namespace
}  // namespace traincost
