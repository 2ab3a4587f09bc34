#pragma once
// Reads a pilot's training log (pasted text) into the figures a pilot block holds (issue 31),
// saying what it took from which line. Understands:
//   - Megatron-LM, NeMo 2 and Megatron-Bridge iteration lines ("iteration 10/100 | ... | elapsed
//     time per iteration (ms): 4567.8 | throughput per GPU (TFLOP/s/GPU): 412.3 | ... | global
//     batch size: 128 | lm loss: ... |"), and the "seq_length ....... 8192" and "world_size ...
//     32" lines of its arguments;
//   - torchtitan's metric lines ("step: 10  loss: 7.12  memory: 30.1GiB(38%)  tps: 6,543
//     tflops: 300.1  mfu: 30.4%"), tps being tokens/s per device, colour codes allowed;
//   - neuronx-distributed's ("LOG <time> - (0, 10) step_loss : 10.25 learning_rate : 1.5e-05
//     throughput : 28.89", sequences/s over the cluster) and the Lightning progress bars of NxD
//     Training and NeMo 1 ("global_step=10.0, ..., throughput=28.9" or "train_step_timing in s=5.9");
//   - the Hugging Face Trainer's and optimum-neuron's summary ({'train_runtime': ..,
//     'train_samples_per_second': .., 'train_steps_per_second': ..} or the "***** train metrics
//     *****" block), which averages over the whole run, warm-up included;
//   - a CSV "step,tokens,loss" (a loss curve: tokens trained so far, at each step).
// Per-step formats: the first report is warm-up (compilation, caches) and is skipped, then each
// further leading report more than 10% off the median of the rest; every figure is the median
// over the remaining reports, so one slow step or a loss spike does not move it. A line that
// looks like the format's but cannot be read (a field without its number, a line cut short) makes
// the whole reading fail with a problem naming the line: nothing is guessed.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traincost/base/json_text.hpp"
#include "traincost/base/problems.hpp"
#include "traincost/scenario/scenario.hpp"

namespace traincost {

enum class LogFormat { Megatron, Torchtitan, Nxd, ProgressBar, HuggingFace, Csv };
inline constexpr EnumWord<LogFormat> kLogFormatWords[] = {
    {LogFormat::Megatron, "megatron", "Megatron-LM / NeMo / Megatron-Bridge iteration lines"},
    {LogFormat::Torchtitan, "torchtitan", "torchtitan metric lines"},
    {LogFormat::Nxd, "nxd", "neuronx-distributed LOG lines"},
    {LogFormat::ProgressBar, "progress-bar", "NxD Training / NeMo progress bar"},
    {LogFormat::HuggingFace, "huggingface", "Hugging Face Trainer / optimum-neuron summary"},
    {LogFormat::Csv, "csv", "CSV step,tokens,loss"}};

// One figure and where it came from.
struct LogFigure {
  std::string key;      // the pilot field it fills ("step_seconds") or what it is ("memory_gib")
  double value = 0;
  std::string how;      // "median of 8 reports, lines 14-21", "line 40"
};

struct LogReading {
  bool ok = false;
  LogFormat format = LogFormat::Csv;
  Problems problems;          // path "line N": what could not be read
  int reports = 0;            // per-step reports read
  int warmup_skipped = 0;     // of them, skipped as warm-up
  std::string warmup_lines;   // "lines 3-4"
  // The medians after warm-up (absent when the log does not state them).
  std::optional<double> step_seconds, tflops_per_chip, mfu, tokens_per_sec_per_chip, samples_per_sec, global_batch_sequences,
      memory_gib, warmup_seconds;
  std::optional<int> seq_len, world_size;
  std::vector<LossPoint> loss;  // tokens against loss, where the log gives tokens
  std::vector<LogFigure> figures;
  std::vector<std::string> notes;
};

// At most this many lines are read (a log excerpt, not a whole run).
inline constexpr size_t kMaxLogLines = 200000;

LogReading read_training_log(std::string_view text);

// Puts a reading into a pilot block: its figures replace the block's, the rest is kept. `chips`
// (the pilot's) turns tokens/s per chip into the cluster's. Returns the pilot fields set.
std::vector<std::string> apply_reading(const LogReading& reading, double chips, PilotMeasurement& pilot);

// Logs put into an option's pilot block: the one step `traincost pilot-results` and the page's
// "Pilot results" dialog share. `option` -1 is the pilot plan's candidate; `instances` 0 is the
// logs' world_size where it is a whole number of the option's instances, else the planned cluster
// (`size_note` says which). Each log's figures replace the block's (apply_reading), the reference
// log's loss curve becomes `reference_loss`; `source` names where they came from. Every reading
// must be ok; `workload` and `option` must be in range (or -1).
struct PilotLogs {
  Scenario after;          // `before` with the pilot block
  int option = 0;          // the option it went to
  int instances = 0;       // the pilot's size
  std::string size_note;   // how the size was found when it was not given, else ""
};
PilotLogs apply_pilot_logs(const Scenario& before, const Catalog& catalog, size_t workload, int option, int instances,
                           const std::vector<LogReading>& logs, const LogReading* reference, const std::string& source);

OrderedJson reading_to_json(const LogReading& reading);
// What was read, one line each: the format, each figure with where it came from, the warm-up, notes.
std::string reading_text(const LogReading& reading);

}  // namespace traincost
