// Break-even between cumulative-cost lines, and the decision per workload.
#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/output/report.hpp"
#include "traincost/output/verdict.hpp"

namespace traincost {
namespace {

TEST(Breakeven, ChallengerPaysBackAfterCrossing) {
  // A: 100 fixed + 10 per run; B: 0 fixed + 30 per run. Lines cross at 100 / (30 - 10) = 5 runs.
  const Breakeven b = breakeven(100, 10, 0, 30);
  EXPECT_EQ(b.kind, BreakevenKind::AtRuns);
  EXPECT_DOUBLE_EQ(b.runs, 5);
  EXPECT_EQ(first_run_after(b.runs), 6);  // equal at 5 runs, cheaper from the 6th
}

TEST(Breakeven, FromTheFirstRunWhenCheaperOnBothCounts) {
  EXPECT_EQ(breakeven(0, 10, 100, 30).kind, BreakevenKind::FromFirstRun);
  // crossing before the first run: (10 - 100) / (30 - 10) = -4.5
  EXPECT_EQ(breakeven(10, 10, 100, 30).kind, BreakevenKind::FromFirstRun);
  // parallel lines, lower: always cheaper
  EXPECT_EQ(breakeven(50, 10, 60, 10).kind, BreakevenKind::FromFirstRun);
}

TEST(Breakeven, NeverWhenDearerOnBothCounts) {
  EXPECT_EQ(breakeven(100, 30, 0, 10).kind, BreakevenKind::Never);
  EXPECT_EQ(breakeven(60, 10, 50, 10).kind, BreakevenKind::Never);
}

TEST(Breakeven, CheaperOnlyUntilTheCrossing) {
  // A: 0 fixed + 30 per run; B: 100 fixed + 10. A wins below (0 - 100) / (10 - 30) = 5 runs.
  const Breakeven b = breakeven(0, 30, 100, 10);
  EXPECT_EQ(b.kind, BreakevenKind::UntilRuns);
  EXPECT_DOUBLE_EQ(b.runs, 5);
}

// The same pair decided at different expected runs: a port that costs $200k once and saves on
// every run loses at 1 run and wins at 200.
std::string porting_scenario(int runs) {
  return test::simple_scenario(R"("model":{"params":8e9},"target":{"tokens":2e11},"runs":)" + std::to_string(runs),
                               R"("label":"Trn2","instance":"trn2.48xlarge","instances":4,"porting":{"engineer_weeks":40})",
                               R"("label":"H100","instance":"p5.48xlarge","instances":8)");
}

TEST(Decision, BreakevenRunsMatchTheCumulativeLines) {
  const Scenario s = test::scenario(porting_scenario(200));
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  const OptionResult& trn = res.workloads[0].options[0];
  const OptionResult& gpu = res.workloads[0].options[1];
  ASSERT_LT(trn.per_run_cost, gpu.per_run_cost);
  ASSERT_GT(trn.fixed_cost, gpu.fixed_cost);
  // The break-even is where fixed + n × per_run are equal.
  const double n = (trn.fixed_cost - gpu.fixed_cost) / (gpu.per_run_cost - trn.per_run_cost);
  const Comparison& c = res.workloads[0].comparison;
  EXPECT_EQ(c.cheapest, 0);
  EXPECT_EQ(c.breakeven.kind, BreakevenKind::AtRuns);
  EXPECT_NEAR(c.breakeven.runs, n, 1e-9 * n);
  EXPECT_NEAR(trn.fixed_cost + n * trn.per_run_cost, gpu.fixed_cost + n * gpu.per_run_cost, 1e-6 * gpu.fixed_cost + 1e-3);
  const std::string verdict = workload_verdict(r, res, 0);
  EXPECT_NE(verdict.find("Trn2 is"), std::string::npos) << verdict;
  EXPECT_NE(verdict.find("once the recipe runs " + std::to_string(static_cast<int>(n) + 1) + "+ times"), std::string::npos)
      << verdict;
}

TEST(Decision, OneRunFavoursThePlatformWithoutPortingCost) {
  const Results res = test::run(test::scenario(porting_scenario(1)));
  const Comparison& c = res.workloads[0].comparison;
  EXPECT_EQ(c.cheapest, 1);
  // From the winner's side: it is cheaper only until the port pays back.
  EXPECT_EQ(c.breakeven.kind, BreakevenKind::UntilRuns);
}

TEST(Decision, ClusterThatCannotHoldTheJobIsFlaggedAndNeverPicked) {
  // 70B parameters × 16 bytes = 1.12e12 bytes of state; one p5.48xlarge holds
  // 8 × 81,559 MiB × 0.9 = 6.16e11, even fully sharded (ZeRO-3) too little.
  const Scenario s = test::scenario(test::simple_scenario(R"("model":{"params":7e10},"target":{"tokens":1e11})",
                                                          R"("label":"small","instance":"p5.48xlarge","instances":1)",
                                                          R"("label":"big","instance":"p5.48xlarge","instances":4)"));
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  const OptionResult& small = res.workloads[0].options[0];
  EXPECT_FALSE(small.memory.fits);
  EXPECT_EQ(small.infeasible, Infeasible::Memory);
  // Two instances (16 chips, 7e10 bytes of state each plus activations) hold it.
  EXPECT_EQ(small.memory.min_instances, 2);
  EXPECT_EQ(res.workloads[0].comparison.cheapest, 1);  // cheaper-looking but impossible: not picked
  EXPECT_EQ(res.workloads[0].comparison.runner_up, -1);
  const std::string verdict = workload_verdict(r, res, 0);
  EXPECT_NE(verdict.find("small cannot run it: no layout fits in memory"), std::string::npos) << verdict;
  EXPECT_NE(verdict.find("it needs at least 2 instances"), std::string::npos) << verdict;
}

TEST(Decision, PortfolioAddsAnnualCostsAndPicksPerWorkload) {
  const Scenario s = test::scenario(test::read_source_file("assets/scenarios/portfolio-multicloud.json"));
  const Results res = test::run(s);
  const Portfolio& p = res.portfolio;
  double mix = 0;
  for (size_t w = 0; w < res.workloads.size(); ++w) {
    const int best = res.workloads[w].comparison.cheapest;
    ASSERT_GE(best, 0);
    EXPECT_EQ(p.best_per_workload[w], best);
    mix += res.workloads[w].options[static_cast<size_t>(best)].annual_cost;
  }
  EXPECT_DOUBLE_EQ(p.best_mix_annual, mix);
  for (size_t o = 0; o < p.single_option_annual.size(); ++o) {
    double single = 0;
    for (const WorkloadResult& wr : res.workloads) single += wr.options[o].annual_cost;
    EXPECT_DOUBLE_EQ(p.single_option_annual[o], single);
    EXPECT_LE(p.best_mix_annual, single * (1 + 1e-12));  // picking per workload is never worse
  }
}

}  // namespace
}  // namespace traincost
