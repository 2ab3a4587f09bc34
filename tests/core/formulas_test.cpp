// Each formula against a value worked out by hand (the arithmetic is in the comment).
#include "traincost/model/formulas.hpp"

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace traincost {
namespace {

TEST(Formulas, FlopsPerTokenIsSixNWithoutArchitecture) {
  Model m;
  m.params = 8e9;
  // 6 × 8e9 = 4.8e10
  EXPECT_DOUBLE_EQ(flops_per_token(m, false), 4.8e10);
  // with full recomputation the forward pass runs twice: 8 × 8e9 = 6.4e10
  EXPECT_DOUBLE_EQ(flops_per_token(m, true), 6.4e10);
}

TEST(Formulas, FlopsPerTokenAddsPalmAttentionTerm) {
  Model m;
  m.params = 8e9;
  m.layers = 32;
  m.hidden = 4096;
  m.seq_len = 8192;
  // 12·l·h·s = 12 × 32 × 4096 × 8192 = 12,884,901,888; plus 6N = 4.8e10 -> 60,884,901,888
  EXPECT_DOUBLE_EQ(flops_per_token(m, false), 60884901888.0);
}

TEST(Formulas, MixtureOfExpertsCountsActiveParameters) {
  Model m;
  m.params = 4.67e10;
  m.active_params = 1.29e10;
  // 6 × 1.29e10 = 7.74e10 (the 46.7B total only matters for memory)
  EXPECT_DOUBLE_EQ(flops_per_token(m, false), 7.74e10);
}

TEST(Formulas, ScalingLawWithRoundConstants) {
  const ScalingLaw law{1.0, 1.0, 1.0, 0.5, 0.5};
  // floor = E + A / N^alpha = 1 + 1 / 100^0.5 = 1.1
  EXPECT_NEAR(loss_floor(law, 100), 1.1, 1e-15);
  // D = (B / (L - floor))^(1/beta) = (1 / 0.1)^2 = 100
  EXPECT_NEAR(tokens_for_loss(law, 100, 1.2), 100, 1e-9);
  // at or below the floor no amount of data is enough
  EXPECT_EQ(tokens_for_loss(law, 100, 1.1), INFINITY);
}

TEST(Formulas, HoffmannFloorForSeventyBillion) {
  // 7e10^0.34 = exp(0.34 × ln 7e10) = exp(0.34 × 24.97176) = exp(8.49040) = 4867.7
  // floor = 1.69 + 406.4 / 4867.7 = 1.69 + 0.083487 = 1.773487
  const ScalingLaw law = scaling_law_constants(ScalingLawKind::Hoffmann2022, {});
  EXPECT_NEAR(loss_floor(law, 7e10), 1.773487, 1e-6);
  // Besiroglu 2024 for 7e9: 1.8172 + 482.01 / 7e9^0.3478 = 1.8172 + 482.01 / 2654.6 = 1.9988
  // (the reference file quotes ~1.998)
  EXPECT_NEAR(loss_floor(scaling_law_constants(ScalingLawKind::Besiroglu2024, {}), 7e9), 1.9988, 2e-4);
}

TEST(Formulas, TargetTokensFromSteps) {
  Target t;
  t.kind = TargetKind::Steps;
  t.steps = 5000;
  t.tokens_per_step = 4194304;
  // 5000 × 4,194,304 = 20,971,520,000
  EXPECT_DOUBLE_EQ(target_tokens(t, Model{}), 20971520000.0);
}

TEST(Formulas, ScalingEfficiencyPerDoubling) {
  // 1024 chips against a 256-chip reference is two doublings: 0.98^2 = 0.9604
  EXPECT_NEAR(scaling_efficiency(1024, 256, 0.98), 0.9604, 1e-12);
  // at or below the reference nothing is lost
  EXPECT_EQ(scaling_efficiency(128, 256, 0.98), 1.0);
  EXPECT_EQ(scaling_efficiency(4096, 0, 0.98), 1.0);
}

TEST(Formulas, YoungDalyInterval) {
  // delta = 0.1 h, M = 50 h: x = delta / 2M = 0.001
  // sqrt(2 × 0.1 × 50) = sqrt(10) = 3.1622777
  // × (1 + sqrt(0.001)/3 + 0.001/9) = × (1 + 0.0105409 + 0.0001111) = × 1.0106520 -> 3.1959624
  // - delta -> 3.0959624
  EXPECT_NEAR(optimal_checkpoint_interval(0.1, 50), 3.0959624, 1e-7);
  // a checkpoint slower than twice the MTBF: checkpoint every M
  EXPECT_EQ(optimal_checkpoint_interval(120, 50), 50);
}

TEST(Formulas, Goodput) {
  // tau = 3, delta = 0.1, R = 0.5, s = 1, M = 50:
  // 3 / 3.1 = 0.9677419; loss per failure 0.5 + 3.1/2 = 2.05 h; / (1 + 2.05/50) = / 1.041
  // -> 0.9677419 / 1.041 = 0.9296272
  EXPECT_NEAR(goodput(3, 0.1, 0.5, 1, 50), 0.9296272, 1e-7);
  // to first order the same as Young/Daly's 3/3.1 × (1 - 2.05/50) = 0.9280645
  EXPECT_NEAR(goodput(3, 0.1, 0.5, 1, 50), 0.9280645, 2e-3);
  // half the failures lose work: 0.5 + 0.5 × 1.55 = 1.275 h -> 0.9677419 / 1.0255 = 0.9436781
  EXPECT_NEAR(goodput(3, 0.1, 0.5, 0.5, 50), 0.9436781, 1e-7);
  // a failure every hour, each costing 2.05 h: slow but never negative, 0.9677419 / 3.05 = 0.3172924
  EXPECT_NEAR(goodput(3, 0.1, 0.5, 1, 1), 0.3172924, 1e-7);
}

TEST(Formulas, CheckpointAndRestart) {
  // 405e9 parameters with mixed-precision Adam (16 bytes, 2 of them gradients): 405e9 × 14 = 5.67e12 bytes
  EXPECT_DOUBLE_EQ(checkpoint_bytes(405e9, 16), 5.67e12);
  // written by 2,048 instances at 1 GB/s each: 5.67e12 / 2.048e12 = 2.7686 s = 7.6904e-4 h
  EXPECT_NEAR(checkpoint_transfer_hours(5.67e12, 1.0, 2048), 7.6904297e-4, 1e-10);
  // asynchronous: 4% of it blocks
  EXPECT_DOUBLE_EQ(checkpoint_pause_hours(2.0, 0.04), 0.08);
  // restart: (10 + 0.55 × 5) / 60 + 7.6904e-4 = 12.75/60 + 7.6904e-4 = 0.2125 + 0.000769 = 0.2132690 h
  EXPECT_NEAR(restart_hours(10, 0.55, 5, 7.6904297e-4), 0.2132690, 1e-7);
  // a fifth of failures lose work: losses every 5 × M
  EXPECT_DOUBLE_EQ(mtbf_between_losses(3, 0.2), 15);
  // 300 training hours with a failure every 3 h: 100 interruptions
  EXPECT_DOUBLE_EQ(expected_interruptions(300, 3), 100);
}

TEST(Formulas, MemoryStateAndActivations) {
  // mixed-precision Adam, 7e9 parameters: 7e9 × 16 = 1.12e11 bytes
  EXPECT_DOUBLE_EQ(state_bytes(7e9, 16), 1.12e11);
  Model m;
  m.params = 7e9;
  m.layers = 32;
  m.hidden = 4096;
  m.heads = 32;
  m.seq_len = 4096;
  MemorySettings mem;  // micro-batch 1, no tensor parallelism, flash attention
  // l·s·b·h·34 = 32 × 4096 × 1 × 4096 × 34 = 18,253,611,008
  EXPECT_DOUBLE_EQ(activation_bytes_per_chip(m, mem, false), 18253611008.0);
  // full recompute keeps 2·s·b·h per layer: 32 × 2 × 4096 × 4096 = 1,073,741,824
  EXPECT_DOUBLE_EQ(activation_bytes_per_chip(m, mem, true), 1073741824.0);
  // without flash attention: 34 + 5·a·s/h = 34 + 5 × 32 × 4096 / 4096 = 194 per element
  // 32 × 4096 × 4096 × 194 = 104,152,956,928
  mem.flash_attention = false;
  EXPECT_DOUBLE_EQ(activation_bytes_per_chip(m, mem, false), 104152956928.0);
  // tensor parallelism over 8 chips divides it: 13,019,119,616
  mem.tensor_parallel = 8;
  EXPECT_DOUBLE_EQ(activation_bytes_per_chip(m, mem, false), 13019119616.0);
}

TEST(Formulas, MinChipsForMemory) {
  // state 1.12e11, activations 1,073,741,824 per chip, usable 0.9 × 80e9 = 7.2e10:
  // 1.12e11 / (7.2e10 - 1.0737e9) = 1.579 -> 2 chips
  EXPECT_EQ(min_chips_for_memory(1.12e11, 1073741824.0, 7.2e10), 2);
  // activations larger than a chip: no cluster size helps
  EXPECT_EQ(min_chips_for_memory(1.12e11, 8e10, 7.2e10), 0);
}

TEST(Formulas, DaysDelayAndRePorting) {
  // 2 days' wait + 48 h of wall clock = 4 days; at $1,000 a day the delay costs $4,000
  EXPECT_DOUBLE_EQ(days_to_model(2, 48), 4);
  EXPECT_DOUBLE_EQ(delay_cost(1000, 4), 4000);
  // re-porting: 0.5 a year × half the effort × $80,000 one-time × 12 / 12 months = $20,000;
  // a quarter a year over 24 months with the full effort again: 0.25 × 1 × 40,000 × 2 = $20,000
  EXPECT_DOUBLE_EQ(re_porting_cost(0.5, 0.5, 80000, 12), 20000);
  EXPECT_DOUBLE_EQ(re_porting_cost(0.25, 1, 40000, 24), 20000);
}

TEST(Formulas, BudgetTokensAreWhatIsLeftOverThePricePerToken) {
  // ($1,000,000 − $200,000) / $1e-6 per token = 8e11 tokens
  EXPECT_DOUBLE_EQ(budget_tokens(1e6, 2e5, 1e-6), 8e11);
  // a budget that does not cover the fixed part buys nothing
  EXPECT_EQ(budget_tokens(1e5, 2e5, 1e-6), 0);
  EXPECT_EQ(budget_tokens(2e5, 2e5, 1e-6), 0);
}

TEST(Formulas, ComputeOptimalAllocationWithRoundConstants) {
  // α = β and A = B: G = (α·A / (β·B))^(1/(α+β)) = 1, so N_opt = D_opt = (C/6)^(1/2).
  // C = 6e20: N_opt = D_opt = 1e10
  EXPECT_NEAR(compute_optimal_params(100, 100, 0.5, 0.5, 6e20), 1e10, 1e-3);
  EXPECT_NEAR(compute_optimal_tokens(6e20, 1e10), 1e10, 1e-3);
  // A = 4B: G = 4^(1/1) = 4, so N_opt = 4e10 and D_opt = 6e20 / (6 × 4e10) = 2.5e9
  EXPECT_NEAR(compute_optimal_params(400, 100, 0.5, 0.5, 6e20), 4e10, 1e-2);
  // L = E + A/N^α + B/D^β = 1 + 100/1e5 + 100/1e5 = 1.002
  EXPECT_NEAR(scaling_law_loss(1, 100, 100, 0.5, 0.5, 1e10, 1e10), 1.002, 1e-14);
  EXPECT_DOUBLE_EQ(chinchilla_compute(1e10, 1e10), 6e20);
}

TEST(Formulas, ComputeOptimalAllocationForChinchillasCompute) {
  // Hoffmann et al. 2022 Approach 3 constants, C = 6 × 70e9 × 1.4e12 = 5.88e23 FLOPs:
  // G = (0.34 × 406.4 / (0.28 × 410.7))^(1/0.62) = 1.20157^1.61290 = 1.34471
  // N_opt = 1.34471 × (9.8e22)^(0.28/0.62) = 1.34471 × 10^(22.99123 × 0.451613) = 1.34471 × 2.41621e10 = 3.2491e10
  // D_opt = 5.88e23 / (6 × 3.2491e10) = 3.0162e12 (Approach 3 favours smaller models than Chinchilla's 70B)
  const double n = compute_optimal_params(406.4, 410.7, 0.34, 0.28, 5.88e23);
  EXPECT_NEAR(n, 3.2491e10, 0.0001e10);
  EXPECT_NEAR(compute_optimal_tokens(5.88e23, n), 3.0162e12, 0.0001e12);
}

}  // namespace
}  // namespace traincost
