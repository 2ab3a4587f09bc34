#pragma once
// A scenario: what a user compares. One or more workloads (training jobs) and one or more
// hardware options (two or more to compare), plus optional ranges on inputs for the uncertainty analysis. This is the one
// scenario type: the CLI's input files, links, localStorage, exports and the JS API all go through
// scenario_json.hpp to and from it. Field meanings, units, defaults and valid ranges are in
// fields.cpp (and, generated from it, docs/scenario-format.md).
//
// std::optional marks inputs whose default is not a constant but comes from the catalog or the
// chosen option (an absent `mfu` means "the catalog's figure for this chip").
#include <optional>
#include <string>
#include <vector>

#include "traincost/data/catalog.hpp"
#include "traincost/scenario/layout.hpp"

namespace traincost {

inline constexpr int kScenarioVersion = 1;
inline constexpr int kMaxWorkloads = 16;
inline constexpr int kMaxOptions = 8;
inline constexpr int kMaxRanges = 64;

// L(N, D) = E + A / N^alpha + B / D^beta
struct ScalingLaw {
  double E = 0, A = 0, B = 0, alpha = 0, beta = 0;
};
enum class ScalingLawKind { Hoffmann2022, Besiroglu2024, Custom };
// "custom" is never written as a word: a custom law is an object of constants.
inline constexpr EnumWord<ScalingLawKind> kLawWords[] = {{ScalingLawKind::Hoffmann2022, "hoffmann2022", "Hoffmann et al. 2022"},
                                                         {ScalingLawKind::Besiroglu2024, "besiroglu2024", "Besiroglu et al. 2024"},
                                                         {ScalingLawKind::Custom, "custom", "Custom constants"}};
inline const char* to_string(ScalingLawKind kind) { return word_of(kLawWords, kind); }
ScalingLaw scaling_law_constants(ScalingLawKind kind, const ScalingLaw& custom);

struct Model {
  double params = 0;                    // total parameters N
  std::optional<double> active_params;  // parameters active per token (MoE); default: params
  // Architecture, all optional; when layers, hidden and seq_len are given the attention term
  // is counted in FLOPs and activations in memory.
  int layers = 0;
  int hidden = 0;
  int heads = 0;
  int seq_len = 0;
  int vocab = 0;
  // For the step-time model (0: not given): grouped-query attention's key/value heads, the
  // feed-forward width (per expert), and a mixture of experts' expert count and experts per token.
  int kv_heads = 0;
  int ffn_hidden = 0;
  int experts = 0;
  int experts_per_token = 0;
  bool gated_ffn = true;  // SwiGLU-style feed-forward (three matrices), as Llama

  bool has_architecture() const { return layers > 0 && hidden > 0 && seq_len > 0; }
  double active() const { return active_params.value_or(params); }
};

enum class TargetKind { Tokens, Steps, Loss };
// Target kinds are not written as words (the JSON key says which); the page shows these.
inline constexpr EnumWord<TargetKind> kTargetWords[] = {
    {TargetKind::Tokens, "tokens", "Tokens"}, {TargetKind::Steps, "steps", "Steps × batch"}, {TargetKind::Loss, "loss", "Target loss"}};
struct Target {
  TargetKind kind = TargetKind::Tokens;
  double tokens = 0;           // Tokens
  double steps = 0;            // Steps: steps x tokens_per_step
  double tokens_per_step = 0;
  double loss = 0;             // Loss: tokens from the scaling law
  ScalingLawKind law = ScalingLawKind::Hoffmann2022;
  ScalingLaw custom_law;       // when law == Custom
};

// Training memory settings (how the job is laid out on chips).
struct MemorySettings {
  double bytes_per_param = 16;  // mixed-precision Adam: 2 weights + 2 grads + 12 fp32 master/m/v
  // Format 1 placed these two layout keys here; the layout search now chooses them. Values above
  // 1 still pin them for every option (workloads[].overrides[].parallelism pins per option).
  int micro_batch = 1;
  int tensor_parallel = 1;
  bool flash_attention = true;  // format 1; the step-time model assumes FlashAttention
  double usable_fraction = 0.9; // of HBM left for the job after runtime and fragmentation
};

// Platform costs of running a workload on an option. Absent fields take, in order, the
// workload's override, the option's value, the catalog's default for the chip family.
struct PlatformCosts {
  std::optional<double> engineer_weeks;            // one-time porting effort
  std::optional<double> usd_per_engineer_week;     // loaded cost of an engineer-week
  std::optional<double> validation_runs;           // one-time validation runs
  std::optional<double> validation_run_fraction;   // each, as a fraction of a full run
  std::optional<double> convergence_penalty;       // extra tokens to the same quality (fraction)
  std::optional<double> compile_hours_per_run;     // compilation on the cluster before each run
  std::optional<double> maintenance_usd_per_year;  // recurring SDK upkeep
  std::optional<double> egress_tb_per_run;         // data moved in from another cloud per run
  std::optional<double> egress_usd_per_tb;
  std::optional<double> storage_tb;                // held while the run trains: data, checkpoints
  std::optional<double> storage_usd_per_tb_month;  // its price (a file system's throughput tier)
  // Lock-in: the yearly chance that an SDK or framework change forces the port to be redone, and
  // what share of the one-time cost (porting and validation) that costs again.
  std::optional<double> report_probability_per_year;
  std::optional<double> report_effort_share;
};

struct WorkloadOverride {
  int option = 0;  // index into Scenario::options
  PlatformCosts costs;
  LayoutPins parallelism;  // layout keys pinned for this workload on this option; the rest are searched
};

// How a workload trains the model's weights (issue 29 item 2). A full fine-tune (or pretraining)
// trains every weight; LoRA freezes the base and trains a rank-r adapter B·A beside each target
// matrix (Hu et al. 2021, arXiv 2106.09685); QLoRA does the same over a base stored in 4-bit NF4
// (Dettmers et al. 2023, arXiv 2305.14314).
enum class FineTuneMode { Full, Lora, Qlora };
inline constexpr EnumWord<FineTuneMode> kFineTuneWords[] = {{FineTuneMode::Full, "full", "Full (every weight trained)"},
                                                            {FineTuneMode::Lora, "lora", "LoRA (frozen BF16 base)"},
                                                            {FineTuneMode::Qlora, "qlora", "QLoRA (frozen 4-bit base)"}};
inline const char* to_string(FineTuneMode mode) { return word_of(kFineTuneWords, mode); }

// The matrices of a decoder layer an adapter can sit beside, one bit each. "attention" is q, k, v,
// o; "mlp" is gate, up, down (up and down without a gated feed-forward).
enum LoraTarget : unsigned { kLoraQ = 1, kLoraK = 2, kLoraV = 4, kLoraO = 8, kLoraGate = 16, kLoraUp = 32, kLoraDown = 64 };
inline constexpr unsigned kLoraAttention = kLoraQ | kLoraK | kLoraV | kLoraO;
inline constexpr unsigned kLoraMlp = kLoraGate | kLoraUp | kLoraDown;
// QLoRA's finding (§4, "Default LoRA hyperparameters do not match 16-bit performance"): adapters on
// every linear layer of the block are needed to match a full fine-tune, so that is the default.
inline constexpr unsigned kLoraAllLinear = kLoraAttention | kLoraMlp;
inline constexpr EnumWord<unsigned> kLoraTargetWords[] = {
    {kLoraQ, "q", "query"}, {kLoraK, "k", "key"}, {kLoraV, "v", "value"}, {kLoraO, "o", "attention output"},
    {kLoraGate, "gate", "feed-forward gate"}, {kLoraUp, "up", "feed-forward up"}, {kLoraDown, "down", "feed-forward down"},
    {kLoraAttention, "attention", "q, k, v, o"}, {kLoraMlp, "mlp", "gate, up, down"}, {kLoraAllLinear, "all", "every linear layer of a block"}};

struct FineTune {
  FineTuneMode mode = FineTuneMode::Full;
  // The adapter's rank r; 64 is QLoRA's for every model size it trained (Guanaco 7B to 65B, §5).
  int rank = 64;
  unsigned targets = kLoraAllLinear;      // the matrices adapted (a set of LoraTarget bits)
  std::optional<double> trainable_share;  // adapter parameters ÷ N, instead of deriving them from the architecture
  // Sequence packing: several examples concatenated into each sequence, so no token is padding
  // (today's assumption). Unpacked, each sequence is padded to seq_len and only `fill` of its
  // tokens are data: the work per data token grows by 1 / fill.
  bool packed = true;
  std::optional<double> fill;  // average share of a padded sequence that is real tokens (required when unpacked)

  bool adapters() const { return mode != FineTuneMode::Full; }
  double padding_fill() const { return packed ? 1.0 : fill.value_or(1.0); }
};

// Tokens per optimizer step when a scenario gives none (and its target is not steps × batch):
// 4,194,304 = 512 sequences of 8,192 or 1,024 of 4,096, the batch Llama 2 and 3 trained their
// smaller models with (Touvron et al. 2023; Llama Team 2024).
inline constexpr double kDefaultGlobalBatchTokens = 4194304;

struct Workload {
  std::string name;
  Model model;
  Target target;
  bool recompute = false;       // full activation recomputation: 8ND FLOPs, small activations
  // A mixture of experts' token dispatcher on NVIDIA GPUs ("moe_dispatcher": "all_to_all" or
  // "flex"; MoeDispatcher in scenario/layout.hpp). Absent: all_to_all, Megatron-Core's NCCL
  // all-to-all and every Megatron-Bridge model's default, as every scenario was priced before.
  MoeDispatcher moe_dispatcher = MoeDispatcher::AllToAll;
  MemorySettings memory;
  FineTune fine_tune;            // absent: a full fine-tune on packed sequences, as before
  double runs = 1;              // expected runs of this recipe over the horizon
  double horizon_months = 12;   // period the runs (and maintenance) are spread over
  std::optional<double> global_batch_tokens;  // tokens per optimizer step; default kDefaultGlobalBatchTokens
  std::vector<WorkloadOverride> overrides;
  // Constraints, each absent unless given (optional, so that files and links without them read
  // and write exactly as before):
  std::optional<double> deadline_days;         // every option sized to have the model within this many days
  // The chance of finishing within deadline_days that each option is sized for (absent: the point
  // estimate, the fewest instances whose planned run makes the deadline). engine/deadline_odds.hpp.
  std::optional<double> deadline_confidence;
  std::optional<double> budget_usd;            // what one run may cost: the tokens it buys on each option
  std::optional<double> usd_per_day_of_delay;  // the value of having the model a day sooner (absent: 0)
  // Realized ÷ planned time of the whole run (absent: 1, the plan). The analysis gives it a
  // default range from the published runs (evidence/whole_run.hpp).
  std::optional<double> whole_run_factor;
};

// What a pilot measured on this option (issue 31): the cluster it ran on, the shape of its
// steps and one throughput figure, as read from its training log (io/pilot_log.hpp) or typed.
// The throughput is taken from the first of tokens_per_sec, samples_per_sec, step_seconds,
// tflops_per_chip and mfu that is given. The step-time model carries it from the pilot's size
// and layout to the planned cluster (engine/resolve_pair.hpp: pilot_rate).
enum class FlopConvention { Model, Hardware };
inline constexpr EnumWord<FlopConvention> kFlopConventionWords[] = {
    {FlopConvention::Model, "model", "model FLOPs (6N plus attention per token, no recomputation: Megatron-LM, torchtitan)"},
    {FlopConvention::Hardware, "hardware", "hardware FLOPs (recomputation counted: 8N plus attention)"}};
struct LossPoint {
  double tokens = 0;
  double loss = 0;
};
inline constexpr size_t kMaxLossPoints = 2000;
struct PilotMeasurement {
  std::optional<int> instances;                 // of the option's instance type; default: the planned cluster
  std::optional<int> seq_len;                   // default: the workload's
  std::optional<double> global_batch_sequences; // default: the batch the plan uses at the pilot's size
  std::optional<double> step_seconds;           // per optimizer step, after warm-up
  std::optional<double> tokens_per_sec;         // the whole pilot cluster
  std::optional<double> samples_per_sec;        // sequences per second, the whole pilot cluster
  std::optional<double> tflops_per_chip;        // in `flops`' convention
  std::optional<double> mfu;                    // model FLOPs utilization the framework reported
  std::optional<double> compile_minutes;        // compilation and warm-up before the first timed step
  FlopConvention flops = FlopConvention::Model;
  LayoutPins parallelism;                       // the pilot's layout, when known; the rest is searched
  std::string source;                           // where the figures came from (the log's name, lines)
  std::vector<LossPoint> loss;                  // loss against tokens trained, in order
  // The curve to compare it with: the incumbent's run of the same recipe, or a reference run that
  // converges in the target's tokens (evidence/convergence.hpp).
  std::vector<LossPoint> reference_loss;
  bool has_rate() const { return tokens_per_sec || samples_per_sec || step_seconds || tflops_per_chip || mfu; }
};

// A user-defined instance (another cloud, a negotiated offer, on-premises).
struct CustomInstance {
  std::string chip;             // catalog chip id, or empty to give the figures below
  int chips = 8;                // chips per instance
  double peak_tflops = 0;       // dense peak per chip at the option's precision (no catalog chip)
  double memory_gb = 0;         // HBM per chip, GB
  Family family = Family::Nvidia;
};

// How failures and checkpoints cost time. Absent values come from the catalog; the two totals
// (checkpoint write, restart) are otherwise derived from the checkpoint's size and the failure
// classes, and setting them overrides the derivation.
struct Reliability {
  std::optional<double> mtbf_hours_per_instance;
  std::optional<double> checkpoint_write_minutes;     // default: checkpoint size / bandwidth × blocking share
  std::optional<double> checkpoint_gbps_per_instance; // storage write (and read) bandwidth, GB/s
  std::optional<double> checkpoint_blocking_share;    // 1 synchronous; ~0.04 asynchronous
  std::optional<double> restart_minutes;              // default: from the failure classes below
  std::optional<double> job_restart_minutes;          // detect, relaunch, re-initialise
  std::optional<double> replacement_share;            // failures that need a node replaced
  std::optional<double> replacement_minutes;          // bringing in the replacement node
  std::optional<double> lost_work_share;              // failures that lose the work since the last checkpoint
  std::optional<double> checkpoint_interval_hours;    // default: the Young/Daly optimum
  // Spot capacity the provider takes back: reclaims per instance-hour (absent: the catalog's
  // default for the chip family when the option is priced spot, else 0) and the hours until
  // capacity is back after one (absent: the catalog's default). Reliability::restart_minutes and
  // the checkpoint reload come on top of the wait.
  std::optional<double> spot_interruptions_per_hour;
  std::optional<double> spot_recovery_hours;
};

// The most instances a deadline or the cluster-size sweep tries when an option gives no
// max_instances: 4,096 instances are 32,768 to 65,536 chips, the size of today's largest
// training clusters.
inline constexpr int kDefaultMaxInstances = 4096;

// The days a default-sized option is sized to finish in, when a scenario gives no `instances`:
// the fewest instances (up to max_instances) that train the model within 30 days. Published
// pretraining runs of every size took one to three months (Llama 3 405B 54 days, OLMo 2 and
// DeepSeek-V3 under two months); a month is the common planning unit.
inline constexpr double kDefaultRunDays = 30;

struct Option {
  std::string label;
  std::string instance;                      // catalog id; "custom" uses `custom`
  std::optional<CustomInstance> custom;
  int instances = 1;
  // The scenario leaves `instances` out: resolve() sizes the option to finish in kDefaultRunDays
  // (absent from a file or link; an edit to `instances` other than 1 also ends it).
  bool instances_default = false;
  bool sized_by_default() const { return instances_default && instances == 1; }
  PricingModel pricing = PricingModel::OnDemand;
  std::optional<double> price_usd_per_hour;  // per instance; overrides the catalog
  double discount = 0;                       // fraction off the hourly price
  Precision precision = Precision::BF16;
  std::optional<double> mfu;                 // default: predicted by the step-time model (or mfu_from_run)
  std::string mfu_from_run;                  // a published run's id: its realized MFU as `mfu` (published_runs.hpp)
  std::optional<double> measured_tokens_per_sec_per_chip;  // your own trial run; wins over mfu
  std::optional<double> scaling_reference_chips;           // chips at which mfu/measured holds
  double scaling_per_doubling = 0.98;                      // efficiency kept per doubling beyond
  Reliability reliability;
  PlatformCosts porting;
  std::optional<int> max_instances;          // capacity: the most instances a deadline or the sweep may use
  std::optional<double> wait_days;           // days until the capacity is there (queue, block lead time); absent: 0
  // A pilot's measurement: its throughput, carried to this option's cluster by the step-time
  // model, replaces the prediction (and wins over mfu and measured_tokens_per_sec_per_chip).
  std::optional<PilotMeasurement> pilot;
  // The resolved MFU is the scenario's `mfu` (else the model's, or the pilot's carried rate).
  bool mfu_stated() const { return mfu.has_value() && !(pilot && pilot->has_rate()); }
};

enum class Distribution { Triangular, Uniform, LogNormal };
inline constexpr EnumWord<Distribution> kDistributionWords[] = {{Distribution::Triangular, "triangular", "triangular"},
                                                                {Distribution::Uniform, "uniform", "uniform"},
                                                                {Distribution::LogNormal, "lognormal", "lognormal (5–95%)"}};
inline const char* to_string(Distribution d) { return word_of(kDistributionWords, d); }

// An uncertain input: `input` is the path of a numeric field ("options[0].mfu"); its value in
// the scenario is the most likely one. Triangular and uniform take low/high as bounds;
// lognormal takes them as the 5th and 95th percentiles.
struct Range {
  std::string input;
  double low = 0;
  double high = 0;
  Distribution dist = Distribution::Triangular;
};

struct AnalysisSettings {
  int samples = 20000;
  unsigned long long seed = 1;
  bool default_ranges = true;  // add ranges for guessed inputs the scenario leaves without one
};

struct Scenario {
  int version = kScenarioVersion;
  std::string name;
  std::string catalog;  // catalog version the scenario was made with (informational)
  std::vector<Workload> workloads;
  std::vector<Option> options;
  int reference = 0;    // option the savings are measured against
  std::vector<Range> ranges;
  AnalysisSettings analysis;
};

}  // namespace traincost
