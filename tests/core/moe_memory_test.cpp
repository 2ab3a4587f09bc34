// A mixture of experts' memory per chip from its true groups (issue 29): the routed experts'
// training state is sharded over the expert-data-parallel group (d × t / e ranks), not over all d
// data-parallel ranks. Each chosen layout for the Mixtral job is checked by hand here, and one
// 8-GPU node is refused with its reason.
#include <gtest/gtest.h>

#include <algorithm>

#include "test_support.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/engine/sweep.hpp"
#include "traincost/model/formulas.hpp"
#include "traincost/model/performance.hpp"
#include "traincost/output/explain.hpp"
#include "traincost/base/format.hpp"
#include "traincost/engine/evaluate.hpp"
#include "traincost/output/verdict.hpp"

namespace traincost {
namespace {

// The job of issue 29: a Mixtral-8x7B-class MoE (Jiang et al. 2024, arXiv 2401.04088: 46.7B
// parameters, 12.9B active, 8 experts, top-2, 32 layers, 4,096 wide, FFN 14,336, 8 KV heads,
// vocabulary 32,000) fine-tuned on 50B tokens at 4,096 within 14 days, full fine-tune.
std::string mixtral_job(const std::string& options) {
  return R"({"version":1,"workloads":[{"name":"Mixtral fine-tune","model":{"params":4.67e10,"active_params":1.29e10,
    "layers":32,"hidden":4096,"heads":32,"kv_heads":8,"ffn_hidden":14336,"experts":8,"experts_per_token":2,"seq_len":4096,
    "vocab":32000},"target":{"tokens":5e10},"deadline_days":14}],"options":[)" +
         options + "]}";
}

// Training state bytes per parameter under ZeRO stage z over n ranks, 16 bytes in all
// (2 weights + 2 gradients + 12 FP32 master, momentum, variance; Rajbhandari et al. 2019):
// stage 1 shards the 12, stage 3 all 16. The layout search tries stages 1 and 3.
double sigma(int z, double n) { return z == 3 ? 16 / n : 2 + 2 + 12 / n; }

// The state per chip of a layout, by hand. Mixtral's routed experts hold
//   N_experts = (N − N_active) / (1 − k/E) = (46.7e9 − 12.9e9) / (1 − 2/8) = 33.8e9 / 0.75 = 45.0667e9
// (the architecture gives 32 layers × 8 experts × 3 × 4,096 × 14,336 = 45.10e9), the dense rest
//   N_dense = 46.7e9 − 45.0667e9 = 1.6333e9.
// Dense weights are split over t × p and replicated over d; each expert sits whole on one of e
// expert-parallel ranks per stage, replicated over the expert-data-parallel group d × t / e
// (Megatron-Core, expert tensor parallelism 1):
//   state = N_dense / (t p) × σ(z, d) + N_experts / (e p) × σ(z, d t / e)
double mixtral_state_by_hand(const Layout& l) {
  const double experts = (4.67e10 - 1.29e10) / 0.75, dense = 4.67e10 - experts;
  const double t = l.tensor, p = l.pipeline, d = l.data, e = l.expert;
  return dense / (t * p) * sigma(l.zero, d) + experts / (e * p) * sigma(l.zero, d * t / e);
}

TEST(MoeMemory, ExpertStateIsShardedOverTheExpertDataParallelGroupOnly) {
  // 16 H100 as d = 16, t = 1, e = 8, ZeRO-1: the expert-data-parallel group is 16 × 1 / 8 = 2.
  StepInputs in = test::mixtral_step_inputs(1024);
  Layout l;
  l.data = 16, l.expert = 8, l.zero = 1;
  const StepTime st = step_time(in, l, 16);
  ASSERT_TRUE(st.valid);
  EXPECT_DOUBLE_EQ(expert_data_parallel(16, 1, 8), 2);
  EXPECT_DOUBLE_EQ(st.detail.expert_data_parallel, 2);
  // Experts: 45.0667e9 / 8 = 5.6333e9 a chip at 2 + 2 + 12/2 = 10 bytes = 56.33 GB;
  // dense: 1.6333e9 at 2 + 2 + 12/16 = 4.75 bytes = 7.76 GB; 64.09 GB in all. Sharding the experts'
  // state over all 16 ranks (the old model) would have given 5.6333e9 × 4.75 = 26.8 GB.
  const double experts = (4.67e10 - 1.29e10) / 0.75;
  EXPECT_NEAR(st.detail.expert_params_per_chip, experts / 8, 1);
  EXPECT_NEAR(st.detail.dense_params_per_chip, 4.67e10 - experts, 1);
  EXPECT_DOUBLE_EQ(st.detail.expert_state_bytes_per_param, 10);
  EXPECT_DOUBLE_EQ(st.detail.state_bytes_per_param, 4.75);
  EXPECT_NEAR(st.state_bytes, experts / 8 * 10 + (4.67e10 - experts) * 4.75, 1e3);
  EXPECT_NEAR(st.state_bytes, mixtral_state_by_hand(l), 1e3);
  EXPECT_NEAR(st.state_bytes / 1e9, 64.09, 0.01);
  // A dense model's state is unchanged: every weight over d.
  in.shape.experts = in.shape.experts_per_token = 0;
  in.shape.active_params = in.shape.params;
  l.expert = 1;
  const StepTime dense = step_time(in, l, 16);
  EXPECT_NEAR(dense.state_bytes, 4.67e10 * 4.75, 1e3);
}

// The routed experts' gradients are reduced over their expert-data-parallel group, e ranks apart,
// not over all d data-parallel ranks (Megatron-Core reduces the dense and the expert gradients
// each over its own group). Mixtral on 16 H100-class chips (8 per NVLink domain at 450 GB/s, 50 GB/s
// of network a chip, ring efficiency ρ = 0.8), d = 16, t = 1, e = 8, ZeRO-1: each group
// reduce-scatters its gradients in FP32 (4 bytes) and all-gathers its weights in 16 bits (2 bytes),
// one pass each. By hand:
//   dense params per chip 1.6333e9 over d = 16 ranks 1 apart; 16 span two domains, so the 8 of
//   the group in a domain drive 8 network links: min(450e9, 8 × 50e9) × 0.8 = 320e9 B/s;
//   15/16 × (4 + 2) × 1.6333e9 / 320e9 = 28.71 ms.
//   expert params per chip 45.0667e9 / 8 = 5.6333e9 over d t / e = 2 ranks 8 apart, one per
//   domain, each on its own network link: 50e9 × 0.8 = 40e9 B/s; 1/2 × 6 × 5.6333e9 / 40e9 =
//   422.5 ms. (Over all 16 ranks, as the model charged before, 15/16 × 6 × 5.6333e9 / 40e9 = 792 ms.)
// With e = 16 each expert has a single replica (d t / e = 1): its gradients are reduced nowhere.
TEST(MoeMemory, ExpertGradientsAreReducedOverTheExpertDataParallelGroupOnly) {
  StepInputs in = test::mixtral_step_inputs(16);
  in.hardware.scale_up_chips = 8;
  in.hardware.reduced_gradient_bytes = 4;  // NVIDIA's frameworks reduce in FP32 (kReducedGradientBytes)
  Layout l;
  l.data = 16, l.expert = 8, l.micro_batch = 1, l.zero = 1;
  const StepTime st = step_time(in, l, 16);
  ASSERT_TRUE(st.valid);
  const double experts = (4.67e10 - 1.29e10) / 0.75, dense = 4.67e10 - experts;
  const double shared_collective = 15.0 / 16 * (4 + 2) * dense / 320e9;
  const double expert_collective = 1.0 / 2 * (4 + 2) * (experts / 8) / 40e9;
  EXPECT_NEAR(shared_collective, 0.028711, 1e-6);
  EXPECT_NEAR(expert_collective, 0.4225, 1e-6);
  const StepDetail& x = st.detail;
  EXPECT_EQ(x.expert_data_parallel, 2);
  EXPECT_NEAR(x.gradient_bytes, dense * 4, dense * 1e-12);
  EXPECT_NEAR(x.gathered_weight_bytes, dense * 2, dense * 1e-12);
  EXPECT_NEAR(x.expert_gradient_bytes, experts / 8 * 4, experts * 1e-12);
  EXPECT_NEAR(x.expert_gathered_weight_bytes, experts / 8 * 2, experts * 1e-12);
  EXPECT_DOUBLE_EQ(x.data_bandwidth, 320e9);
  EXPECT_DOUBLE_EQ(x.expert_data_bandwidth, 40e9);
  EXPECT_NEAR(x.data_shared_collective, shared_collective, 1e-12);
  EXPECT_NEAR(x.data_expert_collective, expert_collective, 1e-12);
  EXPECT_NEAR(x.data_collective, shared_collective + expert_collective, 1e-12);
  // ZeRO-1's collectives overlap the last micro-batch's backward (two thirds of its compute).
  EXPECT_NEAR(st.breakdown.data, std::max(0.0, shared_collective + expert_collective - x.compute_per_micro_batch * 2 / 3), 1e-12);

  Layout one_replica = l;
  one_replica.expert = 16;
  in.shape.experts = 16;  // 16 experts, one a chip, top-2: same total and active counts
  const StepTime single = step_time(in, one_replica, 16);
  ASSERT_TRUE(single.valid);
  EXPECT_EQ(single.detail.expert_data_parallel, 1);
  EXPECT_EQ(single.detail.data_expert_collective, 0);
  const double dense16 = 4.67e10 - (4.67e10 - 1.29e10) / (1 - 2.0 / 16);
  EXPECT_NEAR(single.detail.data_collective, 15.0 / 16 * 6 * dense16 / 320e9, 1e-12);
}

TEST(MoeMemory, EveryLayoutChosenForTheMixtralJobFitsByHand) {
  // H100 on Lambda, H200 (p5en) on spot, Trn1: each sized by the 14-day deadline.
  const Scenario s = test::scenario(mixtral_job(R"({"instance":"lambda-8x-h100-sxm","instances":1},
    {"instance":"p5en.48xlarge","instances":1,"pricing":"spot"},{"instance":"trn1.32xlarge","instances":1})"));
  const ResolvedScenario r = resolve(s, builtin_catalog());
  for (size_t i = 0; i < r.workloads[0].options.size(); ++i) {
    const PairInputs& pair = r.workloads[0].options[i];
    const PairPerformance& perf = pair.performance;
    SCOPED_TRACE(r.options[i].label + " × " + std::to_string(pair.instances));
    ASSERT_TRUE(perf.layout_found);
    ASSERT_TRUE(pair.deadline.applied);
    const Layout& l = perf.layout;
    const double chips = pair.instances * pair.chips_per_instance;
    EXPECT_EQ(l.tensor * l.pipeline * l.data * l.context, chips);
    EXPECT_NEAR(perf.time.state_bytes, mixtral_state_by_hand(l), 1e3);
    EXPECT_LE(mixtral_state_by_hand(l) + perf.time.activation_bytes, perf.usable_bytes_per_chip);
    // 747 GB of state (46.7e9 × 16) can never be spread thinner than over every chip.
    EXPECT_GE(perf.time.state_bytes * chips, 4.67e10 * 16 * (1 - 1e-12));
  }
  // Trainium1's 32 GiB a chip (28.8 usable) hold 747 GB only beyond 26 chips: at least 2 instances
  // of 16 before activations.
  EXPECT_GE(r.workloads[0].options[2].instances, 2);
}

TEST(MoeMemory, OneEightGpuNodeIsRefusedWithTheReason) {
  // 46.7e9 × 16 bytes = 747.2 GB of state over 8 H100: at least 93.4 GB a chip with everything
  // sharded over all 8, above the 85.5 GB × 0.9 = 77.0 GB usable of an H100 (81,559 MiB).
  const Scenario s = test::scenario(mixtral_job(R"({"instance":"lambda-8x-h100-sxm","instances":1,"max_instances":1})"));
  const Results res = test::run(s);
  const OptionResult& o = res.workloads[0].options[0];
  EXPECT_EQ(o.infeasible, Infeasible::Memory);
  EXPECT_GE(o.memory.bytes_per_chip, 4.67e10 * 16 / 8);
  const std::string why = infeasibility_reason(o);
  EXPECT_NE(why.find("no layout fits in memory"), std::string::npos) << why;
}

TEST(MoeMemory, DeadlineSizingAndTheSweepUseTheTrueGroups) {
  // The cluster-size sweep and the deadline use the same layout search: at every size where the
  // job is priced, the state is at least 747 GB over the chips.
  const Scenario s = test::scenario(mixtral_job(R"({"instance":"p5en.48xlarge","instances":1,"max_instances":8})"));
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const PairInputs& pair = r.workloads[0].options[0];
  ASSERT_TRUE(pair.performance.layout_found);
  // One H200 node: 141 GB × 0.9 = 127 GB usable a chip against 93.4 GB of state at best; a layout
  // that fits must shard the experts over ZeRO-3 or over at least 2 ranks of their group.
  EXPECT_LE(pair.performance.time.memory_per_chip_bytes, pair.performance.usable_bytes_per_chip);
  EXPECT_NEAR(pair.performance.time.state_bytes, mixtral_state_by_hand(pair.performance.layout), 1e3);
  const Sweep sw = sweep(s, r, builtin_catalog(), 0);
  ASSERT_EQ(sw.options.size(), 1u);
  for (const SweepPoint& point : sw.options[0].points) {
    SCOPED_TRACE(point.instances);
    if (!point.memory.fits) continue;
    EXPECT_LE(point.memory.bytes_per_chip, point.memory.usable_bytes_per_chip);
    EXPECT_GE(point.memory.state_bytes * point.chips, 4.67e10 * 16 * (1 - 1e-12));
  }
}

// The expert all-to-all (issue 29): an expert-parallel group's ranks are neighbours, so
// min(e, scale-up chips) of them share a scale-up domain; a chip's tokens bound for those cross
// NVLink, the rest its own network link, at once.
TEST(MoeAllToAll, SplitsTheTrafficBetweenTheScaleUpLinksAndTheNetwork) {
  // 1 GB sent by each of 32 ranks, 8 per domain, 360 GB/s NVLink and 40 GB/s network:
  //   within = 7/32 × 1e9 / 3.6e11 = 0.6076 ms; across = 24/32 × 1e9 / 4e10 = 18.75 ms; the time
  //   is the slower, 18.75 ms (the old ring charge over the network alone, 31/32 × 1e9 / 4e10,
  //   was 24.2 ms).
  EXPECT_DOUBLE_EQ(all_to_all_seconds(32, 8, 1e9, 3.6e11, 4e10), 0.01875);
  // All 32 in one domain (an NVL72 rack): 31/32 × 1e9 / 3.6e11 = 2.691 ms, no network.
  EXPECT_NEAR(all_to_all_seconds(32, 32, 1e9, 3.6e11, 4e10), 31.0 / 32 / 360, 1e-15);
  EXPECT_EQ(all_to_all_seconds(1, 8, 1e9, 3.6e11, 4e10), 0);
  // Qwen3-235B-A22B on 256 H100 (TP2 EP32, micro-batch 1 × 4,096): one dispatch sends each
  // chip's 4,096 / 2 tokens to k = 8 experts, 4,096 wide in BF16: 2,048 × 8 × 4,096 × 2 = 134.2 MB.
  // Each expert multiplies 2,048 × 8 × 32 / 128 = 4,096 tokens.
  EXPECT_DOUBLE_EQ(expert_tokens(2048, 8, 32, 128), 4096);
  // Permutation: dispatch and combine, forward and backward, each (1 + k) × h 16-bit values:
  // 2 × 2 × 9 × 4,096 × 2 = 294,912 bytes per token and layer.
  EXPECT_DOUBLE_EQ(moe_permutation_bytes_per_token(4096, 8), 294912);
}

// The step's expert traffic is four all-to-alls per MoE layer with those figures: on H100
// (NVLink 450 GB/s, EFA 400 Gb/s per GPU, ring efficiency ρ), TP2 EP32 spans 4 nodes.
TEST(MoeAllToAll, StepChargesFourAllToAllsPerLayerOverTheRightLinks) {
  StepInputs in = test::qwen3_235b_step_inputs(16);
  Layout l;
  l.tensor = 2;
  l.pipeline = 1;
  l.data = 16;
  l.expert = 32;
  l.micro_batch = 1;
  l.sequence_parallel = true;
  const StepTime with_experts = step_time(in, l, 32);
  ASSERT_TRUE(with_experts.valid);
  // One micro-batch per rank (16 sequences over 16 data-parallel ranks). By hand, per layer:
  //   4 × max(7/32 × 134,217,728 / (450e9 ρ), 24/32 × 134,217,728 / (50e9 ρ)), ρ = 0.8
  //   = 4 × 100,663,296 / 4e10 = 10.066 ms; 96 layers: 0.96637 s.
  const double by_hand = 96 * 4 * (24.0 / 32) * (2048.0 * 8 * 4096 * 2) / (50e9 * 0.8);
  Layout no_ep = l;
  no_ep.expert = 1;
  const StepTime without = step_time(in, no_ep, 32);
  ASSERT_TRUE(without.valid);
  // "Other" is memory-bound work (the same for both: it does not depend on e), the optimizer step
  // (ZeRO-1: the dense params per chip × 16 bytes / d and the expert params per chip × 16 bytes
  // over their expert-data-parallel group, d t / e = 16 × 2 / 32 = 1 with e = 32 and 16 without,
  // read and written at HBM speed) and the expert traffic.
  const auto optimizer = [](const StepDetail& x) {
    return (x.dense_params_per_chip / 16 + x.expert_params_per_chip / x.expert_data_parallel) * 16 * 2 / 3.35e12;
  };
  EXPECT_EQ(with_experts.detail.expert_data_parallel, 1);
  EXPECT_EQ(without.detail.expert_data_parallel, 32);
  const double optimizer_with = optimizer(with_experts.detail);
  const double optimizer_without = optimizer(without.detail);
  EXPECT_NEAR(with_experts.breakdown.other - without.breakdown.other - (optimizer_with - optimizer_without), by_hand,
              by_hand * 1e-9);
}


// Megatron-Core's expert-parallel overlap (moe_a2a_overlap): one micro-batch's all-to-alls run
// under another's compute; only what outlasts a micro-batch's compute and memory-bound work is
// charged. The same Qwen3-235B layer stack as above.
TEST(MoeAllToAll, OverlapChargesOnlyWhatOutlastsTheComputeOfAMicroBatch) {
  StepInputs in = test::qwen3_235b_step_inputs(16);
  Layout l;
  l.tensor = 2, l.data = 16, l.expert = 32, l.micro_batch = 1, l.sequence_parallel = true;
  const StepTime serial = step_time(in, l, 32);
  in.expert_overlap = true;
  const StepTime overlapped = step_time(in, l, 32);
  ASSERT_TRUE(serial.valid && overlapped.valid);
  const StepDetail& x = overlapped.detail;
  // The all-to-all itself does not change: 96 × 4 × 10.066 ms = 0.96637 s a micro-batch (above).
  const double all = 96 * 4 * (24.0 / 32) * (2048.0 * 8 * 4096 * 2) / (50e9 * 0.8);
  EXPECT_NEAR(x.expert_per_micro_batch, all, all * 1e-12);
  EXPECT_DOUBLE_EQ(x.expert_routed_bytes, 2048.0 * 8 * 4096 * 2);
  EXPECT_EQ(x.expert_local_ranks, 8);
  EXPECT_TRUE(x.expert_overlap);
  // Exposed: max(0, all − (compute + memory-bound)); one micro-batch a step, so "other" differs
  // by exactly what the overlap hides, min(all, compute + memory-bound).
  const double optimizer = (serial.detail.dense_params_per_chip / 16 + serial.detail.expert_params_per_chip / 1) * 16 * 2 / 3.35e12;
  const double memory_bound = serial.breakdown.other - serial.detail.expert_per_micro_batch - optimizer;  // less the optimizer (as above)
  const double hidden = std::min(all, x.compute_per_micro_batch + memory_bound);
  EXPECT_GT(hidden, 0);
  EXPECT_NEAR(x.expert_exposed, all - hidden, all * 1e-9);
  EXPECT_NEAR(serial.breakdown.other - overlapped.breakdown.other, hidden, all * 1e-9);
  EXPECT_EQ(serial.detail.expert_exposed, serial.detail.expert_per_micro_batch);  // no overlap: all of it
}

// `explain` shows a MoE option's all-to-all: its bytes, its links, its seconds, the exposed part.
TEST(MoeAllToAll, ExplainShowsTheAllToAll) {
  // Expert parallelism pinned: the search alone may keep the experts unsplit (e = 1) on 16 GPUs,
  // and then there is no all-to-all to show.
  std::string job = mixtral_job(R"({"instance":"p5en.48xlarge","instances":2})");
  job.replace(job.find(R"("deadline_days":14)"), 18, R"("deadline_days":14,"overrides":[{"option":0,"parallelism":{"expert":8}}])");
  const Scenario s = test::scenario(job);
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results results = evaluate(r);
  const PairInputs& pair = r.workloads[0].options[0];
  ASSERT_TRUE(pair.performance.layout_found);
  const std::vector<ExplainStep> steps =
      explain_pair(r.workloads[0], pair, results.workloads[0].options[0], results.workloads[0].target_tokens, builtin_catalog());
  const auto it = std::find_if(steps.begin(), steps.end(), [](const ExplainStep& st) { return st.quantity.rfind("Expert all-to-all", 0) == 0; });
  ASSERT_EQ(pair.performance.layout.expert, 8);
  ASSERT_NE(it, steps.end());
  const StepDetail& x = pair.performance.time.detail;
  // Mixtral: tokens / t × k × h × 2 bytes = 4,096 b / t × 2 × 4,096 × 2.
  EXPECT_DOUBLE_EQ(x.expert_routed_bytes, pair.performance.layout.micro_batch * 4096.0 / pair.performance.layout.tensor * 2 * 4096 * 2);
  EXPECT_NE(it->quantity.find(fmt::bytes(x.expert_routed_bytes)), std::string::npos) << it->quantity;
  EXPECT_NE(it->result.find("all of it exposed"), std::string::npos) << it->result;
  EXPECT_NE(it->result.find(" s a micro-batch"), std::string::npos) << it->result;
}

}  // namespace
}  // namespace traincost
