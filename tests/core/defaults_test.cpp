// Defaults that follow practice (issue 28 item 2): the global batch that grows with the cluster up
// to the compute-optimal batch, the micro-batches the layout search may add rather than leave a
// pipeline idle, the size of an option without `instances`, and the warnings for an idle cluster
// and for parameters that disagree with the architecture.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "test_support.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/io/link.hpp"
#include "traincost/model/formulas.hpp"
#include "traincost/model/performance.hpp"
#include "traincost/output/report.hpp"
#include "traincost/output/verdict.hpp"

namespace traincost {
namespace {

// Llama 3.1 405B (Llama Team 2024, arXiv 2407.21783, Table 3): 126 layers, 16,384 wide, 128 heads,
// 8 KV heads, FFN 53,248, vocabulary 128,256, sequences of 8,192, 15.6T tokens; no batch given.
std::string llama405(const std::string& option, const std::string& workload_extra = "") {
  return R"({"version":1,"workloads":[{"model":{"params":4.05e11,"layers":126,"hidden":16384,"heads":128,"kv_heads":8,
    "ffn_hidden":53248,"vocab":128256,"seq_len":8192},"target":{"tokens":1.56e13})" +
         workload_extra + R"(}],"options":[)" + option + "]}";
}

std::string problems_text(const Scenario& s) {
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  std::string text;
  for (const Problem& p : constraint_problems(r, res, 0)) text += to_string(p) + "\n";
  return text;
}

TEST(DefaultBatch, FormulasByHand) {
  // DeepSeek LLM's law, B = 0.292 × C^0.3271: C = 1e21 gives 0.292 × 10^(21 × 0.3271) = 0.292 × 10^6.8691
  // = 0.292 × 7,397,000 ≈ 2.160e6 tokens.
  EXPECT_NEAR(optimal_batch_tokens(1e21), 2.160e6, 0.002e6);
  // Llama 3 405B: C = 6 × 4.05e11 × 1.56e13 = 3.79e25 → 0.292 × 10^(25.579 × 0.3271 = 8.367) ≈ 6.8e7 tokens.
  EXPECT_NEAR(optimal_batch_tokens(3.79e25) / 1e6, 68.0, 1.0);
  // Below 4,096 chips the 4M floor holds; at 16,384 chips 1,024 a chip = 16,777,216, Meta's 16M;
  // a cap below either wins.
  EXPECT_EQ(default_batch_tokens(256, 6.8e7), 4194304);
  EXPECT_EQ(default_batch_tokens(16384, 6.8e7), 16777216);
  EXPECT_EQ(default_batch_tokens(16384, 2e6), 2e6);
}

TEST(DefaultBatch, Llama405BOn2048P5IsWithinAFifthOfThePublishedChipHours) {
  // Meta reports 30.84M H100-hours for Llama 3.1 405B's pretraining (Llama Team 2024, Table 1 of the
  // model card; 39.3M for the whole 3.1 family's 405B). With no batch given the old default (4M on any
  // cluster) left TP8 PP4 DP512 with one micro-batch a pipeline: 114M chip-hours. The default is now
  // 1,024 × 16,384 = 16,777,216 tokens, Meta's batch. The search does not find Meta's layout (TP8
  // PP16 DP128, Table 4) but one it predicts as fast on this cluster (`traincost explain`: TP2 PP4
  // ×8 interleaved, DP2048, ZeRO-3, full recomputation, the pipeline kept busy by gradient
  // accumulation), so only the chip-hours are asserted.
  const Scenario s = test::scenario(llama405(R"({"instance":"p5.48xlarge","instances":2048})"));
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const PairPerformance& p = r.workloads[0].options[0].performance;
  EXPECT_TRUE(p.batch_default);
  EXPECT_EQ(p.batch_tokens, 16777216);
  EXPECT_EQ(p.global_batch_sequences, 2048);  // 16,777,216 / 8,192
  const Results res = evaluate(r);
  const double chip_hours = res.workloads[0].options[0].chip_hours;
  EXPECT_NEAR(chip_hours / 30.84e6, 1.0, 0.20) << chip_hours;
  EXPECT_EQ(problems_text(s), "");  // a busy cluster, a consistent model: nothing to warn about
}

TEST(DefaultBatch, SmallClusterKeepsMfuNearItsBest) {
  // The same job on 16 × p5 (128 H100): the default is the 4M floor. Against the best MFU over
  // batches of 1M to 64M tokens it must stay within 3%.
  const Scenario s = test::scenario(llama405(R"({"instance":"p5.48xlarge","instances":16})"));
  const double chosen = resolve(s, builtin_catalog()).workloads[0].options[0].performance.mfu;
  double best = 0;
  for (const double batch : {1048576.0, 2097152.0, 4194304.0, 8388608.0, 16777216.0, 67108864.0}) {
    Scenario t = s;
    t.workloads[0].global_batch_tokens = batch;
    best = std::max(best, resolve(t, builtin_catalog()).workloads[0].options[0].performance.mfu);
  }
  EXPECT_GT(chosen, 0.3);
  EXPECT_GE(chosen, 0.97 * best) << chosen << " against " << best;
}

TEST(DefaultBatch, GivenBatchIsKeptAndAStepsTargetsBatchToo) {
  const Scenario s = test::scenario(llama405(R"({"instance":"p5.48xlarge","instances":2048})", R"(,"global_batch_tokens":4194304)"));
  const ResolvedScenario r = resolve(s, builtin_catalog());  // kept: `p` refers into it
  const PairPerformance& p = r.workloads[0].options[0].performance;
  EXPECT_FALSE(p.batch_default);
  EXPECT_EQ(p.batch_tokens, 4194304);
  EXPECT_LE(p.time.batch_sequences, 512);  // never raised above what was given
}

TEST(DefaultBatch, SearchRaisesMicroBatchesRatherThanIdleAPipeline) {
  // A default batch of 4M (512 sequences) on a layout with 16 stages and 64 replicas has 8
  // micro-batches a pipeline; with the cap far above, accumulation raises them to 4 × 16 / 1 = 64
  // (no interleaving), the bubble to 15 / 64.
  StepInputs in;
  in.shape.params = in.shape.active_params = 4.05e11;
  in.shape.layers = 126, in.shape.hidden = 16384, in.shape.heads = 128, in.shape.kv_heads = 8;
  in.shape.ffn = 53248, in.shape.vocab = 128256, in.shape.seq_len = 8192;
  in.hardware.peak_flops = in.hardware.peak_bf16_flops = 989e12;
  in.hardware.hbm_bytes = 80e9, in.hardware.hbm_bytes_per_sec = 3.35e12;
  in.hardware.scale_up_bytes_per_sec = 450e9, in.hardware.network_bytes_per_sec = 50e9;
  in.global_batch_sequences = 512;
  Layout l;
  l.tensor = 8, l.pipeline = 16, l.data = 64, l.micro_batch = 1;
  const StepTime fixed = step_time(in, l, 8192);
  EXPECT_EQ(fixed.micro_batches, 8);  // 512 / 64
  in.max_batch_sequences = 8192;
  const StepTime raised = step_time(in, l, 8192);
  EXPECT_EQ(raised.micro_batches, 64);
  EXPECT_EQ(raised.batch_sequences, 4096);  // 64 × 64
  EXPECT_DOUBLE_EQ(raised.detail.bubble_fraction, 15.0 / 64);
  // Interleaved 8 ways, 4 × 16 / 8 = 8 would do, but the schedule takes micro-batches in multiples
  // of p: 16 (without the raise, ⌊8 / 16⌋ × 16 = 0 and the layout could not run).
  l.interleave = 8;
  EXPECT_EQ(step_time(in, l, 8192).micro_batches, 16);
  in.max_batch_sequences = 0;
  EXPECT_FALSE(step_time(in, l, 8192).valid);
}

TEST(DefaultInstances, AnOptionWithoutInstancesIsSizedAndTheReportSaysSo) {
  // Llama 3 8B on 2T tokens: 6 × 8.03e9 × 2e12 = 9.6e22 FLOPs; at MFU ~0.4 on 989 TFLOP/s an H100
  // does 4e14 FLOP/s, 2.4e8 chip-seconds = 67k chip-hours, 2,780 chip-days: about 93 chips (12
  // instances) for 30 days, a little more with goodput. The old reading (one instance) took 8 months.
  const Scenario s = test::scenario(R"({"version":1,"workloads":[{"model":{"params":8.03e9,"layers":32,"hidden":4096,
    "heads":32,"kv_heads":8,"ffn_hidden":14336,"seq_len":8192,"vocab":128256},"target":{"tokens":2e12}}],
    "options":[{"instance":"p5.48xlarge"}]})");
  EXPECT_TRUE(s.options[0].sized_by_default());
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const PairInputs& p = r.workloads[0].options[0];
  ASSERT_TRUE(p.default_size.applied);
  EXPECT_TRUE(p.default_size.met);
  EXPECT_GE(p.instances, 10);
  EXPECT_LE(p.instances, 16);
  const Results res = evaluate(r);
  EXPECT_LE(res.workloads[0].options[0].days_to_model, kDefaultRunDays);
  const std::string text = problems_text(s);
  EXPECT_NE(text.find("options[0].instances: not given"), std::string::npos) << text;
  EXPECT_NE(text.find("within 30 days"), std::string::npos) << text;
  // The line reaches the text report and the JSON's problems.
  const std::string json = results_to_json(s, r, res).dump();
  EXPECT_NE(json.find("options[0].instances"), std::string::npos);
}

TEST(DefaultInstances, AGivenSizeOfOneIsKeptAndWrittenBack) {
  const Scenario s = test::scenario(test::simple_scenario(R"("model":{"params":1e9},"target":{"tokens":1e10})",
                                                          R"("instance":"p5.48xlarge","instances":1)", R"("instance":"p5.48xlarge")"));
  EXPECT_FALSE(s.options[0].sized_by_default());
  EXPECT_TRUE(s.options[1].sized_by_default());
  const std::string text = scenario_to_json(s, JsonForm::Minimal).dump();
  const Scenario back = test::scenario(text);
  EXPECT_FALSE(back.options[0].sized_by_default());
  EXPECT_EQ(back.options[0].instances, 1);
  EXPECT_TRUE(back.options[1].sized_by_default());
  EXPECT_EQ(resolve(back, builtin_catalog()).workloads[0].options[0].instances, 1);
}

TEST(DefaultInstances, LinksKeepBothAGivenOneAndADefaultSize) {
  // Links always left out a size of 1; they still open on one instance. A default size travels
  // as "instances":null.
  const Scenario s = test::scenario(test::simple_scenario(R"("model":{"params":1e9},"target":{"tokens":1e10})",
                                                          R"("instance":"p5.48xlarge","instances":1)", R"("instance":"p5.48xlarge")"));
  Problems problems;
  const auto back = decode_link(encode_link(s), builtin_catalog(), problems);
  ASSERT_TRUE(back) << to_string(problems);
  EXPECT_FALSE(back->options[0].sized_by_default());
  EXPECT_TRUE(back->options[1].sized_by_default());
  // A link without the key (as every link made before this change): one instance.
  Scenario old = s;
  old.options[1].instances_default = false;
  const auto legacy = decode_link(encode_link(old), builtin_catalog(), problems);
  ASSERT_TRUE(legacy);
  EXPECT_FALSE(legacy->options[1].sized_by_default());
  EXPECT_EQ(legacy->options[1].instances, 1);
}

TEST(Warnings, IdleClusterNamesTheBatchAndTheInstances) {
  // The old default, 4M tokens (512 sequences), given on 2,048 × p5: the best layout leaves most of
  // each step in the pipeline bubble.
  const Scenario s = test::scenario(llama405(R"({"instance":"p5.48xlarge","instances":2048})", R"(,"global_batch_tokens":4194304)"));
  const std::string text = problems_text(s);
  EXPECT_NE(text.find("workloads[0].global_batch_tokens: "), std::string::npos) << text;
  EXPECT_NE(text.find("is idle"), std::string::npos) << text;
  EXPECT_NE(text.find("options[0].instances"), std::string::npos) << text;
}

// The consistency pass after issue 33: a given MFU hid the warning, though the batch idles the
// cluster whatever the throughput's source; the warning then says the figure used is unlikely.
TEST(Warnings, IdleClusterIsToldWhenTheMfuIsGivenToo) {
  const Scenario s = test::scenario(llama405(R"({"instance":"p5.48xlarge","instances":2048,"mfu":0.4})", R"(,"global_batch_tokens":4194304)"));
  const std::string text = problems_text(s);
  EXPECT_NE(text.find("workloads[0].global_batch_tokens: "), std::string::npos) << text;
  EXPECT_NE(text.find("is idle"), std::string::npos) << text;
  EXPECT_NE(text.find("the costs use your MFU, which such a step is unlikely to reach"), std::string::npos) << text;
  // A batch that fills the cluster: no warning, whatever the source.
  const Scenario fills = test::scenario(llama405(R"({"instance":"p5.48xlarge","instances":2048,"mfu":0.4})", R"(,"global_batch_tokens":67108864)"));
  EXPECT_EQ(problems_text(fills).find("is idle"), std::string::npos) << problems_text(fills);
}

TEST(Warnings, MoeActiveParamsThatDisagreeWithTheArchitectureNameBoth) {
  // Mixtral 8x7B: 32 × (2 × 4096² + 2 × 4096 × 1024 + k × 3 × 4096 × 14336) + 2 × 32,000 × 4096, with
  // k = 2 of the 8 experts: 32 × (33,554,432 + 8,388,608 + 352,321,536) + 262,144,000 = 12,878,610,432
  // (Mistral's 12.9B active); with all 8: 32 × 1,451,229,184 + 262,144,000 = 46,701,477,888 (46.7B).
  Model m;
  m.layers = 32, m.hidden = 4096, m.heads = 32, m.kv_heads = 8, m.ffn_hidden = 14336, m.vocab = 32000, m.seq_len = 4096;
  m.experts = 8, m.experts_per_token = 2;
  EXPECT_DOUBLE_EQ(architecture_active_params(m), 12878610432.0);
  EXPECT_DOUBLE_EQ(architecture_params(m), 46701477888.0);
  const auto mixtral = [](const std::string& active) {
    return test::scenario(R"({"version":1,"workloads":[{"model":{"params":4.67e10,"active_params":)" + active +
                          R"(,"layers":32,"hidden":4096,"heads":32,"kv_heads":8,"ffn_hidden":14336,"seq_len":4096,"vocab":32000,
      "experts":8,"experts_per_token":2},"target":{"tokens":1e12}}],"options":[{"instance":"p5.48xlarge","instances":16}]})");
  };
  // 40B active, three times the architecture's: every FLOP, hour and dollar three times too many.
  const std::string text = problems_text(mixtral("4e10"));
  EXPECT_NE(text.find("workloads[0].model.active_params: is 40B but the architecture (workloads[0].model.layers, model.hidden, "
                      "model.kv_heads, model.ffn_hidden, model.vocab, model.experts, model.experts_per_token) has 13B active parameters"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("model.params"), std::string::npos) << text;
  EXPECT_EQ(problems_text(mixtral("1.29e10")).find("active_params"), std::string::npos);
}

TEST(Warnings, ParamsThatDisagreeWithTheArchitectureNameBoth) {
  // Llama 3 8B's architecture: 32 × (2 × 4096² + 2 × 4096 × 1024 + 3 × 4096 × 14336) + 2 × 128,256 × 4096
  // = 32 × 218,103,808 + 1,050,673,152 = 8,029,995,008: Meta's 8,030,261,248 less the norms' 266,240.
  Model m;
  m.layers = 32, m.hidden = 4096, m.heads = 32, m.kv_heads = 8, m.ffn_hidden = 14336, m.vocab = 128256, m.seq_len = 8192;
  EXPECT_DOUBLE_EQ(architecture_params(m), 8029995008.0);
  // 70B parameters with that architecture: 8.7 times the count, past the 25% tolerance.
  const Scenario s = test::scenario(R"({"version":1,"workloads":[{"model":{"params":7e10,"layers":32,"hidden":4096,
    "heads":32,"kv_heads":8,"ffn_hidden":14336,"seq_len":8192,"vocab":128256},"target":{"tokens":2e12}}],
    "options":[{"instance":"p5.48xlarge","instances":64}]})");
  const std::string text = problems_text(s);
  EXPECT_NE(text.find("workloads[0].model.params: is 70B"), std::string::npos) << text;
  EXPECT_NE(text.find("model.layers, model.hidden, model.kv_heads, model.ffn_hidden, model.vocab) has 8.0B"), std::string::npos) << text;
  // The fields named are those the scenario gives (the others take their defaults).
  Scenario bare = s;
  bare.workloads[0].model.kv_heads = 0, bare.workloads[0].model.ffn_hidden = 0, bare.workloads[0].model.vocab = 0;
  EXPECT_NE(problems_text(bare).find("(workloads[0].model.layers, model.hidden) has"), std::string::npos) << problems_text(bare);
  // 8.03e9 against the same architecture: nothing.
  Scenario ok = s;
  ok.workloads[0].model.params = 8.03e9;
  EXPECT_EQ(problems_text(ok).find("model.params"), std::string::npos);
}

}  // namespace
}  // namespace traincost
