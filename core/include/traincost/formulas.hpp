#pragma once
// The formulas of the cost model, one function each, with the source of each formula.
// Units: FLOPs, tokens, bytes, hours and US dollars unless a name says otherwise.
#include "traincost/scenario.hpp"

namespace traincost {

// ---- Work -------------------------------------------------------------------------------------

// Model FLOPs per training token.
//   6·N                 forward 2N + backward 4N per token (Kaplan et al. 2020, arXiv 2001.08361)
//   + 12·l·h·s          attention scores and context, forward and backward, counted as in the
//                       PaLM paper's MFU (Chowdhery et al. 2022, Appendix B) when the
//                       architecture is known
//   × 4/3               with full activation recomputation the forward pass runs twice: 8·N
//                       (Narayanan et al. 2021, arXiv 2104.04473); utilization is then read as
//                       hardware FLOPs utilization
// N is the active parameter count (a mixture-of-experts model computes with the routed experts).
double flops_per_token(const Model& model, bool recompute);

// Smallest loss a model of N parameters reaches with unlimited data: E + A / N^alpha.
double loss_floor(const ScalingLaw& law, double n_params);

// Tokens D at which L(N, D) = E + A/N^alpha + B/D^beta equals `loss`:
//   D = (B / (loss - E - A/N^alpha))^(1/beta)   (Hoffmann et al. 2022, arXiv 2203.15556)
// Only defined above the floor; returns +inf at or below it.
double tokens_for_loss(const ScalingLaw& law, double n_params, double loss);

// Tokens the target asks for (before any convergence penalty).
double target_tokens(const Target& target, const Model& model);

// ---- Speed ------------------------------------------------------------------------------------

// Share of per-chip throughput kept at `chips` when the utilization was observed at
// `reference_chips`: per_doubling^log2(chips / reference_chips), and 1 at or below the
// reference. 0.98 per doubling matches Megatron-LM's 47% -> 42% MFU from 96 to 4,608 H100
// (5.6 doublings: 0.98^5.6 = 0.89 = 42/47).
double scaling_efficiency(double chips, double reference_chips, double per_doubling);

// ---- Goodput (time lost to failures and checkpoints) ------------------------------------------

// Compute time between checkpoints that minimises lost time, for checkpoint write time delta
// and mean time between failures M (both hours). Young 1974 gives sqrt(2·delta·M); Daly 2006
// (Future Generation Computer Systems 22:303) refines it:
//   tau = sqrt(2·delta·M)·(1 + sqrt(delta/(2M))/3 + (delta/(2M))/9) - delta   when delta < 2M
//   tau = M                                                                  otherwise
double optimal_checkpoint_interval(double write_hours, double mtbf_hours);

// Fraction of wall-clock time that trains, to first order:
//   tau / (tau + delta)                     checkpoints pause training
//   × (1 - ((tau + delta)/2 + R) / M)       each failure loses half a segment and a restart
// Zero or negative means the cluster fails faster than it makes progress.
double goodput(double interval_hours, double write_hours, double restart_hours, double mtbf_hours);

// ---- Memory -----------------------------------------------------------------------------------

// Weights, gradients and optimizer state: params × bytes_per_param (16 for mixed-precision
// Adam: 2 + 2 + 4 + 4 + 4, Rajbhandari et al. 2019, arXiv 1910.02054), sharded over all chips
// (ZeRO-3 / FSDP).
double state_bytes(double params, double bytes_per_param);

// Activations held by one chip (Korthikanti et al. 2022, arXiv 2205.05198, Table 2), 16-bit,
// micro-batch b, sequence s, hidden h, heads a, layers l, tensor(+sequence)-parallel t:
//   no recompute:   l · s·b·h·(34 + 5·a·s/h) / t    (5·a·s/h dropped with flash attention)
//   full recompute: l · 2·s·b·h / t                 (only each layer's input is kept)
// Zero when the architecture is not given.
double activation_bytes_per_chip(const Model& model, const MemorySettings& memory, bool recompute);

// Fewest chips whose usable memory holds the sharded state plus each chip's activations:
//   chips ≥ state / (usable_per_chip - activations_per_chip)
// Returns 0 when activations alone exceed a chip (no cluster size helps).
double min_chips_for_memory(double state, double activations_per_chip, double usable_bytes_per_chip);

// ---- Decision ---------------------------------------------------------------------------------

// Cumulative cost of n runs is fixed + n × per_run. For option A against option B:
enum class BreakevenKind {
  FromFirstRun,  // A is cheaper at every run count
  AtRuns,        // A costs more at first and is cheaper from `runs` on (pays back its fixed cost)
  UntilRuns,     // A is cheaper at first and loses from `runs` on
  Never          // A is never cheaper
};
struct Breakeven {
  BreakevenKind kind = BreakevenKind::Never;
  double runs = 0;  // where the lines cross (AtRuns, UntilRuns): (fixed_a - fixed_b) / (per_run_b - per_run_a)
};
Breakeven breakeven(double fixed_a, double per_run_a, double fixed_b, double per_run_b);

}  // namespace traincost
