#pragma once
// Fills a workload's model from a Hugging Face `config.json` (pasted as text): architecture
// fields and the parameter count, total and active (mixture-of-experts).
#include <optional>
#include <string_view>

#include "traincost/base/problems.hpp"
#include "traincost/scenario/scenario.hpp"

namespace traincost {

// Understands decoder-only transformers in the Llama/Mistral/Mixtral/Qwen family (SwiGLU MLP,
// grouped-query attention, optional tied embeddings and experts) and GPT-2 style configs
// (n_embd, n_layer, n_head; 4h GELU MLP). Problems name the config key that is missing or wrong.
std::optional<Model> model_from_hf_config(std::string_view json_text, Problems& problems);

}  // namespace traincost
