#include "traincost/output/explain.hpp"

#include <cmath>
#include <cstdio>

#include "traincost/engine/budget.hpp"
#include "traincost/engine/cost_parts.hpp"
#include "traincost/engine/reliability.hpp"
#include "traincost/scenario/fields.hpp"
#include "traincost/model/fine_tune.hpp"
#include "traincost/model/predict.hpp"
#include "traincost/base/format.hpp"
#include "traincost/output/present.hpp"
#include "traincost/evidence/published_runs.hpp"
#include "traincost/output/report.hpp"
#include "traincost/io/scenario_json.hpp"
#include "traincost/output/verdict.hpp"

namespace traincost {
namespace {

// Four significant digits: enough to redo the arithmetic, short enough to read.
std::string g(double v) {
  return fmt::printf_c("%.4g", v);
}

enum class Shown { Number, Flop, Hours, Usd, Chips };

std::string shown(double v, Shown how) {
  switch (how) {
    case Shown::Number: return "= " + g(v);
    case Shown::Flop: return "= " + g(v) + " FLOP";
    case Shown::Hours: return "= " + g(v) + " h (" + fmt::hours(v) + ")";
    case Shown::Usd: return "= " + fmt::usd_exact(v);
    case Shown::Chips: return "= " + g(v) + " chips";
  }
  return "= " + g(v);
}

// The names in a Formula's argument list ("E, A, B") and its {placeholders}, compared at compile
// time: every placeholder must name an argument and every argument must appear.
constexpr bool same_name(const char* a, size_t a_len, const char* b, size_t b_len) {
  if (a_len != b_len) return false;
  for (size_t i = 0; i < a_len; ++i)
    if (a[i] != b[i]) return false;
  return true;
}
constexpr size_t argument_count(const char* args) {
  size_t n = *args ? 1 : 0;
  for (; *args; ++args) n += *args == ',';
  return n;
}
// Index of `name` in the argument list, or the argument count when it is not there.
constexpr size_t argument_index(const char* args, const char* name, size_t len) {
  size_t index = 0;
  const char* start = args;
  for (const char* s = args;; ++s) {
    if (*s == ',' || !*s) {
      if (same_name(start, static_cast<size_t>(s - start), name, len)) return index;
      if (!*s) return argument_count(args);
      ++index;
      start = s + 2;  // ", "
      ++s;
    }
  }
}
constexpr bool placeholders_match(const Formula& f) {
  size_t used = 0;  // bit i: argument i appears
  for (const char* s = f.expression; *s; ++s) {
    if (*s != '{') continue;
    const char* name = s + 1;
    while (*s && *s != '}') ++s;
    if (!*s) return false;
    const size_t index = argument_index(f.arguments, name, static_cast<size_t>(s - name));
    if (index >= argument_count(f.arguments)) return false;
    used |= size_t{1} << index;
  }
  return used + 1 == size_t{1} << argument_count(f.arguments);
}

// The expression with each {placeholder} replaced by its name ("{W} × {n}" -> "W × n") or, given
// the arguments' values, by its value.
std::string fill(const Formula& f, const std::vector<std::string>* values) {
  std::string out;
  for (const char* s = f.expression; *s; ++s) {
    if (*s != '{') {
      out += *s;
      continue;
    }
    const char* name = s + 1;
    while (*s != '}') ++s;
    const size_t len = static_cast<size_t>(s - name);
    out += values ? (*values)[argument_index(f.arguments, name, len)] : std::string(name, len);
  }
  return out;
}

template <typename T> struct Same { using type = T; };

// Calls the formula's function with `args`, records the step with the formula's text and the
// arguments' values in place of its placeholders, and returns the result: the explanation shows
// what the code computes.
template <const Formula& F, typename... A>
double step(std::vector<ExplainStep>& steps, Shown how, double (*fn)(A...), typename Same<A>::type... args) {
  static_assert(argument_count(F.arguments) == sizeof...(A), "the formula names one argument per parameter");
  static_assert(placeholders_match(F), "every placeholder names an argument, and every argument is used");
  const double result = fn(args...);
  const std::vector<std::string> values = {g(static_cast<double>(args))...};
  steps.push_back({F.quantity, std::string(F.symbol) + " = " + fill(F, nullptr), fill(F, &values), shown(result, how)});
  return result;
}

// A cost part's step (cost_parts.hpp): its formula with the values its work function applied.
static_assert([] {
  for (const CostPart& part : kCostParts)
    if (!placeholders_match(*part.formula)) return false;
  return true;
}(), "every placeholder of a cost part's formula names an argument, and every argument is used");
void part_step(std::vector<ExplainStep>& steps, const Formula& f, const PartWorking& x) {
  std::vector<std::string> values;
  for (size_t i = 0; i < x.count; ++i) values.push_back(g(x.arguments[i]));
  steps.push_back({std::string(f.quantity) + x.note, std::string(f.symbol) + " = " + fill(f, nullptr), fill(f, &values), shown(x.amount, Shown::Usd)});
}

std::string giga(double v) { return g(v / 1e9); }

// The step-time model's working for a pair: the layout it chose, each term of the step time and
// the memory per chip, from the figures step_time() computed (StepDetail).
// An option's MFU taken from a published run (mfu_from_run): the run's own numbers, and whose.
void explain_realized_mfu(std::vector<ExplainStep>& steps, const PublishedRun& run, double mfu, const Catalog& catalog) {
  const RealizedMfuInputs in = realized_mfu_inputs(run, catalog);
  step<kRealizedMfu>(steps, Shown::Number, realized_mfu, in.training_flops, in.chip_hours, in.peak_flops);
  steps.back().quantity = "MFU of run " + run.id;
  steps.back().result = "= " + g(mfu) + ": MFU " + fmt::number(mfu, 2) + " as realized by run " + run.id + " (" + run.attribution() +
                        "), over its whole duration";
}

void explain_performance(std::vector<ExplainStep>& steps, const WorkloadInputs& w, const PairInputs& p) {
  const PairPerformance& perf = p.performance;
  const char* source = description_of(kThroughputSourceWords, perf.source);
  if (!perf.layout_found) {
    steps.push_back({"Layout", "fastest layout that fits in memory", std::to_string(perf.layouts_tried) + " layouts tried",
                     perf.least_memory_bytes > 0
                         ? "= none fits: at best " + fmt::bytes(perf.least_memory_bytes) + " per chip (" + describe(perf.least_memory_layout) +
                               ") of " + fmt::bytes(perf.usable_bytes_per_chip) + " usable"
                         : std::string("= none: no layout spreads the global batch over this many chips")});
    return;
  }
  const StepTime& t = perf.time;
  const StepDetail& x = t.detail;
  const Layout& l = perf.layout;
  steps.push_back({"Layout", "fastest of the layouts that fit in memory (throughput " + std::string(source) + ")",
                   std::to_string(perf.layouts_tried) + " layouts tried" + (perf.assumed_architecture ? ", architecture assumed from the parameter count" : ""),
                   "= " + describe(l)});
  if (perf.batch_default) {
    // No batch given: the default grows with the cluster, capped at the compute-optimal batch.
    const double compute = training_flops(flops_per_token(w.model, false), target_tokens(w.target, w.model));
    if (std::isfinite(compute) && compute > 0) {
      step<kOptimalBatch>(steps, Shown::Number, optimal_batch_tokens, compute);
      steps.back().result += " tokens (DeepSeek LLM's batch law: beyond it more batch costs more tokens)";
    }
    if (w.fine_tune.adapters()) {
      step<kDefaultAdapterBatch>(steps, Shown::Number, default_adapter_batch_tokens, p.instances * p.chips_per_instance,
                                 shape_of(w.model).seq_len, perf.optimal_batch_tokens);
      steps.back().result += " tokens (global_batch_tokens not given: a " + std::string(to_string(w.fine_tune.mode)) + " fine-tune steps on " +
                             g(kAdapterBatchSequences) + " sequences, as optimum-neuron's LoRA recipe; at least " + g(kBatchTokensPerChip) +
                             " a chip, at most Bopt)";
    } else {
      step<kDefaultBatch>(steps, Shown::Number, default_batch_tokens, p.instances * p.chips_per_instance, perf.optimal_batch_tokens);
      steps.back().result += " tokens (global_batch_tokens not given: " + g(kBatchTokensPerChip) + " a chip, at least 4M, at most Bopt)";
    }
  }
  const bool raised = t.batch_sequences > perf.global_batch_sequences;
  steps.push_back({"Micro-batches per step",
                   "m = ⌊B / (d × b)⌋" + std::string(l.interleave > 1 ? ", a multiple of p" : "") +
                       (perf.batch_default && !w.fine_tune.adapters() && l.pipeline > 1 ? ", raised to up to " + g(kMicroBatchesPerStage) + " × p / v within Bopt" : ""),
                   g(perf.global_batch_sequences) + " / (" + g(l.data) + " × " + g(l.micro_batch) + ")",
                   "= " + g(t.micro_batches) + " (" + g(t.batch_sequences) + " sequences a step" +
                       (raised ? ", raised by gradient accumulation so the pipeline's stages are not idle" : "") + ")"});
  steps.push_back({"FLOPs per token on the slowest stage", "fm (matmuls), fa (attention), forward",
                   g(x.layers_per_stage) + " layers", "= " + g(x.matmul_flops_per_token) + " + " + g(x.attention_flops_per_token)});
  step<kGemmSizeEfficiency>(steps, Shown::Number, gemm_size_efficiency, x.smallest_gemm_dimension, x.gemm_knee);
  step<kComputeSeconds>(steps, Shown::Number, compute_seconds, x.matmul_flops, x.matmul_rate, x.attention_flops, x.attention_rate);
  steps.back().result += " s";
  if (l.tensor > 1) {
    step<kRingCollective>(steps, Shown::Number, ring_collective_seconds, 1, l.tensor, x.activation_message_bytes, x.tensor_bandwidth);
    steps.back().quantity = "Tensor-parallel collective (" + g(l.recompute == Recompute::Full ? 12 : 8) + " per layer)";
    steps.back().result += " s; × " + g(l.recompute == Recompute::Full ? 12 : 8) + " × " + g(x.layers_per_stage) + " = " + g(x.tensor_per_micro_batch) + " s";
  }
  if (x.expert_routed_bytes > 0) {
    // A mixture of experts over e > 1 chips: each layer's dispatch and combine, forward and
    // backward, split between the scale-up links and the chip's own network link.
    const bool crosses = x.expert_local_ranks < l.expert;
    const bool flex = x.expert_dispatcher == MoeDispatcher::Flex;
    if (flex) {
      // DeepEP/HybridEP: one copy a token to each remote domain holding any of its experts.
      if (crosses)
        step<kFlexNetworkShare>(steps, Shown::Number, flex_network_share, shape_of(w.model).experts, shape_of(w.model).experts_per_token, static_cast<double>(l.expert),
                                x.expert_local_ranks);
      step<kFlexAllToAll>(steps, Shown::Number, flex_all_to_all_seconds, l.expert, x.expert_local_ranks, x.expert_routed_bytes,
                          x.expert_network_share, x.expert_scale_up_bandwidth, x.expert_network_bandwidth);
    } else {
      step<kAllToAll>(steps, Shown::Number, all_to_all_seconds, l.expert, x.expert_local_ranks, x.expert_routed_bytes,
                      x.expert_scale_up_bandwidth, x.expert_network_bandwidth);
    }
    steps.back().quantity = std::string(flex ? "Expert flex dispatch" : "Expert all-to-all") + " (dispatch or combine of " +
                            fmt::bytes(x.expert_routed_bytes) + " a chip, " +
                            (crosses ? "over scale-up links and the network" : "within the scale-up domain") +
                            (flex ? "; moe_dispatcher flex, its MoE overhead × " + g(x.expert_overhead_share)
                             : w.moe_dispatcher == MoeDispatcher::Flex ? "; moe_dispatcher flex runs on NVIDIA GPUs only (DeepEP, HybridEP): an all-to-all here"
                                                                       : "") +
                            ")";
    steps.back().result += " s; × 4 × " + g(x.layers_per_stage) + " = " + g(x.expert_per_micro_batch) + " s a micro-batch, " +
                           (x.expert_overlap ? g(x.expert_exposed) + " s of it exposed (overlapped with another micro-batch's compute)"
                                             : "all of it exposed (no overlap assumed)");
  }
  if (l.pipeline > 1) step<kPipelineBubble>(steps, Shown::Number, pipeline_bubble_fraction, l.pipeline, l.interleave, t.micro_batches);
  if (l.data > 1) {
    // Each group's collectives: gradients reduced at the chip family's width (FP32 on NVIDIA, 16
    // bits on Trainium; reduce-scattered, all-reduced without ZeRO), weights gathered (ZeRO 1-2 once
    // a step; ZeRO-3, frozen base or not, twice a micro-batch). A mixture of experts reduces its
    // routed experts' over their own group.
    const bool moe = x.expert_gradient_bytes > 0 || x.expert_gathered_weight_bytes > 0;
    const std::string what = std::string(x.reduced_gradient_bytes >= 4 ? "FP32 " : "16-bit ") +
                             (w.fine_tune.adapters() ? "adapter gradients" : "gradients");
    const std::string gradients = l.zero == 0 ? "tc(2 passes, " + what + ")" : "tc(1 pass, " + what + ")";
    const std::string weights = l.zero == 3   ? " + tc(2 passes, weights gathered)"
                                : l.zero == 0 ? ""
                                              : " + tc(1 pass, 16-bit weights gathered)";
    const std::string formula = (l.zero == 3 ? "m × (" : "") + gradients + weights + (l.zero == 3 ? ")" : "");
    auto group = [&](const std::string& quantity, double ranks, double gradient_bytes, double gathered, double bandwidth, double seconds) {
      std::string values = (l.zero == 3 ? g(t.micro_batches) + " × " : "") + g(ranks) + " ranks, " + fmt::bytes(gradient_bytes);
      if (l.zero != 0) values += " + " + fmt::bytes(gathered);
      steps.push_back({quantity, formula, values + " at " + g(bandwidth) + " B/s", "= " + g(seconds) + " s"});
    };
    group(std::string("Data-parallel collective") + (moe ? " of the shared weights" : "") + " (before overlap)", l.data, x.gradient_bytes,
          x.gathered_weight_bytes, x.data_bandwidth, x.data_shared_collective);
    if (moe)
      group(x.expert_data_parallel > 1 ? "Routed experts' collective over the expert-data-parallel group (before overlap)"
                                       : "Routed experts' collective (one replica of each expert: none)",
            x.expert_data_parallel, x.expert_gradient_bytes, x.expert_gathered_weight_bytes, x.expert_data_bandwidth, x.data_expert_collective);
  }
  const StepBreakdown& b = t.breakdown;
  std::string sum, values;
  for (const StepPart& part : kStepParts) {
    sum += std::string(sum.empty() ? "" : " + ") + part.symbol;
    values += (values.empty() ? "" : " + ") + g(b.*part.member);
  }
  steps.push_back({"Step time", sum, values, "= " + g(t.step_seconds) + " s"});
  step<kTokensPerSecPerChip>(steps, Shown::Number, tokens_per_sec_per_chip, t.batch_sequences, x.seq_len, l.tensor * l.pipeline * l.data * l.context, t.step_seconds);
  step<kUtilization>(steps, Shown::Number, utilization, t.tokens_per_sec_per_chip, training_flops_per_token(w, false), p.peak_flops_per_chip);
  const std::string band_reason =
      perf.fine_tune_derived ? ", doubled: a LoRA step is derived from the full-training model, never measured)"
      : !perf.validated ? (perf.few_measurements ? ", twice Trainium2's: no measurement of this chip)" : ", doubled: no measurement of this chip)")
      : perf.few_measurements ? ", at least twice the family's: this chip's own calibration rests on " + g(perf.measurements) + " measurements)"
      : perf.moe_unmeasured   ? "; an estimate)"
      : perf.estimate_band    ? "; an estimate: at least twice the family's dense-model error)"
                              : ")";
  steps.back().result += " (HFU " + g(perf.hfu) + "; held-out error on " + perf.evidence +
                         (perf.moe_unmeasured ? " (none on mixture-of-experts training: doubled)" : "") + ": median " +
                         fmt::percent(perf.error_median) + ", 90th percentile " + fmt::percent(perf.error_p90) + band_reason;
  step<kStateBytesPerParam>(steps, Shown::Number, state_bytes_per_param, w.memory.bytes_per_param, l.zero, l.data);
  if (w.fine_tune.adapters()) steps.back().quantity = "State bytes per adapter parameter (ZeRO)";
  if (x.expert_params_per_chip > 0 && !w.fine_tune.adapters()) {
    // A mixture of experts: the routed experts' state is sharded over their own, smaller group.
    step<kExpertDataParallel>(steps, Shown::Number, expert_data_parallel, l.data, l.tensor, l.expert);
    step<kStateBytesPerParam>(steps, Shown::Number, state_bytes_per_param, w.memory.bytes_per_param, l.zero, x.expert_data_parallel);
    steps.back().quantity = "State bytes per expert parameter (ZeRO over the expert-data-parallel group)";
    steps.back().formula = "σe = by stage z over de ranks, bytes per param in all";
    steps.push_back({"Memory per chip",
                     "dense params per chip × σ + expert params per chip × σe + activations per layer × layers × micro-batches in flight + logits",
                     giga(x.dense_params_per_chip) + "e9 × " + g(x.state_bytes_per_param) + " + " + giga(x.expert_params_per_chip) + "e9 × " +
                         g(x.expert_state_bytes_per_param) + " + " + g(x.activation_bytes_per_layer) + " × " + g(x.layers_per_stage) + " × " +
                         g(x.micro_batches_in_flight) + " + logits",
                     "= " + fmt::bytes(t.memory_per_chip_bytes) + " of " + fmt::bytes(perf.usable_bytes_per_chip) + " usable"});
    return;
  }
  if (w.fine_tune.adapters()) {
    // A frozen base: its weights at φ bytes each (no gradients, no optimizer state), the adapters
    // at σ (weights, gradients and Adam state).
    steps.push_back({"Frozen base bytes per parameter", "φ = frozen base bytes / N, / d under ZeRO-3",
                     std::string(to_string(w.fine_tune.mode)) + (w.fine_tune.mode == FineTuneMode::Qlora ? ": NF4 0.516 B, embeddings and head 2 B" : ": BF16 2 B") +
                         (l.zero == 3 ? ", over " + g(l.data) + " ranks" : ""),
                     "= " + g(x.frozen_bytes_per_param) + " bytes"});
    steps.push_back({"Memory per chip",
                     "params per chip × φ + adapter params per chip × σ + activations per layer × layers × micro-batches in flight + logits",
                     giga(x.params_per_chip) + "e9 × " + g(x.frozen_bytes_per_param) + " + " + giga(x.adapter_params_per_chip) + "e9 × " +
                         g(x.state_bytes_per_param) + " + " + g(x.activation_bytes_per_layer) + " × " + g(x.layers_per_stage) + " × " +
                         g(x.micro_batches_in_flight) + " + logits",
                     "= " + fmt::bytes(t.memory_per_chip_bytes) + " of " + fmt::bytes(perf.usable_bytes_per_chip) + " usable"});
    return;
  }
  steps.push_back({"Memory per chip", "params per chip × σ + activations per layer × layers × micro-batches in flight + logits",
                   giga(x.params_per_chip) + "e9 × " + g(x.state_bytes_per_param) + " + " + g(x.activation_bytes_per_layer) + " × " +
                       g(x.layers_per_stage) + " × " + g(x.micro_batches_in_flight) + " + logits",
                   "= " + fmt::bytes(t.memory_per_chip_bytes) + " of " + fmt::bytes(perf.usable_bytes_per_chip) + " usable"});
}

// How the deadline sized the option: the search is no closed formula, so the step states the rule
// and its answer.
void explain_deadline(std::vector<ExplainStep>& steps, const DeadlineSizing& d) {
  const std::string rule = "fewest instances n ≤ " + g(d.limit) + (d.capacity_limited ? " (max_instances)" : "") + " with Td(n) ≤ " +
                           g(d.deadline_days) + " days";
  const std::string tried = std::to_string(d.sizes_tried) + " sizes tried (doubling from 1, then bisection), each with its own layout and goodput";
  steps.push_back({"Deadline sizing", rule, tried,
                   d.met ? "= " + g(d.instances) + " instances"
                         : "= none in time; the fastest is " + fmt::days(d.fastest_days) + " on " + g(d.fastest_instances) + " instances"});
}

// The budget's split of the cash per run (budget.cpp), in the parts' symbols from the table:
// "fixed = Hk + E + (Op × (1 + Rp/O) + Mt) / runs; $/token = (Hc + Ov × (1 + Rp/O) / runs) / D0".
std::string budget_split_formula() {
  std::string fixed, fixed_once, variable, variable_once, re_port;
  for (const CostPart& part : kCostParts)
    if (part.is_re_port) re_port = part.formula->symbol;
  for (const CostPart& part : kCostParts) {
    if (!part.cash || part.is_re_port) continue;
    const std::string term = std::string(part.formula->symbol) + (part.repeated_by_re_port ? " × (1 + " + re_port + "/O)" : "");
    std::string& sum = part.recurrence == Recurrence::PerRun ? (part.grows_with_tokens ? variable : fixed)
                                                             : (part.grows_with_tokens ? variable_once : fixed_once);
    sum += (sum.empty() ? "" : " + ") + term;
  }
  auto with_once = [](std::string sum, const std::string& once, bool bracket) {
    if (once.empty()) return sum;
    const std::string shared = (bracket ? "(" + once + ")" : once) + " / runs";
    return sum.empty() ? shared : sum + " + " + shared;
  };
  return "fixed = " + with_once(fixed, fixed_once, fixed_once.find(" + ") != std::string::npos) + "; $/token = (" +
         with_once(variable, variable_once, variable_once.find(" + ") != std::string::npos) + ") / D0";
}

// What the budget buys (budget.hpp), and with a loss target the loss it reaches and the
// compute-optimal model for the same compute.
void explain_budget(std::vector<ExplainStep>& steps, const WorkloadInputs& w, const BudgetPlan& b) {
  if (!b.applied) return;
  steps.push_back({"Cash per run, split", budget_split_formula(),
                   "", "= " + fmt::usd_exact(b.fixed_per_run) + " + $" + g(b.usd_per_token) + " per token"});
  step<kBudgetTokens>(steps, Shown::Number, budget_tokens, b.budget_usd, b.fixed_per_run, b.usd_per_token);
  steps.back().result += " tokens (" + fmt::hours(b.wall_clock_hours) + ")" + (b.covers_one_step ? "" : ": less than one step");
  if (!b.has_law) return;
  const ScalingLaw law = scaling_law_constants(w.target.law, w.target.custom_law);
  step<kLossAtTokens>(steps, Shown::Number, scaling_law_loss, law.E, law.A, law.B, law.alpha, law.beta, w.model.active(), b.tokens);
  step<kChinchillaCompute>(steps, Shown::Flop, chinchilla_compute, w.model.active(), b.tokens);
  step<kOptimalParams>(steps, Shown::Number, compute_optimal_params, law.A, law.B, law.alpha, law.beta, b.compute);
  step<kOptimalTokens>(steps, Shown::Number, compute_optimal_tokens, b.compute, b.optimal_params);
  step<kLossAtTokens>(steps, Shown::Number, scaling_law_loss, law.E, law.A, law.B, law.alpha, law.beta, b.optimal_params, b.optimal_tokens);
  steps.back().quantity = "Loss of the compute-optimal model";
}

// The goodput model: checkpoint size and pause, restart by failure class, interval, goodput.
// An override the option gives replaces its derivation, and the text says so.
void explain_goodput(std::vector<ExplainStep>& steps, const WorkloadInputs& w, const PairInputs& p, const OptionResult& r) {
  const GoodputTerms t = goodput_terms(w, p);
  const double mtbf = step<kClusterMtbf>(steps, Shown::Number, cluster_mtbf, p.mtbf_hours_per_instance, p.instances);
  steps.back().result += " h";
  const double bytes = step<kCheckpointBytes>(steps, Shown::Number, checkpoint_bytes, trained_params(w), w.memory.bytes_per_param);
  if (w.fine_tune.adapters()) steps.back().quantity += " (the adapters' state: the frozen base is already stored)";
  steps.back().result = "= " + fmt::bytes(bytes);
  const double transfer = step<kCheckpointTransfer>(steps, Shown::Hours, checkpoint_transfer_hours, bytes,
                                                    p.checkpoint_gbps_per_instance, p.instances);
  if (p.checkpoint_write_minutes > 0)
    steps.push_back({"Checkpoint pause", "δ = your checkpoint write time", g(p.checkpoint_write_minutes) + " min",
                     shown(t.checkpoint_pause_hours, Shown::Hours)});
  else
    step<kCheckpointPause>(steps, Shown::Hours, checkpoint_pause_hours, transfer, p.checkpoint_blocking_share);
  if (p.restart_minutes >= 0)
    steps.push_back({"Restart", "R = your restart time", g(p.restart_minutes) + " min", shown(t.restart_hours, Shown::Hours)});
  else
    step<kRestart>(steps, Shown::Hours, restart_hours, p.job_restart_minutes, p.replacement_share, p.replacement_minutes, transfer);
  const bool reclaimed = t.reclaims_per_hour > 0;
  double between = 0;
  if (reclaimed) {
    step<kReclaimRate>(steps, Shown::Number, job_reclaim_rate, p.spot_interruptions_per_hour, p.instances);
    steps.back().result += " per hour";
    steps.push_back({"Restart after a reclaim", "R spot = capacity back + relaunch + reload",
                     g(p.spot_recovery_hours) + " h + " + g(t.reclaim_restart_hours - p.spot_recovery_hours) + " h",
                     shown(t.reclaim_restart_hours, Shown::Hours)});
    between = step<kTimeBetweenLosses>(steps, Shown::Number, time_between_losses, mtbf, p.lost_work_share, t.reclaims_per_hour);
  } else {
    between = step<kMtbfBetweenLosses>(steps, Shown::Number, mtbf_between_losses, mtbf, p.lost_work_share);
  }
  steps.back().result += " h";
  if (p.checkpoint_interval_hours <= 0) {
    step<kCheckpointInterval>(steps, Shown::Number, optimal_checkpoint_interval, t.checkpoint_pause_hours, between);
    steps.back().result += " h";
  }
  if (reclaimed)
    step<kGoodputSpot>(steps, Shown::Number, goodput_with_reclaims, r.checkpoint_interval_hours, t.checkpoint_pause_hours,
                       t.restart_hours, p.lost_work_share, mtbf, t.reclaims_per_hour, t.reclaim_restart_hours);
  else
    step<kGoodput>(steps, Shown::Number, goodput, r.checkpoint_interval_hours, t.checkpoint_pause_hours, t.restart_hours,
                   p.lost_work_share, mtbf);
  steps.back().result += " (" + fmt::percent(r.goodput) + ")";
  // With no goodput the training never ends: no count of interruptions (the option cannot run).
  if (std::isfinite(r.training_hours)) step<kInterruptions>(steps, Shown::Number, expected_interruptions, r.training_hours, mtbf);
  if (reclaimed && std::isfinite(r.training_hours)) {
    step<kReclaimWait>(steps, Shown::Number, reclaim_wait_share, r.goodput, r.checkpoint_interval_hours, t.checkpoint_pause_hours,
                       t.reclaims_per_hour, p.spot_recovery_hours);
    steps.back().result += " of the training hours (" + fmt::hours(r.reclaim_wait_hours) + ", not billed; " + g(r.reclaims) +
                           " reclaims expected)";
  }
}

}  // namespace

std::vector<ExplainStep> explain_pair(const WorkloadInputs& w, const PairInputs& p, const OptionResult& r, double target_tokens,
                                      const Catalog& catalog) {
  std::vector<ExplainStep> steps;
  const Model& m = w.model;
  // Work
  switch (w.target.kind) {
    case TargetKind::Tokens: steps.push_back({"Target tokens", "D0 = tokens", g(w.target.tokens), "= " + g(target_tokens)}); break;
    case TargetKind::Steps: step<kStepsToTokens>(steps, Shown::Number, steps_to_tokens, w.target.steps, w.target.tokens_per_step); break;
    case TargetKind::Loss: {
      const ScalingLaw law = scaling_law_constants(w.target.law, w.target.custom_law);
      step<kTokensForLoss>(steps, Shown::Number, scaling_law_tokens, law.E, law.A, law.B, law.alpha, law.beta, m.active(), w.target.loss);
      steps.back().quantity += std::string(" under ") + to_string(w.target.law);
      break;
    }
  }
  step<kPenalizedTokens>(steps, Shown::Number, penalized_tokens, target_tokens, p.convergence_penalty);
  if (!w.fine_tune.packed) step<kPaddedTokens>(steps, Shown::Number, padded_tokens, r.tokens * w.fine_tune.padding_fill(), w.fine_tune.padding_fill());
  if (w.fine_tune.adapters()) {
    // LoRA / QLoRA: the adapters, then a frozen base's FLOPs (no weight-gradient GEMMs).
    const AdapterParams a = adapter_params(m, w.fine_tune);
    std::string how = a.from_share ? "trainable share " + g(*w.fine_tune.trainable_share) + " × N"
                                   : "Σ r·(d_in + d_out) over the targets of each layer, r = " + g(w.fine_tune.rank) +
                                         (a.assumed_architecture ? ", architecture assumed from N" : "");
    steps.push_back({"Adapter parameters", "Na (LoRA: r·(d_in + d_out) per adapted matrix)", how,
                     "= " + g(a.total) + (a.active != a.total ? " (" + g(a.active) + " per token)" : "")});
    const double attention = m.has_architecture() ? attention_flops_per_token(m.layers, m.hidden, m.seq_len) : 0;
    const double f = step<kAdapterFlops>(steps, Shown::Number, adapter_flops_per_token, m.active(), a.active, attention);
    if (w.recompute) step<kAdapterRecomputedFlops>(steps, Shown::Number, adapter_recomputed_flops, f, m.active(), a.active, attention);
  } else {
    double per_token = step<kDenseFlops>(steps, Shown::Number, dense_flops_per_token, m.active());
    if (m.has_architecture()) {
      const double attention = step<kAttentionFlops>(steps, Shown::Number, attention_flops_per_token, m.layers, m.hidden, m.seq_len);
      per_token += attention;
      steps.push_back({"FLOPs per token", "f = 6·N + fa", g(per_token - attention) + " + " + g(attention), "= " + g(per_token)});
    }
    if (w.recompute) step<kRecomputedFlops>(steps, Shown::Number, recomputed_flops, per_token);
  }
  step<kTrainingFlops>(steps, Shown::Flop, training_flops, r.flops_per_token, r.tokens);

  // Speed
  // An option that cannot run the job has no time or cost (its formulas' values would mislead,
  // and can be negative: issue row 3): the steps stop at what decides that, and say why. A
  // cluster no layout can train on achieves no FLOP/s, so the steps stop before its time, which
  // would read "C / 0 = inf h" (issue 33, item 7).
  const auto cannot_run = [&] {
    steps.push_back({"Cannot run the job", infeasibility_reason(r), "no time or cost is given", ""});
    return steps;
  };
  if (p.deadline.applied) explain_deadline(steps, p.deadline);
  step<kChips>(steps, Shown::Number, chips, p.instances, p.chips_per_instance);
  explain_performance(steps, w, p);
  if (!r.feasible() && !p.performance.layout_found && !(p.measured_tokens_per_sec_per_chip > 0)) return cannot_run();
  if (p.scaling_reference_chips > 0)
    step<kScalingEfficiency>(steps, Shown::Number, scaling_efficiency, r.chips, p.scaling_reference_chips, p.scaling_per_doubling);
  if (p.measured_tokens_per_sec_per_chip > 0) {
    step<kMeasuredThroughput>(steps, Shown::Number, measured_tokens_per_sec, p.measured_tokens_per_sec_per_chip, r.chips,
                              r.scaling_efficiency);
    steps.back().result += " tokens/s";
  } else {
    if (p.mfu_run) explain_realized_mfu(steps, *p.mfu_run, p.mfu, catalog);
    step<kAchievedFlops>(steps, Shown::Number, achieved_flops, p.mfu, p.peak_flops_per_chip, r.chips, r.scaling_efficiency);
    steps.back().result += " FLOP/s (" + g(r.tokens_per_sec) + " tokens/s)";
  }
  if (!r.feasible() && !(r.cluster_flops_per_sec > 0 && std::isfinite(r.compute_hours))) return cannot_run();
  step<kComputeHours>(steps, Shown::Hours, compute_hours, r.training_flops, r.cluster_flops_per_sec);
  explain_goodput(steps, w, p, r);
  if (!r.feasible()) return cannot_run();
  if (r.whole_run_factor != 1)
    step<kWallClockRealized>(steps, Shown::Hours, realized_wall_clock_hours, r.compute_hours, r.goodput, p.compile_hours_per_run, r.whole_run_factor);
  else step<kWallClock>(steps, Shown::Hours, wall_clock_hours, r.compute_hours, r.goodput, p.compile_hours_per_run);
  const double per_day = w.usd_per_day_of_delay.value_or(0);
  if (p.wait_days > 0 || per_day > 0 || w.deadline_days) {
    step<kDaysToModel>(steps, Shown::Number, days_to_model, p.wait_days, r.wall_clock_hours);
    steps.back().result += " days";
  }
  step<kChipHours>(steps, Shown::Number, chip_hours, r.wall_clock_hours, r.chips);

  // Money
  step<kDiscountedPrice>(steps, Shown::Usd, discounted_price, p.price_usd_per_hour, p.discount);
  steps.back().result = "= $" + g(r.price_usd_per_hour) + " per instance-hour";
  // Each part of the cost as evaluate_pair() computed it (cost_parts.hpp), with its inputs.
  const PartContext context{w, p, r};
  for (const CostPart& part : kCostParts) {
    const PartWorking x = part.work(context);
    if (x.shown) part_step(steps, *part.formula, x);
  }
  step<kCostPerRun>(steps, Shown::Usd, cost_per_run, r.per_run_cost, r.fixed_cost, w.runs);
  steps.back().formula = total_formula(per_day > 0);  // the cost of delay when the workload values a day
  // The two prices of a token: compute only (the run's hardware), then all-in (the total above).
  step<kComputeCostPerMillionTokens>(steps, Shown::Number, cost_per_million_tokens, r.hardware_cost_per_run, target_tokens);
  steps.back().result = "= $" + g(r.compute_cost_per_million_tokens);
  step<kCostPerMillionTokens>(steps, Shown::Number, cost_per_million_tokens, r.cost_per_run, target_tokens);
  steps.back().result = "= $" + g(r.cost_per_million_tokens);
  explain_budget(steps, w, plan_budget(w, p, r, target_tokens));

  return steps;
}

std::vector<ExplainStep> explain_pilot(const ResolvedScenario& r, const PilotPlan& plan) {
  std::vector<ExplainStep> steps;
  if (!plan.ok) return steps;
  const PilotRun& run = plan.run;
  const PilotMarks& m = plan.marks;
  const Threshold& x = m.throughput;
  if (x.flips && !x.bisected) {
    step<kAffineRoot>(steps, Shown::Number, affine_root, x.t0, x.gap0, x.t1, x.gap1);
    steps.back().quantity = "Throughput threshold (t = 1 / rate, gap = the cost difference as a share of " +
                            r.options[static_cast<size_t>(plan.incumbent)].label + "'s)";
    steps.back().result += ": rate " + g(1 / affine_root(x.t0, x.gap0, x.t1, x.gap1)) + ", " + fmt::rounded(x.tokens_per_sec_per_chip) +
                           " tokens/s per chip on the planned cluster";
  }
  if (x.flips && run.instances < run.planned_instances) {
    step<kPilotPassMark>(steps, Shown::Number, pass_mark_at_pilot_scale, x.tokens_per_sec_per_chip, run.planned_chips, run.chips,
                         run.per_doubling);
    steps.back().result += " tokens/s per chip";
  }
  step<kPilotCompute>(steps, Shown::Usd, pilot_compute_cost, run.fraction, run.run_compute_usd, run.efficiency);
  if (m.penalty.flips) {
    const ScalingLaw law = scaling_law_constants(m.law, r.workloads[plan.workload].target.custom_law);
    step<kLossGap>(steps, Shown::Number, loss_gap_for_penalty, law.B, law.beta, run.tokens, m.tokens_factor - 1);
  }
  const PilotValue& v = plan.value;
  const bool now_candidate = v.decide_now == plan.candidate;
  steps.push_back({"Value of the information",
                   "V = mean over samples of (cost of the choice made now − cost of the best choice knowing g), g = (1 + penalty) / throughput",
                   std::to_string(v.samples - static_cast<int>(v.skipped_samples)) + " samples; expected cost given g = a + b × g",
                   "= " + fmt::usd_exact(v.value_usd)});
  steps.push_back({"Net value of piloting",
                   now_candidate ? "mean of max(0, cost given g − porting − incumbent) − pilot compute"
                                 : "mean of max(incumbent − cost given g, −porting) − pilot compute",
                   "porting " + fmt::usd_exact(v.expected_porting_usd) + ", pilot compute " + fmt::usd_exact(run.compute_usd + run.compile_usd),
                   "= " + fmt::usd_exact(v.net_value_usd)});
  return steps;
}

std::string explain_text(const Scenario& scenario, const ResolvedScenario& s, const Results& results) {
  std::string out;
  for (size_t w = 0; w < results.workloads.size(); ++w) {
    const WorkloadResult& wr = results.workloads[w];
    out += workload_title(scenario.workloads[w], w) + "\n";
    for (size_t o = 0; o < wr.options.size(); ++o) {
      out += "\n  " + s.options[o].label + " (" + s.options[o].instance + ")\n";
      for (const ExplainStep& step : explain_pair(s.workloads[w], s.workloads[w].options[o], wr.options[o], wr.target_tokens, *s.catalog)) {
        out += "    " + step.quantity + ": " + step.formula + "\n";
        out += "        " + step.substituted + (step.result.empty() ? "" : " " + step.result) + "\n";
      }
      if (const std::string notice = software_notice(s.options[o], *s.catalog); !notice.empty())
        out += "    Software stack: " + notice + "\n";
      const auto swings = goodput_sensitivity(s.workloads[w], s.workloads[w].options[o], scenario.options[o], *s.catalog,
                                              s.options[o].family);
      if (!swings.empty()) out += "    Goodput over the catalog's ranges (all else as above):\n";
      for (const GoodputSwing& swing : swings)
        out += "        " + field_label(*swing.field) + " " + field_value_text(*swing.field, swing.low) + " to " +
               field_value_text(*swing.field, swing.high) + ": goodput " + fmt::percent(swing.goodput_at_low) + " to " +
               fmt::percent(swing.goodput_at_high) + "\n";
    }
    out += "\n  Verdict: " + workload_verdict(s, results, w) + "\n\n";
  }
  // Names and labels are the user's text: no control character reaches the terminal.
  return escape_terminal_text(out);
}

}  // namespace traincost
