// One (workload, option) pair with round inputs, every output checked against hand arithmetic.
#include "traincost/api/builtin.hpp"
#include "traincost/engine/cost_parts.hpp"
#include "traincost/engine/evaluate.hpp"

#include <numeric>

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/output/report.hpp"

namespace traincost {
namespace {

struct HandWorkedPair : ::testing::Test {
  WorkloadInputs w;
  PairInputs p;
  void SetUp() override {
    w.model.params = 1e9;
    w.model.active_params = 1e9;
    w.target.tokens = 1e11;
    w.runs = 4;
    w.horizon_months = 6;
    p.instances = 2;
    p.chips_per_instance = 8;
    p.peak_flops_per_chip = 1e15;
    p.hbm_bytes_per_chip = 80e9;
    p.mfu = 0.5;
    p.price_usd_per_hour = 100;
    p.discount = 0.2;
    p.mtbf_hours_per_instance = 200;  // cluster MTBF 100 h
    p.checkpoint_write_minutes = 6;   // 0.1 h
    p.restart_minutes = 0;
    p.checkpoint_interval_hours = 9.9;
    p.engineer_weeks = 4;
    p.usd_per_engineer_week = 5000;
    p.validation_runs = 2;
    p.validation_run_fraction = 0.1;
    p.convergence_penalty = 0.2;
    p.compile_hours_per_run = 1;
    p.maintenance_usd_per_year = 12000;
    p.egress_tb_per_run = 2;
    p.egress_usd_per_tb = 50;
    p.performance.layout_found = true;  // the step-time model found a layout that fits
  }
};

TEST_F(HandWorkedPair, WorkAndSpeed) {
  const OptionResult r = evaluate_pair(w, p, 1e11);
  // tokens = 1e11 × (1 + 0.2) = 1.2e11; FLOPs = 6 × 1e9 × 1.2e11 = 7.2e20
  EXPECT_DOUBLE_EQ(r.tokens, 1.2e11);
  EXPECT_DOUBLE_EQ(r.training_flops, 7.2e20);
  // 16 chips × 1e15 × 0.5 = 8e15 FLOP/s; 7.2e20 / 8e15 = 90,000 s = 25 h
  EXPECT_DOUBLE_EQ(r.cluster_flops_per_sec, 8e15);
  EXPECT_DOUBLE_EQ(r.compute_hours, 25);
  // goodput = 9.9 / (9.9 + 0.1) / (1 + (0 + 1 × (9.9 + 0.1) / 2) / 100) = 0.99 / 1.05 = 0.9428571
  EXPECT_NEAR(r.goodput, 0.99 / 1.05, 1e-15);
  // training 25 / 0.9428571 = 26.5151515 h; wall clock + 1 h compile = 27.5151515 h
  EXPECT_NEAR(r.training_hours, 26.515151515151516, 1e-9);
  EXPECT_NEAR(r.wall_clock_hours, 27.515151515151516, 1e-9);
  // chip-hours 27.5151515 × 16 = 440.242424; instance-hours × 2 = 55.030303
  EXPECT_NEAR(r.chip_hours, 440.24242424242425, 1e-8);
  EXPECT_NEAR(r.instance_hours, 55.03030303030303, 1e-8);
  // a failure every 100 h over 26.5 training hours: 0.265 interruptions
  EXPECT_NEAR(r.interruptions, 0.26515151515151516, 1e-12);
}

TEST_F(HandWorkedPair, Money) {
  const OptionResult r = evaluate_pair(w, p, 1e11);
  // price 100 × (1 - 0.2) = $80; compute 26.5151515 h × 2 × 80 = $4,242.4242; compile 1 × 2 × 80 = $160
  EXPECT_DOUBLE_EQ(r.price_usd_per_hour, 80);
  EXPECT_NEAR(r.compute_cost, 4242.424242424242, 1e-8);
  EXPECT_DOUBLE_EQ(r.compile_cost, 160);
  EXPECT_NEAR(r.hardware_cost_per_run, 4402.424242424242, 1e-8);
  // one-time: 4 × 5,000 + 2 × 0.1 × 4,242.4242 = 20,000 + 848.4848 = $20,848.4848
  EXPECT_NEAR(r.one_time_cost, 20848.484848484848, 1e-8);
  // maintenance 12,000 × 6 / 12 = $6,000; egress 2 × 50 = $100
  EXPECT_DOUBLE_EQ(r.maintenance_cost, 6000);
  EXPECT_DOUBLE_EQ(r.egress_cost_per_run, 100);
  // fully loaded = 4,402.4242 + 100 + (20,848.4848 + 6,000) / 4 = 4,502.4242 + 6,712.1212 = $11,214.5455
  EXPECT_NEAR(r.cost_per_run, 11214.545454545454, 1e-8);
  // per million target tokens: 11,214.5455 / (1e11 / 1e6) = $0.1121455
  EXPECT_NEAR(r.cost_per_million_tokens, 0.11214545454545453, 1e-12);
  // over the horizon × 4 runs = $44,858.18; a year is twice the 6-month horizon: $89,716.36
  EXPECT_NEAR(r.horizon_cost, 44858.181818181816, 1e-7);
  EXPECT_NEAR(r.annual_cost, 89716.36363636363, 1e-7);
  // The breakdown of a run adds up to the fully loaded cost.
  const CostBreakdown b = breakdown(r, w.runs);
  EXPECT_NEAR(std::accumulate(b.begin(), b.end(), 0.0), r.cost_per_run, 1e-8);
}

TEST_F(HandWorkedPair, DelayAndRePortingJoinTheCosts) {
  p.wait_days = 2;
  w.usd_per_day_of_delay = 1000;
  p.report_probability_per_year = 0.5;
  p.report_effort_share = 0.4;
  const OptionResult r = evaluate_pair(w, p, 1e11);
  // days until done: 2 + 27.5151515 h / 24 = 3.14646465 days; delay 1,000 × 3.14646465 = $3,146.4646 per run
  EXPECT_NEAR(r.days_to_model, 3.146464646464646, 1e-12);
  EXPECT_NEAR(r.delay_cost_per_run, 3146.464646464646, 1e-8);
  // re-porting over 6 months: 0.5 a year × 0.4 × one-time $20,848.4848 × 6 / 12 = $2,084.8485
  EXPECT_NEAR(r.re_porting_cost, 2084.848484848485, 1e-8);
  // fixed: 20,848.4848 + 6,000 + 2,084.8485 = $28,933.3333; per run: 4,402.4242 + 100 + 3,146.4646 = $7,648.8889
  EXPECT_NEAR(r.fixed_cost, 28933.333333333332, 1e-8);
  EXPECT_NEAR(r.per_run_cost, 7648.888888888889, 1e-8);
  // fully loaded: 7,648.8889 + 28,933.3333 / 4 = $14,882.2222
  EXPECT_NEAR(r.cost_per_run, 14882.222222222223, 1e-8);
  const CostBreakdown b = breakdown(r, w.runs);
  EXPECT_NEAR(b[cost_part_index("delay")], 3146.464646464646, 1e-8);
  EXPECT_NEAR(b[cost_part_index("re_porting")], 2084.848484848485 / 4, 1e-8);
  EXPECT_NEAR(std::accumulate(b.begin(), b.end(), 0.0), r.cost_per_run, 1e-8);
}

TEST_F(HandWorkedPair, MeasuredThroughputReplacesMfu) {
  p.measured_tokens_per_sec_per_chip = 500;
  const OptionResult r = evaluate_pair(w, p, 1e11);
  // 500 × 16 chips = 8,000 tokens/s; 1.2e11 / 8,000 = 1.5e7 s = 4,166.67 h
  EXPECT_DOUBLE_EQ(r.tokens_per_sec, 8000);
  EXPECT_NEAR(r.compute_hours, 1.5e7 / 3600, 1e-9);
}

TEST_F(HandWorkedPair, MemoryComesFromTheChosenLayout) {
  // The step-time model's layout (resolve() fills it; here by hand): what it needs per chip.
  p.performance.layout_found = true;
  p.performance.time.state_bytes = 1e9;
  p.performance.time.activation_bytes = 5e8;
  p.performance.time.memory_per_chip_bytes = 1.5e9;
  p.performance.usable_bytes_per_chip = 72e9;
  OptionResult r = evaluate_pair(w, p, 1e11);
  EXPECT_DOUBLE_EQ(r.memory.bytes_per_chip, 1.5e9);
  EXPECT_DOUBLE_EQ(r.memory.state_bytes, 1e9);
  EXPECT_TRUE(r.memory.fits);
  EXPECT_TRUE(r.feasible());
  // When no layout fits, the option cannot run, and the least any layout needed is reported.
  p.performance.layout_found = false;
  p.performance.least_memory_bytes = 9e10;
  p.performance.min_instances = 4;
  r = evaluate_pair(w, p, 1e11);
  EXPECT_EQ(r.infeasible, Infeasible::Memory);
  EXPECT_DOUBLE_EQ(r.memory.bytes_per_chip, 9e10);
  EXPECT_EQ(r.memory.min_instances, 4);
  EXPECT_TRUE(r.memory.possible);
}

TEST(Evaluate, CatalogDefaultsFlowIntoAScenario) {
  // trn2.48xlarge on-demand: $35.76, 16 chips at 667 TFLOPS, MFU predicted by the step-time model.
  const Scenario s = test::scenario(test::simple_scenario());
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const PairInputs& trn = r.workloads[0].options[0];
  EXPECT_DOUBLE_EQ(trn.price_usd_per_hour, 35.76);
  EXPECT_DOUBLE_EQ(trn.chips_per_instance, 16);
  EXPECT_DOUBLE_EQ(trn.peak_flops_per_chip, 667e12);
  EXPECT_EQ(r.options[0].throughput, ThroughputSource::Predicted);
  ASSERT_TRUE(trn.performance.layout_found);
  // The MFU evaluate() applies is the predicted throughput in the workload's FLOPs per token:
  // 6N without an architecture (assumed for the step-time model only).
  EXPECT_NEAR(trn.mfu, trn.performance.time.tokens_per_sec_per_chip * 6 * 8e9 / 667e12, 1e-12);
  EXPECT_GT(trn.mfu, 0.05);
  EXPECT_LT(trn.mfu, 0.6);
  // Trainium gets the catalog's porting defaults; NVIDIA none.
  EXPECT_DOUBLE_EQ(trn.engineer_weeks, 8);
  EXPECT_DOUBLE_EQ(r.workloads[0].options[1].engineer_weeks, 0);
  // MTBF 50,000 h per chip / 16 chips = 3,125 h per instance
  EXPECT_DOUBLE_EQ(trn.mtbf_hours_per_instance, 3125);
}

TEST(Evaluate, WorkloadOverrideBeatsOptionBeatsCatalog) {
  const Scenario s = test::scenario(R"({"version":1,
    "workloads":[{"model":{"params":8e9},"target":{"tokens":1e11}},
                 {"model":{"params":8e9},"target":{"tokens":1e11},"overrides":[{"option":0,"engineer_weeks":2}]}],
    "options":[{"instance":"trn2.48xlarge","porting":{"engineer_weeks":5,"compile_hours_per_run":0.5}},
               {"instance":"p5.48xlarge"}]})");
  const ResolvedScenario r = resolve(s, builtin_catalog());
  EXPECT_DOUBLE_EQ(r.workloads[0].options[0].engineer_weeks, 5);
  EXPECT_DOUBLE_EQ(r.workloads[1].options[0].engineer_weeks, 2);
  EXPECT_DOUBLE_EQ(r.workloads[1].options[0].compile_hours_per_run, 0.5);
  EXPECT_DOUBLE_EQ(r.workloads[1].options[0].maintenance_usd_per_year, 24000);  // catalog default
}

TEST(Evaluate, CustomPriceAndDiscount) {
  const Scenario s = test::scenario(test::simple_scenario(
      R"("model":{"params":8e9},"target":{"tokens":1e11})", R"("instance":"trn2.48xlarge","price_usd_per_hour":40,"discount":0.25)"));
  const Results res = test::run(s);
  EXPECT_DOUBLE_EQ(res.workloads[0].options[0].price_usd_per_hour, 30);  // 40 × 0.75
}

// fill_pair() writes every field of a result in place rather than resetting it first (the Monte
// Carlo's samples reuse one Results). A Results that held other scenarios, with spot reclaims, a
// deadline, more workloads and options, and an option that cannot run, must come out exactly as a
// fresh one: every figure the JSON contract carries, the comparison and the portfolio included.
TEST(Evaluation, ReusedResultsHoldNothingOfTheScenarioBefore) {
  Scenario spot = test::example("llama3-8b-pretrain");
  for (Option& o : spot.options) o.pricing = PricingModel::Spot;
  Scenario too_small = test::example("llama3-70b-target-loss");
  too_small.options.front().instances = 1;  // 70B parameters on one instance: no layout fits
  const std::vector<Scenario> before = {spot, test::example("llama3-8b-deadline"), test::example("portfolio-multicloud"), too_small,
                                        test::example("mixtral-moe"), test::example("finetune-1b")};
  for (const Scenario& after : before) {
    const ResolvedScenario resolved = resolve(after, builtin_catalog());
    const std::string fresh = results_to_json(after, resolved, evaluate(resolved)).dump();
    for (const Scenario& earlier : before) {
      Results reused;
      evaluate(resolve(earlier, builtin_catalog()), reused);
      evaluate(resolved, reused);
      EXPECT_EQ(results_to_json(after, resolved, reused).dump(), fresh);
    }
  }
}

}  // namespace
}  // namespace traincost
