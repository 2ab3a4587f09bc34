#include "traincost/fields.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace traincost {

std::string FieldSpec::key() const {
  const char* dot = std::strrchr(path, '.');
  return dot ? dot + 1 : path;
}

namespace {
std::string show(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", v);
  return buffer;
}
}  // namespace

std::string FieldSpec::check(double value) const {
  if (!std::isfinite(value)) return "must be a finite number";
  if (integer && value != std::floor(value)) return "must be a whole number, got " + show(value);
  const bool below = min_exclusive ? value <= min : value < min;
  if (below || value > max) {
    const std::string got = ", got " + show(value);
    if (min_exclusive && min == 0 && value <= 0) return "must be > 0" + got;
    if (!min_exclusive && min == 0 && value < 0) return "must be >= 0" + got;
    return std::string("must be ") + (min_exclusive ? "> " : "between ") + show(min) +
           (min_exclusive ? " and <= " : " and ") + show(max) + got;
  }
  return {};
}

namespace fields {
constexpr double kBig = 1e15;

// clang-format off
//                                  path                                           unit                         min     max     excl   int    default                                    meaning                                                                                      typical
const FieldSpec reference        = {"reference",                                  "option index",              0,      7,      false, true,  "0",                                       "The option savings and break-even are measured against (usually what you run today).",      "the incumbent GPU option"};
const FieldSpec samples          = {"analysis.samples",                           "samples",                   100,    1e6,    false, true,  "20000",                                   "Monte Carlo samples.",                                                                      "20,000 (±0.3% on a probability)"};
const FieldSpec seed             = {"analysis.seed",                              "integer",                   0,      9007199254740991.0, false, true, "1",                             "Random seed: the same scenario and seed give the same numbers everywhere.",                 "any"};
const FieldSpec params           = {"workloads[].model.params",                   "parameters",                1e6,    1e14,   false, false, "required",                                "Total parameter count N of the model.",                                                     "1e9 (fine-tune) to 4e11"};
const FieldSpec active_params    = {"workloads[].model.active_params",            "parameters",                1e6,    1e14,   false, false, "params",                                  "Parameters active per token (mixture-of-experts); FLOPs use this.",                         "Mixtral-8x7B: 1.29e10 of 4.67e10"};
const FieldSpec layers           = {"workloads[].model.layers",                   "layers",                    1,      1000,   false, true,  "none",                                    "Transformer layers; with hidden and seq_len adds the attention term.",                      "32 (8B) to 126 (405B)"};
const FieldSpec hidden           = {"workloads[].model.hidden",                   "width",                     1,      262144, false, true,  "none",                                    "Hidden size (model width).",                                                                "4096 (8B) to 16384 (405B)"};
const FieldSpec heads            = {"workloads[].model.heads",                    "heads",                     1,      4096,   false, true,  "none",                                    "Attention heads (activation memory without flash attention).",                              "32 to 128"};
const FieldSpec seq_len          = {"workloads[].model.seq_len",                  "tokens",                    1,      4194304,false, true,  "none",                                    "Training sequence length.",                                                                 "2048 to 8192"};
const FieldSpec vocab            = {"workloads[].model.vocab",                    "tokens",                    1,      1e7,    false, true,  "none",                                    "Vocabulary size (informational; counted in params).",                                       "32k to 256k"};
const FieldSpec tokens           = {"workloads[].target.tokens",                  "tokens",                    1e3,    1e16,   false, false, "one target is required",                  "Training tokens D to process.",                                                             "20 x params (Chinchilla) to 2e12+"};
const FieldSpec steps            = {"workloads[].target.steps",                   "steps",                     1,      1e9,    false, false, "one target is required",                  "Optimizer steps (with tokens_per_step).",                                                   "1k to 1M"};
const FieldSpec tokens_per_step  = {"workloads[].target.tokens_per_step",         "tokens",                    1,      1e10,   false, false, "required with steps",                     "Global batch in tokens (sequences x sequence length).",                                     "0.5M to 16M"};
const FieldSpec loss             = {"workloads[].target.loss",                    "nats per token",            0,      20,     true,  false, "one target is required",                  "Target training loss, turned into tokens with the scaling law.",                            "1.9 to 2.5 (MassiveText-like data)"};
const FieldSpec law_E            = {"workloads[].target.scaling_law.E",           "nats",                      0,      20,     false, false, "hoffmann2022",                            "Irreducible loss E of a custom scaling law.",                                               "1.69 (Hoffmann), 1.82 (Besiroglu)"};
const FieldSpec law_A            = {"workloads[].target.scaling_law.A",           "",                          0,      1e9,    true,  false, "hoffmann2022",                            "Parameter coefficient A.",                                                                  "406.4, 482.0"};
const FieldSpec law_B            = {"workloads[].target.scaling_law.B",           "",                          0,      1e9,    true,  false, "hoffmann2022",                            "Data coefficient B.",                                                                       "410.7, 2085.4"};
const FieldSpec law_alpha        = {"workloads[].target.scaling_law.alpha",       "",                          0,      2,      true,  false, "hoffmann2022",                            "Parameter exponent alpha.",                                                                 "0.34, 0.348"};
const FieldSpec law_beta         = {"workloads[].target.scaling_law.beta",        "",                          0,      2,      true,  false, "hoffmann2022",                            "Data exponent beta.",                                                                       "0.28, 0.366"};
const FieldSpec bytes_per_param  = {"workloads[].memory.bytes_per_param",         "bytes",                     1,      64,     false, false, "16",                                      "Training state per parameter: weights, gradients, optimizer.",                              "16 mixed-precision Adam (ZeRO paper), 18-20 with buffers"};
const FieldSpec micro_batch      = {"workloads[].memory.micro_batch",             "sequences",                 1,      4096,   false, true,  "1",                                       "Sequences per chip per micro-step (activation memory).",                                    "1 to 8"};
const FieldSpec tensor_parallel  = {"workloads[].memory.tensor_parallel",         "chips",                     1,      1024,   false, true,  "1",                                       "Tensor(+sequence)-parallel degree: activations split over this many chips.",                "1, 8 (one GPU node), 32 (Trn)"};
const FieldSpec usable_fraction  = {"workloads[].memory.usable_fraction",         "fraction",                  0.1,    1,      false, false, "0.9",                                     "Share of HBM the job can use after runtime and fragmentation.",                             "0.85 to 0.95"};
const FieldSpec runs             = {"workloads[].runs",                           "runs",                      1,      1e6,    false, false, "1",                                       "Expected runs of this recipe over the horizon; one-time costs are divided by it.",          "1 (one-off) to 50 (weekly)"};
const FieldSpec horizon_months   = {"workloads[].horizon_months",                 "months",                    1,      120,    false, false, "12",                                      "Period the runs happen in; maintenance and annual totals use it.",                          "12 to 36"};
const FieldSpec override_option  = {"workloads[].overrides[].option",             "option index",              0,      7,      false, true,  "required",                                "Option whose platform costs this override replaces for this workload.",                     ""};
const FieldSpec instances        = {"options[].instances",                        "instances",                 1,      100000, false, true,  "1",                                       "Instances in the cluster.",                                                                 "1 to 512"};
const FieldSpec price_usd_per_hour = {"options[].price_usd_per_hour",             "USD per instance-hour",     0,      1e5,    true,  false, "catalog price for the pricing model",    "Your own hourly price per instance (negotiated, other region); replaces the catalog's.",    "see the catalog"};
const FieldSpec discount         = {"options[].discount",                         "fraction",                  0,      0.95,   false, false, "0",                                       "Discount off the hourly price (private pricing, credits).",                                 "0 to 0.5"};
const FieldSpec mfu              = {"options[].mfu",                              "fraction",                  0.01,   1,      false, false, "catalog figure for the chip",             "Model FLOPs utilization: achieved model FLOP/s over dense peak.",                           "0.30 Trn1 (AWS), 0.40 H100 (Llama 3), 0.50 A100"};
// The lower bounds of measured throughput and custom peak keep the training time finite: "> 0" let
// 1e-300 through, the time overflowed to infinity, 0 × infinity made the cost NaN, and the NaN
// option came out "cheapest" (tests/core/bad_input_test.cpp, tiny_* rows).
const FieldSpec measured_tokens_per_sec_per_chip = {"options[].measured_tokens_per_sec_per_chip", "tokens/s per chip", 0.001, 1e9, false, false, "none (use mfu)",                     "Throughput measured in your own trial run; replaces mfu.",                                  "Llama-2 7B on Trn1: ~1,300"};
const FieldSpec scaling_reference_chips = {"options[].scaling_reference_chips",  "chips",                     1,      1e7,    false, false, "none (no scaling loss)",                  "Cluster size at which mfu or the measured throughput was observed.",                        "the size of your trial run"};
const FieldSpec scaling_per_doubling = {"options[].scaling_per_doubling",         "fraction",                  0.5,    1,      false, false, "0.98",                                    "Share of per-chip throughput kept each time the cluster doubles beyond the reference.",     "0.98 (Megatron-LM: 47% to 42% MFU from 96 to 4608 H100)"};
const FieldSpec custom_chips     = {"options[].custom.chips",                     "chips per instance",        1,      1024,   false, true,  "8",                                       "Accelerators per custom instance.",                                                         "1, 8, 16"};
const FieldSpec custom_peak_tflops = {"options[].custom.peak_tflops",             "TFLOP/s per chip",          0.1,    1e5,    false, false, "the chip's catalog figure",               "Dense peak per chip at the option's precision.",                                            "312 A100, 989 H100 (BF16)"};
const FieldSpec custom_memory_gb = {"options[].custom.memory_gb",                 "GB per chip",               0,      1e5,    true,  false, "the chip's catalog figure",               "Accelerator memory per chip.",                                                              "40 to 192"};
const FieldSpec mtbf_hours_per_instance = {"options[].reliability.mtbf_hours_per_instance", "hours",          1,      1e9,    false, false, "catalog per-chip MTBF / chips per instance", "Mean time between failures of one instance.",                                           "6,300 h for 8 H100 (Llama 3)"};
const FieldSpec checkpoint_write_minutes = {"options[].reliability.checkpoint_write_minutes", "minutes",       0,      1440,   true,  false, "catalog default (5)",                     "Time a checkpoint blocks training.",                                                        "1 to 15"};
const FieldSpec restart_minutes  = {"options[].reliability.restart_minutes",      "minutes",                   0,      1440,   false, false, "catalog default (20)",                    "Time from a failure to training again (detect, replace, reload).",                          "5 to 60"};
const FieldSpec checkpoint_interval_hours = {"options[].reliability.checkpoint_interval_hours", "hours",       0,      1000,   true,  false, "the Young/Daly optimum",                  "Compute time between checkpoints.",                                                         "0.5 to 4"};
const FieldSpec engineer_weeks   = {"options[].porting.engineer_weeks",           "engineer-weeks",            0,      1000,   false, false, "catalog default for the chip family",     "One-time engineering to port the workload to this platform.",                               "0 on CUDA; 3-20 to Neuron (estimate)"};
const FieldSpec usd_per_engineer_week = {"options[].porting.usd_per_engineer_week", "USD",                     0,      1e6,    false, false, "catalog default (6,000)",                 "Fully loaded cost of one engineer-week.",                                                   "4,000 to 9,000"};
const FieldSpec validation_runs  = {"options[].porting.validation_runs",          "runs",                      0,      1000,   false, false, "catalog default for the chip family",     "One-time runs to validate convergence after the port.",                                     "1 to 4"};
const FieldSpec validation_run_fraction = {"options[].porting.validation_run_fraction", "fraction of a run",   0,      1,      false, false, "catalog default (0.05)",                  "Length of each validation run relative to a full run.",                                     "0.02 to 0.15"};
const FieldSpec convergence_penalty = {"options[].porting.convergence_penalty",   "fraction of tokens",        0,      1,      false, false, "catalog default for the chip family",     "Extra tokens needed to reach the same quality on this platform.",                           "0 to 0.08"};
const FieldSpec compile_hours_per_run = {"options[].porting.compile_hours_per_run", "hours",                   0,      1000,   false, false, "catalog default for the chip family",     "Graph compilation on the cluster before each run.",                                         "0 CUDA; 0.25-3 Neuron"};
const FieldSpec maintenance_usd_per_year = {"options[].porting.maintenance_usd_per_year", "USD per year",     0,      1e9,    false, false, "catalog default for the chip family",     "Recurring upkeep of the port (SDK upgrades).",                                              "0 CUDA; 6k-60k Neuron"};
const FieldSpec egress_tb_per_run = {"options[].porting.egress_tb_per_run",       "TB per run",                0,      1e7,    false, false, "0",                                       "Training data moved in from another cloud for each run.",                                   "0 when the data is local"};
const FieldSpec egress_usd_per_tb = {"options[].porting.egress_usd_per_tb",       "USD per TB",                0,      1e5,    false, false, "catalog default (90)",                    "Price of moving one TB out of the other cloud.",                                            "50 to 120"};
const FieldSpec range_low        = {"ranges[].low",                               "the input's unit",          -kBig,  kBig,   false, false, "required",                                "Low end: minimum (triangular, uniform) or 5th percentile (lognormal).",                     ""};
const FieldSpec range_high       = {"ranges[].high",                              "the input's unit",          -kBig,  kBig,   false, false, "required",                                "High end: maximum (triangular, uniform) or 95th percentile (lognormal).",                   ""};
// clang-format on
}  // namespace fields

const std::vector<const FieldSpec*>& all_fields() {
  using namespace fields;
  static const std::vector<const FieldSpec*> all = {
      &reference, &samples, &seed,
      &params, &active_params, &layers, &hidden, &heads, &seq_len, &vocab,
      &tokens, &steps, &tokens_per_step, &loss, &law_E, &law_A, &law_B, &law_alpha, &law_beta,
      &bytes_per_param, &micro_batch, &tensor_parallel, &usable_fraction,
      &runs, &horizon_months, &override_option,
      &instances, &price_usd_per_hour, &discount, &mfu, &measured_tokens_per_sec_per_chip,
      &scaling_reference_chips, &scaling_per_doubling,
      &custom_chips, &custom_peak_tflops, &custom_memory_gb,
      &mtbf_hours_per_instance, &checkpoint_write_minutes, &restart_minutes, &checkpoint_interval_hours,
      &engineer_weeks, &usd_per_engineer_week, &validation_runs, &validation_run_fraction,
      &convergence_penalty, &compile_hours_per_run, &maintenance_usd_per_year, &egress_tb_per_run,
      &egress_usd_per_tb, &range_low, &range_high};
  return all;
}

}  // namespace traincost
