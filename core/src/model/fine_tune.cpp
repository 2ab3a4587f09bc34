#include "traincost/model/fine_tune.hpp"

#include "traincost/model/formulas.hpp"
#include "traincost/model/predict.hpp"

namespace traincost {

double lora_matrix_params(double rank, double d_in, double d_out) { return rank * (d_in + d_out); }

AdapterParams adapter_params(const Model& model, const FineTune& ft) {
  AdapterParams a;
  if (!ft.adapters()) return a;
  if (ft.trainable_share) {
    a.from_share = true;
    a.total = *ft.trainable_share * model.params;
    a.active = *ft.trainable_share * model.active();
    return a;
  }
  const Shape s = shape_of(model, &a.assumed_architecture);
  const double r = ft.rank, h = s.hidden, f = s.ffn;
  const double kv = h * s.kv_heads / s.heads;  // key/value width of grouped-query attention
  auto on = [&](unsigned target) { return (ft.targets & target) != 0; };
  // Attention: q and o are h × h; k and v are h × kv.
  const double attention = (on(kLoraQ) ? lora_matrix_params(r, h, h) : 0) + (on(kLoraK) ? lora_matrix_params(r, h, kv) : 0) +
                           (on(kLoraV) ? lora_matrix_params(r, h, kv) : 0) + (on(kLoraO) ? lora_matrix_params(r, h, h) : 0);
  // Feed-forward, per expert: gate (gated only) and up are h × f, down f × h.
  const double mlp = (on(kLoraGate) && s.gated_ffn ? lora_matrix_params(r, h, f) : 0) + (on(kLoraUp) ? lora_matrix_params(r, h, f) : 0) +
                     (on(kLoraDown) ? lora_matrix_params(r, f, h) : 0);
  const double experts = s.experts > 0 ? s.experts : 1, per_token = s.experts > 0 ? s.experts_per_token : 1;
  a.total = s.layers * (attention + experts * mlp);
  a.active = s.layers * (attention + per_token * mlp);
  return a;
}

double frozen_base_bytes(const Model& model, FineTuneMode mode) {
  switch (mode) {
    case FineTuneMode::Full: return 0;
    case FineTuneMode::Lora: return 2 * model.params;
    case FineTuneMode::Qlora: {
      const double embeddings = model.has_architecture() && model.vocab > 0 ? 2.0 * model.vocab * model.hidden : 0;
      return (model.params - embeddings) * kNf4BytesPerParam + embeddings * 2;
    }
  }
  return 0;
}

double frozen_base_flops_per_token(double active_params) { return 4.0 * active_params; }

double adapter_flops_per_token(double active_params, double adapter_active_params, double attention_flops) {
  return frozen_base_flops_per_token(active_params) + dense_flops_per_token(adapter_active_params) + attention_flops;
}
// Recomputation runs each forward twice: the base's 2·N, the adapters' 2·N_adapter and the
// attention's forward (a third of its 12·l·h·s).
double adapter_recomputed_flops(double flops, double active_params, double adapter_active_params, double attention_flops) {
  return flops + 2 * active_params + 2 * adapter_active_params + attention_flops / 3;
}

double training_flops_per_token(const Workload& w, bool recompute) {
  if (!w.fine_tune.adapters()) return flops_per_token(w.model, recompute);
  const Model& m = w.model;
  const double adapters = adapter_params(m, w.fine_tune).active;
  const double attention = m.has_architecture() ? attention_flops_per_token(m.layers, m.hidden, m.seq_len) : 0;
  const double per_token = adapter_flops_per_token(m.active(), adapters, attention);
  return recompute ? adapter_recomputed_flops(per_token, m.active(), adapters, attention) : per_token;
}

double trained_params(const Workload& w) { return w.fine_tune.adapters() ? adapter_params(w.model, w.fine_tune).total : w.model.params; }

double padded_tokens(double tokens, double fill) { return tokens / fill; }

}  // namespace traincost
