#pragma once
// Predicted utilization: how long a training step takes for a model on a cluster laid out a given
// way (the step-time model), and which layout is fastest among those that fit in memory (the
// layout search). Every term is a formula in formulas.hpp; the few efficiency factors the physics
// leaves open are calibrated per chip family on published measurements (calibration.hpp) and
// stored in the catalog.
#include <cstddef>
#include <iterator>
#include <optional>
#include <string>

#include "traincost/scenario/layout.hpp"

namespace traincost {

// ---- What the model needs to know ----------------------------------------------------------------

// One chip as the step-time model sees it, with its cluster's links.
struct HardwareProfile {
  double peak_flops = 0;              // dense, at the precision the matmuls run at
  double peak_bf16_flops = 0;         // attention and other 16-bit work
  double matmul_fraction = 1;         // measured achievable matmul (MAMF) / peak, at that precision (1: unmeasured)
  double matmul_fraction_bf16 = 1;
  bool fp8 = false;                   // matmuls in FP8
  double hbm_bytes = 0;
  double hbm_bytes_per_sec = 0;
  double scale_up_bytes_per_sec = 0;  // NVLink/NeuronLink, per chip and direction
  double scale_up_chips = 8;          // chips one scale-up domain connects
  double network_bytes_per_sec = 0;   // scale-out (EFA, InfiniBand) per chip
  // Bytes a gradient takes in the data-parallel reduction: what the chip family's training
  // frameworks reduce in (kReducedGradientBytes in formulas.hpp; 16-bit where no source says).
  double reduced_gradient_bytes = 2;
};

// The factors calibrated per chip family (calibration.hpp fits them; the catalog stores them).
struct Calibration {
  double matmul_efficiency = 1;       // of the measured matmul ceiling, BF16
  double fp8_matmul_efficiency = 1;   // of the measured FP8 matmul ceiling
  double attention_efficiency = 1;    // attention kernels, relative to BF16 matmuls
  double gemm_knee = 128;             // smallest GEMM dimension at which a matmul runs at half speed
  double memory_bound_bytes = 50;     // HBM bytes per token per layer per width unit (fwd + bwd), non-matmul work
  double ring_efficiency = 0.8;       // bus bandwidth of ring collectives / link bandwidth (measured, not fitted)
  // The share of the mixture-of-experts memory-bound overhead (the 4·k·h width units of
  // step_time.cpp) a layer still pays with a flex token dispatcher (DeepEP/HybridEP: MoeDispatcher::Flex),
  // fitted on the calibration rows whose recipes run one; 1 where none calibrates (Trainium).
  double flex_moe_share = 1;
  // HBM bytes per token, layer and width unit of the mixture-of-experts overhead (the 4·k·h width
  // units of step_time.cpp), fitted apart from memory_bound_bytes on the calibration rows of
  // mixture-of-experts models so they do not pull the dense layers' factor. 0: none fitted (no MoE
  // calibration rows, as on Trainium), and the overhead is charged at memory_bound_bytes.
  double moe_overhead_bytes = 0;
  double moe_overhead() const { return moe_overhead_bytes > 0 ? moe_overhead_bytes : memory_bound_bytes; }
};

// MoeDispatcher (the token dispatcher: all-to-all or flex) is in scenario/layout.hpp.


// The model's shape. Counts are doubles (they multiply); 0 means unknown where optional.
struct Shape {
  double params = 0;
  double active_params = 0;  // per token (mixture of experts); = params for dense models
  double layers = 0, hidden = 0, heads = 0, kv_heads = 0, ffn = 0, vocab = 0;
  double experts = 0, experts_per_token = 0;  // 0: dense
  double seq_len = 0;
  bool gated_ffn = true;  // SwiGLU-style feed-forward (three matrices)
};

// ---- What it predicts ----------------------------------------------------------------------------

struct StepBreakdown {
  double compute = 0;   // matmuls and attention
  double tensor = 0;    // tensor-parallel collectives
  double bubble = 0;    // pipeline idle time
  double p2p = 0;       // pipeline sends between stages
  double data = 0;      // data-parallel gradient (and ZeRO-3 weight) collectives not hidden by compute
  double other = 0;     // memory-bound work, optimizer step, exposed context/expert-parallel traffic
  double total() const;  // the parts of kStepParts, added in its order
};

// The parts of a step, declared once: the step time's sum, the JSON results (breakdown_s), the
// explain text and the page's step-time bar iterate this table.
struct StepPart {
  const char* key;    // "pipeline_bubble": its key in breakdown_s
  const char* label;  // "Pipeline bubble"
  const char* symbol; // "bubble": in the explain text's sum
  double StepBreakdown::*member;
};
inline constexpr StepPart kStepParts[] = {
    {"compute", "Compute", "compute", &StepBreakdown::compute},
    {"tensor", "Tensor parallel", "tensor", &StepBreakdown::tensor},
    {"pipeline_bubble", "Pipeline bubble", "bubble", &StepBreakdown::bubble},
    {"pipeline_p2p", "Pipeline sends", "p2p", &StepBreakdown::p2p},
    {"data", "Data parallel", "data", &StepBreakdown::data},
    {"other", "Other", "other", &StepBreakdown::other},
};
inline constexpr size_t kStepPartCount = std::size(kStepParts);

// The intermediate figures of a step time, for the explain text.
struct StepDetail {
  double layers_per_stage = 0;
  double tokens_per_micro_batch = 0;   // b × s / c
  double matmul_flops_per_token = 0;   // forward, slowest stage
  double attention_flops_per_token = 0;
  double matmul_flops = 0;             // per micro-batch on one chip (training passes, / t)
  double attention_flops = 0;
  double smallest_gemm_dimension = 0;
  double gemm_knee = 0;
  double gemm_efficiency = 0;
  double seq_len = 0;
  double matmul_rate = 0;              // FLOP/s
  double attention_rate = 0;
  double compute_per_micro_batch = 0;  // seconds
  double activation_message_bytes = 0; // one tensor-parallel collective
  double tensor_bandwidth = 0;         // bytes/s, ring efficiency included
  double tensor_per_micro_batch = 0;
  double bubble_fraction = 0;
  // Expert parallelism (a mixture of experts with e > 1), per micro-batch on one chip:
  double expert_routed_bytes = 0;      // one dispatch (or combine) from one chip
  double expert_local_ranks = 0;       // of the e, those in this chip's scale-up domain
  double expert_scale_up_bandwidth = 0;  // bytes/s, ring efficiency included
  double expert_network_bandwidth = 0;
  double expert_all_to_all = 0;        // seconds, one all-to-all
  double expert_per_micro_batch = 0;   // seconds, 4 × layers all-to-alls, before overlap
  double expert_exposed = 0;           // seconds of it the step is charged
  bool expert_overlap = false;
  MoeDispatcher expert_dispatcher = MoeDispatcher::AllToAll;
  double expert_network_share = 0;     // of one dispatch's bytes, the share over this chip's network link
  double expert_overhead_share = 1;    // of the MoE memory-bound overhead, the share charged
  double params_per_chip = 0;          // dense + expert
  double dense_params_per_chip = 0;    // over t × p, replicated over d
  double expert_params_per_chip = 0;   // routed experts over e × p, replicated over the expert-data-parallel group
  double expert_data_parallel = 0;     // d × t / e (d without experts)
  double expert_state_bytes_per_param = 0;  // ZeRO over the expert-data-parallel group
  // Data parallelism, per chip: the shared (non-expert) weights' collectives over the d
  // data-parallel ranks and the routed experts' over the expert-data-parallel group. Gradients are
  // reduced at reduced_gradient_bytes a value (FP32 on NVIDIA, 16 bits on Trainium); weights
  // gathered in 16 bits (ZeRO 1-2 once a step, ZeRO-3 twice a micro-batch).
  double reduced_gradient_bytes = 0;   // HardwareProfile's
  double gradient_bytes = 0;           // shared weights' gradients, as reduced
  double gathered_weight_bytes = 0;    // shared weights gathered, one gather
  double data_bandwidth = 0;           // bytes/s, ring efficiency included
  double data_shared_collective = 0;   // seconds a step, before overlap
  double expert_gradient_bytes = 0;    // routed experts' gradients, as reduced
  double expert_gathered_weight_bytes = 0;
  double expert_data_bandwidth = 0;
  double data_expert_collective = 0;
  double data_collective = 0;          // seconds, both collectives, before overlap
  double state_bytes_per_param = 0;   // of a trained parameter (ZeRO-sharded)
  double frozen_bytes_per_param = 0;  // of a frozen base weight on this chip, sharded over data-parallel ranks by ZeRO-3 only (0: none frozen)
  double adapter_params_per_chip = 0; // trained adapter parameters on this chip (0: none)
  double activation_bytes_per_layer = 0;
  double micro_batches_in_flight = 0;
};

struct StepTime {
  bool valid = false;          // the layout divides the cluster and the batch
  double step_seconds = 0;
  double tokens_per_sec_per_chip = 0;
  StepBreakdown breakdown;     // seconds per step, adding up to step_seconds
  double memory_per_chip_bytes = 0;  // training state + activations in flight
  double state_bytes = 0;
  double activation_bytes = 0;
  bool fits = false;           // memory_per_chip_bytes <= usable
  int micro_batches = 0;       // per step and data-parallel rank
  double batch_sequences = 0;  // the global batch as trained: rounded down to whole micro-batches per rank
  StepDetail detail;
};

struct StepInputs {
  Shape shape;
  HardwareProfile hardware;
  Calibration calibration;
  double global_batch_sequences = 0;
  // When the batch is a default: the most sequences the layout search may raise it to (the
  // compute-optimal batch) so that a pipeline gets kMicroBatchesPerStage micro-batches a stage.
  // 0: the batch is the scenario's and stays as given.
  double max_batch_sequences = 0;
  double bytes_per_param = 16;   // training state per trained parameter (all of it, unsharded)
  double usable_fraction = 0.9;  // of HBM
  // A frozen base (LoRA, QLoRA; model/fine_tune.hpp): its weights take frozen_bytes_per_param
  // each and have no gradients or optimizer state; only the adapters' parameters train, at
  // bytes_per_param. (false: every parameter trains, as in pretraining.)
  bool frozen_base = false;
  double frozen_bytes_per_param = 0;  // the base's bytes ÷ N: 2 (BF16) or about 0.52 (NF4)
  double adapter_params = 0;          // all the adapters'
  double adapter_active_params = 0;   // those one token passes through
  // The share of the layers' forward matmul work a recomputing layout runs again in the backward
  // pass, where the framework's checkpoint policy is known (a measurement's source states it:
  // training_matmul_passes in formulas.hpp). Below 0: the recompute mode's own, 1 for full, 0 for
  // selective. A layout without recomputation recomputes nothing whatever this says.
  double recomputed_matmul_share = -1;
  // Megatron-Core's expert-parallel overlap (moe_a2a_overlap): the forward of one micro-batch runs
  // with the backward of another, so each one's all-to-alls proceed under the other's compute and
  // only the part longer than that compute is exposed. Off unless the framework's setting is known
  // (a measurement's source states it); a scenario's step is charged every all-to-all in full.
  bool expert_overlap = false;
  // The token dispatcher (MoeDispatcher). AllToAll, today's and every Megatron-Bridge model
  // provider's default, unless the user or a measurement's recipe says flex.
  MoeDispatcher moe_dispatcher = MoeDispatcher::AllToAll;
};

// The step time of one layout (valid = false when it does not divide the cluster or the batch).
StepTime step_time(const StepInputs& in, const Layout& layout, double chips);

struct LayoutChoice {
  bool found = false;       // a layout fits in memory
  Layout layout;
  StepTime time;
  int layouts_tried = 0;
  // When none fits: the smallest memory per chip any layout needs, and with which layout.
  double least_memory_bytes = 0;
  Layout least_memory_layout;
};

// The fastest layout that fits, among those the pins allow: tensor within the scale-up domain,
// pipeline degrees that leave at least one layer per stage, context parallelism for long sequences,
// micro-batches that divide the batch, interleaving, recomputation, sequence parallelism, ZeRO stage
// and (for a mixture of experts) expert parallelism.
LayoutChoice search_layout(const StepInputs& in, double chips, const LayoutPins& pins);

// Step times search_layout() has computed in this process, all threads together: how tests check
// structurally (not by timing) that a resumable computation does bounded work per step.
size_t layouts_searched();


}  // namespace traincost
