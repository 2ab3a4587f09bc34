// Fine-tuning modes (issue 29 item 2): a LoRA or QLoRA fine-tune freezes the base (no gradients or
// optimizer state for it, no weight-gradient GEMMs) and trains small adapters. Every figure here
// is derived by hand in the comments, from the method's definition (LoRA: Hu et al. 2021, arXiv
// 2106.09685; QLoRA: Dettmers et al. 2023, arXiv 2305.14314); none is a measurement.
#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/io/link.hpp"
#include "traincost/model/fine_tune.hpp"
#include "traincost/model/formulas.hpp"
#include "traincost/output/report.hpp"
#include "traincost/output/verdict.hpp"

namespace traincost {
namespace {

// Llama 3 70B (Llama Team 2024, arXiv 2407.21783, and its config.json): 80 layers, width 8,192,
// 64 heads, 8 key/value heads (kv width 1,024), SwiGLU feed-forward 28,672, vocabulary 128,256,
// N = 70,553,706,496. Fine-tuned at 4,096 tokens a sequence.
constexpr const char* kLlama70b = R"("params":70553706496,"layers":80,"hidden":8192,"heads":64,"kv_heads":8,
  "ffn_hidden":28672,"vocab":128256,"seq_len":4096)";

// One p5.48xlarge (8 × H100 80 GB) with everything the cost depends on stated: $55.04 an hour,
// an MFU of 0.4, no porting, and a goodput fixed by its inputs.
constexpr const char* kP5 = R"({"instance":"p5.48xlarge","instances":1,"max_instances":1,"price_usd_per_hour":55.04,"mfu":0.4,
  "reliability":{"mtbf_hours_per_instance":1000,"checkpoint_write_minutes":1,"checkpoint_interval_hours":1,"restart_minutes":30,
                 "lost_work_share":1},
  "porting":{"engineer_weeks":0,"validation_runs":0,"compile_hours_per_run":0,"maintenance_usd_per_year":0,"convergence_penalty":0,
             "report_probability_per_year":0}})";

std::string job(const std::string& fine_tune, const std::string& extra = "", const std::string& option = kP5) {
  return std::string(R"({"version":1,"workloads":[{"name":"70B fine-tune","model":{)") + kLlama70b +
         R"(},"target":{"tokens":1e9},"global_batch_tokens":131072)" + (fine_tune.empty() ? "" : ",\"fine_tune\":" + fine_tune) +
         extra + R"(}],"options":[)" + option + "]}";
}

// LoRA of rank 16 on every linear layer of the block. Per layer, r·(d_in + d_out) for each:
//   q, o: 16 × (8,192 + 8,192) = 262,144 each; k, v: 16 × (8,192 + 1,024) = 147,456 each
//   gate, up, down: 16 × (8,192 + 28,672) = 589,824 each
//   = 2 × 262,144 + 2 × 147,456 + 3 × 589,824 = 2,588,672 a layer; × 80 = 207,093,760 (0.29% of N).
constexpr double kN = 70553706496, kAdapters16 = 207093760;
constexpr const char* kLora16 = R"({"mode":"lora","rank":16,"targets":["attention","mlp"]})";

TEST(FineTune, AdapterParametersFollowTheArchitecture) {
  const Scenario s = test::scenario(job(kLora16));
  const AdapterParams a = adapter_params(s.workloads[0].model, s.workloads[0].fine_tune);
  EXPECT_DOUBLE_EQ(a.total, kAdapters16);
  EXPECT_DOUBLE_EQ(a.active, kAdapters16);
  EXPECT_FALSE(a.assumed_architecture);
  // Rank 64 (the default) is four times as many: 828,375,040. Attention only (q, k, v, o) at 16:
  // 819,200 × 80 = 65,536,000.
  Workload w = s.workloads[0];
  w.fine_tune.rank = 64;
  EXPECT_DOUBLE_EQ(adapter_params(w.model, w.fine_tune).total, 828375040);
  w.fine_tune.rank = 16;
  w.fine_tune.targets = kLoraAttention;
  EXPECT_DOUBLE_EQ(adapter_params(w.model, w.fine_tune).total, 65536000);
  // A trainable share replaces the derivation.
  w.fine_tune.trainable_share = 0.01;
  EXPECT_DOUBLE_EQ(adapter_params(w.model, w.fine_tune).total, 0.01 * kN);
}

TEST(FineTune, FrozenBaseFlopsPerToken) {
  const Scenario s = test::scenario(job(kLora16));
  // Attention: 12 × 80 × 8,192 × 4,096 = 32,212,254,720 (no weights: its backward is unchanged).
  // Frozen base: 4 × N = 282,214,825,984; adapters: 6 × 207,093,760 = 1,242,562,560.
  //   f = 282,214,825,984 + 1,242,562,560 + 32,212,254,720 = 315,669,643,264
  // against 6 × N + attention = 455,534,493,696 for the full fine-tune (0.693 of it).
  EXPECT_DOUBLE_EQ(training_flops_per_token(s.workloads[0], false), 315669643264.0);
  // Recomputed: + 2 × N + 2 × Na + 32,212,254,720 / 3 = + 141,107,412,992 + 414,187,520 + 10,737,418,240.
  EXPECT_DOUBLE_EQ(training_flops_per_token(s.workloads[0], true), 315669643264.0 + 141107412992.0 + 414187520.0 + 10737418240.0);
  // A full fine-tune is the old number, bit for bit.
  const Scenario full = test::scenario(job(""));
  EXPECT_EQ(training_flops_per_token(full.workloads[0], false), flops_per_token(full.workloads[0].model, false));
  EXPECT_EQ(training_flops_per_token(full.workloads[0], true), flops_per_token(full.workloads[0].model, true));
  EXPECT_DOUBLE_EQ(training_flops_per_token(full.workloads[0], false), 455534493696.0);
}

TEST(FineTune, NormalFloat4BytesPerWeight) {
  // 4 bits + 8/64 + 32/(64 × 256) bits of double-quantized constants = 4.127 bits = 0.515869 bytes.
  EXPECT_DOUBLE_EQ(kNf4BytesPerParam, 0.515869140625);
  const Scenario s = test::scenario(job(kLora16));
  EXPECT_DOUBLE_EQ(frozen_base_bytes(s.workloads[0].model, FineTuneMode::Lora), 2 * kN);
  // QLoRA: embeddings and head 2 × 128,256 × 8,192 = 2,101,346,304 weights stay BF16:
  //   (70,553,706,496 − 2,101,346,304) × 0.515869140625 + 2,101,346,304 × 2 = 39,515,152,834 bytes.
  EXPECT_NEAR(frozen_base_bytes(s.workloads[0].model, FineTuneMode::Qlora), 39515152834.0, 1);
}

TEST(FineTune, LoraOf70bOnOneP5FitsAndCostsTheHandDerivation) {
  // Layout pinned to tensor 8 (one node), full recomputation, sequence parallel, micro-batch 1.
  const Scenario s = test::scenario(job(kLora16, R"(,"overrides":[{"option":0,"parallelism":{"tensor":8,"pipeline":1,"data":1,
    "micro_batch":1,"recompute":"full","sequence_parallel":true}}])"));
  const Results res = test::run(s);
  const OptionResult& o = res.workloads[0].options[0];
  ASSERT_TRUE(o.feasible()) << infeasibility_reason(o);
  // Memory per H100, by hand:
  //   frozen base  N / 8 × 2 bytes             = 70,553,706,496 / 4       = 17,638,426,624
  //   adapters     Na / 8 × 16 bytes (d = 1)   = 207,093,760 × 2          =    414,187,520
  //   activations  2 × 4,096 × 8,192 / 8 a layer (recomputed, sequence-parallel) × 80 layers = 671,088,640
  //   logits       4 × 4,096 × 128,256 / 8     =                             262,668,288
  //   = 18,986,371,072 bytes (19.0 GB) of 85,520,809,984 × 0.9 = 76,968,728,986 usable.
  // A full fine-tune would hold N / 8 × 16 = 141.1 GB of state alone.
  EXPECT_DOUBLE_EQ(o.memory.bytes_per_chip, 18986371072.0);
  EXPECT_TRUE(o.memory.fits);
  // Cost of one run of 1e9 tokens, by hand:
  //   C = 315,669,643,264 × 1e9 = 3.15669643264e20 FLOP; F = 0.4 × 989e12 × 8 = 3.1648e15 FLOP/s
  //   T = C / F / 3600 = 27.7066519 h
  //   goodput g = τ/(τ+δ) / (1 + (R + s·(τ+δ)/2) / M), τ = 1 h, δ = 1/60 h, R = 0.5 h, s = 1, M = 1,000 h
  //     = 0.9836066 / 1.0010083 = 0.98261575
  //   hours = T / g = 28.196833 h; cost = 28.196833 × $55.04 = $1,551.95 (no porting, compile or other part).
  EXPECT_DOUBLE_EQ(o.flops_per_token, 315669643264.0);
  EXPECT_NEAR(o.compute_hours, 27.7066519267498, 1e-9);
  EXPECT_NEAR(o.goodput, 0.9826157531592804, 1e-12);
  EXPECT_NEAR(o.cost_per_run, 1551.9536676928, 1e-6);
  // The checkpoint is the adapters' state: 207,093,760 × (16 − 2) = 2.899 GB.
  EXPECT_DOUBLE_EQ(o.checkpoint_bytes, kAdapters16 * 14);
}

TEST(FineTune, LoraFitsOneNodeWithTheLayoutSearchAndFullIsRefused) {
  // Unpinned: the layout search finds a layout that fits for LoRA ...
  const Results lora = test::run(test::scenario(job(kLora16)));
  const OptionResult& l = lora.workloads[0].options[0];
  ASSERT_TRUE(l.feasible()) << infeasibility_reason(l);
  EXPECT_LE(l.memory.bytes_per_chip, 85520809984.0 * 0.9);
  // ... and none for the full fine-tune: 70.55e9 × 16 = 1,128.9 GB of state, at least 141.1 GB a
  // chip over 8, above the 77.0 GB usable of an H100.
  const Results full = test::run(test::scenario(job("")));
  const OptionResult& f = full.workloads[0].options[0];
  EXPECT_EQ(f.infeasible, Infeasible::Memory);
  EXPECT_GE(f.memory.bytes_per_chip, kN * 16 / 8);
  const std::string why = infeasibility_reason(f);
  EXPECT_NE(why.find("no layout fits in memory"), std::string::npos) << why;
}

// The fewest single-H100 instances (1, 2, 4, 8) on which the job has a layout that fits.
int fewest_h100(const std::string& fine_tune) {
  for (int n : {1, 2, 4, 8}) {
    const std::string option = R"({"instance":"custom","custom":{"chip":"h100","chips":1},"price_usd_per_hour":6.88,"instances":)" +
                               std::to_string(n) + "}";
    const ResolvedScenario r = resolve(test::scenario(job(fine_tune, "", option)), builtin_catalog());
    if (r.workloads[0].options[0].performance.layout_found) return n;
  }
  return 0;
}

TEST(FineTune, QloraFitsOnFewerChipsThanLora) {
  // LoRA's frozen BF16 base alone is 2 × 70.55e9 = 141.1 GB: more than one H100's 77.0 GB usable.
  // QLoRA's is 39.5 GB (NormalFloat4BytesPerWeight); with rank-16 adapters (3.3 GB of state) and
  // recomputed activations (80 × 2 × 4,096 × 8,192 = 5.4 GB, logits 2.1 GB) it fits on one.
  const int lora = fewest_h100(kLora16);
  const int qlora = fewest_h100(R"({"mode":"qlora","rank":16})");
  EXPECT_GE(lora, 2);
  EXPECT_EQ(qlora, 1);
  EXPECT_LT(qlora, lora);
}

TEST(FineTune, UnpackedSequencesPayForTheirPadding) {
  // Half-full sequences: twice the tokens trained, twice the compute, the same data tokens.
  const Results packed = test::run(test::scenario(job(kLora16)));
  const Results padded = test::run(test::scenario(job(R"({"mode":"lora","rank":16,"packed":false,"fill":0.5})")));
  const OptionResult& a = packed.workloads[0].options[0];
  const OptionResult& b = padded.workloads[0].options[0];
  EXPECT_DOUBLE_EQ(b.tokens, 2 * a.tokens);
  EXPECT_DOUBLE_EQ(b.compute_hours, 2 * a.compute_hours);
  EXPECT_DOUBLE_EQ(packed.workloads[0].target_tokens, padded.workloads[0].target_tokens);
}

TEST(FineTune, FormatReadsWritesAndChecksTheFields) {
  // Round trip: what is read is written back the same.
  const Scenario s = test::scenario(job(R"({"mode":"qlora","rank":8,"targets":["q","v"],"packed":false,"fill":0.6})"));
  const FineTune& ft = s.workloads[0].fine_tune;
  EXPECT_EQ(ft.mode, FineTuneMode::Qlora);
  EXPECT_EQ(ft.rank, 8);
  EXPECT_EQ(ft.targets, unsigned{kLoraQ | kLoraV});
  const OrderedJson back = scenario_to_json(s, JsonForm::Minimal)["workloads"][0]["fine_tune"];
  EXPECT_EQ(back.dump(), R"({"mode":"qlora","rank":8,"fill":0.6,"targets":["q","v"],"packed":false})");
  // A scenario (or link) without the field reads as a full fine-tune and writes without it.
  const Scenario plain = test::scenario(job(""));
  EXPECT_EQ(plain.workloads[0].fine_tune.mode, FineTuneMode::Full);
  EXPECT_FALSE(scenario_to_json(plain, JsonForm::Full)["workloads"][0].contains("fine_tune"));
  // Problems name the field.
  EXPECT_NE(test::problems_of(job(R"({"mode":"lora","packed":false})")).find("workloads[0].fine_tune.fill: is required"),
            std::string::npos);
  EXPECT_NE(test::problems_of(job(R"({"mode":"full","trainable_share":0.01})")).find("workloads[0].fine_tune.trainable_share"),
            std::string::npos);
  EXPECT_NE(test::problems_of(job(R"({"mode":"lora","targets":["qq"]})")).find("workloads[0].fine_tune.targets[0]: must be one of"),
            std::string::npos);
  EXPECT_NE(test::problems_of(job(R"({"mode":"sparse"})")).find("workloads[0].fine_tune.mode: must be one of"), std::string::npos);
}

TEST(FineTune, TheResultsSayWhatWasDerived) {
  // The JSON results carry the mode's figures and mark them derived; the error band is doubled.
  const Scenario s = test::scenario(job(kLora16));
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  const OrderedJson j = results_to_json(s, r, res);
  const OrderedJson& ft = j["workloads"][0]["fine_tune"];
  EXPECT_EQ(ft["mode"], "lora");
  EXPECT_EQ(ft["trainable_params"].get<double>(), kAdapters16);
  EXPECT_EQ(ft["frozen_bytes_per_param"].get<double>(), 2);
  EXPECT_EQ(ft["flops_per_token"].get<double>(), 315669643264.0);
  EXPECT_EQ(ft["derived"], true);
  const PairPerformance& perf = r.workloads[0].options[0].performance;
  EXPECT_TRUE(perf.fine_tune_derived);
  const Scenario full = test::scenario(job(""));
  const ResolvedScenario rf = resolve(full, builtin_catalog());
  EXPECT_DOUBLE_EQ(perf.error_median, 2 * rf.workloads[0].options[0].performance.error_median);
  EXPECT_FALSE(results_to_json(full, rf, evaluate(rf))["workloads"][0].contains("fine_tune"));
}

// The global batch when the scenario gives none (formulas.hpp, kAdapterBatchSequences): a LoRA or
// QLoRA fine-tune steps on 64 sequences, as optimum-neuron's LoRA recipe, not on full training's
// batch. The 70B above at 4,096 tokens a sequence, 1e9 tokens, on one p5.48xlarge (8 chips):
//   C = (6 × 70,553,706,496 + 12 × 80 × 8,192 × 4,096) × 1e9 = 455,534,493,696 × 1e9 = 4.555e20 FLOP
//   Bopt = 0.292 × C^0.3271 = 1,670,264 tokens
//   full:  B = min(1,670,264, max(4,194,304, 1,024 × 8))        = 1,670,264 → ⌊/4,096⌋ = 407 sequences
//   LoRA:  B = min(1,670,264, max(64 × 4,096, 1,024 × 8))       =   262,144 → 64 sequences
//   LoRA on 64 instances (512 chips): max(262,144, 1,024 × 512) =   524,288 → 128 sequences
std::string default_batch_job(const std::string& fine_tune, int instances) {
  return std::string(R"({"version":1,"workloads":[{"name":"70B fine-tune","model":{)") + kLlama70b +
         R"(},"target":{"tokens":1e9})" + (fine_tune.empty() ? "" : ",\"fine_tune\":" + fine_tune) +
         R"(}],"options":[{"instance":"p5.48xlarge","instances":)" + std::to_string(instances) + "}]}";
}

TEST(FineTune, AdaptersDefaultToARecipesBatchNotFullTrainings) {
  EXPECT_DOUBLE_EQ(default_adapter_batch_tokens(8, 4096, 1670264), 262144);
  EXPECT_DOUBLE_EQ(default_adapter_batch_tokens(512, 4096, 1670264), 524288);
  EXPECT_DOUBLE_EQ(default_adapter_batch_tokens(8, 4096, 100000), 100000);  // capped at Bopt
  struct Case {
    const char* fine_tune;
    int instances;
    double tokens, sequences;
  };
  for (const Case& c : {Case{"", 1, 1670264.144337, 407}, Case{kLora16, 1, 262144, 64},
                        Case{R"({"mode":"qlora","rank":16})", 1, 262144, 64}, Case{kLora16, 64, 524288, 128}}) {
    const ResolvedScenario r = resolve(test::scenario(default_batch_job(c.fine_tune, c.instances)), builtin_catalog());
    const PairPerformance& perf = r.workloads[0].options[0].performance;
    EXPECT_TRUE(perf.batch_default);
    EXPECT_NEAR(perf.batch_tokens, c.tokens, 1e-3) << c.fine_tune << " × " << c.instances;
    EXPECT_DOUBLE_EQ(perf.global_batch_sequences, c.sequences) << c.fine_tune << " × " << c.instances;
  }
  // A batch the scenario gives is kept.
  const ResolvedScenario given = resolve(test::scenario(job(kLora16)), builtin_catalog());
  EXPECT_DOUBLE_EQ(given.workloads[0].options[0].performance.batch_tokens, 131072);
  EXPECT_FALSE(given.workloads[0].options[0].performance.batch_default);
}

TEST(FineTune, TheShippedPresetIsALoraFineTune) {
  const Json doc = Json::parse(test::read_source_file("assets/presets.json"));
  bool found = false;
  for (const Json& w : doc["workloads"])
    if (w.contains("fine_tune")) {
      found = true;
      const Json wrapper = {{"version", 1}, {"workloads", Json::array({w})}, {"options", Json::array({{{"instance", "p5.48xlarge"}}})}};
      const Scenario s = test::scenario(wrapper.dump());
      EXPECT_EQ(s.workloads[0].fine_tune.mode, FineTuneMode::Lora);
    }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace traincost
