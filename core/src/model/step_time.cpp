// The step-time model: one training step of a decoder transformer on one chip, term by term.
// Each term's formula and source is in formulas.hpp; this file puts them together.
#include <algorithm>
#include <cmath>

#include "traincost/model/formulas.hpp"
#include "traincost/model/performance.hpp"

namespace traincost {

double StepBreakdown::total() const {
  double sum = 0;
  for (const StepPart& part : kStepParts) sum += this->*part.member;
  return sum;
}

namespace {

// Bandwidth of a collective among ranks `stride` apart in rank order (tensor innermost, then
// context, then data; pipeline outermost): within the scale-up domain when the group fits in it.
double group_bandwidth(const HardwareProfile& hw, double span) {
  return span <= hw.scale_up_chips ? hw.scale_up_bytes_per_sec : hw.network_bytes_per_sec;
}

// Bandwidth per chip of a data-parallel collective among `ranks` chips `stride` apart. Across
// scale-up domains every chip of the group in a domain drives its own network link at once (NCCL
// and Neuron's collective library run one ring per network interface, each crossing between
// domains on a different chip's link), so the group's inter-domain traffic is spread over the
// group's chips in each domain, up to the scale-up links that feed them. With one chip of the
// group per domain (tensor parallelism filling the domain) it is that chip's own link.
double data_group_bandwidth(const HardwareProfile& hw, double stride, double ranks) {
  if (stride * ranks <= hw.scale_up_chips) return hw.scale_up_bytes_per_sec;
  const double per_domain = std::max(1.0, std::floor(hw.scale_up_chips / stride));
  return std::min(hw.scale_up_bytes_per_sec, per_domain * hw.network_bytes_per_sec);
}

}  // namespace

StepTime step_time(const StepInputs& in, const Layout& L, double chips) {
  StepTime out;
  const Shape& m = in.shape;
  const HardwareProfile& hw = in.hardware;
  const Calibration& cal = in.calibration;
  const double t = L.tensor, p = L.pipeline, d = L.data, c = L.context, e = L.expert, b = L.micro_batch, v = L.interleave;
  if (t * p * d * c != chips || L.micro_batch < 1 || L.interleave < 1) return out;
  // The global batch is rounded down to whole micro-batches on every data-parallel rank (and, when
  // interleaving, to a multiple of the stage count of them: Megatron-LM's schedule needs it); a
  // layout that leaves a rank without a micro-batch cannot run.
  const double layers_per_stage = std::ceil(m.layers / p);
  double micro_batches = std::floor(in.global_batch_sequences / (d * b));
  // A default batch grows by gradient accumulation rather than leave the stages idle: to
  // kMicroBatchesPerStage micro-batches a stage, counting each of the v interleaved chunks (GPipe's
  // rule: a bubble (p − 1) / (v·m) of at most a quarter), within the compute-optimal batch.
  // (An interleaved schedule takes them in multiples of p.)
  if (p > 1 && in.max_batch_sequences > in.global_batch_sequences) {
    double wanted = std::ceil(kMicroBatchesPerStage * p / v);
    if (v > 1) wanted = std::ceil(wanted / p) * p;
    micro_batches = std::max(micro_batches, std::min(wanted, std::floor(in.max_batch_sequences / (d * b))));
  }
  if (L.interleave > 1) {
    if (L.pipeline == 1 || std::fmod(layers_per_stage, v) != 0) return out;
    micro_batches = std::floor(micro_batches / p) * p;
  }
  if (micro_batches < 1) return out;
  const double batch = micro_batches * d * b;  // sequences per step as trained
  if (std::fmod(m.seq_len, c) != 0 || layers_per_stage < 1) return out;
  const bool moe = m.experts > 0;
  if (moe && (std::fmod(m.experts, e) != 0 || std::fmod(d * t, e) != 0)) return out;
  if (!moe && L.expert != 1) return out;

  const double h = m.hidden, s = m.seq_len, f = m.ffn, V = m.vocab;
  const double kv_hidden = m.heads > 0 ? h * m.kv_heads / m.heads : h;
  const double k = moe ? m.experts_per_token : 1;
  const double tokens = b * s / c;  // per micro-batch on one chip (before tensor parallelism)
  const bool full = L.recompute == Recompute::Full;

  // ---- Compute: the slowest stage holds its share of the layers and the output head.
  const double body_share = layers_per_stage / m.layers;
  const double head = 2 * V * h;  // the output head's matmul, on the last stage
  const double matmul_fwd = (forward_matmul_flops_per_token(m.active_params, V, h) - head) * body_share + head;
  const double attention_fwd = forward_attention_flops_per_token(layers_per_stage, h, s);
  // Forward, backward (twice the forward) and the recomputed share of the forward: all of it with
  // full recomputation, none with selective, or what the framework's checkpoint policy recomputes
  // where that is known (in.recomputed_matmul_share).
  const double recomputed_share = L.recompute == Recompute::None  ? 0
                                  : in.recomputed_matmul_share >= 0 ? in.recomputed_matmul_share
                                  : full                           ? 1
                                                                   : 0;
  const double matmul_passes = training_matmul_passes(recomputed_share);
  // A frozen base runs its forward and the backward for activation gradients but no weight-gradient
  // GEMMs: one pass fewer (2 of 3, 3 of 4 recomputed). Its adapters train in full (6·N_adapter).
  const double base_passes = matmul_passes - (in.frozen_base ? 1 : 0);
  const double adapter_fwd = 2 * in.adapter_active_params * body_share;
  const double matmul_flops = (base_passes * matmul_fwd + matmul_passes * adapter_fwd) * tokens / t;
  const double attention_flops = training_pass_factor(L.recompute != Recompute::None) * attention_fwd * tokens / t;
  // A matmul's smallest dimension: the tokens it multiplies (an expert sees its share of the
  // routed tokens of its expert-parallel group) or the weight's width split over tensor ranks.
  const double gemm_rows = moe ? expert_tokens(tokens, k, e, m.experts) : tokens;
  const double smallest = std::min({gemm_rows, h / t, (f > 0 ? f : 4 * h) / t});
  const double matmul_rate = hw.peak_flops * hw.matmul_fraction * (hw.fp8 ? cal.fp8_matmul_efficiency : cal.matmul_efficiency) *
                             gemm_size_efficiency(smallest, cal.gemm_knee);
  const double attention_rate = hw.peak_bf16_flops * hw.matmul_fraction_bf16 * cal.matmul_efficiency * cal.attention_efficiency;
  const double compute = compute_seconds(matmul_flops, matmul_rate, attention_flops, attention_rate);

  // ---- Memory-bound work (norms, activations, residuals, casts): β = cal.memory_bound_bytes
  // bytes per token, layer and width unit of the layer's width, h + f (h + k·f through a token's
  // k experts). A mixture of experts also pays the MoE overhead: 4·k·h width units at their own
  // fitted bytes, β_moe = cal.moe_overhead() (about 300·k·h bytes a token and layer on NVIDIA),
  // far more than the permutation's bare copy (moe_permutation_bytes_per_token, 8·(1 + k)·h):
  // charged at the copy's bytes alone, the model predicts the MoE rows whose experts sit within
  // a scale-up domain up to 3.3× too fast (docs/validation.md, "Mixture of experts"). The term
  // stands for the MoE layer's measured overheads (routing, permutation, grouped GEMMs over many
  // local experts, their launches) until a term for each is derived; it has its own factor so the
  // MoE rows do not pull the dense layers' β (sharing one, β rose 53 -> 63 and dense rows got slower).
  // A flex dispatcher (DeepEP, HybridEP) permutes inside its dispatch and combine kernels and the
  // recipes that run it also capture the router and permutation in CUDA graphs: of this overhead a
  // layer pays the fitted share cal.flex_moe_share (docs/validation.md, "The MoE dispatcher").
  const bool flex = moe && in.moe_dispatcher == MoeDispatcher::Flex;
  const double overhead_share = flex ? cal.flex_moe_share : 1;
  const double layer_bytes = cal.memory_bound_bytes * (moe ? h + k * f : h + f);
  const double moe_overhead_bytes = moe ? cal.moe_overhead() * 4 * k * h * overhead_share : 0;
  const double memory_bound = tokens * layers_per_stage * (layer_bytes + moe_overhead_bytes) * 2 / t / hw.hbm_bytes_per_sec;

  // ---- Tensor parallelism: per layer, forward and backward each gather and scatter the
  // activations twice (all-reduces without sequence parallelism move the same volume); full
  // recomputation repeats the forward's.
  const double activation_bytes = tokens * h * 2;
  const double ring = cal.ring_efficiency;
  double tensor = 0;
  if (t > 1)
    tensor = layers_per_stage * (full ? 12 : 8) * ring_collective_seconds(1, t, activation_bytes, group_bandwidth(hw, t) * ring);

  // ---- Expert parallelism: each MoE layer sends every token to its k experts and back, in the
  // forward and the backward pass (four all-to-alls; GShard, Lepikhin et al. 2020). The e ranks of
  // an expert-parallel group are neighbours in rank order (Megatron-Core's expert grid with expert
  // tensor parallelism 1 puts EP innermost), so min(e, scale-up chips) of them share a scale-up
  // domain: the share of a chip's tokens bound for those goes over NVLink/NeuronLink, the rest
  // over its own network link, both at once (all_to_all_seconds in formulas.hpp).
  // With Megatron-Core's expert-parallel overlap (in.expert_overlap) the forward of one micro-batch
  // runs with the backward of another and each one's all-to-alls proceed under the other's compute:
  // only what outlasts the compute and memory-bound work of a micro-batch is exposed.
  // A flex dispatcher sends a token once to each remote domain holding any of its experts, not
  // once per remote expert (flex_network_share): only the network part shrinks.
  double expert_all = 0, expert = 0, routed_bytes = 0, one_all_to_all = 0, network_share = 0;
  if (moe && e > 1) {
    routed_bytes = tokens / t * k * h * 2;  // one dispatch (or combine) from one chip, 16-bit
    const double local = std::min(e, hw.scale_up_chips);
    network_share = flex ? flex_network_share(m.experts, k, e, local) : (e - local) / e;
    one_all_to_all = flex ? flex_all_to_all_seconds(e, local, routed_bytes, network_share, hw.scale_up_bytes_per_sec * ring,
                                                    hw.network_bytes_per_sec * ring)
                          : all_to_all_seconds(e, local, routed_bytes, hw.scale_up_bytes_per_sec * ring, hw.network_bytes_per_sec * ring);
    expert_all = layers_per_stage * 4 * one_all_to_all;
    expert = in.expert_overlap ? std::max(0.0, expert_all - (compute + memory_bound)) : expert_all;
  }

  // ---- Context parallelism: ring attention passes K and V around the c ranks (Liu et al. 2023),
  // forward and twice backward, hidden behind the attention it feeds where it can be.
  double context = 0;
  if (c > 1) {
    const double kv_bytes = b * (s / c) * 2 * kv_hidden * 2;
    const double passes = 3 * layers_per_stage * (c - 1);
    context = std::max(0.0, passes * kv_bytes / (group_bandwidth(hw, t * c) * ring) - attention_flops / attention_rate);
  }

  // ---- Pipeline: idle stages at the start and end of each step, and activations sent between
  // stages (split over tensor ranks with sequence parallelism), v times per micro-batch.
  double bubble = 0, p2p = 0;
  if (p > 1) {
    bubble = pipeline_bubble_fraction(p, v, micro_batches) * micro_batches * (compute + memory_bound + tensor + expert);
    p2p = micro_batches * 2 * v * activation_bytes / t / (group_bandwidth(hw, t * c * p) * ring);
  }

  // ---- Parameters on one chip, in two groups: the dense weights (attention, norms, embeddings,
  // routers, shared experts) split over tensor × pipeline ranks and replicated over the d
  // data-parallel ranks; the routed experts whole on one of e expert-parallel ranks, split over
  // pipeline stages and replicated over the expert-data-parallel group of d × t / e ranks
  // (expert_data_parallel in formulas.hpp). The routed experts' share of the parameters follows
  // from the active count: N − Na = (1 − k/E) × N_experts.
  double dense_per_chip = m.params / (t * p), expert_per_chip = 0;
  const double expert_data = moe ? expert_data_parallel(d, t, e) : d;
  if (moe) {
    const double expert_params = (m.params - m.active_params) / (1 - k / m.experts);
    dense_per_chip = (m.params - expert_params) / (t * p);
    expert_per_chip = expert_params / (e * p);
  }
  const double params_per_chip = dense_per_chip + expert_per_chip;
  // Adapters sit beside the weights they adapt, so they are split over chips as those are; with a
  // frozen base they are all that trains.
  const double adapter_per_chip = in.frozen_base ? in.adapter_params * params_per_chip / m.params : 0;
  const double trained_per_chip = in.frozen_base ? adapter_per_chip : params_per_chip;

  // ---- Data parallelism: gradients are reduce-scattered and weights all-gathered once a step
  // (ZeRO 1-2; DDP all-reduces the gradients: two passes), overlapping the last micro-batch's
  // backward pass; ZeRO-3 gathers the weights for every micro-batch's forward and backward and
  // scatters its gradients, overlapping all compute. Gradients are reduced at the chip family's
  // hw.reduced_gradient_bytes (FP32 on NVIDIA: kReducedGradientBytes) and weights gathered in 16
  // bits (formulas.hpp).
  // Each weight's collective runs over the ranks that hold a replica of it (Megatron-Core reduces
  // the dense and the expert gradients each over its own group, one after the other): the shared
  // weights' over the d data-parallel ranks, t·c apart; a routed expert's over its
  // expert-data-parallel group of d·t/e ranks, e apart (the experts are split over e neighbouring
  // ranks, so fewer of the group share a scale-up domain's network links). With e = d·t every
  // expert has one replica and its gradients are reduced nowhere.
  const double expert_share = expert_per_chip / params_per_chip;
  const double data_bw = data_group_bandwidth(hw, t * c, d) * ring;
  const double expert_data_bw = data_group_bandwidth(hw, std::max(t * c, e), expert_data) * ring;
  // Seconds of a group's collectives: `gradients` parameters' gradients reduced (reduce-scattered,
  // or all-reduced without ZeRO) and `gathered` bytes of weights gathered `gathers` times (once a
  // step for ZeRO 1-2, twice a micro-batch for ZeRO-3).
  const double gradient_passes = L.zero == 0 ? 2 : 1;
  auto group_collective = [&](double ranks, double bw, double gradients, double gathers, double gathered) {
    return ring_collective_seconds(gradient_passes, ranks, gradients * hw.reduced_gradient_bytes, bw) +
           ring_collective_seconds(gathers, ranks, gathered, bw);
  };
  // A frozen base has no gradients to reduce, only its adapters'; ZeRO-3 still gathers its frozen
  // weights for the forward and the backward of each micro-batch.
  const double gathers = L.zero == 3 ? 2 : L.zero == 0 ? 0 : 1;
  const double gathered = L.zero == 3 ? params_per_chip * (in.frozen_base ? in.frozen_bytes_per_param : kGatheredWeightBytes)
                                      : trained_per_chip * kGatheredWeightBytes;
  const double times = L.zero == 3 ? micro_batches : 1;  // ZeRO-3: every micro-batch
  double data = 0, shared_collective = 0, expert_collective = 0;
  if (d > 1) {
    shared_collective = times * group_collective(d, data_bw, trained_per_chip * (1 - expert_share), gathers, gathered * (1 - expert_share));
    expert_collective = times * group_collective(expert_data, expert_data_bw, trained_per_chip * expert_share, gathers, gathered * expert_share);
    // ZeRO-3's collectives overlap all of every micro-batch's compute; the others the last one's backward.
    data = std::max(0.0, shared_collective + expert_collective - (L.zero == 3 ? micro_batches * compute : compute * 2 / 3));
  }

  // ---- Optimizer step: read and write the (sharded) state once; the experts' is sharded over
  // their expert-data-parallel group.
  const double state_per_param = state_bytes_per_param(in.bytes_per_param, L.zero, d);
  const double expert_state_per_param = state_bytes_per_param(in.bytes_per_param, L.zero, expert_data);
  const double optimizer = trained_per_chip * in.bytes_per_param *
                           ((1 - expert_share) / (L.zero >= 1 ? d : 1) + expert_share / (L.zero >= 1 ? expert_data : 1)) * 2 /
                           hw.hbm_bytes_per_sec;

  StepDetail& x = out.detail;
  x.layers_per_stage = layers_per_stage;
  x.tokens_per_micro_batch = tokens;
  x.matmul_flops_per_token = matmul_fwd;
  x.attention_flops_per_token = attention_fwd;
  x.matmul_flops = matmul_flops;
  x.attention_flops = attention_flops;
  x.smallest_gemm_dimension = smallest;
  x.gemm_knee = cal.gemm_knee;
  x.seq_len = s;
  x.gemm_efficiency = gemm_size_efficiency(smallest, cal.gemm_knee);
  x.matmul_rate = matmul_rate;
  x.attention_rate = attention_rate;
  x.compute_per_micro_batch = compute;
  x.activation_message_bytes = activation_bytes;
  x.tensor_bandwidth = group_bandwidth(hw, t) * ring;
  x.tensor_per_micro_batch = tensor;
  x.bubble_fraction = p > 1 ? pipeline_bubble_fraction(p, v, micro_batches) : 0;
  x.expert_routed_bytes = routed_bytes;
  x.expert_local_ranks = moe && e > 1 ? std::min(e, hw.scale_up_chips) : 0;
  x.expert_scale_up_bandwidth = hw.scale_up_bytes_per_sec * ring;
  x.expert_network_bandwidth = hw.network_bytes_per_sec * ring;
  x.expert_all_to_all = one_all_to_all;
  x.expert_per_micro_batch = expert_all;
  x.expert_exposed = expert;
  x.expert_overlap = in.expert_overlap;
  x.expert_dispatcher = flex ? MoeDispatcher::Flex : MoeDispatcher::AllToAll;
  x.expert_network_share = network_share;
  x.expert_overhead_share = overhead_share;
  x.params_per_chip = params_per_chip;
  x.dense_params_per_chip = dense_per_chip;
  x.expert_params_per_chip = expert_per_chip;
  x.expert_data_parallel = expert_data;
  x.expert_state_bytes_per_param = expert_state_per_param;
  x.reduced_gradient_bytes = hw.reduced_gradient_bytes;
  x.gradient_bytes = trained_per_chip * (1 - expert_share) * hw.reduced_gradient_bytes;
  x.gathered_weight_bytes = gathered * (1 - expert_share);
  x.data_bandwidth = data_bw;
  x.data_shared_collective = shared_collective;
  x.expert_gradient_bytes = trained_per_chip * expert_share * hw.reduced_gradient_bytes;
  x.expert_gathered_weight_bytes = gathered * expert_share;
  x.expert_data_bandwidth = expert_data_bw;
  x.data_expert_collective = expert_collective;
  x.data_collective = shared_collective + expert_collective;
  x.state_bytes_per_param = state_per_param;
  x.adapter_params_per_chip = adapter_per_chip;

  out.breakdown.compute = micro_batches * compute;
  out.breakdown.tensor = micro_batches * tensor;
  out.breakdown.bubble = bubble;
  out.breakdown.p2p = p2p;
  out.breakdown.data = data;
  out.breakdown.other = micro_batches * (memory_bound + expert + context) + optimizer;
  out.step_seconds = out.breakdown.total();
  out.micro_batches = static_cast<int>(micro_batches);
  out.batch_sequences = batch;
  out.tokens_per_sec_per_chip = tokens_per_sec_per_chip(batch, s, chips, out.step_seconds);

  // ---- Memory: the state, plus the activations the first stage holds for the micro-batches in
  // flight, plus the output logits in FP32. In 1F1B the first stage holds p micro-batches of its
  // l/p layers (fewer when a step has fewer), so l layers' worth; the interleaved schedule holds
  // 1 + (p − 1)/(p·v) times that (Korthikanti et al. 2022, §4.2.3). The factor is the interleaved
  // schedule's alone: without interleaving (v = 1) it does not apply (Megatron-LM's
  // theoretical_memory_usage.py applies it only with a virtual pipeline).
  out.state_bytes = dense_per_chip * state_per_param + expert_per_chip * expert_state_per_param;
  if (in.frozen_base) {
    // Frozen weights hold only themselves, split over tensor and pipeline ranks as any weight and
    // over data-parallel ranks only where the layout shards weights (ZeRO-3 / FSDP); the adapters
    // hold weights, gradients and Adam state, sharded as the ZeRO stage says.
    const double frozen_shard = L.zero == 3 ? d : 1, expert_frozen_shard = L.zero == 3 ? expert_data : 1;
    out.state_bytes = (dense_per_chip / frozen_shard + expert_per_chip / expert_frozen_shard) * in.frozen_bytes_per_param +
                      adapter_per_chip * state_per_param;
    x.frozen_bytes_per_param = in.frozen_bytes_per_param / frozen_shard;
  }
  const double seq_split = L.sequence_parallel || t == 1 ? t : 1;
  const double attention_part = layer_activation_bytes(tokens, h, kv_hidden, 0, m.gated_ffn) / seq_split;
  const double ffn_part = layer_activation_bytes(tokens, 0, 0, moe ? k * f : f, m.gated_ffn) / t;
  double per_layer = attention_part + ffn_part;
  if (full) per_layer = 2 * tokens * h / seq_split;
  else if (L.recompute == Recompute::Selective) per_layer -= 2 * tokens * (moe ? k * f : f) / t;
  const double in_flight = p > 1 ? std::min(p, micro_batches) * (v > 1 ? 1 + (p - 1) / (p * v) : 1) : 1;
  x.activation_bytes_per_layer = per_layer;
  x.micro_batches_in_flight = in_flight;
  out.activation_bytes = per_layer * layers_per_stage * in_flight + 4 * tokens * V / t;
  out.memory_per_chip_bytes = out.state_bytes + out.activation_bytes;
  out.fits = out.memory_per_chip_bytes <= hw.hbm_bytes * in.usable_fraction;
  out.valid = std::isfinite(out.step_seconds) && out.step_seconds > 0;
  return out;
}

}  // namespace traincost
