// A budget per run: the tokens it buys on each option (closed form), and with a loss target the
// loss they reach and the compute-optimal model for the same compute.
#include "traincost/api/builtin.hpp"
#include "traincost/engine/budget.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/output/verdict.hpp"

namespace traincost {
namespace {

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// 4 instances of a hand-set GPU (8 chips × 1e15 FLOP/s × MFU 0.5 = 4e15 FLOP/s each, $100 an
// hour) train 1e12 tokens of a 1e9-parameter model (6e21 FLOPs) in 6e21 / 1.6e16 / 3600 = 104.17 h
// (÷ goodput, within 1e-4 of 1): compute $41,667 per run. A port of 10 weeks at $5,000, shared by 2
// runs, is $25,000 a run whatever the run's length; nothing else (no validation, no re-porting).
std::string hand_scenario(const std::string& budget, const std::string& target = R"({"tokens":1e12})") {
  return R"({"version":1,"workloads":[{"model":{"params":1e9},"target":)" + target + R"(,"runs":2,"budget_usd":)" + budget + R"(}],
    "options":[{"label":"GPU","instance":"custom","instances":4,"price_usd_per_hour":100,"mfu":0.5,
                "custom":{"chips":8,"peak_tflops":1000,"memory_gb":80,"family":"nvidia"},
                "reliability":{"mtbf_hours_per_instance":1e9},
                "porting":{"engineer_weeks":10,"usd_per_engineer_week":5000,"report_probability_per_year":0}},
               {"instance":"p5.48xlarge","instances":4}]})";
}

struct Planned {
  ResolvedScenario resolved;
  Results results;
  BudgetPlan plan;
};
Planned plan_of(const std::string& text, size_t option = 0) {
  Planned p;
  p.resolved = resolve(test::scenario(text), builtin_catalog());
  p.results = evaluate(p.resolved);
  const WorkloadResult& wr = p.results.workloads[0];
  p.plan = plan_budget(p.resolved.workloads[0], p.resolved.workloads[0].options[option], wr.options[option], wr.target_tokens);
  return p;
}

TEST(Budget, TokensInClosedForm) {
  // $100,000 − $25,000 fixed = $75,000 of compute at $41,667 per 1e12 tokens: 1.8e12 tokens
  const Planned p = plan_of(hand_scenario("100000"));
  const OptionResult& r = p.results.workloads[0].options[0];
  ASSERT_TRUE(p.plan.applied);
  EXPECT_DOUBLE_EQ(p.plan.fixed_per_run, 25000);
  EXPECT_NEAR(p.plan.usd_per_token * 1e12, r.compute_cost, 1e-9);
  EXPECT_NEAR(p.plan.tokens, 75000 * 1e12 / r.compute_cost, 1e-3);
  EXPECT_NEAR(p.plan.tokens, 1.8e12, 1e-4 * 1.8e12);
  EXPECT_TRUE(p.plan.covers_one_step);
  // A run 1.8 times as long: 187.5 h
  EXPECT_NEAR(p.plan.wall_clock_hours, 1.8 * 104.1667, 0.05);
  // The split is exact: fixed + rate × tokens is the cash cost of the planned run.
  EXPECT_NEAR(p.plan.fixed_per_run + p.plan.usd_per_token * 1e12, cash_cost_per_run(r, 2), 1e-8);
  EXPECT_FALSE(p.plan.has_law);  // a token target has no scaling law
}

TEST(Budget, ARunOfTheBoughtTokensCostsTheBudget) {
  // With the catalog's Trainium defaults (porting, validation that scales with the run, expected
  // re-porting, maintenance, compilation), training exactly the tokens the budget buys costs the
  // budget in cash: the affine split holds for every part.
  Scenario s = test::scenario(test::read_source_file("assets/scenarios/llama3-8b-pretrain.json"));
  s.workloads[0].budget_usd = 200000;
  ResolvedScenario r = resolve(s, builtin_catalog());
  Results res = evaluate(r);
  for (size_t o = 0; o < 2; ++o) {
    const BudgetPlan b = plan_budget(r.workloads[0], r.workloads[0].options[o], res.workloads[0].options[o], res.workloads[0].target_tokens);
    ASSERT_TRUE(b.applied && b.tokens > 0) << o;
    Scenario spent = s;
    spent.workloads[0].target.tokens = b.tokens;
    const Results at_budget = test::run(spent);
    EXPECT_NEAR(cash_cost_per_run(at_budget.workloads[0].options[o], 6), 200000, 1e-6) << o;
  }
}

TEST(Budget, TheDelayIsNotPaidFromTheBudget) {
  const Planned without = plan_of(hand_scenario("100000"));
  std::string text = hand_scenario("100000");
  text.replace(text.find(R"("runs":2)"), 8, R"("runs":2,"usd_per_day_of_delay":1000)");
  const Planned with = plan_of(text);
  EXPECT_GT(with.results.workloads[0].options[0].delay_cost_per_run, 0);
  EXPECT_EQ(with.plan.tokens, without.plan.tokens);
}

TEST(Budget, WithALossTargetTheLossReachedAndTheComputeOptimalModel) {
  // A custom law with α = β = 0.5 and A = B = 100: L(N, D) = 1 + 100/√N + 100/√D, and the
  // compute-optimal split of C = 6·N·D is N_opt = D_opt = √(C/6) = √(N·D) (G = 1).
  const std::string target = R"({"loss":1.0033,"scaling_law":{"E":1,"A":100,"B":100,"alpha":0.5,"beta":0.5}})";
  const Planned p = plan_of(hand_scenario("100000", target));
  const BudgetPlan& b = p.plan;
  ASSERT_TRUE(b.has_law);
  EXPECT_NEAR(b.loss, 1 + 100 / std::sqrt(1e9) + 100 / std::sqrt(b.tokens), 1e-12);
  EXPECT_NEAR(b.compute, 6 * 1e9 * b.tokens, 1e-3 * b.compute);
  EXPECT_NEAR(b.optimal_params, std::sqrt(1e9 * b.tokens), 1e-9 * b.optimal_params);
  EXPECT_NEAR(b.optimal_tokens, std::sqrt(1e9 * b.tokens), 1e-9 * b.optimal_tokens);
  // The optimal split never does worse than the user's on the same compute.
  EXPECT_LE(b.optimal_loss, b.loss);
}

TEST(Budget, BelowOneStepOrBelowTheFixedCostsNamesTheField) {
  // $5 over the fixed $25,000 buys 5 × 1e12 / 41,667 = 1.2e8 tokens: more than a step.
  // $0.10 over it buys 2.4e6 tokens: less than one step. No batch is given, so the step is the
  // default batch: the compute-optimal 0.292 × (6 × 1e9 × 1e12)^0.3271 = 0.292 × 10^7.1236 = 3.88e6
  // tokens, below the 4M floor (formulas.hpp, default_batch_tokens).
  Planned p = plan_of(hand_scenario("25000.1"));
  EXPECT_FALSE(p.plan.covers_one_step);
  std::string problems = to_string(constraint_problems(p.resolved, p.results, 0));
  EXPECT_TRUE(mentions(problems, "workloads[0].budget_usd: buys less than one step (3.9M tokens) on GPU: 2.4M tokens")) << problems;
  p = plan_of(hand_scenario("20000"));
  EXPECT_EQ(p.plan.tokens, 0);
  problems = to_string(constraint_problems(p.resolved, p.results, 0));
  EXPECT_TRUE(mentions(problems, "workloads[0].budget_usd: buys less than one step (3.9M tokens) on GPU: its costs that do not grow "
                                 "with the run are $25k per run"))
      << problems;
}

TEST(Budget, NothingWithoutABudget) {
  const Scenario s = test::scenario(test::simple_scenario());
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  EXPECT_FALSE(plan_budget(r.workloads[0], r.workloads[0].options[0], res.workloads[0].options[0], res.workloads[0].target_tokens).applied);
  EXPECT_TRUE(constraint_problems(r, res, 0).empty());
}

}  // namespace
}  // namespace traincost
