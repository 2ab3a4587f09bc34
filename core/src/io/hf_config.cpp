#include "traincost/io/hf_config.hpp"

#include <algorithm>
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

std::optional<HfImport> import_hf_config(std::string_view json_text, Problems& problems) {
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
  const auto head_dim_key = whole(c, {"head_dim"}, problems, false);
  const auto ffn = whole(c, {"intermediate_size", "n_inner", "ffn_dim"}, problems, false);
  const auto seq = whole(c, {"max_position_embeddings", "n_positions", "seq_length"}, problems, false);
  const auto experts = whole(c, {"num_local_experts", "num_experts", "n_routed_experts"}, problems, false);
  const auto experts_per_token = whole(c, {"num_experts_per_tok", "moe_top_k"}, problems, false);
  const auto expert_ffn = whole(c, {"moe_intermediate_size"}, problems, false);
  // Shared experts (DeepSeek: n_shared_experts of the routed experts' width; Qwen2-MoE: one of
  // shared_expert_intermediate_size) run for every token; leading dense layers (DeepSeek's
  // first_k_dense_replace) have a plain MLP of intermediate_size.
  const auto shared_experts = whole(c, {"n_shared_experts", "num_shared_experts"}, problems, false);
  const auto shared_ffn = whole(c, {"shared_expert_intermediate_size"}, problems, false);
  const auto first_dense = whole(c, {"first_k_dense_replace"}, problems, false);
  // Multi-head latent attention (DeepSeek-V2/V3): low-rank query and key/value projections.
  const auto q_lora = whole(c, {"q_lora_rank"}, problems, false);
  const auto kv_lora = whole(c, {"kv_lora_rank"}, problems, false);
  const auto qk_nope = whole(c, {"qk_nope_head_dim"}, problems, false);
  const auto qk_rope = whole(c, {"qk_rope_head_dim"}, problems, false);
  const auto v_head = whole(c, {"v_head_dim"}, problems, false);
  const auto mtp = whole(c, {"num_nextn_predict_layers"}, problems, false);
  if (problems.size() != before) return std::nullopt;
  if (!head_dim_key && *h / *heads != std::floor(*h / *heads)) {
    problems.push_back({"num_attention_heads", "does not divide hidden_size"});
    return std::nullopt;
  }

  // Counts that only make sense against another one (issue row 13: 1,000,000 key-value heads of
  // 32, or 1,000 routed experts per token of 8, were imported as a 33.5T-parameter model whose
  // active parameters exceeded its total).
  const char* kv_key = key_in(c, {"num_key_value_heads", "num_kv_heads"});
  const char* heads_key = key_in(c, {"num_attention_heads", "n_head", "num_heads"});
  const char* experts_key = key_in(c, {"num_local_experts", "num_experts", "n_routed_experts"});
  if (kv_heads && *kv_heads > *heads)
    problems.push_back({kv_key, "must not exceed " + std::string(heads_key) + " (" + fmt::number(*heads) + "), got " + fmt::number(*kv_heads)});
  else if (kv_heads && *heads / *kv_heads != std::floor(*heads / *kv_heads))
    problems.push_back({kv_key, "must divide " + std::string(heads_key) + " (" + fmt::number(*heads) + ") into equal groups, got " +
                                    fmt::number(*kv_heads)});
  if (experts && experts_per_token && *experts > 1 && *experts_per_token > *experts)
    problems.push_back({key_in(c, {"num_experts_per_tok", "moe_top_k"}),
                        "must not exceed " + std::string(experts_key) + " (" + fmt::number(*experts) + "), got " + fmt::number(*experts_per_token)});
  if (first_dense && *first_dense > *layers)
    problems.push_back({"first_k_dense_replace", "must not exceed num_hidden_layers (" + fmt::number(*layers) + "), got " + fmt::number(*first_dense)});
  if (problems.size() != before) return std::nullopt;

  // GPT-2 style configs (n_embd) use a 4h GELU MLP with two matrices; Llama-style ones a SwiGLU
  // MLP with three (gate, up, down).
  const bool gpt2_style = c.contains("n_embd");
  const double hidden = *h, head_dim = head_dim_key ? *head_dim_key : hidden / *heads;
  const double kv = kv_heads.value_or(*heads);
  const double mlp_width = ffn.value_or(4 * hidden);
  const double mlp_matrices = gpt2_style ? 2 : 3;
  const bool tied = c.contains("tie_word_embeddings") ? c["tie_word_embeddings"].is_boolean() && c["tie_word_embeddings"].get<bool>()
                                                     : gpt2_style;
  const bool moe = experts && *experts > 1;
  const bool mla = kv_lora && qk_nope && qk_rope && v_head;

  // Attention per layer. Grouped queries: Q and O are h × (heads × head_dim) each, K and V
  // h × (kv heads × head_dim) each (head_dim = h / heads unless the config states it, as Qwen3
  // does). Latent attention (DeepSeek-V2 report, arXiv 2405.04434, §2.1): Q through a rank-r_q
  // bottleneck (h × r_q, its norm, r_q × heads × (d_nope + d_rope)); K and V through a rank-r_kv
  // bottleneck with a shared rotary key (h × (r_kv + d_rope), its norm, r_kv × heads × (d_nope + d_v));
  // O is heads × d_v × h.
  double attention = 2 * hidden * *heads * head_dim + 2 * hidden * kv * head_dim;
  if (mla) {
    const double q_dim = *heads * (*qk_nope + *qk_rope);
    const double query = q_lora ? hidden * *q_lora + *q_lora + *q_lora * q_dim : hidden * q_dim;
    const double key_value = hidden * (*kv_lora + *qk_rope) + *kv_lora + *kv_lora * *heads * (*qk_nope + *v_head);
    attention = query + key_value + *heads * *v_head * hidden;
  }
  const double dense_mlp = mlp_matrices * hidden * mlp_width;
  const double norms = 2 * hidden;
  const double embeddings = *vocab * hidden * (tied ? 1 : 2);
  const double dense_layer = attention + dense_mlp + norms;
  double moe_layers = 0, moe_layer_total = 0, moe_layer_active = 0;
  HfImport out;
  if (moe) {
    // Every MoE layer holds `experts` MLPs, the shared experts and a router; each token uses
    // `experts_per_token` routed experts and every shared one.
    const double width = expert_ffn.value_or(mlp_width);
    const double expert_mlp = mlp_matrices * hidden * width;
    const double shared = shared_ffn ? mlp_matrices * hidden * *shared_ffn : shared_experts ? *shared_experts * expert_mlp : 0;
    const double routed = experts_per_token.value_or(2);
    const double router = hidden * *experts;
    moe_layers = *layers - first_dense.value_or(0);
    moe_layer_total = attention + *experts * expert_mlp + shared + router + norms;
    moe_layer_active = attention + routed * expert_mlp + shared + router + norms;
    if (!experts_per_token) out.notes.push_back("num_experts_per_tok: not in the config; 2 experts per token assumed");
    if (shared > 0)
      out.notes.push_back(std::string(shared_ffn ? "shared_expert_intermediate_size" : "n_shared_experts") +
                          ": shared experts counted in the dense (always active) parameters");
    if (first_dense && *first_dense > 0)
      out.notes.push_back("first_k_dense_replace: the first " + fmt::number(*first_dense) + " layers counted with a dense MLP of " +
                          fmt::number(mlp_width));
  }
  if (mla) out.notes.push_back("kv_lora_rank: multi-head latent attention counted with its low-rank projections");
  if (mtp && *mtp > 0) out.notes.push_back("num_nextn_predict_layers: the multi-token prediction module is not counted");
  // The model must be one a scenario accepts, or importing it would only move the error to the
  // scenario (found by the hf_config fuzzer: 3,200 layers imported, then failed as a scenario;
  // tests/fuzz/regressions/hf_config/). The problem names the config's key.
  auto check = [&](const FieldSpec& spec, double value, const char* key) {
    const std::string problem = spec.check(value);
    if (!problem.empty()) problems.push_back({key, problem + " (the limit of " + spec.path + ")"});
  };
  check(fields::layers, *layers, key_in(c, {"num_hidden_layers", "n_layer", "num_layers"}));
  check(fields::hidden, hidden, key_in(c, {"hidden_size", "n_embd", "d_model"}));
  check(fields::heads, *heads, heads_key);
  // The vocabulary counts in the parameters; it is imported as it is, or refused (it was cut to
  // the field's limit while the parameters used the config's figure).
  check(fields::vocab, *vocab, "vocab_size");
  if (problems.size() != before) return std::nullopt;

  Model& m = out.model;
  const double dense_layers = *layers - moe_layers;
  m.params = dense_layers * dense_layer + moe_layers * moe_layer_total + embeddings + hidden;  // + final norm
  const double active = dense_layers * dense_layer + moe_layers * moe_layer_active + embeddings + hidden;
  if (active < m.params) m.active_params = active;
  m.layers = static_cast<int>(*layers);
  m.hidden = static_cast<int>(hidden);
  m.heads = static_cast<int>(*heads);
  m.vocab = static_cast<int>(*vocab);
  m.gated_ffn = !gpt2_style;
  out.stated = {"params", "active_params", "layers", "hidden", "heads", "vocab", "experts", "experts_per_token", "gated_ffn"};
  if (kv_heads) {
    m.kv_heads = static_cast<int>(*kv_heads);
    out.stated.push_back("kv_heads");
  }
  if (moe) {
    m.experts = static_cast<int>(*experts);
    m.experts_per_token = static_cast<int>(experts_per_token.value_or(2));
    m.ffn_hidden = static_cast<int>(expert_ffn.value_or(mlp_width));
    out.stated.push_back("ffn_hidden");
  } else if (ffn) {
    m.ffn_hidden = static_cast<int>(*ffn);
    out.stated.push_back("ffn_hidden");
  }
  // A context window is the longest sequence the model takes, not the length it is trained at.
  if (seq) {
    out.context_window = static_cast<int>(std::fmin(*seq, 1e9));
    m.seq_len = static_cast<int>(std::fmin(*seq, 8192));
    out.notes.push_back(std::string(key_in(c, {"max_position_embeddings", "n_positions", "seq_length"})) + ": a context window of " +
                        fmt::number(*seq) + " tokens, not a training length; seq_len " + fmt::number(m.seq_len) +
                        " when the workload has none" + (*seq > 8192 ? " (capped at 8,192)" : ""));
  }
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
  // The widths and counts the model block now carries must be ones a scenario accepts too
  // (after the parameter count, whose message says more when both are out of range).
  if (ffn && !moe) check(fields::ffn_hidden, *ffn, key_in(c, {"intermediate_size", "n_inner", "ffn_dim"}));
  if (moe) {
    check(fields::experts, *experts, experts_key);
    check(fields::experts_per_token, m.experts_per_token, key_in(c, {"num_experts_per_tok", "moe_top_k"}));
    check(fields::ffn_hidden, expert_ffn.value_or(mlp_width), expert_ffn ? "moe_intermediate_size" : "intermediate_size");
  }
  if (kv_heads) check(fields::kv_heads, *kv_heads, kv_key);
  if (problems.size() != before) return std::nullopt;
  return out;
}

std::optional<Model> model_from_hf_config(std::string_view json_text, Problems& problems) {
  std::optional<HfImport> import = import_hf_config(json_text, problems);
  if (!import) return std::nullopt;
  return import->model;
}

std::vector<std::string> apply_hf_import(const HfImport& import, Model& model) {
  const Model before = model;
  const Model& from = import.model;
  auto stated = [&](const char* key) { return std::find(import.stated.begin(), import.stated.end(), key) != import.stated.end(); };
  if (stated("params")) model.params = from.params;
  if (stated("active_params")) model.active_params = from.active_params;
  if (stated("layers")) model.layers = from.layers;
  if (stated("hidden")) model.hidden = from.hidden;
  if (stated("heads")) model.heads = from.heads;
  if (stated("vocab")) model.vocab = from.vocab;
  if (stated("kv_heads")) model.kv_heads = from.kv_heads;
  if (stated("ffn_hidden")) model.ffn_hidden = from.ffn_hidden;
  if (stated("experts")) model.experts = from.experts;
  if (stated("experts_per_token")) model.experts_per_token = from.experts_per_token;
  if (stated("gated_ffn")) model.gated_ffn = from.gated_ffn;
  if (model.seq_len == 0) model.seq_len = from.seq_len;
  std::vector<std::string> changed;
  if (model.params != before.params) changed.push_back("params");
  if (model.active_params != before.active_params) changed.push_back("active_params");
  if (model.layers != before.layers) changed.push_back("layers");
  if (model.hidden != before.hidden) changed.push_back("hidden");
  if (model.heads != before.heads) changed.push_back("heads");
  if (model.seq_len != before.seq_len) changed.push_back("seq_len");
  if (model.vocab != before.vocab) changed.push_back("vocab");
  if (model.kv_heads != before.kv_heads) changed.push_back("kv_heads");
  if (model.ffn_hidden != before.ffn_hidden) changed.push_back("ffn_hidden");
  if (model.experts != before.experts) changed.push_back("experts");
  if (model.experts_per_token != before.experts_per_token) changed.push_back("experts_per_token");
  if (model.gated_ffn != before.gated_ffn) changed.push_back("gated_ffn");
  return changed;
}

std::string hf_import_summary(const std::vector<std::string>& changed, const Model& model) {
  std::string text = "Model filled from the config.json: " + fmt::count(model.params) + " parameters";
  std::string list;
  for (const std::string& key : changed) list += (list.empty() ? "" : ", ") + key;
  text += list.empty() ? "; nothing changed" : "; changed " + list;
  const bool length_changed = std::find(changed.begin(), changed.end(), "seq_len") != changed.end();
  if (model.seq_len > 0)
    text += length_changed ? "; seq_len " + fmt::number(model.seq_len) + " from the context window (set your training length)"
                           : "; seq_len kept at " + fmt::number(model.seq_len);
  return text + ".";
}

}  // namespace traincost
