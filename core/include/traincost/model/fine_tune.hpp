#pragma once
// Fine-tuning modes as the cost model sees them (issue 29 item 2): which parameters train, what a
// frozen base weight costs in memory, and the FLOPs per token when the base is frozen. A full
// fine-tune is today's model, bit for bit: every parameter trains, 6·N FLOPs per token.
//
// Everything here is derived from the method's definition and the published byte counts (LoRA,
// Hu et al. 2021, arXiv 2106.09685; QLoRA, Dettmers et al. 2023, arXiv 2305.14314); no LoRA
// step time has been measured against it (docs/validation.md says so).
#include "traincost/model/formulas.hpp"
#include "traincost/scenario/scenario.hpp"

namespace traincost {

// LoRA's adapter beside a d_in × d_out weight W: ΔW = B·A with A (r × d_in) and B (d_out × r),
// r·(d_in + d_out) trainable parameters (Hu et al. 2021, §4.1).
double lora_matrix_params(double rank, double d_in, double d_out);

struct AdapterParams {
  double total = 0;   // every adapter parameter: memory, optimizer state, checkpoints
  double active = 0;  // those one token passes through (a mixture of experts routes it to k experts' adapters)
  bool from_share = false;      // trainable_share × N rather than the architecture
  bool assumed_architecture = false;  // derived from the architecture assumed from N (predict.hpp)
};
// The adapters of a LoRA or QLoRA fine-tune: trainable_share × N when given, else summed over the
// target matrices of every layer of the architecture (assumed from N when not given). A full
// fine-tune has none.
AdapterParams adapter_params(const Model& model, const FineTune& ft);

// NF4 storage of one weight: 4 bits, plus its share of the quantization constants. QLoRA keeps one
// FP32 absmax per block of 64 weights (32/64 = 0.5 bits a weight); double quantization stores those
// constants in 8 bits with one FP32 constant per 256 of them: 8/64 + 32/(64·256) = 0.127 bits
// (Dettmers et al. 2023, §3 "Double Quantization"). (4 + 0.127) / 8 = 0.516 bytes a weight.
inline constexpr double kNf4BytesPerParam = (4.0 + 8.0 / 64 + 32.0 / (64 * 256)) / 8;

// Bytes of the whole frozen base. LoRA: BF16, 2 bytes a weight. QLoRA: the linear layers in NF4;
// the embeddings and the output head (2·V·h when the vocabulary is known) stay in BF16, as
// bitsandbytes quantizes only linear layers and transformers leaves the head out. Norms are
// negligible. Full fine-tune: 0 (nothing is frozen).
double frozen_base_bytes(const Model& model, FineTuneMode mode);

// FLOPs per data token of training the workload. Full: flops_per_token (6·N + attention), the
// same number as before. Frozen base: its forward (2·N) and the backward for activation gradients
// (2·N), with no weight-gradient GEMMs: 4·N, plus 6·N_adapter for the adapters, plus attention
// (it has no weights: its backward is unchanged). Recomputation adds the forward again.
// QLoRA's dequantization of each weight before its matmul is not counted (no published measure).
double frozen_base_flops_per_token(double active_params);  // 4·N
double adapter_flops_per_token(double active_params, double adapter_active_params, double attention_flops);
double adapter_recomputed_flops(double flops, double active_params, double adapter_active_params, double attention_flops);
double training_flops_per_token(const Workload& w, bool recompute);
inline constexpr Formula kAdapterFlops{"FLOPs per token (frozen base + adapters)", "f", "4 × {N} + 6 × {Na} + {fa}", "N, Na, fa"};
inline constexpr Formula kAdapterRecomputedFlops{"FLOPs per token with full recomputation", "f'", "{f} + 2 × {N} + 2 × {Na} + {fa} / 3",
                                                 "f, N, Na, fa"};

// The parameters that train: the adapters' with a frozen base, else all N (checkpoints hold
// their state).
double trained_params(const Workload& w);

// Tokens trained when sequences are padded rather than packed: every data token brings 1/fill − 1
// padding tokens that cost as much.
double padded_tokens(double tokens, double fill);
inline constexpr Formula kPaddedTokens{"Tokens trained, padding included (unpacked)", "Dp", "{D} / {fill}", "D, fill"};

}  // namespace traincost
