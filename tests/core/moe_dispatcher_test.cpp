// The mixture-of-experts token dispatcher (issue 29): all-to-all (the default) or flex (DeepEP,
// HybridEP), as a scenario input and as a measurement's recipe states it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "test_support.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/base/format.hpp"
#include "traincost/engine/evaluate.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/evidence/calibration.hpp"
#include "traincost/io/scenario_json.hpp"
#include "traincost/model/formulas.hpp"
#include "traincost/model/performance.hpp"
#include "traincost/model/predict.hpp"
#include "traincost/output/explain.hpp"

namespace traincost {
namespace {

// A flex dispatch sends a token once to each remote domain holding any of its experts.
TEST(MoeDispatcher, FlexSendsATokenOncePerRemoteDomain) {
  // DeepSeek-V3 (256 experts, 8 a token) at EP32 over 8-GPU nodes: 4 domains of 64 experts. A
  // given other domain holds none of a token's 8 experts with probability
  //   C(192, 8) / C(256, 8) = (192·191·…·185) / (256·255·…·249) = 0.0964464,
  // so a token crosses the network to 3 × (1 − 0.0964464) = 2.71066 domains: 2.71066 / 8 =
  // 0.338833 of a dispatch's copies, where an all-to-all sends (32 − 8)/32 = 0.75 of them.
  EXPECT_NEAR(flex_network_share(256, 8, 32, 8), 0.338833, 1e-6);
  // Qwen3-235B (128 experts, 8 a token), same EP32: C(96, 8)/C(128, 8) = 0.0927473, share
  // 3 × (1 − 0.0927473) / 8 = 0.340220.
  EXPECT_NEAR(flex_network_share(128, 8, 32, 8), 0.340220, 1e-6);
  // One expert a token: the same as an all-to-all, (n − local)/n = 24/32.
  EXPECT_NEAR(flex_network_share(128, 1, 32, 8), 0.75, 1e-12);
  // Every expert in this chip's domain: nothing crosses the network.
  EXPECT_EQ(flex_network_share(128, 8, 8, 8), 0);
  EXPECT_EQ(flex_network_share(128, 8, 32, 72), 0);
  // The dispatch's time: max(scale-up part, network part) = max(7/32 × 1 MB / 360 GB/s,
  // 0.34 × 1 MB / 40 GB/s) = max(6.076 µs, 8.5 µs) = 8.5 µs.
  EXPECT_NEAR(flex_all_to_all_seconds(32, 8, 1e6, 0.34, 360e9, 40e9), 0.34 * 1e6 / 40e9, 1e-15);
  EXPECT_EQ(flex_all_to_all_seconds(1, 1, 1e6, 0, 360e9, 40e9), 0);
}

// The step-time model with flex: the network part of each dispatch shrinks to the remote-domain
// share, and the MoE memory-bound overhead to the calibration's flex share.
TEST(MoeDispatcher, FlexChargesTheRemoteDomainsAndTheFittedOverheadShare) {
  StepInputs in = test::qwen3_235b_step_inputs(16);
  in.calibration.flex_moe_share = 0.25;
  Layout l;
  l.tensor = 2, l.data = 16, l.expert = 32, l.micro_batch = 1, l.sequence_parallel = true;
  const StepTime a2a = step_time(in, l, 32);
  in.moe_dispatcher = MoeDispatcher::Flex;
  const StepTime flex = step_time(in, l, 32);
  ASSERT_TRUE(a2a.valid && flex.valid);
  EXPECT_EQ(a2a.detail.expert_dispatcher, MoeDispatcher::AllToAll);
  EXPECT_EQ(flex.detail.expert_dispatcher, MoeDispatcher::Flex);
  // One dispatch from one chip: 4,096 / 2 tokens × 8 copies × 4,096 wide × 2 bytes = 134.2 MB.
  const double bytes = 2048.0 * 8 * 4096 * 2;
  EXPECT_DOUBLE_EQ(flex.detail.expert_routed_bytes, bytes);
  // All-to-all: max(7/32 × b / 360 GB/s, 24/32 × b / 40 GB/s) = 24/32 × b / 40 GB/s.
  // Flex:       max(7/32 × b / 360 GB/s, 0.340220 × b / 40 GB/s) = 0.340220 × b / 40 GB/s.
  EXPECT_NEAR(a2a.detail.expert_all_to_all, 0.75 * bytes / 40e9, 1e-12);
  EXPECT_NEAR(flex.detail.expert_network_share, 0.340220, 1e-6);
  EXPECT_NEAR(flex.detail.expert_all_to_all, 0.340220 * bytes / 40e9, 1e-6 * bytes / 40e9);
  EXPECT_NEAR(flex.detail.expert_per_micro_batch, 96 * 4 * flex.detail.expert_all_to_all, 1e-12);
  // The memory-bound overhead: tokens × layers × β_moe × (4·k·h × (1 − 0.25)) × 2 / t / HBM =
  // 4,096 × 96 × 50 × 98,304 × 2 / 2 / 3.35e12 = 0.576936 s less a micro-batch (β_moe = β = 50:
  // the default calibration fits no MoE overhead bytes of its own); compute, tensor and optimizer
  // are the same, one micro-batch a step.
  const double less_overhead = 4096.0 * 96 * 50 * (4 * 8 * 4096 * 0.75) * 2 / 2 / 3.35e12;
  EXPECT_NEAR(less_overhead, 0.576936, 1e-6);
  EXPECT_EQ(flex.micro_batches, 1);
  EXPECT_DOUBLE_EQ(flex.breakdown.compute, a2a.breakdown.compute);
  const double less_traffic = a2a.detail.expert_per_micro_batch - flex.detail.expert_per_micro_batch;
  EXPECT_NEAR(a2a.breakdown.other - flex.breakdown.other, less_overhead + less_traffic, 1e-9);
  EXPECT_DOUBLE_EQ(flex.detail.expert_overhead_share, 0.25);
  EXPECT_DOUBLE_EQ(a2a.detail.expert_overhead_share, 1);
  // A dense model has no dispatcher: the field changes nothing.
  in.shape.experts = 0, in.shape.experts_per_token = 0, in.shape.active_params = in.shape.params;
  l.expert = 1;
  const StepTime dense_flex = step_time(in, l, 32);
  in.moe_dispatcher = MoeDispatcher::AllToAll;
  const StepTime dense = step_time(in, l, 32);
  EXPECT_DOUBLE_EQ(dense_flex.step_seconds, dense.step_seconds);
}

// The MoE overhead (4·k·h width units) is charged at its own fitted bytes, moe_overhead_bytes,
// and the layer's width (h + k·f) at memory_bound_bytes; with none fitted (0) the overhead takes
// memory_bound_bytes, as before the factor existed. A dense model never pays it.
TEST(MoeDispatcher, TheMoeOverheadIsChargedAtItsOwnFittedBytes) {
  StepInputs in = test::qwen3_235b_step_inputs(16);
  Layout l;
  l.tensor = 2, l.data = 16, l.expert = 32, l.micro_batch = 1, l.sequence_parallel = true;
  ASSERT_EQ(in.calibration.memory_bound_bytes, 50);
  ASSERT_EQ(in.calibration.moe_overhead_bytes, 0);
  EXPECT_EQ(in.calibration.moe_overhead(), 50);
  const StepTime shared = step_time(in, l, 32);
  in.calibration.moe_overhead_bytes = 80;
  const StepTime own = step_time(in, l, 32);
  ASSERT_TRUE(shared.valid && own.valid);
  EXPECT_EQ(own.micro_batches, 1);
  // A micro-batch's memory-bound work with β = 50 and β_moe = 80 (tokens 4,096, 96 layers, t = 2,
  // h = 4,096, k = 8, f = 1,536, HBM 3.35e12 B/s):
  //   tokens × layers × (β·(h + k·f) + β_moe·4·k·h) × 2 / t / HBM
  //   = 4,096 × 96 × (50 × 16,384 + 80 × 131,072) × 2 / 2 / 3.35e12 = 1.326953 s,
  // of which the overhead's 30 extra bytes are 4,096 × 96 × 30 × 131,072 / 3.35e12 = 0.461549 s.
  const double memory_bound = 4096.0 * 96 * (50 * 16384 + 80 * 131072) * 2 / 2 / 3.35e12;
  EXPECT_NEAR(memory_bound, 1.326953, 1e-6);
  const double extra = 4096.0 * 96 * 30 * 131072 * 2 / 2 / 3.35e12;
  EXPECT_NEAR(extra, 0.461549, 1e-6);
  // Nothing else moves (the all-to-alls are not overlapped here): the step grows by exactly that.
  EXPECT_DOUBLE_EQ(own.breakdown.compute, shared.breakdown.compute);
  EXPECT_NEAR(own.breakdown.other - shared.breakdown.other, extra, 1e-9);
  // A dense model: the factor changes nothing.
  in.shape.experts = 0, in.shape.experts_per_token = 0, in.shape.active_params = in.shape.params;
  l.expert = 1;
  const StepTime dense_own = step_time(in, l, 32);
  in.calibration.moe_overhead_bytes = 0;
  EXPECT_DOUBLE_EQ(step_time(in, l, 32).step_seconds, dense_own.step_seconds);
}

// The catalog: NVIDIA's MoE overhead bytes are fitted (it has MoE calibration rows); Trainium has
// none (no MoE training is published), so its overhead is charged at its memory-bound bytes.
TEST(MoeDispatcher, NvidiaFitsTheMoeOverheadBytesAndTrainiumBorrowsItsMemoryBoundBytes) {
  const Catalog& c = builtin_catalog();
  ASSERT_TRUE(c.performance.nvidia.moe_overhead_bytes.present());
  EXPECT_EQ(calibration_of(c, Family::Nvidia).moe_overhead(), c.performance.nvidia.moe_overhead_bytes.value);
  EXPECT_FALSE(c.performance.trainium.moe_overhead_bytes.present());
  for (const char* chip : {"trn1", "trn2"}) {
    const Calibration trn = calibration_of(c, Family::Trainium, chip);
    EXPECT_EQ(trn.moe_overhead(), trn.memory_bound_bytes) << chip;
  }
}

std::string mixtral(const std::string& workload_extra) {
  return R"({"version":1,"workloads":[{"name":"Mixtral","model":{"params":4.67e10,"active_params":1.29e10,
    "layers":32,"hidden":4096,"heads":32,"kv_heads":8,"ffn_hidden":14336,"experts":8,"experts_per_token":2,"seq_len":4096,
    "vocab":32000},"target":{"tokens":5e10})" +
         workload_extra + R"(,"overrides":[{"option":0,"parallelism":{"expert":8}}]}],
    "options":[{"instance":"p5en.48xlarge","instances":2},{"instance":"trn1.32xlarge","instances":4}]})";
}

// The scenario field: absent means all_to_all (what every link and file meant before it existed)
// and is not written back; "flex" round-trips; another word fails naming the field.
TEST(MoeDispatcher, TheScenarioFieldReadsWritesAndNamesItself) {
  const Scenario plain = test::scenario(mixtral(""));
  EXPECT_EQ(plain.workloads[0].moe_dispatcher, MoeDispatcher::AllToAll);
  EXPECT_FALSE(scenario_to_json(plain).at("workloads").at(0).contains("moe_dispatcher"));
  const Scenario flex = test::scenario(mixtral(R"(,"moe_dispatcher":"flex")"));
  EXPECT_EQ(flex.workloads[0].moe_dispatcher, MoeDispatcher::Flex);
  EXPECT_EQ(scenario_to_json(flex).at("workloads").at(0).at("moe_dispatcher"), "flex");
  EXPECT_EQ(scenario_to_json(flex, JsonForm::Minimal).at("workloads").at(0).at("moe_dispatcher"), "flex");
  const std::string problems = test::problems_of(mixtral(R"(,"moe_dispatcher":"deepep")"));
  EXPECT_NE(problems.find("workloads[0].moe_dispatcher"), std::string::npos) << problems;
}

// Flex on NVIDIA, an all-to-all on Trainium whatever the workload says (DeepEP and HybridEP are
// CUDA kernels); explain names the dispatcher.
TEST(MoeDispatcher, FlexReachesNvidiaOptionsAndExplain) {
  const Scenario s = test::scenario(mixtral(R"(,"moe_dispatcher":"flex")"));
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const PairInputs& gpu = r.workloads[0].options[0];
  const PairInputs& trn = r.workloads[0].options[1];
  ASSERT_TRUE(gpu.performance.layout_found);
  EXPECT_EQ(gpu.performance.layout.expert, 8);
  EXPECT_EQ(gpu.performance.time.detail.expert_dispatcher, MoeDispatcher::Flex);
  EXPECT_EQ(trn.performance.time.detail.expert_dispatcher, MoeDispatcher::AllToAll);
  // The flex option is faster than the same option with the default dispatcher (the catalog's
  // fitted share is below 1).
  ASSERT_LT(builtin_catalog().performance.nvidia.flex_moe_share.value, 1);
  const ResolvedScenario plain = resolve(test::scenario(mixtral("")), builtin_catalog());
  EXPECT_LT(gpu.performance.time.step_seconds, plain.workloads[0].options[0].performance.time.step_seconds);
  EXPECT_DOUBLE_EQ(trn.performance.time.step_seconds, plain.workloads[0].options[1].performance.time.step_seconds);
  const Results results = evaluate(r);
  const std::vector<ExplainStep> steps =
      explain_pair(r.workloads[0], gpu, results.workloads[0].options[0], results.workloads[0].target_tokens, builtin_catalog());
  const auto it = std::find_if(steps.begin(), steps.end(), [](const ExplainStep& st) { return st.quantity.rfind("Expert flex dispatch", 0) == 0; });
  ASSERT_NE(it, steps.end());
  EXPECT_NE(it->quantity.find("moe_dispatcher flex"), std::string::npos) << it->quantity;
}

// A measurement's layout.moe_dispatcher is read; another word is a problem naming it.
TEST(MoeDispatcher, AMeasurementStatesItsRecipesDispatcher) {
  const std::string row = R"({"sources":{"s":{"title":"t","url":"u","as_of":"2026-12-05"}},"measurements":[{"id":"x","source":"s",
    "set":"calibration","chip":"h100","chips":16,"model":{"params":3.05e10,"active_params":3.3e9,"layers":48,"hidden":2048,
    "experts":128,"experts_per_token":8},"seq_len":4096,"global_batch_sequences":512,"precision":"fp8",
    "layout":{"expert":16,"moe_dispatcher":"WORD"},"tokens_per_sec_per_chip":8960}]})";
  auto with = [&](const std::string& word) {
    std::string text = row;
    text.replace(text.find("WORD"), 4, word);
    return text;
  };
  Problems problems;
  const std::optional<MeasurementSet> flex = load_measurements(with("flex"), builtin_catalog(), problems);
  ASSERT_TRUE(flex) << problems.size();
  EXPECT_EQ(flex->rows[0].dispatcher, MoeDispatcher::Flex);
  Problems bad;
  EXPECT_FALSE(load_measurements(with("deepep"), builtin_catalog(), bad));
  ASSERT_FALSE(bad.empty());
  EXPECT_NE(bad[0].path.find("layout.moe_dispatcher"), std::string::npos) << bad[0].path;
}

}  // namespace
}  // namespace traincost
