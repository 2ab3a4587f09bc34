#pragma once
// How a training job is spread over chips: the parallel degrees, micro-batch, recomputation and
// ZeRO stage of a layout, and the keys of it a user may pin (the step-time model's layout search
// chooses the rest: model/performance.hpp).
#include <optional>
#include <string>

#include "traincost/base/enum_words.hpp"

namespace traincost {

enum class Recompute { None, Selective, Full };
inline constexpr EnumWord<Recompute> kRecomputeWords[] = {
    {Recompute::None, "none", "no recomputation"},
    {Recompute::Selective, "selective", "selective recomputation"},
    {Recompute::Full, "full", "full recomputation"}};

// How a mixture-of-experts layer moves tokens to their experts (Megatron-Core's
// moe_token_dispatcher_type). AllToAll: permute each token into one copy per routed expert and
// exchange them with NCCL all-to-alls (Megatron-Core's "alltoall", the default of every
// Megatron-Bridge model provider). Flex: DeepEP or HybridEP kernels ("flex" with a
// moe_flex_dispatcher_backend) that permute inside the dispatch kernel and send a token once to each
// remote scale-up domain holding any of its experts, forwarding it over NVLink there (DeepSeek-V3
// report §3.2.2; NVIDIA's HybridEP). Only NVIDIA GPUs run them.
enum class MoeDispatcher { AllToAll, Flex };
inline constexpr EnumWord<MoeDispatcher> kMoeDispatcherWords[] = {
    {MoeDispatcher::AllToAll, "all_to_all", "all-to-all (NCCL, one copy per expert)"},
    {MoeDispatcher::Flex, "flex", "flex (DeepEP or HybridEP, one copy per remote domain)"}};

// How the job is spread over the chips. Degrees are per chip: tensor × pipeline × data × context
// = chips; expert parallelism splits a mixture of experts' experts within the data × tensor ranks.
struct Layout {
  int tensor = 1, pipeline = 1, data = 1, context = 1, expert = 1;
  int micro_batch = 1;  // sequences per micro-batch
  int interleave = 1;   // pipeline chunks per stage (virtual stages)
  Recompute recompute = Recompute::None;
  bool sequence_parallel = true;  // with tensor parallelism, activations are split too
  int zero = 1;                   // ZeRO stage: 0 DDP, 1 optimizer, 2 + gradients, 3 + weights (FSDP)
};

// The layout keys a user pins; the others are searched.
struct LayoutPins {
  std::optional<int> tensor, pipeline, data, context, expert, micro_batch, interleave, zero;
  std::optional<Recompute> recompute;
  std::optional<bool> sequence_parallel;
  bool empty() const;
};

// "TP8 PP16 (×4 interleaved) DP64 CP1, micro-batch 1, full recomputation, ZeRO-1"
std::string describe(const Layout& layout);

}  // namespace traincost
