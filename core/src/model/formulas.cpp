#include "traincost/model/formulas.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "traincost/base/detmath.hpp"

namespace traincost {

double dense_flops_per_token(double active_params) { return 6.0 * active_params; }
double attention_flops_per_token(double layers, double hidden, double seq) { return 12.0 * layers * hidden * seq; }
double recomputed_flops(double flops) { return flops * 4.0 / 3.0; }

double flops_per_token(const Model& model, bool recompute) {
  double per_token = dense_flops_per_token(model.active());
  if (model.has_architecture()) per_token += attention_flops_per_token(model.layers, model.hidden, model.seq_len);
  return recompute ? recomputed_flops(per_token) : per_token;
}

double training_flops(double flops_per_token, double tokens) { return flops_per_token * tokens; }

double optimal_batch_tokens(double compute_flops) { return 0.292 * det::pow(compute_flops, 0.3271); }

double default_batch_tokens(double chips, double optimal_batch) {
  return std::min(optimal_batch, std::max(kDefaultGlobalBatchTokens, kBatchTokensPerChip * chips));
}

double default_adapter_batch_tokens(double chips, double seq_len, double optimal_batch) {
  return std::min(optimal_batch, std::max(kAdapterBatchSequences * seq_len, kBatchTokensPerChip * chips));
}

namespace {
// The count of architecture_params() with `experts` feed-forwards per layer.
double params_with_experts(const Model& m, double experts) {
  const double h = m.hidden, l = m.layers, V = m.vocab;
  const double kv_hidden = m.heads > 0 && m.kv_heads > 0 ? h * m.kv_heads / m.heads : h;
  const double f = m.ffn_hidden > 0 ? m.ffn_hidden : 4 * h;
  const double ffn = (m.gated_ffn && m.ffn_hidden > 0 ? 3 : 2) * h * f * experts;
  return l * (2 * h * h + 2 * h * kv_hidden + ffn) + 2 * V * h;
}
}  // namespace

double architecture_params(const Model& m) { return params_with_experts(m, m.experts > 0 ? m.experts : 1); }
double architecture_active_params(const Model& m) {
  return params_with_experts(m, m.experts > 0 && m.experts_per_token > 0 ? m.experts_per_token : 1);
}

double loss_floor(const ScalingLaw& law, double n_params) { return law.E + law.A / det::pow(n_params, law.alpha); }

double tokens_for_loss(const ScalingLaw& law, double n_params, double loss) {
  const double headroom = loss - loss_floor(law, n_params);
  if (!(headroom > 0)) return std::numeric_limits<double>::infinity();
  return det::pow(law.B / headroom, 1.0 / law.beta);
}
double scaling_law_tokens(double E, double A, double B, double alpha, double beta, double n_params, double loss) {
  return tokens_for_loss(ScalingLaw{E, A, B, alpha, beta}, n_params, loss);
}

double steps_to_tokens(double steps, double tokens_per_step) { return steps * tokens_per_step; }
double penalized_tokens(double target_tokens, double penalty) { return target_tokens * (1 + penalty); }

double target_tokens(const Target& target, const Model& model) {
  switch (target.kind) {
    case TargetKind::Tokens: return target.tokens;
    case TargetKind::Steps: return steps_to_tokens(target.steps, target.tokens_per_step);
    case TargetKind::Loss:
      return tokens_for_loss(scaling_law_constants(target.law, target.custom_law), model.active(), target.loss);
  }
  return 0;
}

double scaling_efficiency(double chips, double reference_chips, double per_doubling) {
  if (!(reference_chips > 0) || chips <= reference_chips) return 1.0;
  return det::pow(per_doubling, det::log2(chips / reference_chips));
}

double chips(double instances, double chips_per_instance) { return instances * chips_per_instance; }

double achieved_flops(double mfu, double peak_flops_per_chip, double chips, double efficiency) {
  return mfu * peak_flops_per_chip * chips * efficiency;
}
double measured_tokens_per_sec(double tokens_per_sec_per_chip, double chips, double efficiency) {
  return tokens_per_sec_per_chip * chips * efficiency;
}
double compute_hours(double training_flops, double cluster_flops_per_sec) { return training_flops / cluster_flops_per_sec / 3600; }

double cluster_mtbf(double mtbf_hours_per_instance, double instances) { return mtbf_hours_per_instance / instances; }

double checkpoint_bytes(double params, double bytes_per_param) { return params * std::max(0.0, bytes_per_param - 2); }

double checkpoint_transfer_hours(double bytes, double gbps_per_instance, double instances) {
  return bytes / (instances * gbps_per_instance * 1e9) / 3600;
}

double checkpoint_pause_hours(double transfer_hours, double blocking_share) { return transfer_hours * blocking_share; }

double restart_hours(double job_restart_minutes, double replacement_share, double replacement_minutes, double reload_hours) {
  return (job_restart_minutes + replacement_share * replacement_minutes) / 60 + reload_hours;
}

double mtbf_between_losses(double mtbf_hours, double lost_work_share) { return mtbf_hours / lost_work_share; }

double optimal_checkpoint_interval(double write_hours, double mtbf_hours) {
  const double d = write_hours, m = mtbf_hours;
  if (d >= 2 * m) return m;
  const double x = d / (2 * m);
  return std::sqrt(2 * d * m) * (1 + std::sqrt(x) / 3 + x / 9) - d;
}

double goodput(double interval_hours, double pause_hours, double restart_hours, double lost_work_share, double mtbf_hours) {
  const double segment = interval_hours + pause_hours;
  const double checkpoint_share = interval_hours / segment;
  const double loss_per_failure = restart_hours + lost_work_share * segment / 2;
  return checkpoint_share / (1 + loss_per_failure / mtbf_hours);
}

double job_reclaim_rate(double reclaims_per_instance_hour, double instances) { return instances * reclaims_per_instance_hour; }

double time_between_losses(double mtbf_hours, double lost_work_share, double reclaims_per_hour) {
  return 1 / (lost_work_share / mtbf_hours + reclaims_per_hour);
}

double goodput_with_reclaims(double interval_hours, double pause_hours, double restart_hours, double lost_work_share, double mtbf_hours,
                             double reclaims_per_hour, double reclaim_restart_hours) {
  const double segment = interval_hours + pause_hours;
  const double checkpoint_share = interval_hours / segment;
  const double failure_losses = (restart_hours + lost_work_share * segment / 2) / mtbf_hours;
  const double reclaim_losses = reclaims_per_hour * (reclaim_restart_hours + segment / 2);
  return checkpoint_share / (1 + failure_losses + reclaim_losses);
}

double reclaim_wait_share(double goodput, double interval_hours, double pause_hours, double reclaims_per_hour, double recovery_hours) {
  return reclaims_per_hour * recovery_hours * goodput * (interval_hours + pause_hours) / interval_hours;
}

double expected_interruptions(double training_hours, double mtbf_hours) { return training_hours / mtbf_hours; }

double wall_clock_hours(double compute_hours, double goodput, double compile_hours) {
  return compute_hours / goodput + compile_hours;
}
double realized_wall_clock_hours(double compute_hours, double goodput, double compile_hours, double whole_run_factor) {
  return compute_hours / goodput * whole_run_factor + compile_hours;
}
double chip_hours(double wall_clock_hours, double chips) { return wall_clock_hours * chips; }
double realized_mfu(double training_flops, double chip_hours, double peak_flops) {
  return training_flops / (chip_hours * 3600 * peak_flops);
}

double discounted_price(double price_usd_per_hour, double discount) { return price_usd_per_hour * (1 - discount); }
double instance_cost(double hours, double instances, double price_usd_per_hour) { return hours * instances * price_usd_per_hour; }
double porting_cost(double engineer_weeks, double usd_per_engineer_week) { return engineer_weeks * usd_per_engineer_week; }
double validation_cost(double validation_runs, double run_fraction, double compute_cost_per_run) {
  return validation_runs * run_fraction * compute_cost_per_run;
}
double maintenance_cost(double usd_per_year, double horizon_months) { return usd_per_year * horizon_months / 12; }
double egress_cost(double tb, double usd_per_tb) { return tb * usd_per_tb; }
double storage_cost(double tb, double usd_per_tb_month, double hours) { return tb * usd_per_tb_month * hours / 730; }
double cost_per_run(double per_run_cost, double fixed_cost, double runs) { return per_run_cost + fixed_cost / runs; }
double cost_per_million_tokens(double cost_per_run, double tokens) { return cost_per_run / (tokens / 1e6); }
double cumulative_cost(double fixed_cost, double per_run_cost, double runs) { return fixed_cost + runs * per_run_cost; }

double days_to_model(double wait_days, double wall_clock_hours) { return wait_days + wall_clock_hours / 24; }
double delay_cost(double usd_per_day, double days) { return usd_per_day * days; }
double re_porting_cost(double probability_per_year, double effort_share, double one_time_cost, double horizon_months) {
  return probability_per_year * effort_share * one_time_cost * horizon_months / 12;
}

double budget_tokens(double budget, double fixed_per_run, double usd_per_token) {
  if (!(budget > fixed_per_run) || !(usd_per_token > 0)) return 0;
  return (budget - fixed_per_run) / usd_per_token;
}
double scaling_law_loss(double E, double A, double B, double alpha, double beta, double n_params, double tokens) {
  return E + A / det::pow(n_params, alpha) + B / det::pow(tokens, beta);
}
double chinchilla_compute(double n_params, double tokens) { return 6 * n_params * tokens; }
double compute_optimal_params(double A, double B, double alpha, double beta, double compute) {
  const double G = det::pow(alpha * A / (beta * B), 1 / (alpha + beta));
  return G * det::pow(compute / 6, beta / (alpha + beta));
}
double compute_optimal_tokens(double compute, double optimal_params) { return compute / (6 * optimal_params); }

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

double bytes_per_chip(double state, double chips, double activations_per_chip) { return state / chips + activations_per_chip; }

double min_chips_for_memory(double state, double activations_per_chip, double usable_bytes_per_chip) {
  const double room = usable_bytes_per_chip - activations_per_chip;
  if (!(room > 0)) return 0;
  return std::ceil(state / room);
}

double forward_matmul_flops_per_token(double active_params, double vocab, double hidden) {
  return 2 * (active_params - vocab * hidden);
}
double forward_attention_flops_per_token(double layers, double hidden, double seq) { return 2 * layers * hidden * seq; }
double training_pass_factor(bool recomputed) { return recomputed ? 4 : 3; }
double training_matmul_passes(double recomputed_share) { return 3 + recomputed_share; }
double gemm_size_efficiency(double smallest_dimension, double knee) { return smallest_dimension / (smallest_dimension + knee); }
double compute_seconds(double matmul_flops, double matmul_rate, double attention_flops, double attention_rate) {
  return matmul_flops / matmul_rate + attention_flops / attention_rate;
}
double tokens_per_sec_per_chip(double batch_sequences, double seq_len, double chips, double step_seconds) {
  return batch_sequences * seq_len / chips / step_seconds;
}
double utilization(double tokens_per_sec_per_chip, double flops_per_token, double peak_flops) {
  return tokens_per_sec_per_chip * flops_per_token / peak_flops;
}
double expert_tokens(double tokens, double experts_per_token, double expert_parallel, double experts) {
  return experts > 0 ? tokens * experts_per_token * expert_parallel / experts : tokens;
}
double moe_permutation_bytes_per_token(double hidden, double experts_per_token) { return 2 * 2 * (1 + experts_per_token) * hidden * 2; }
double all_to_all_seconds(double ranks, double local_ranks, double bytes, double scale_up_bytes_per_sec, double network_bytes_per_sec) {
  if (ranks <= 1) return 0;
  const double local = std::min(ranks, std::max(1.0, local_ranks));
  const double within = (local - 1) / ranks * bytes / scale_up_bytes_per_sec;
  const double across = local < ranks ? (ranks - local) / ranks * bytes / network_bytes_per_sec : 0;
  return std::max(within, across);
}
double flex_network_share(double experts, double experts_per_token, double ranks, double local_ranks) {
  const double local = std::min(ranks, std::max(1.0, local_ranks));
  if (ranks <= local || experts_per_token <= 0 || experts <= 0) return 0;
  const double domains = ranks / local;
  const double elsewhere = experts - experts / domains;  // experts outside one given domain
  // C(E − E/n, k) / C(E, k) = Π_{i<k} (E − E/n − i) / (E − i): no expert of the token in that domain.
  double none_there = 1;
  for (int i = 0; i < static_cast<int>(experts_per_token); ++i) none_there *= std::max(0.0, elsewhere - i) / (experts - i);
  return (domains - 1) * (1 - none_there) / experts_per_token;
}
double flex_all_to_all_seconds(double ranks, double local_ranks, double bytes, double network_share, double scale_up_bytes_per_sec,
                               double network_bytes_per_sec) {
  if (ranks <= 1) return 0;
  const double local = std::min(ranks, std::max(1.0, local_ranks));
  const double within = (local - 1) / ranks * bytes / scale_up_bytes_per_sec;
  const double across = network_share * bytes / network_bytes_per_sec;
  return std::max(within, across);
}
double ring_collective_seconds(double passes, double ranks, double bytes, double bytes_per_sec) {
  if (ranks <= 1) return 0;
  return passes * (ranks - 1) / ranks * bytes / bytes_per_sec;
}
double pipeline_bubble_fraction(double stages, double interleave, double micro_batches) {
  return (stages - 1) / (interleave * micro_batches);
}
double state_bytes_per_param(double bytes_per_param, int zero_stage, double d) {
  const double weights = 2, grads = 2, optimizer = bytes_per_param - weights - grads;
  switch (zero_stage) {
    case 0: return bytes_per_param;
    case 1: return weights + grads + optimizer / d;
    case 2: return weights + (grads + optimizer) / d;
    default: return bytes_per_param / d;
  }
}
double expert_data_parallel(double d, double t, double e) { return d * t / e; }
double layer_activation_bytes(double tokens, double hidden, double kv_hidden, double ffn, bool gated) {
  return tokens * (12 * hidden + 4 * kv_hidden) + tokens * ffn * (gated ? 6 : 4);
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

double payback_runs(const Breakeven& b) {
  switch (b.kind) {
    case BreakevenKind::FromFirstRun: return 1;
    case BreakevenKind::AtRuns: return b.runs;
    case BreakevenKind::UntilRuns:
    case BreakevenKind::Never: break;
  }
  return std::numeric_limits<double>::infinity();
}

double affine_root(double t0, double g0, double t1, double g1) { return t0 - g0 * (t1 - t0) / (g1 - g0); }
double pass_mark_at_pilot_scale(double rate, double chips, double pilot_chips, double per_doubling) {
  return rate / scaling_efficiency(chips, pilot_chips, per_doubling);
}
double pilot_compute_cost(double fraction, double compute_cost_per_run, double efficiency) {
  return fraction * compute_cost_per_run * efficiency;
}
double loss_gap_for_penalty(double B, double beta, double tokens, double penalty) {
  return B * det::pow(tokens, -beta) * (det::pow(1 + penalty, beta) - 1);
}

}  // namespace traincost
