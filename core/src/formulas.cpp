#include "traincost/formulas.hpp"

#include <cmath>
#include <limits>

#include "traincost/detmath.hpp"

namespace traincost {

double flops_per_token(const Model& model, bool recompute) {
  double per_token = 6.0 * model.active();
  if (model.has_architecture())
    per_token += 12.0 * model.layers * static_cast<double>(model.hidden) * model.seq_len;
  return recompute ? per_token * 4.0 / 3.0 : per_token;
}

double loss_floor(const ScalingLaw& law, double n_params) { return law.E + law.A / det::pow(n_params, law.alpha); }

double tokens_for_loss(const ScalingLaw& law, double n_params, double loss) {
  const double headroom = loss - loss_floor(law, n_params);
  if (!(headroom > 0)) return std::numeric_limits<double>::infinity();
  return det::pow(law.B / headroom, 1.0 / law.beta);
}

double target_tokens(const Target& target, const Model& model) {
  switch (target.kind) {
    case TargetKind::Tokens: return target.tokens;
    case TargetKind::Steps: return target.steps * target.tokens_per_step;
    case TargetKind::Loss:
      return tokens_for_loss(scaling_law_constants(target.law, target.custom_law), model.active(), target.loss);
  }
  return 0;
}

double scaling_efficiency(double chips, double reference_chips, double per_doubling) {
  if (!(reference_chips > 0) || chips <= reference_chips) return 1.0;
  return det::pow(per_doubling, det::log2(chips / reference_chips));
}

double optimal_checkpoint_interval(double write_hours, double mtbf_hours) {
  const double d = write_hours, m = mtbf_hours;
  if (d >= 2 * m) return m;
  const double x = d / (2 * m);
  return std::sqrt(2 * d * m) * (1 + std::sqrt(x) / 3 + x / 9) - d;
}

double goodput(double interval_hours, double write_hours, double restart_hours, double mtbf_hours) {
  const double segment = interval_hours + write_hours;
  const double checkpoint_share = interval_hours / segment;
  const double failure_loss = (segment / 2 + restart_hours) / mtbf_hours;
  return checkpoint_share * (1 - failure_loss);
}

double state_bytes(double params, double bytes_per_param) { return params * bytes_per_param; }

double activation_bytes_per_chip(const Model& model, const MemorySettings& memory, bool recompute) {
  if (!model.has_architecture()) return 0;
  const double s = model.seq_len, b = memory.micro_batch, h = model.hidden, l = model.layers;
  const double t = memory.tensor_parallel;
  if (recompute) return l * 2 * s * b * h / t;
  double per_element = 34;
  if (!memory.flash_attention && model.heads > 0) per_element += 5.0 * model.heads * s / h;
  return l * s * b * h * per_element / t;
}

double min_chips_for_memory(double state, double activations_per_chip, double usable_bytes_per_chip) {
  const double room = usable_bytes_per_chip - activations_per_chip;
  if (!(room > 0)) return 0;
  return std::ceil(state / room);
}

Breakeven breakeven(double fixed_a, double per_run_a, double fixed_b, double per_run_b) {
  const double cost_a1 = fixed_a + per_run_a, cost_b1 = fixed_b + per_run_b;
  if (per_run_a == per_run_b) return {cost_a1 < cost_b1 ? BreakevenKind::FromFirstRun : BreakevenKind::Never, 0};
  const double crossing = (fixed_a - fixed_b) / (per_run_b - per_run_a);
  if (per_run_a < per_run_b)  // A's line is flatter: it wins from the crossing on
    return crossing <= 1 ? Breakeven{BreakevenKind::FromFirstRun, 0} : Breakeven{BreakevenKind::AtRuns, crossing};
  // A's line is steeper: it can only win before the crossing
  return crossing <= 1 ? Breakeven{BreakevenKind::Never, 0} : Breakeven{BreakevenKind::UntilRuns, crossing};
}

}  // namespace traincost
