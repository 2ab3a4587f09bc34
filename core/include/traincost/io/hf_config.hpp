#pragma once
// Fills a workload's model from a Hugging Face `config.json` (pasted as text): architecture
// fields and the parameter count, total and active (mixture-of-experts).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traincost/base/problems.hpp"
#include "traincost/scenario/scenario.hpp"

namespace traincost {

// What a config.json says about a model: the model block it describes, which of the model's
// fields the config states, and what was taken from where when a key is not a field's own
// (the training length from the context window, shared experts counted in the parameters).
struct HfImport {
  Model model;
  std::vector<std::string> stated;  // the model's JSON keys the config states ("layers", "experts", ...)
  std::vector<std::string> notes;   // one sentence each, naming the config key
  int context_window = 0;           // max_position_embeddings (0: not stated)
};

// Understands decoder-only transformers in the Llama/Mistral/Mixtral/Qwen/OLMoE/DeepSeek family
// (SwiGLU MLP, grouped-query attention, an explicit head_dim, optional tied embeddings, routed and
// shared experts, leading dense layers, multi-head latent attention) and GPT-2 style configs
// (n_embd, n_layer, n_head; 4h GELU MLP). Problems name the config key that is missing or wrong.
std::optional<HfImport> import_hf_config(std::string_view json_text, Problems& problems);

// The model alone, for a new workload: the training length is the context window capped at
// 8,192 (import_hf_config's notes say so).
std::optional<Model> model_from_hf_config(std::string_view json_text, Problems& problems);

// Puts what the config states into a workload's model, keeping every field the config does not
// state, and the model's training length when it has one (a context window is no training
// length). Returns the model keys whose values changed, in the field table's order.
std::vector<std::string> apply_hf_import(const HfImport& import, Model& model);

// The page's one-line account of an import: the parameters, the fields it changed, and the
// training length it kept ("Model filled from the config.json: 46.7B parameters; changed params,
// kv_heads; seq_len kept at 4,096.").
std::string hf_import_summary(const std::vector<std::string>& changed, const Model& model);

}  // namespace traincost
