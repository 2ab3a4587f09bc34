#include "traincost/io/hf_config.hpp"

#include <cmath>

#include "traincost/scenario/fields.hpp"
#include "traincost/base/format.hpp"
#include "traincost/base/json_text.hpp"

namespace traincost {
namespace {

// The first of several synonymous keys that is present, as a positive whole number.
std::optional<double> whole(const Json& config, std::initializer_list<const char*> keys, Problems& problems, bool required) {
  for (const char* key : keys) {
    const auto it = config.find(key);
    if (it == config.end() || it->is_null()) continue;
    if (!it->is_number() || !(it->get<double>() > 0) || it->get<double>() != std::floor(it->get<double>())) {
      problems.push_back({key, std::string("must be a positive whole number, got ") + preview(*it)});
      return std::nullopt;
    }
    if (it->get<double>() > 1e9) {
      problems.push_back({key, std::string("must be at most 1,000,000,000, got ") + preview(*it)});
      return std::nullopt;
    }
    return it->get<double>();
  }
  if (required) problems.push_back({*keys.begin(), "is missing from the config"});
  return std::nullopt;
}

// The first of several synonymous keys that the config has.
const char* key_in(const Json& config, std::initializer_list<const char*> keys) {
  for (const char* key : keys)
    if (config.contains(key)) return key;
  return *keys.begin();
}

}  // namespace

std::optional<Model> model_from_hf_config(std::string_view json_text, Problems& problems) {
  const size_t before = problems.size();
  std::optional<Json> doc = parse_json(json_text, problems);
  if (!doc) return std::nullopt;
  if (!doc->is_object()) {
    problems.push_back({"", "a config.json is a JSON object"});
    return std::nullopt;
  }
  const Json& c = *doc;
  const auto h = whole(c, {"hidden_size", "n_embd", "d_model"}, problems, true);
  const auto layers = whole(c, {"num_hidden_layers", "n_layer", "num_layers"}, problems, true);
  const auto heads = whole(c, {"num_attention_heads", "n_head", "num_heads"}, problems, true);
  const auto vocab = whole(c, {"vocab_size"}, problems, true);
  const auto kv_heads = whole(c, {"num_key_value_heads", "num_kv_heads"}, problems, false);
  const auto ffn = whole(c, {"intermediate_size", "n_inner", "ffn_dim"}, problems, false);
  const auto seq = whole(c, {"max_position_embeddings", "n_positions", "seq_length"}, problems, false);
  const auto experts = whole(c, {"num_local_experts", "num_experts", "n_routed_experts"}, problems, false);
  const auto experts_per_token = whole(c, {"num_experts_per_tok", "moe_top_k"}, problems, false);
  const auto expert_ffn = whole(c, {"moe_intermediate_size"}, problems, false);
  if (problems.size() != before) return std::nullopt;
  if (*h / *heads != std::floor(*h / *heads)) {
    problems.push_back({"num_attention_heads", "does not divide hidden_size"});
    return std::nullopt;
  }

  // Counts that only make sense against another one (issue row 13: 1,000,000 key-value heads of
  // 32, or 1,000 routed experts per token of 8, were imported as a 33.5T-parameter model whose
  // active parameters exceeded its total).
  const char* kv_key = key_in(c, {"num_key_value_heads", "num_kv_heads"});
  const char* heads_key = key_in(c, {"num_attention_heads", "n_head", "num_heads"});
  if (kv_heads && *kv_heads > *heads)
    problems.push_back({kv_key, "must not exceed " + std::string(heads_key) + " (" + fmt::number(*heads) + "), got " + fmt::number(*kv_heads)});
  else if (kv_heads && *heads / *kv_heads != std::floor(*heads / *kv_heads))
    problems.push_back({kv_key, "must divide " + std::string(heads_key) + " (" + fmt::number(*heads) + ") into equal groups, got " +
                                    fmt::number(*kv_heads)});
  if (experts && experts_per_token && *experts > 1 && *experts_per_token > *experts)
    problems.push_back({key_in(c, {"num_experts_per_tok", "moe_top_k"}),
                        "must not exceed " + std::string(key_in(c, {"num_local_experts", "num_experts", "n_routed_experts"})) + " (" +
                            fmt::number(*experts) + "), got " + fmt::number(*experts_per_token)});
  if (problems.size() != before) return std::nullopt;

  // GPT-2 style configs (n_embd) use a 4h GELU MLP with two matrices; Llama-style ones a SwiGLU
  // MLP with three (gate, up, down).
  const bool gpt2_style = c.contains("n_embd");
  const double hidden = *h, head_dim = hidden / *heads;
  const double kv = kv_heads.value_or(*heads) * head_dim;
  const double mlp_width = ffn.value_or(4 * hidden);
  const double mlp_matrices = gpt2_style ? 2 : 3;
  const bool tied = c.contains("tie_word_embeddings") ? c["tie_word_embeddings"].is_boolean() && c["tie_word_embeddings"].get<bool>()
                                                     : gpt2_style;

  // Per layer: attention Q and O (h×h each), K and V (h×kv each); the MLP; two norms.
  const double attention = 2 * hidden * hidden + 2 * hidden * kv;
  const double dense_mlp = mlp_matrices * hidden * mlp_width;
  const double norms = 2 * hidden;
  const double embeddings = *vocab * hidden * (tied ? 1 : 2);
  double per_layer_total = attention + dense_mlp + norms;
  double per_layer_active = per_layer_total;
  if (experts && *experts > 1) {
    // Every layer holds `experts` MLPs and a router; each token uses `experts_per_token` of them.
    const double expert_mlp = mlp_matrices * hidden * expert_ffn.value_or(mlp_width);
    const double routed = experts_per_token.value_or(2);
    per_layer_total = attention + *experts * expert_mlp + hidden * *experts + norms;
    per_layer_active = attention + routed * expert_mlp + hidden * *experts + norms;
  }
  // The model must be one a scenario accepts, or importing it would only move the error to the
  // scenario (found by the hf_config fuzzer: 3,200 layers imported, then failed as a scenario;
  // tests/fuzz/regressions/hf_config/). The problem names the config's key.
  auto check = [&](const FieldSpec& spec, double value, const char* key) {
    const std::string problem = spec.check(value);
    if (!problem.empty()) problems.push_back({key, problem + " (the limit of " + spec.path + ")"});
  };
  check(fields::layers, *layers, key_in(c, {"num_hidden_layers", "n_layer", "num_layers"}));
  check(fields::hidden, hidden, key_in(c, {"hidden_size", "n_embd", "d_model"}));
  check(fields::heads, *heads, key_in(c, {"num_attention_heads", "n_head", "num_heads"}));
  // The vocabulary counts in the parameters; it is imported as it is, or refused (it was cut to
  // the field's limit while the parameters used the config's figure).
  check(fields::vocab, *vocab, "vocab_size");
  if (problems.size() != before) return std::nullopt;

  Model m;
  m.params = *layers * per_layer_total + embeddings + hidden;  // + final norm
  const double active = *layers * per_layer_active + embeddings + hidden;
  if (active < m.params) m.active_params = active;
  m.layers = static_cast<int>(*layers);
  m.hidden = static_cast<int>(hidden);
  m.heads = static_cast<int>(*heads);
  m.vocab = static_cast<int>(*vocab);
  m.seq_len = seq ? static_cast<int>(std::fmin(*seq, 8192)) : 0;
  if (m.params > fields::params.bounds.max || m.params < fields::params.bounds.min) {
    problems.push_back({"", "the config describes " + fmt::count(m.params) + " parameters (" + fmt::number(m.params, 4) +
                                "), outside what TrainCost models (" + fmt::count(fields::params.bounds.min) + " to " +
                                fmt::count(fields::params.bounds.max) + ")"});
    return std::nullopt;
  }
  if (m.active_params && !fields::active_params.check(*m.active_params).empty()) {
    problems.push_back({"", "the config describes " + fmt::count(*m.active_params) + " active parameters (" + fmt::number(*m.active_params, 4) +
                                "), outside what TrainCost models"});
    return std::nullopt;
  }
  return m;
}

}  // namespace traincost
