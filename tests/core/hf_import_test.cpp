// Importing real Hugging Face configs keeps what they say (issue 29): experts, experts per token,
// shared experts, key/value heads, FFN width, vocabulary, layers, hidden size and tied embeddings;
// the training length is never changed silently. The fixtures in tests/core/data/hf/ hold the
// architecture fields of each model's public config.json on the Hugging Face Hub
// (mistralai/Mixtral-8x7B-v0.1, Qwen/Qwen3-30B-A3B, deepseek-ai/DeepSeek-V3,
// meta-llama/Llama-3.1-8B, allenai/OLMoE-1B-7B-0924).
#include <gtest/gtest.h>

#include <algorithm>

#include "test_support.hpp"
#include "traincost/base/json_text.hpp"
#include "traincost/io/hf_config.hpp"
#include "traincost/io/scenario_json.hpp"

namespace traincost {
namespace {

HfImport import_fixture(const std::string& name) {
  Problems problems;
  const std::optional<HfImport> i = import_hf_config(test::read_source_file("tests/core/data/hf/" + name + ".json"), problems);
  EXPECT_TRUE(i) << to_string(problems);
  return i.value_or(HfImport{});
}

bool has_note(const HfImport& i, const std::string& key) {
  return std::any_of(i.notes.begin(), i.notes.end(), [&](const std::string& n) { return n.rfind(key + ":", 0) == 0; });
}

TEST(HfImport, MixtralKeepsItsExperts) {
  const HfImport i = import_fixture("mixtral-8x7b");
  const Model& m = i.model;
  // Parameter counts as in hf_config_test (46,702,792,704 total, 12,879,925,248 active).
  EXPECT_EQ(m.params, 46702792704.0);
  EXPECT_EQ(*m.active_params, 12879925248.0);
  EXPECT_EQ(m.experts, 8);
  EXPECT_EQ(m.experts_per_token, 2);
  EXPECT_EQ(m.kv_heads, 8);
  EXPECT_EQ(m.ffn_hidden, 14336);  // intermediate_size is each expert's width in Mixtral
  EXPECT_EQ(m.layers, 32);
  EXPECT_EQ(m.hidden, 4096);
  EXPECT_EQ(m.heads, 32);
  EXPECT_EQ(m.vocab, 32000);
  EXPECT_TRUE(m.gated_ffn);
  EXPECT_EQ(i.context_window, 32768);
  EXPECT_TRUE(has_note(i, "max_position_embeddings"));
}

TEST(HfImport, Qwen3MoeCountsItsWideHeads) {
  const HfImport i = import_fixture("qwen3-30b-a3b");
  const Model& m = i.model;
  // head_dim 128 with 32 heads of a 2,048-wide model: Q and O are 2,048 × 4,096 each, K and V
  // 2,048 × 512: attention 2 × 2048 × 4096 + 2 × 2048 × 512 = 18,874,368 a layer.
  // Each expert 3 × 2,048 × 768 = 4,718,592; router 2,048 × 128 = 262,144; norms 4,096.
  // Total 48 × (18,874,368 + 128 × 4,718,592 + 262,144 + 4,096) + 2 × 151,936 × 2,048 + 2,048
  //   = 30,532,110,336 (Qwen: "30.5B"); active with 8 experts 3,353,020,416 ("3.3B").
  EXPECT_EQ(m.params, 30532110336.0);
  EXPECT_EQ(*m.active_params, 3353020416.0);
  EXPECT_EQ(m.experts, 128);
  EXPECT_EQ(m.experts_per_token, 8);
  EXPECT_EQ(m.ffn_hidden, 768);  // moe_intermediate_size, not the unused dense intermediate_size
  EXPECT_EQ(m.kv_heads, 4);
  EXPECT_EQ(m.layers, 48);
  EXPECT_EQ(m.hidden, 2048);
  EXPECT_EQ(m.vocab, 151936);
}

TEST(HfImport, DeepSeekV3CountsSharedExpertsDenseLayersAndLatentAttention) {
  const HfImport i = import_fixture("deepseek-v3");
  const Model& m = i.model;
  // Latent attention a layer: Q 7,168 × 1,536 + 1,536 + 1,536 × 128 × 192 = 48,760,320;
  // KV 7,168 × 576 + 512 + 512 × 128 × 256 = 20,906,496; O 128 × 128 × 7,168 = 117,440,512;
  // 187,107,328 in all. 3 dense layers with an MLP of 3 × 7,168 × 18,432; 58 MoE layers with
  // 256 routed experts and 1 shared of 3 × 7,168 × 2,048 = 44,040,192 each, router 7,168 × 256.
  // Total 671,026,404,352 (DeepSeek: 671B without the 14B multi-token prediction module);
  // active 37,552,282,624 (DeepSeek: "37B activated").
  EXPECT_EQ(m.params, 671026404352.0);
  EXPECT_EQ(*m.active_params, 37552282624.0);
  EXPECT_EQ(m.experts, 256);
  EXPECT_EQ(m.experts_per_token, 8);
  EXPECT_EQ(m.ffn_hidden, 2048);
  EXPECT_EQ(m.kv_heads, 128);
  EXPECT_EQ(m.layers, 61);
  EXPECT_EQ(m.hidden, 7168);
  EXPECT_EQ(m.vocab, 129280);
  EXPECT_TRUE(has_note(i, "n_shared_experts"));
  EXPECT_TRUE(has_note(i, "first_k_dense_replace"));
  EXPECT_TRUE(has_note(i, "kv_lora_rank"));
  EXPECT_TRUE(has_note(i, "num_nextn_predict_layers"));
}

TEST(HfImport, Llama31EightBIsDense) {
  const HfImport i = import_fixture("llama-3.1-8b");
  const Model& m = i.model;
  EXPECT_EQ(m.params, 8030261248.0);  // as Llama 3 8B (hf_config_test)
  EXPECT_FALSE(m.active_params);
  EXPECT_EQ(m.experts, 0);
  EXPECT_EQ(m.kv_heads, 8);
  EXPECT_EQ(m.ffn_hidden, 14336);
  EXPECT_EQ(m.vocab, 128256);
  // A 131,072-token context window is no training length: alone it gives 8,192, and says so.
  EXPECT_EQ(i.context_window, 131072);
  EXPECT_EQ(m.seq_len, 8192);
  EXPECT_TRUE(has_note(i, "max_position_embeddings"));
}

TEST(HfImport, OlmoeCountsSixtyFourExperts) {
  const HfImport i = import_fixture("olmoe-1b-7b");
  const Model& m = i.model;
  // 16 × (4 × 2,048² + 64 × 3 × 2,048 × 1,024 + 2,048 × 64 + 4,096) + 2 × 50,304 × 2,048 + 2,048
  //   = 6,919,096,320 (AI2: "6.9B"); active with 8 experts 1,281,951,744 ("1.3B").
  EXPECT_EQ(m.params, 6919096320.0);
  EXPECT_EQ(*m.active_params, 1281951744.0);
  EXPECT_EQ(m.experts, 64);
  EXPECT_EQ(m.experts_per_token, 8);
  EXPECT_EQ(m.ffn_hidden, 1024);
  EXPECT_EQ(m.kv_heads, 16);
}

TEST(HfImport, EveryFixtureRoundTripsThroughAScenario) {
  for (const char* name : {"mixtral-8x7b", "qwen3-30b-a3b", "deepseek-v3", "llama-3.1-8b", "olmoe-1b-7b"}) {
    SCOPED_TRACE(name);
    const Model m = import_fixture(name).model;
    const std::string text = R"({"version":1,"workloads":[{"model":)" + model_to_json(m).dump() +
                             R"(,"target":{"tokens":1e11}}],"options":[{"instance":"p5.48xlarge","instances":4}]})";
    const Model back = test::scenario(text).workloads[0].model;
    EXPECT_EQ(back.params, m.params);
    EXPECT_EQ(back.active_params, m.active_params);
    EXPECT_EQ(back.experts, m.experts);
    EXPECT_EQ(back.experts_per_token, m.experts_per_token);
    EXPECT_EQ(back.kv_heads, m.kv_heads);
    EXPECT_EQ(back.ffn_hidden, m.ffn_hidden);
    EXPECT_EQ(back.layers, m.layers);
    EXPECT_EQ(back.hidden, m.hidden);
    EXPECT_EQ(back.heads, m.heads);
    EXPECT_EQ(back.vocab, m.vocab);
  }
}

TEST(HfImport, ApplyingKeepsTheTrainingLengthAndWhatTheConfigDoesNotState) {
  // The user trains Mixtral at 4,096 and typed their experts; the config's 32,768-token window
  // must not replace the length, and the experts stay.
  Model typed;
  typed.params = 4.67e10;
  typed.seq_len = 4096;
  typed.experts = 8;
  typed.experts_per_token = 2;
  const std::vector<std::string> changed = apply_hf_import(import_fixture("mixtral-8x7b"), typed);
  EXPECT_EQ(typed.seq_len, 4096);
  EXPECT_EQ(typed.experts, 8);
  EXPECT_EQ(typed.experts_per_token, 2);
  EXPECT_EQ(typed.kv_heads, 8);
  EXPECT_EQ(std::count(changed.begin(), changed.end(), "seq_len"), 0);
  EXPECT_EQ(std::count(changed.begin(), changed.end(), "experts"), 0);
  EXPECT_EQ(std::count(changed.begin(), changed.end(), "params"), 1);
  EXPECT_EQ(std::count(changed.begin(), changed.end(), "kv_heads"), 1);
  // A config that does not state kv heads or the FFN width leaves the typed ones.
  Problems problems;
  const auto bare = import_hf_config(R"({"hidden_size":4096,"num_attention_heads":32,"num_hidden_layers":32,"vocab_size":32000})", problems);
  ASSERT_TRUE(bare) << to_string(problems);
  Model kept;
  kept.params = 1e9;
  kept.kv_heads = 8;
  kept.ffn_hidden = 14336;
  apply_hf_import(*bare, kept);
  EXPECT_EQ(kept.kv_heads, 8);
  EXPECT_EQ(kept.ffn_hidden, 14336);
  EXPECT_EQ(kept.seq_len, 0);  // no window stated, none invented
}

TEST(HfImport, TheShippedMixtralPresetHasItsExperts) {
  const std::string presets = test::read_source_file("assets/presets.json");
  const Json doc = Json::parse(presets);
  bool found = false;
  for (const Json& w : doc["workloads"])
    if (w["name"].get<std::string>().find("Mixtral") != std::string::npos) {
      found = true;
      EXPECT_EQ(w["model"]["experts"], 8);
      EXPECT_EQ(w["model"]["experts_per_token"], 2);
      EXPECT_EQ(w["model"]["kv_heads"], 8);
      EXPECT_EQ(w["model"]["ffn_hidden"], 14336);
    }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace traincost
