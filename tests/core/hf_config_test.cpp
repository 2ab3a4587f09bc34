// Parameter counts from Hugging Face configs against the published model sizes.
#include "traincost/io/hf_config.hpp"

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace traincost {
namespace {

TEST(HfConfig, Llama3_8B) {
  Problems problems;
  const auto m = model_from_hf_config(test::read_source_file("tests/cli/data/llama3-8b-config.json"), problems);
  ASSERT_TRUE(m) << to_string(problems);
  // embeddings 128,256 × 4,096 = 525,336,576, untied so twice;
  // per layer: attention 2 × 4096² + 2 × 4096 × (8 × 128) = 41,943,040; SwiGLU 3 × 4096 × 14,336 =
  // 176,160,768; norms 8,192 -> 218,112,000 × 32 = 6,979,584,000; final norm 4,096.
  // total 2 × 525,336,576 + 6,979,584,000 + 4,096 = 8,030,261,248 (Meta: "8.03B")
  EXPECT_EQ(m->params, 8030261248.0);
  EXPECT_FALSE(m->active_params);
  EXPECT_EQ(m->layers, 32);
  EXPECT_EQ(m->hidden, 4096);
  EXPECT_EQ(m->seq_len, 8192);
}

TEST(HfConfig, MixtralCountsTotalAndActiveParameters) {
  Problems problems;
  const auto m = model_from_hf_config(R"({"hidden_size":4096,"intermediate_size":14336,"num_attention_heads":32,
      "num_hidden_layers":32,"num_key_value_heads":8,"vocab_size":32000,"num_local_experts":8,"num_experts_per_tok":2,
      "max_position_embeddings":32768,"tie_word_embeddings":false})",
                                      problems);
  ASSERT_TRUE(m) << to_string(problems);
  // per layer: attention 41,943,040; 8 experts × 176,160,768 = 1,409,286,144; router 4,096 × 8 =
  // 32,768; norms 8,192 -> 1,451,270,144 × 32 = 46,440,644,608; + 2 × 131,072,000 embeddings + 4,096
  // = 46,702,792,704 (Mistral: "46.7B")
  EXPECT_EQ(m->params, 46702792704.0);
  // active: 2 experts instead of 8 -> per layer 41,943,040 + 352,321,536 + 32,768 + 8,192 = 394,305,536
  // × 32 = 12,617,777,152 + 262,144,000 + 4,096 = 12,879,925,248 ("12.9B active")
  EXPECT_EQ(*m->active_params, 12879925248.0);
  EXPECT_EQ(m->seq_len, 8192);  // training length capped at 8,192 (the context window is longer)
}

TEST(HfConfig, Gpt2Style) {
  Problems problems;
  const auto m = model_from_hf_config(R"({"n_embd":768,"n_layer":12,"n_head":12,"vocab_size":50257,"n_positions":1024})", problems);
  ASSERT_TRUE(m) << to_string(problems);
  // tied embeddings 50,257 × 768 = 38,597,376; per layer 4 × 768² + 2 × 768 × 3,072 + 1,536 =
  // 7,079,424 × 12 = 84,953,088; + 768 final norm = 123,551,232 (GPT-2 small is 124M with
  // position embeddings and biases, which TrainCost leaves out)
  EXPECT_EQ(m->params, 123551232.0);
}

TEST(HfConfig, ProblemsNameTheConfigKey) {
  Problems problems;
  EXPECT_FALSE(model_from_hf_config(R"({"hidden_size":4096,"num_attention_heads":32,"vocab_size":"lots"})", problems));
  const std::string all = to_string(problems);
  EXPECT_NE(all.find("num_hidden_layers: is missing from the config"), std::string::npos) << all;
  EXPECT_NE(all.find("vocab_size: must be a positive whole number"), std::string::npos) << all;
  problems.clear();
  EXPECT_FALSE(model_from_hf_config("[1,2]", problems));
  EXPECT_FALSE(model_from_hf_config("{not json", problems));
}

}  // namespace
}  // namespace traincost
