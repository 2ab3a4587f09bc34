#include "traincost/scenario/fields.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "traincost/base/format.hpp"

namespace traincost {

std::string FieldSpec::key() const {
  const char* dot = std::strrchr(path, '.');
  return dot ? dot + 1 : path;
}

std::string FieldSpec::input_name() const {
  const std::string p = path;
  for (const char* scope : {"workloads[].", "options[]."})
    if (p.rfind(scope, 0) == 0) return p.substr(std::strlen(scope));
  return p;
}

std::string FieldSpec::of_option(size_t option) const { return "options[" + std::to_string(option) + "]." + input_name(); }

namespace {
// The shortest %g spelling that reads back as the same number: a bound of 2^53 - 1 shows as
// 9007199254740991 and a value just past it as 9007199254740992, never both as "9.0072e+15"
// (tests/core/bad_input_test.cpp, huge_seed rows).
std::string show(double v) {
  std::string text;
  for (int precision = 6; precision <= 17; ++precision) {
    text = fmt::printf_c("%.*g", v, precision);
    if (fmt::parse_c(text) == v) break;
  }
  return text;
}
}  // namespace

std::optional<double> FieldSpec::clamp(double value) const {
  if (!std::isfinite(value)) return std::nullopt;
  const Bounds& b = bounds;
  const double low = b.min_exclusive ? std::nextafter(b.min, b.max) : b.min;
  double v = value < low ? low : value > b.max ? b.max : value;
  if (b.integer) v = std::fmin(std::fmax(std::round(v), std::ceil(low)), std::floor(b.max));
  return v;
}

std::string FieldSpec::check(double value, const std::string& as_written) const {
  const Bounds& b = bounds;
  if (!std::isfinite(value)) return "must be a finite number";
  const std::string written = as_written.empty() ? show(value) : as_written;
  if (b.integer && value != std::floor(value)) return "must be a whole number, got " + written;
  const bool below = b.min_exclusive ? value <= b.min : value < b.min;
  if (below || value > b.max) {
    const std::string got = ", got " + written;
    if (b.min_exclusive && b.min == 0 && value <= 0) return "must be > 0" + got;
    if (!b.min_exclusive && b.min == 0 && value < 0) return "must be >= 0" + got;
    return std::string("must be ") + (b.min_exclusive ? "> " : "between ") + show(b.min) +
           (b.min_exclusive ? " and <= " : " and ") + show(b.max) + got;
  }
  return {};
}

void abort_owner_mismatch(const FieldSpec& spec) {
  std::fprintf(stderr, "traincost: field %s read through the wrong struct\n", spec.path);
  std::abort();
}

namespace fields {
// The most tokens a target may come to (a token target, steps × tokens per step, a loss once
// resolved): the largest value any rangeable input accepts, so also the bound of ranges[].low and
// high, which each input's own bounds then narrow (tests/core/fields_test.cpp checks none is wider).
constexpr double kMaxTokens = 1e16;
constexpr double kBig = kMaxTokens;
constexpr bool kRangeable = true;

// clang-format off
// ---- Scenario -----------------------------------------------------------------------------------
const FieldSpec reference = {"reference", "reference option", "option index", Display::Plain, {0, 7, false, kWhole},
    "0", "The option savings and break-even are measured against (usually what you run today).", "the incumbent GPU option",
    bind<&Scenario::reference>()};
const FieldSpec samples = {"analysis.samples", "samples", "samples", Display::Quantity, {100, 1e6, false, kWhole},
    "20000", "Monte Carlo samples.", "20,000 (±0.3% on a probability)",
    bind<&AnalysisSettings::samples>()};
const FieldSpec seed = {"analysis.seed", "seed", "integer", Display::Plain, {0, 9007199254740991.0, false, kWhole},
    "1", "Random seed: the same scenario and seed give the same numbers everywhere.", "any",
    bind<&AnalysisSettings::seed>()};

// ---- Workload: model ----------------------------------------------------------------------------
const FieldSpec params = {"workloads[].model.params", "parameters", "parameters", Display::Quantity, {1e6, 1e14},
    "required", "Total parameter count N of the model.", "1e9 (fine-tune) to 4e11",
    bind<&Model::params>(), nullptr, nullptr, kRangeable};
const FieldSpec active_params = {"workloads[].model.active_params", "active parameters", "parameters", Display::Quantity, {1e6, 1e14},
    "params", "Parameters active per token (mixture-of-experts); FLOPs use this.", "Mixtral-8x7B: 1.29e10 of 4.67e10",
    bind<&Model::active_params>(), nullptr, nullptr, kRangeable};
const FieldSpec layers = {"workloads[].model.layers", "layers", "layers", Display::Plain, {1, 1000, false, kWhole},
    "none", "Transformer layers; with hidden and seq_len adds the attention term.", "32 (8B) to 126 (405B)",
    bind<&Model::layers>()};
const FieldSpec hidden = {"workloads[].model.hidden", "hidden size", "width", Display::Plain, {1, 262144, false, kWhole},
    "none", "Hidden size (model width).", "4096 (8B) to 16384 (405B)",
    bind<&Model::hidden>()};
const FieldSpec heads = {"workloads[].model.heads", "attention heads", "heads", Display::Plain, {1, 4096, false, kWhole},
    "none", "Attention heads (activation memory without flash attention).", "32 to 128",
    bind<&Model::heads>()};
const FieldSpec seq_len = {"workloads[].model.seq_len", "sequence length", "tokens", Display::Plain, {1, 4194304, false, kWhole},
    "none", "Training sequence length.", "2048 to 8192",
    bind<&Model::seq_len>()};
const FieldSpec vocab = {"workloads[].model.vocab", "vocabulary", "tokens", Display::Plain, {1, 1e7, false, kWhole},
    "none", "Vocabulary size (informational; counted in params).", "32k to 256k",
    bind<&Model::vocab>()};

const FieldSpec kv_heads = {"workloads[].model.kv_heads", "key/value heads", "heads", Display::Plain, {1, 4096, false, kWhole},
    "heads", "Key/value heads of grouped-query attention (activation memory).", "8 (Llama 3), heads (no grouping)",
    bind<&Model::kv_heads>()};
const FieldSpec ffn_hidden = {"workloads[].model.ffn_hidden", "feed-forward width", "width", Display::Plain, {1, 1048576, false, kWhole},
    "4 × hidden", "Feed-forward width, per expert in a mixture of experts (activation memory, memory-bound work).", "14,336 (Llama 3 8B)",
    bind<&Model::ffn_hidden>()};
const FieldSpec experts = {"workloads[].model.experts", "experts", "experts", Display::Plain, {1, 4096, false, kWhole},
    "none (dense)", "Experts per mixture-of-experts layer (expert parallelism, routing traffic).", "8 (Mixtral) to 256 (DeepSeek-V3)",
    bind<&Model::experts>()};
const FieldSpec experts_per_token = {"workloads[].model.experts_per_token", "experts per token", "experts", Display::Plain, {1, 4096, false, kWhole},
    "1 with experts", "Experts each token is routed to.", "2 (Mixtral), 8 (DeepSeek-V3)",
    bind<&Model::experts_per_token>()};

// ---- Workload: target ---------------------------------------------------------------------------
const FieldSpec tokens = {"workloads[].target.tokens", "tokens", "tokens", Display::Quantity, {1e3, kMaxTokens},
    "one target is required", "Training tokens D to process.", "20 x params (Chinchilla) to 2e12+",
    bind<&Target::tokens>(), nullptr, nullptr, kRangeable};
const FieldSpec steps = {"workloads[].target.steps", "steps", "steps", Display::Quantity, {1, 1e9},
    "one target is required", "Optimizer steps (with tokens_per_step).", "1k to 1M",
    bind<&Target::steps>(), nullptr, nullptr, kRangeable};
const FieldSpec tokens_per_step = {"workloads[].target.tokens_per_step", "tokens per step", "tokens", Display::Quantity, {1, 1e10},
    "required with steps", "Global batch in tokens (sequences x sequence length).", "0.5M to 16M",
    bind<&Target::tokens_per_step>(), nullptr, nullptr, kRangeable};
const FieldSpec loss = {"workloads[].target.loss", "target loss", "nats per token", Display::Plain, {0, 20, kExclusive},
    "one target is required", "Target training loss, turned into tokens with the scaling law.", "1.9 to 2.5 (MassiveText-like data)",
    bind<&Target::loss>(), nullptr, nullptr, kRangeable};
const FieldSpec law_E = {"workloads[].target.scaling_law.E", "E", "nats", Display::Plain, {0, 20},
    "hoffmann2022", "Irreducible loss E of a custom scaling law.", "1.69 (Hoffmann), 1.82 (Besiroglu)",
    bind<&ScalingLaw::E>()};
const FieldSpec law_A = {"workloads[].target.scaling_law.A", "A", "nats · N^alpha", Display::Plain, {0, 1e9, kExclusive},
    "hoffmann2022", "Parameter coefficient A.", "406.4, 482.0",
    bind<&ScalingLaw::A>()};
const FieldSpec law_B = {"workloads[].target.scaling_law.B", "B", "nats · D^beta", Display::Plain, {0, 1e9, kExclusive},
    "hoffmann2022", "Data coefficient B.", "410.7, 2085.4",
    bind<&ScalingLaw::B>()};
const FieldSpec law_alpha = {"workloads[].target.scaling_law.alpha", "alpha", "exponent", Display::Plain, {0, 2, kExclusive},
    "hoffmann2022", "Parameter exponent alpha.", "0.34, 0.348",
    bind<&ScalingLaw::alpha>()};
const FieldSpec law_beta = {"workloads[].target.scaling_law.beta", "beta", "exponent", Display::Plain, {0, 2, kExclusive},
    "hoffmann2022", "Data exponent beta.", "0.28, 0.366",
    bind<&ScalingLaw::beta>()};

// ---- Workload: memory and schedule --------------------------------------------------------------
const FieldSpec bytes_per_param = {"workloads[].memory.bytes_per_param", "bytes per parameter", "bytes", Display::Plain, {1, 64},
    "16", "Training state per parameter: weights, gradients, optimizer.", "16 mixed-precision Adam (ZeRO paper), 18-20 with buffers",
    bind<&MemorySettings::bytes_per_param>()};
const FieldSpec micro_batch = {"workloads[].memory.micro_batch", "micro-batch", "sequences", Display::Plain, {1, 4096, false, kWhole},
    "1", "Sequences per chip per micro-step (activation memory).", "1 to 8",
    bind<&MemorySettings::micro_batch>()};
const FieldSpec tensor_parallel = {"workloads[].memory.tensor_parallel", "tensor parallel", "chips", Display::Plain, {1, 1024, false, kWhole},
    "1", "Tensor(+sequence)-parallel degree: activations split over this many chips.", "1, 8 (one GPU node), 32 (Trn)",
    bind<&MemorySettings::tensor_parallel>()};
const FieldSpec usable_fraction = {"workloads[].memory.usable_fraction", "usable HBM", "fraction", Display::Percent, {0.1, 1},
    "0.9", "Share of HBM the job can use after runtime and fragmentation.", "0.85 to 0.95",
    bind<&MemorySettings::usable_fraction>()};
const FieldSpec runs = {"workloads[].runs", "runs", "runs", Display::Plain, {1, 1e6},
    "1", "Expected runs of this recipe over the horizon; one-time costs are divided by it.", "1 (one-off) to 50 (weekly)",
    bind<&Workload::runs>(), nullptr, nullptr, kRangeable};
const FieldSpec horizon_months = {"workloads[].horizon_months", "horizon", "months", Display::Plain, {1, 120},
    "12", "Period the runs happen in; maintenance and annual totals use it.", "12 to 36",
    bind<&Workload::horizon_months>(), nullptr, nullptr, kRangeable};
const FieldSpec global_batch_tokens = {"workloads[].global_batch_tokens", "global batch", "tokens", Display::Quantity, {1, 1e10},
    "tokens_per_step of a steps target, else min(Bopt, max(4,194,304, 1,024 × chips)) per option, Bopt = 0.292 × C^0.3271 (DeepSeek LLM's compute-optimal batch); a LoRA or QLoRA fine-tune: min(Bopt, max(64 × seq_len, 1,024 × chips)), 64 sequences as optimum-neuron's LoRA recipe",
    "Tokens per optimizer step: the data-parallel and pipeline layout must divide it. A given batch is kept; the default grows with the cluster (Llama 3 405B: 16M on 16,384 H100s) up to the batch beyond which more costs tokens, and the layout search may add micro-batches within that cap rather than idle a pipeline.",
    "4M (Llama 3 8B) to 16M (Llama 3 405B); 8K (QLoRA's Guanaco: 16 sequences) to 131K (optimum-neuron LoRA: 64 × 2,048) for adapters",
    bind<&Workload::global_batch_tokens>()};

// ---- Workload: fine-tuning mode and sequence packing (model/fine_tune.hpp) ----------------------
const FieldSpec lora_rank = {"workloads[].fine_tune.rank", "adapter rank", "rank r", Display::Plain, {1, 65536, false, kWhole},
    "64 (QLoRA's, every model size)", "Rank r of each LoRA adapter: a d_in × d_out matrix gets r·(d_in + d_out) trainable parameters. Only with mode lora or qlora.",
    "8 to 64 (LoRA paper 1-64; QLoRA 64)",
    bind<&FineTune::rank>()};
const FieldSpec trainable_share = {"workloads[].fine_tune.trainable_share", "trainable share", "fraction of params", Display::Percent, {0, 1, kExclusive},
    "derived from the architecture, rank and targets", "Adapter parameters as a share of the model's; give it when the architecture is unknown or the adapters are not per-matrix LoRA. Only with mode lora or qlora.",
    "0.001 to 0.02 (Llama 2 70B, r 64 on every linear layer: 0.0118)",
    bind<&FineTune::trainable_share>()};
const FieldSpec fill = {"workloads[].fine_tune.fill", "sequence fill", "fraction of tokens", Display::Percent, {0, 1, kExclusive},
    "required when packed is false", "Average share of each padded sequence that is real data when examples are not packed; the work per data token grows by 1 / fill. Measure it on your data set: mean example length ÷ seq_len.",
    "your data set's mean length ÷ seq_len",
    bind<&FineTune::fill>()};

// ---- Workload: constraints (absent: none) --------------------------------------------------------
const FieldSpec deadline_days = {"workloads[].deadline_days", "deadline", "days", Display::Plain, {0, 3650, kExclusive},
    "none", "Days from now within which the model must be trained, waiting for capacity included: each option then runs on the fewest instances that make it (up to max_instances).", "7 to 90",
    bind<&Workload::deadline_days>()};
const FieldSpec deadline_confidence = {"workloads[].deadline_confidence", "on-time chance", "probability", Display::Percent, {0.5, 0.99},
    "none: sized for the point estimate", "Size each option for this chance of having the model within deadline_days rather than for the point estimate: the fewest instances that make the deadline in at least this share of the futures the analysis draws (its ranges and default ranges, 1,000 draws, a fixed seed). Only with deadline_days.",
    "0.8 to 0.95; none to size for the plan",
    bind<&Workload::deadline_confidence>()};
const FieldSpec budget_usd = {"workloads[].budget_usd", "budget", "USD per run", Display::Usd, {0, 1e12, kExclusive},
    "none", "Money for one run, counted like the fully loaded cost but without the cost of delay: the tokens it buys on each option and, with a loss target, the loss it reaches and the compute-optimal model for it.", "$100k to $50M",
    bind<&Workload::budget_usd>()};
const FieldSpec usd_per_day_of_delay = {"workloads[].usd_per_day_of_delay", "cost of delay", "USD per day", Display::Usd, {0, 1e10},
    "0", "What having the model a day sooner is worth: every run is charged this for each day until it is done (wait for capacity + wall clock).", "0; the revenue or cost of a product a day late",
    bind<&Workload::usd_per_day_of_delay>(), nullptr, nullptr, kRangeable};
const FieldSpec whole_run_factor = {"workloads[].whole_run_factor", "whole-run factor", "× plan", Display::Plain, {0.1, 10},
    "1 (as planned)", "Realized ÷ planned time of the whole run: restarts, rollbacks, evaluation and stalls beyond the modelled goodput stretch it; an option whose MFU is a published run's realized one (mfu_from_run) already includes them. The analysis draws it from how published runs realized (its default range).",
    "1; published runs: about ×0.7 to ×2 (80% interval, traincost replay)",
    bind<&Workload::whole_run_factor>(), nullptr, nullptr, kRangeable};
const FieldSpec override_option = {"workloads[].overrides[].option", "option", "option index", Display::Plain, {0, 7, false, kWhole},
    "required", "Option whose platform costs this override replaces for this workload.", "",
    bind<&WorkloadOverride::option>()};

// ---- Workload × option: a layout pinned (keys left out are searched) -----------------------------
const FieldSpec pin_tensor = {"workloads[].overrides[].parallelism.tensor", "tensor parallel", "chips", Display::Plain, {1, 4096, false, kWhole},
    "searched", "Tensor-parallel degree (within the NVLink/NeuronLink domain).", "1 to 8 (GPUs), up to 16 (Trainium)",
    bind<&LayoutPins::tensor>()};
const FieldSpec pin_pipeline = {"workloads[].overrides[].parallelism.pipeline", "pipeline parallel", "stages", Display::Plain, {1, 1024, false, kWhole},
    "searched", "Pipeline stages.", "1 to 16",
    bind<&LayoutPins::pipeline>()};
const FieldSpec pin_data = {"workloads[].overrides[].parallelism.data", "data parallel", "replicas", Display::Plain, {1, 1e6, false, kWhole},
    "searched", "Data-parallel replicas (chips / (tensor × pipeline × context)).", "",
    bind<&LayoutPins::data>()};
const FieldSpec pin_context = {"workloads[].overrides[].parallelism.context", "context parallel", "chips", Display::Plain, {1, 1024, false, kWhole},
    "searched", "Context-parallel degree: each sequence split over this many chips.", "1; 2 to 16 for 32k+ tokens",
    bind<&LayoutPins::context>()};
const FieldSpec pin_expert = {"workloads[].overrides[].parallelism.expert", "expert parallel", "chips", Display::Plain, {1, 1024, false, kWhole},
    "searched", "Expert-parallel degree of a mixture of experts.", "8 to 64",
    bind<&LayoutPins::expert>()};
const FieldSpec pin_micro_batch = {"workloads[].overrides[].parallelism.micro_batch", "micro-batch", "sequences", Display::Plain, {1, 4096, false, kWhole},
    "searched", "Sequences per micro-batch.", "1 to 8",
    bind<&LayoutPins::micro_batch>()};
const FieldSpec pin_interleave = {"workloads[].overrides[].parallelism.interleave", "interleaving", "chunks per stage", Display::Plain, {1, 64, false, kWhole},
    "searched", "Interleaved pipeline chunks per stage (virtual stages).", "1 to 8",
    bind<&LayoutPins::interleave>()};
const FieldSpec pin_zero = {"workloads[].overrides[].parallelism.zero", "ZeRO stage", "stage", Display::Plain, {0, 3, false, kWhole},
    "searched", "What data-parallel ranks shard: 0 nothing, 1 optimizer, 2 + gradients, 3 + weights (FSDP).", "1 (Megatron), 3 (FSDP)",
    bind<&LayoutPins::zero>()};

// ---- Option -------------------------------------------------------------------------------------
const FieldSpec instances = {"options[].instances", "instances", "instances", Display::Plain, {1, 100000, false, kWhole},
    "the fewest that train each workload within 30 days (up to max_instances; in a link, absent is 1 and null the default)",
    "Instances in the cluster. Without it each workload sizes the option as a 30-day deadline would, and the report says the size in a note naming this field.", "1 to 512",
    bind<&Option::instances>()};
const FieldSpec price_usd_per_hour = {"options[].price_usd_per_hour", "price", "USD per instance-hour", Display::Usd, {0, 1e5, kExclusive},
    "catalog price for the pricing model", "Your own hourly price per instance (negotiated, other region); replaces the catalog's.", "see the catalog",
    bind<&Option::price_usd_per_hour>(), &PairNumbers::price_usd_per_hour, nullptr, kRangeable};
const FieldSpec discount = {"options[].discount", "discount", "fraction", Display::Percent, {0, 0.95},
    "0", "Discount off the hourly price (private pricing, credits).", "0 to 0.5",
    bind<&Option::discount>(), &PairNumbers::discount, nullptr, kRangeable};
const FieldSpec mfu = {"options[].mfu", "MFU", "fraction", Display::Plain, {0.01, 1},
    "catalog figure for the chip", "Model FLOPs utilization: achieved model FLOP/s over dense peak.", "0.30 Trn1 (AWS), 0.40 H100 (Llama 3), 0.50 A100",
    bind<&Option::mfu>(), &PairNumbers::mfu, nullptr, kRangeable};
// The lower bounds of measured throughput and custom peak keep the training time finite: "> 0" let
// 1e-300 through, the time overflowed to infinity, 0 × infinity made the cost NaN, and the NaN
// option came out "cheapest" (tests/core/bad_input_test.cpp, tiny_* rows).
const FieldSpec measured_tokens_per_sec_per_chip = {"options[].measured_tokens_per_sec_per_chip", "measured throughput", "tokens/s per chip", Display::Quantity, {0.001, 1e9},
    "none (use mfu)", "Throughput measured in your own trial run; replaces mfu.", "Llama-2 7B on Trn1: ~1,300",
    bind<&Option::measured_tokens_per_sec_per_chip>(), &PairNumbers::measured_tokens_per_sec_per_chip, nullptr, kRangeable};
const FieldSpec scaling_reference_chips = {"options[].scaling_reference_chips", "throughput measured at", "chips", Display::Plain, {1, 1e7},
    "none (no scaling loss)", "Cluster size at which mfu or the measured throughput was observed.", "the size of your trial run",
    bind<&Option::scaling_reference_chips>(), &PairNumbers::scaling_reference_chips};
const FieldSpec scaling_per_doubling = {"options[].scaling_per_doubling", "scaling efficiency", "fraction", Display::Percent, {0.5, 1},
    "0.98", "Share of per-chip throughput kept each time the cluster doubles beyond the reference.", "0.98 (Megatron-LM: 47% to 42% MFU from 96 to 4608 H100)",
    bind<&Option::scaling_per_doubling>(), &PairNumbers::scaling_per_doubling, nullptr, kRangeable};
const FieldSpec max_instances = {"options[].max_instances", "max instances", "instances", Display::Plain, {1, 100000, false, kWhole},
    "none (a deadline and the sweep try up to 4,096)", "Capacity you can get: a deadline and the cluster-size sweep use at most this many instances.", "your quota or capacity reservation",
    bind<&Option::max_instances>()};
const FieldSpec wait_days = {"options[].wait_days", "wait for capacity", "days", Display::Plain, {0, 3650},
    "0", "Days until the cluster is available (queue, capacity-block lead time); counts toward a deadline and the cost of delay.", "0 on-demand within quota; 1 to 14 for a capacity block",
    bind<&Option::wait_days>(), &PairNumbers::wait_days, nullptr, kRangeable};
const FieldSpec custom_chips = {"options[].custom.chips", "chips per instance", "chips per instance", Display::Plain, {1, 1024, false, kWhole},
    "8", "Accelerators per custom instance.", "1, 8, 16",
    bind<&CustomInstance::chips>()};
const FieldSpec custom_peak_tflops = {"options[].custom.peak_tflops", "peak TFLOP/s", "TFLOP/s per chip", Display::Plain, {0.1, 1e5},
    "the chip's catalog figure", "Dense peak per chip at the option's precision.", "312 A100, 989 H100 (BF16)",
    bind<&CustomInstance::peak_tflops>()};
const FieldSpec custom_memory_gb = {"options[].custom.memory_gb", "memory", "GB per chip", Display::Plain, {0, 1e5, kExclusive},
    "the chip's catalog figure", "Accelerator memory per chip.", "40 to 192",
    bind<&CustomInstance::memory_gb>()};

// ---- Option: pilot (what a pilot measured: issue 31) --------------------------------------------
const FieldSpec pilot_instances = {"options[].pilot.instances", "pilot instances", "instances", Display::Plain, {1, 100000, false, kWhole},
    "the planned cluster", "Instances of this option's type the pilot ran on.", "1 or 2 for a pilot; the planned count when measured at full size",
    bind<&PilotMeasurement::instances>()};
const FieldSpec pilot_seq_len = {"options[].pilot.seq_len", "pilot sequence length", "tokens", Display::Plain, {1, 1e7, false, kWhole},
    "the workload's", "Sequence length of the pilot's samples.", "4,096 or 8,192",
    bind<&PilotMeasurement::seq_len>()};
const FieldSpec pilot_global_batch_sequences = {"options[].pilot.global_batch_sequences", "pilot global batch", "sequences", Display::Plain, {1, 1e8},
    "the plan's batch at the pilot's size", "Sequences per optimizer step in the pilot (Megatron's global batch size).", "64 to 1,024",
    bind<&PilotMeasurement::global_batch_sequences>()};
const FieldSpec pilot_step_seconds = {"options[].pilot.step_seconds", "pilot step time", "seconds", Display::Plain, {0, 1e6, kExclusive},
    "none", "Time per optimizer step after warm-up (Megatron: elapsed time per iteration).", "1 to 30",
    bind<&PilotMeasurement::step_seconds>()};
const FieldSpec pilot_tokens_per_sec = {"options[].pilot.tokens_per_sec", "pilot tokens/s", "tokens/s (whole pilot cluster)", Display::Quantity, {0, 1e12, kExclusive},
    "none", "Tokens per second the whole pilot cluster trained.", "torchtitan's tps × chips",
    bind<&PilotMeasurement::tokens_per_sec>()};
const FieldSpec pilot_samples_per_sec = {"options[].pilot.samples_per_sec", "pilot samples/s", "sequences/s (whole pilot cluster)", Display::Plain, {0, 1e9, kExclusive},
    "none", "Sequences per second the whole pilot cluster trained (NxD throughput, Hugging Face train_samples_per_second).", "10 to 200",
    bind<&PilotMeasurement::samples_per_sec>()};
const FieldSpec pilot_tflops_per_chip = {"options[].pilot.tflops_per_chip", "pilot TFLOP/s per chip", "TFLOP/s per chip", Display::Plain, {0, 1e5, kExclusive},
    "none", "FLOP rate per chip the framework reported, counted by pilot.flops (model or hardware FLOPs).", "Megatron's throughput per GPU (TFLOP/s/GPU)",
    bind<&PilotMeasurement::tflops_per_chip>()};
const FieldSpec pilot_mfu = {"options[].pilot.mfu", "pilot MFU", "fraction", Display::Percent, {0, 1, kExclusive},
    "none", "Model FLOPs utilization the pilot measured (torchtitan's mfu).", "0.25 to 0.45",
    bind<&PilotMeasurement::mfu>()};
const FieldSpec pilot_compile_minutes = {"options[].pilot.compile_minutes", "pilot compile and warm-up", "minutes", Display::Plain, {0, 1e5},
    "none", "Compilation and warm-up before the first timed step of the pilot.", "5 to 60 on Trainium (neuron_parallel_compile)",
    bind<&PilotMeasurement::compile_minutes>()};
// ---- Option: reliability ------------------------------------------------------------------------
const FieldSpec mtbf_hours_per_instance = {"options[].reliability.mtbf_hours_per_instance", "MTBF", "hours", Display::Plain, {1, 1e9},
    "catalog per-chip MTBF / chips per instance", "Mean time between failures of one instance.", "6,300 h for 8 H100 (Llama 3)",
    bind<&Reliability::mtbf_hours_per_instance>(), &PairNumbers::mtbf_hours_per_instance, "mtbf_hours_per_chip", kRangeable};
const FieldSpec checkpoint_write_minutes = {"options[].reliability.checkpoint_write_minutes", "checkpoint pause", "minutes", Display::Plain, {0, 1440, kExclusive},
    "checkpoint size / bandwidth × blocking share", "Time each checkpoint stops training; set it to override the derivation.", "seconds (asynchronous, large cluster) to 15",
    bind<&Reliability::checkpoint_write_minutes>(), &PairNumbers::checkpoint_write_minutes, nullptr, kRangeable};
const FieldSpec checkpoint_gbps_per_instance = {"options[].reliability.checkpoint_gbps_per_instance", "storage bandwidth", "GB/s per instance", Display::Plain, {0, 1e4, kExclusive},
    "catalog default (1.0)", "Checkpoint write and read bandwidth each instance gets from storage.", "1.0 (Meta Tectonic 2 TB/s over 2,048 servers; BLOOM 1.2)",
    bind<&Reliability::checkpoint_gbps_per_instance>(), &PairNumbers::checkpoint_gbps_per_instance, "checkpoint_gbps_per_instance", kRangeable};
const FieldSpec checkpoint_blocking_share = {"options[].reliability.checkpoint_blocking_share", "checkpoint blocking share", "fraction", Display::Percent, {0, 1, kExclusive},
    "catalog default (1: synchronous)", "Share of the checkpoint write that stops training.", "1 synchronous; 0.04 asynchronous (PyTorch DCP)",
    bind<&Reliability::checkpoint_blocking_share>(), &PairNumbers::checkpoint_blocking_share, "checkpoint_blocking_share", kRangeable};
const FieldSpec restart_minutes = {"options[].reliability.restart_minutes", "restart time", "minutes", Display::Plain, {0, 1440},
    "from the failure classes", "Mean time from a failure to training again; set it to override the derivation.", "2 (in-job) to 60 (self-managed)",
    bind<&Reliability::restart_minutes>(), &PairNumbers::restart_minutes, nullptr, kRangeable};
const FieldSpec job_restart_minutes = {"options[].reliability.job_restart_minutes", "job restart", "minutes", Display::Plain, {0, 1440},
    "catalog default (10)", "Detect the failure, relaunch the job and re-initialise it (without reloading the checkpoint).", "under 2 checkpointless; 15-30 conventional",
    bind<&Reliability::job_restart_minutes>(), &PairNumbers::job_restart_minutes, "job_restart_minutes", kRangeable};
const FieldSpec replacement_share = {"options[].reliability.replacement_share", "failures needing a new node", "fraction", Display::Percent, {0, 1},
    "catalog default (0.55)", "Share of failures that need a node replaced before the job restarts.", "0.55 (Llama 3: 59% GPU, 8% network)",
    bind<&Reliability::replacement_share>(), &PairNumbers::replacement_share, "replacement_share", kRangeable};
const FieldSpec replacement_minutes = {"options[].reliability.replacement_minutes", "node replacement", "minutes", Display::Plain, {0, 10080},
    "catalog default (5: a warm spare)", "Time to bring a replacement node into the job.", "5 with spares; hours without (OPT-175B)",
    bind<&Reliability::replacement_minutes>(), &PairNumbers::replacement_minutes, "replacement_minutes", kRangeable};
const FieldSpec lost_work_share = {"options[].reliability.lost_work_share", "failures losing work", "fraction", Display::Percent, {0, 1, kExclusive},
    "catalog default (1)", "Share of failures that roll back to the last checkpoint.", "1 checkpoint-restart; less with in-memory copies",
    bind<&Reliability::lost_work_share>(), &PairNumbers::lost_work_share, "lost_work_share", kRangeable};
const FieldSpec checkpoint_interval_hours = {"options[].reliability.checkpoint_interval_hours", "checkpoint interval", "hours", Display::Plain, {0, 1000, kExclusive},
    "the Young/Daly optimum", "Compute time between checkpoints.", "0.1 to 4",
    bind<&Reliability::checkpoint_interval_hours>(), &PairNumbers::checkpoint_interval_hours};
const FieldSpec spot_interruptions_per_hour = {"options[].reliability.spot_interruptions_per_hour", "spot interruptions", "per instance-hour", Display::Plain, {0, 1},
    "spot: the catalog's figure for the instance type (AWS's Spot Instance Advisor band), else for the chip family; 0 for on-demand, reserved and Capacity Blocks", "How often the provider reclaims one spot instance. Any reclaim stops the whole (synchronous) job, which loses the work since its last checkpoint and waits for capacity.",
    "0.0000342 (band <5% a month) to 0.000274 (20% a month, the family default); 0 for capacity you hold",
    bind<&Reliability::spot_interruptions_per_hour>(), &PairNumbers::spot_interruptions_per_hour, "spot_interruptions_per_instance_hour", kRangeable};
const FieldSpec spot_recovery_hours = {"options[].reliability.spot_recovery_hours", "spot capacity back", "hours", Display::Plain, {0, 720},
    "catalog default (1, an estimate)", "Hours from a spot reclaim until capacity is back and the job relaunches; the restart and the checkpoint reload come on top. Unbilled: nothing runs meanwhile.",
    "0.1 (capacity elsewhere at once) to 12 (overnight)",
    bind<&Reliability::spot_recovery_hours>(), &PairNumbers::spot_recovery_hours, "spot_recovery_hours", kRangeable};

// ---- Option: platform costs (also a workload's overrides) ---------------------------------------
const FieldSpec engineer_weeks = {"options[].porting.engineer_weeks", "porting effort", "engineer-weeks", Display::Plain, {0, 1000},
    "catalog default for the chip family", "One-time engineering to port the workload to this platform.", "0 on CUDA; 3-20 to Neuron (estimate)",
    bind<&PlatformCosts::engineer_weeks>(), &PairNumbers::engineer_weeks, "engineer_weeks", kRangeable};
const FieldSpec usd_per_engineer_week = {"options[].porting.usd_per_engineer_week", "engineer cost", "USD", Display::Usd, {0, 1e6},
    "catalog default (6,000)", "Fully loaded cost of one engineer-week.", "4,000 to 9,000",
    bind<&PlatformCosts::usd_per_engineer_week>(), &PairNumbers::usd_per_engineer_week, "usd_per_engineer_week", kRangeable};
const FieldSpec validation_runs = {"options[].porting.validation_runs", "validation runs", "runs", Display::Plain, {0, 1000},
    "catalog default for the chip family", "One-time runs to validate convergence after the port.", "1 to 4",
    bind<&PlatformCosts::validation_runs>(), &PairNumbers::validation_runs, "validation_runs", kRangeable};
const FieldSpec validation_run_fraction = {"options[].porting.validation_run_fraction", "validation run length", "fraction of a run", Display::Percent, {0, 1},
    "catalog default (0.05)", "Length of each validation run relative to a full run.", "0.02 to 0.15",
    bind<&PlatformCosts::validation_run_fraction>(), &PairNumbers::validation_run_fraction, "validation_run_fraction", kRangeable};
const FieldSpec convergence_penalty = {"options[].porting.convergence_penalty", "convergence penalty", "fraction of tokens", Display::Percent, {0, 1},
    "catalog default for the chip family", "Extra tokens needed to reach the same quality on this platform.", "0 to 0.08",
    bind<&PlatformCosts::convergence_penalty>(), &PairNumbers::convergence_penalty, "convergence_penalty", kRangeable};
const FieldSpec compile_hours_per_run = {"options[].porting.compile_hours_per_run", "compile time", "hours", Display::Plain, {0, 1000},
    "catalog default for the chip family", "Graph compilation on the cluster before each run.", "0 CUDA; 0.25-3 Neuron",
    bind<&PlatformCosts::compile_hours_per_run>(), &PairNumbers::compile_hours_per_run, "compile_hours_per_run", kRangeable};
const FieldSpec maintenance_usd_per_year = {"options[].porting.maintenance_usd_per_year", "maintenance", "USD per year", Display::Usd, {0, 1e9},
    "catalog default for the chip family", "Recurring upkeep of the port (SDK upgrades).", "0 CUDA; 6k-60k Neuron",
    bind<&PlatformCosts::maintenance_usd_per_year>(), &PairNumbers::maintenance_usd_per_year, "maintenance_usd_per_year", kRangeable};
const FieldSpec egress_tb_per_run = {"options[].porting.egress_tb_per_run", "egress volume", "TB per run", Display::Plain, {0, 1e7},
    "0", "Training data moved in from another cloud for each run.", "0 when the data is local",
    bind<&PlatformCosts::egress_tb_per_run>(), &PairNumbers::egress_tb_per_run, nullptr, kRangeable};
const FieldSpec egress_usd_per_tb = {"options[].porting.egress_usd_per_tb", "egress price", "USD per TB", Display::Usd, {0, 1e5},
    "catalog default (90)", "Price of moving one TB out of the other cloud.", "50 to 120",
    bind<&PlatformCosts::egress_usd_per_tb>(), &PairNumbers::egress_usd_per_tb, "egress_usd_per_tb", kRangeable};
const FieldSpec storage_tb = {"options[].porting.storage_tb", "storage held", "TB", Display::Plain, {0, 1e7},
    "0 (not priced)", "Storage held while the run trains (dataset copy, checkpoints kept); priced per TB-month for the training hours.",
    "dataset + kept checkpoints; 0 when already paid for",
    bind<&PlatformCosts::storage_tb>(), &PairNumbers::storage_tb, nullptr, kRangeable};
const FieldSpec storage_usd_per_tb_month = {"options[].porting.storage_usd_per_tb_month", "storage price", "USD per TB-month", Display::Usd, {0, 1e5},
    "catalog default (145: FSx for Lustre, 125 MB/s per TiB)", "Price of one TB for a month: FSx for Lustre by throughput tier, S3, EBS.",
    "23 S3; 80 EBS gp3; 145-600 FSx for Lustre",
    bind<&PlatformCosts::storage_usd_per_tb_month>(), &PairNumbers::storage_usd_per_tb_month, "storage_usd_per_tb_month", kRangeable};
const FieldSpec report_probability_per_year = {"options[].porting.report_probability_per_year", "re-porting chance", "per year", Display::Percent, {0, 1},
    "catalog default for the chip family", "Yearly chance that an SDK or framework change forces the port to be redone; the expected cost (chance × effort share × one-time cost × years) is a fixed cost.",
    "0.5 Neuron (training stack replaced twice in 2025-26), 0.05 CUDA (estimates)",
    bind<&PlatformCosts::report_probability_per_year>(), &PairNumbers::report_probability_per_year, "report_probability_per_year", kRangeable};
const FieldSpec report_effort_share = {"options[].porting.report_effort_share", "re-porting effort", "fraction of the one-time cost", Display::Percent, {0, 2},
    "catalog default for the chip family", "Share of the one-time cost (porting and validation) that a forced re-port costs again.", "0.3 to 1",
    bind<&PlatformCosts::report_effort_share>(), &PairNumbers::report_effort_share, "report_effort_share", kRangeable};

// ---- Ranges -------------------------------------------------------------------------------------
const FieldSpec range_low = {"ranges[].low", "low", "the input's unit", Display::Plain, {-kBig, kBig},
    "required", "Low end: minimum (triangular, uniform) or 5th percentile (lognormal).", "",
    bind<&Range::low>()};
const FieldSpec range_high = {"ranges[].high", "high", "the input's unit", Display::Plain, {-kBig, kBig},
    "required", "High end: maximum (triangular, uniform) or 95th percentile (lognormal).", "",
    bind<&Range::high>()};
// clang-format on
}  // namespace fields

const std::vector<const FieldSpec*>& all_fields() {
  using namespace fields;
  static const std::vector<const FieldSpec*> all = {
      &reference, &samples, &seed,
      &params, &active_params, &layers, &hidden, &heads, &seq_len, &vocab, &kv_heads, &ffn_hidden, &experts, &experts_per_token,
      &tokens, &steps, &tokens_per_step, &loss, &law_E, &law_A, &law_B, &law_alpha, &law_beta,
      &bytes_per_param, &micro_batch, &tensor_parallel, &usable_fraction,
      &lora_rank, &trainable_share, &fill,
      &runs, &horizon_months, &global_batch_tokens, &deadline_days, &deadline_confidence, &budget_usd, &usd_per_day_of_delay, &whole_run_factor, &override_option,
      &pin_tensor, &pin_pipeline, &pin_data, &pin_context, &pin_expert, &pin_micro_batch, &pin_interleave, &pin_zero,
      &instances, &price_usd_per_hour, &discount, &mfu, &measured_tokens_per_sec_per_chip,
      &scaling_reference_chips, &scaling_per_doubling, &max_instances, &wait_days,
      &pilot_instances, &pilot_seq_len, &pilot_global_batch_sequences, &pilot_step_seconds, &pilot_tokens_per_sec,
      &pilot_samples_per_sec, &pilot_tflops_per_chip, &pilot_mfu, &pilot_compile_minutes,
      &custom_chips, &custom_peak_tflops, &custom_memory_gb,
      &mtbf_hours_per_instance, &checkpoint_write_minutes, &checkpoint_gbps_per_instance, &checkpoint_blocking_share,
      &restart_minutes, &job_restart_minutes, &replacement_share, &replacement_minutes, &lost_work_share,
      &checkpoint_interval_hours, &spot_interruptions_per_hour, &spot_recovery_hours,
      &engineer_weeks, &usd_per_engineer_week, &validation_runs, &validation_run_fraction,
      &convergence_penalty, &compile_hours_per_run, &maintenance_usd_per_year, &egress_tb_per_run,
      &egress_usd_per_tb, &storage_tb, &storage_usd_per_tb_month, &report_probability_per_year, &report_effort_share, &range_low, &range_high};
  return all;
}

const std::vector<const FieldSpec*>& fields_of(Owner owner) {
  static const std::vector<std::vector<const FieldSpec*>> by_owner = [] {
    std::vector<std::vector<const FieldSpec*>> table(static_cast<size_t>(Owner::Range) + 1);
    for (const FieldSpec* f : all_fields()) table[static_cast<size_t>(f->access.owner)].push_back(f);
    return table;
  }();
  return by_owner[static_cast<size_t>(owner)];
}

const FieldSpec* find_field(const std::string& path) {
  for (const FieldSpec* f : all_fields())
    if (path == f->path) return f;
  return nullptr;
}

}  // namespace traincost
