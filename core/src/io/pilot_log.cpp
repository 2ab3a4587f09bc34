#include "traincost/io/pilot_log.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>

#include "traincost/base/format.hpp"
#include "traincost/base/text.hpp"
#include "traincost/engine/pilot.hpp"
#include "traincost/engine/resolve.hpp"

namespace traincost {

namespace {

// One per-step report of a log: the line it is on and what it states.
struct Report {
  int line = 0;
  double step = 0;
  std::optional<double> seconds, tflops, mfu, tokens_per_chip, samples, batch, loss, consumed, memory;
};

// Without terminal colour codes (ESC [ ... letter) and the carriage return at the end.
std::string clean(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\x1b' && i + 1 < raw.size() && raw[i + 1] == '[') {
      size_t j = i + 2;
      while (j < raw.size() && !std::isalpha(static_cast<unsigned char>(raw[j]))) ++j;
      i = j;
      continue;
    }
    if (raw[i] != '\r') out += raw[i];
  }
  return out;
}

std::string preview(const std::string& line) {
  std::string s = line.size() > 80 ? line.substr(0, 77) + "..." : line;
  return "\"" + s + "\"";
}

// The number right after `key` (spaces skipped; thousands commas, as torchtitan prints tps, read
// through); nothing when the key is absent. `found` says whether the key was there.
std::optional<double> number_after(const std::string& line, std::string_view key, bool* found = nullptr) {
  const size_t at = line.find(key);
  if (found) *found = at != std::string::npos;
  if (at == std::string::npos) return std::nullopt;
  size_t i = at + key.size();
  while (i < line.size() && line[i] == ' ') ++i;
  std::string digits;
  for (; i < line.size(); ++i) {
    const char c = line[i];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E') digits += c;
    else if (c == ',' && i + 3 < line.size() + 1 && !digits.empty() && i + 1 < line.size() &&
             std::isdigit(static_cast<unsigned char>(line[i + 1])))
      continue;  // 6,543
    else break;
  }
  if (digits.empty()) return std::nullopt;
  char* end = nullptr;
  const double x = std::strtod(digits.c_str(), &end);
  if (end != digits.c_str() + digits.size() || !std::isfinite(x)) return std::nullopt;
  return x;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string lines_text(int first, int last) {
  return first == last ? "line " + std::to_string(first) : "lines " + std::to_string(first) + "-" + std::to_string(last);
}

class Reader {
 public:
  explicit Reader(LogReading& r) : r_(r) {}

  void fail(int line, const std::string& message) { r_.problems.push_back({"line " + std::to_string(line), message}); }

  // A field the format's line must have, as a number: a problem naming the line when it is missing or unreadable.
  std::optional<double> required(const std::string& line, int n, std::string_view key, const char* what) {
    bool found = false;
    const std::optional<double> x = number_after(line, key, &found);
    if (!x) fail(n, std::string(found ? "has no number after " : "has no ") + "\"" + std::string(key) + "\" (" + what + "): " + preview(line) +
                        (found ? "" : " (cut short?)"));
    return x;
  }
  // A field that may be absent, but when present must be a number.
  std::optional<double> optional(const std::string& line, int n, std::string_view key) {
    bool found = false;
    const std::optional<double> x = number_after(line, key, &found);
    if (found && !x) fail(n, "has no number after \"" + std::string(key) + "\": " + preview(line));
    return x;
  }

 private:
  LogReading& r_;
};

bool contains(const std::string& s, std::string_view key) { return s.find(key) != std::string::npos; }

std::optional<LogFormat> detect(const std::vector<std::string>& lines) {
  for (const std::string& l : lines) {
    std::string t = l;
    t.erase(std::remove(t.begin(), t.end(), ' '), t.end());
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (t.empty()) continue;
    if (t == "step,tokens,loss") return LogFormat::Csv;
    break;  // the header is the first non-empty line
  }
  for (const std::string& l : lines) {
    if (contains(l, "elapsed time per iteration (ms)")) return LogFormat::Megatron;
    if (contains(l, "step_loss :") && contains(l, "throughput :")) return LogFormat::Nxd;
    if (contains(l, "global_step=") && (contains(l, "throughput=") || contains(l, "train_step_timing in s="))) return LogFormat::ProgressBar;
    if (contains(l, "train_samples_per_second")) return LogFormat::HuggingFace;
    if (contains(l, "step:") && contains(l, "tps:")) return LogFormat::Torchtitan;
  }
  return std::nullopt;
}

// "step: 12" as torchtitan writes it, at the start of the message.
bool torchtitan_line(const std::string& l) { return contains(l, "step:") && (contains(l, "tps:") || contains(l, "loss:")); }

void read_reports(LogFormat format, const std::vector<std::string>& lines, LogReading& r, std::vector<Report>& reports) {
  Reader in(r);
  std::map<double, size_t> by_step;  // a progress bar redraws a step: the last drawing wins
  for (size_t k = 0; k < lines.size(); ++k) {
    const std::string& l = lines[k];
    const int n = static_cast<int>(k + 1);
    Report x;
    x.line = n;
    switch (format) {
      case LogFormat::Megatron: {
        if (!r.seq_len && contains(l, "seq_length ..")) {
          const size_t dots = l.find_last_of('.');
          if (auto v = number_after(l, l.substr(0, dots + 1))) r.seq_len = static_cast<int>(*v);
        }
        if (!r.world_size && contains(l, "world_size ..")) {
          const size_t dots = l.find_last_of('.');
          if (auto v = number_after(l, l.substr(0, dots + 1))) r.world_size = static_cast<int>(*v);
        }
        if (!contains(l, "iteration") || !contains(l, "|")) continue;
        const auto step = in.required(l, n, "iteration", "the iteration");
        const auto ms = in.required(l, n, "elapsed time per iteration (ms):", "the step time");
        if (!step || !ms) continue;
        x.step = *step;
        x.seconds = *ms / 1000;
        x.tflops = in.optional(l, n, "throughput per GPU (TFLOP/s/GPU):");
        x.batch = in.optional(l, n, "global batch size:");
        x.consumed = in.optional(l, n, "consumed samples:");
        x.loss = in.optional(l, n, "lm loss:");
        break;
      }
      case LogFormat::Torchtitan: {
        if (!torchtitan_line(l)) continue;
        const auto step = in.required(l, n, "step:", "the step");
        const auto tps = in.required(l, n, "tps:", "tokens/s per device");
        if (!step || !tps) continue;
        x.step = *step;
        x.tokens_per_chip = *tps;
        x.loss = in.optional(l, n, "loss:");
        x.tflops = in.optional(l, n, "tflops:");
        if (const auto mfu = in.optional(l, n, "mfu:")) x.mfu = *mfu / 100;
        x.memory = in.optional(l, n, "memory:");
        break;
      }
      case LogFormat::Nxd: {
        if (!contains(l, "step_loss")) continue;
        const size_t open = l.find('(');
        const size_t comma = l.find(',', open == std::string::npos ? 0 : open);
        const std::optional<double> step = open == std::string::npos || comma == std::string::npos ? std::nullopt
                                                                                                      : number_after(l, l.substr(open, comma - open + 1));
        if (!step) {
          in.fail(n, "has no \"(epoch, step)\": " + preview(l));
          continue;
        }
        const auto loss = in.required(l, n, "step_loss :", "the loss");
        const auto samples = in.required(l, n, "throughput :", "sequences/s");
        if (!loss || !samples) continue;
        x.step = *step;
        x.loss = *loss;
        x.samples = *samples;
        break;
      }
      case LogFormat::ProgressBar: {
        if (!contains(l, "global_step=")) continue;
        const auto step = in.required(l, n, "global_step=", "the step");
        if (!step) continue;
        x.step = *step;
        x.seconds = in.optional(l, n, "train_step_timing in s=");
        x.samples = in.optional(l, n, "throughput=");
        x.loss = in.optional(l, n, "reduced_train_loss=");
        x.consumed = in.optional(l, n, "consumed_samples=");
        if (!x.seconds && !x.samples) {
          in.fail(n, "has neither \"train_step_timing in s=\" nor \"throughput=\": " + preview(l));
          continue;
        }
        if (const auto it = by_step.find(x.step); it != by_step.end()) {
          reports[it->second] = x;
          continue;
        }
        by_step[x.step] = reports.size();
        break;
      }
      default: continue;
    }
    reports.push_back(x);
  }
}

// One figure: the median of `get` over the kept reports, recorded with where it came from.
template <typename Get>
std::optional<double> figure(LogReading& r, const std::vector<Report>& kept, const char* key, Get get) {
  std::vector<double> values;
  int first = 0, last = 0;
  for (const Report& x : kept)
    if (const std::optional<double> v = get(x)) {
      values.push_back(*v);
      if (!first) first = x.line;
      last = x.line;
    }
  if (values.empty()) return std::nullopt;
  const double m = median(values);
  r.figures.push_back({key, m, values.size() == 1 ? lines_text(first, last)
                                                  : "median of " + std::to_string(values.size()) + " reports, " + lines_text(first, last)});
  return m;
}

void summarize_steps(LogReading& r, std::vector<Report>& reports) {
  r.reports = static_cast<int>(reports.size());
  if (reports.empty()) return;
  // Warm-up: the first report, then every leading report more than 10% off the median of the rest
  // (by step time where the log states it, else by throughput).
  auto speed = [](const Report& x) -> double {
    if (x.seconds) return *x.seconds;
    if (x.tokens_per_chip) return 1 / *x.tokens_per_chip;
    if (x.samples) return 1 / *x.samples;
    return 0;
  };
  size_t skip = reports.size() >= 2 ? 1 : 0;
  if (reports.size() >= 3) {
    std::vector<double> rest;
    for (size_t i = 1; i < reports.size(); ++i) rest.push_back(speed(reports[i]));
    const double m = median(rest);
    while (skip + 1 < reports.size() && m > 0 && std::fabs(speed(reports[skip]) / m - 1) > 0.10) ++skip;
    // The warm-up's extra time: each skipped report's step time beyond the median, times the
    // iterations it averages over (the steps since the previous report).
    if (reports[0].seconds) {
      std::vector<double> kept_seconds;
      for (size_t i = skip; i < reports.size(); ++i)
        if (reports[i].seconds) kept_seconds.push_back(*reports[i].seconds);
      if (!kept_seconds.empty()) {
        const double typical = median(kept_seconds);
        double extra = 0;
        for (size_t i = 0; i < skip; ++i) {
          const double iterations = i == 0 ? std::max(1.0, reports[0].step) : std::max(1.0, reports[i].step - reports[i - 1].step);
          if (reports[i].seconds) extra += std::max(0.0, *reports[i].seconds - typical) * iterations;
        }
        r.warmup_seconds = extra;
      }
    }
  }
  r.warmup_skipped = static_cast<int>(skip);
  if (skip > 0) r.warmup_lines = lines_text(reports.front().line, reports[skip - 1].line);
  if (reports.size() == 1) r.notes.push_back("only one report: nothing could be skipped as warm-up, so the figures may include it");
  const std::vector<Report> kept(reports.begin() + static_cast<long>(skip), reports.end());
  r.step_seconds = figure(r, kept, "step_seconds", [](const Report& x) { return x.seconds; });
  r.tflops_per_chip = figure(r, kept, "tflops_per_chip", [](const Report& x) { return x.tflops; });
  r.mfu = figure(r, kept, "mfu", [](const Report& x) { return x.mfu; });
  r.tokens_per_sec_per_chip = figure(r, kept, "tokens_per_sec_per_chip", [](const Report& x) { return x.tokens_per_chip; });
  r.samples_per_sec = figure(r, kept, "samples_per_sec", [](const Report& x) { return x.samples; });
  r.global_batch_sequences = figure(r, kept, "global_batch_sequences", [](const Report& x) { return x.batch; });
  r.memory_gib = figure(r, kept, "memory_gib", [](const Report& x) { return x.memory; });
  if (r.warmup_seconds) r.figures.push_back({"compile_minutes", *r.warmup_seconds / 60, "warm-up beyond the typical step, " + r.warmup_lines});
  // The loss curve, where tokens can be counted: consumed samples × sequence length.
  for (const Report& x : reports)
    if (x.loss && x.consumed && r.seq_len && (r.loss.empty() || x.consumed.value() * *r.seq_len > r.loss.back().tokens))
      r.loss.push_back({*x.consumed * *r.seq_len, *x.loss});
}

void read_huggingface(const std::vector<std::string>& lines, LogReading& r) {
  Reader in(r);
  // The summary, as a dict ('train_samples_per_second': 12.3) or the metrics block (train_samples_per_second = 12.3).
  for (const char* key : {"train_samples_per_second", "train_steps_per_second", "train_runtime"}) {
    for (size_t k = 0; k < lines.size(); ++k) {
      const std::string& l = lines[k];
      const size_t at = l.find(key);
      if (at == std::string::npos) continue;
      size_t i = at + std::string(key).size();
      while (i < l.size() && (l[i] == '\'' || l[i] == '"' || l[i] == ':' || l[i] == '=' || l[i] == ' ')) ++i;
      const std::string rest = l.substr(i);
      const int n = static_cast<int>(k + 1);
      std::optional<double> v;
      if (std::string(key) == "train_runtime" && rest.find(':') != std::string::npos && rest.find(':') < rest.find_first_of(",}")) {
        // train_runtime = 0:06:48.60 in the metrics block
        int h = 0, m = 0;
        double s = 0;
        if (std::sscanf(rest.c_str(), "%d:%d:%lf", &h, &m, &s) == 3) v = h * 3600.0 + m * 60.0 + s;
      } else {
        v = number_after(rest, "");
      }
      if (!v) {
        in.fail(n, std::string("has no number after \"") + key + "\": " + preview(l));
        break;
      }
      if (std::string(key) == "train_samples_per_second") r.samples_per_sec = *v;
      if (std::string(key) == "train_steps_per_second") r.step_seconds = 1 / *v;
      r.figures.push_back({std::string(key) == "train_samples_per_second" ? "samples_per_sec"
                           : std::string(key) == "train_steps_per_second" ? "step_seconds"
                                                                          : "train_runtime_seconds",
                           std::string(key) == "train_steps_per_second" ? 1 / *v : *v, "line " + std::to_string(n) + " (" + key + ")"});
      break;
    }
  }
  if (r.samples_per_sec && r.step_seconds) {
    r.global_batch_sequences = *r.samples_per_sec * *r.step_seconds;
    r.figures.push_back({"global_batch_sequences", *r.global_batch_sequences, "train_samples_per_second ÷ train_steps_per_second"});
  }
  r.notes.push_back("the Trainer's summary averages over the whole run, warm-up and compilation included: no step could be skipped");
}

void read_csv(const std::vector<std::string>& lines, LogReading& r) {
  Reader in(r);
  bool header = false;
  std::vector<double> steps;
  for (size_t k = 0; k < lines.size(); ++k) {
    const std::string& l = lines[k];
    const int n = static_cast<int>(k + 1);
    if (l.find_first_not_of(" \t") == std::string::npos) continue;
    if (!header) {
      header = true;
      continue;
    }
    double v[3];
    size_t start = 0;
    int fields = 0;
    bool bad = false;
    for (; fields < 4 && start <= l.size(); ++fields) {
      const size_t comma = l.find(',', start);
      const std::string cell = l.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (fields < 3) {
        char* end = nullptr;
        const std::string trimmed = cell.substr(cell.find_first_not_of(' ') == std::string::npos ? 0 : cell.find_first_not_of(' '));
        v[fields] = std::strtod(trimmed.c_str(), &end);
        if (trimmed.empty() || (*end != '\0' && *end != ' ') || !std::isfinite(v[fields])) bad = true;
      }
      if (comma == std::string::npos) {
        ++fields;
        break;
      }
      start = comma + 1;
    }
    if (bad || fields != 3) {
      in.fail(n, "must be three numbers step,tokens,loss: " + preview(l));
      continue;
    }
    if (!r.loss.empty() && v[1] <= r.loss.back().tokens) {
      in.fail(n, "tokens must increase from row to row: " + preview(l));
      continue;
    }
    if (!(v[2] > 0 && v[2] < 100) || v[1] < 0) {
      in.fail(n, "needs tokens ≥ 0 and a loss in (0, 100): " + preview(l));
      continue;
    }
    steps.push_back(v[0]);
    r.loss.push_back({v[1], v[2]});
  }
  r.reports = static_cast<int>(r.loss.size());
  // Tokens per step between consecutive rows: the global batch in tokens.
  std::vector<double> per_step;
  for (size_t i = 1; i < r.loss.size(); ++i)
    if (steps[i] > steps[i - 1]) per_step.push_back((r.loss[i].tokens - r.loss[i - 1].tokens) / (steps[i] - steps[i - 1]));
  if (!per_step.empty())
    r.figures.push_back({"batch_tokens", median(per_step), "median tokens per step over " + std::to_string(per_step.size() + 1) + " rows"});
  if (!r.loss.empty()) r.figures.push_back({"loss", r.loss.back().loss, "loss curve of " + std::to_string(r.loss.size()) + " points"});
}

}  // namespace

LogReading read_training_log(std::string_view text) {
  LogReading r;
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size() && lines.size() < kMaxLogLines) {
    const size_t end = text.find('\n', start);
    lines.push_back(clean(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start)));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  const std::optional<LogFormat> format = detect(lines);
  if (!format) {
    r.problems.push_back({"", "no line of a known training log: Megatron-LM/NeMo \"elapsed time per iteration (ms)\", torchtitan "
                              "\"step: .. tps: ..\", neuronx-distributed \"step_loss : .. throughput : ..\", a progress bar with "
                              "\"global_step=\", a Hugging Face \"train_samples_per_second\" summary or a CSV headed step,tokens,loss"});
    return r;
  }
  r.format = *format;
  if (r.format == LogFormat::Csv) {
    read_csv(lines, r);
  } else if (r.format == LogFormat::HuggingFace) {
    read_huggingface(lines, r);
  } else {
    std::vector<Report> reports;
    read_reports(r.format, lines, r, reports);
    if (r.problems.empty()) summarize_steps(r, reports);
  }
  if (r.seq_len) r.figures.push_back({"seq_len", static_cast<double>(*r.seq_len), "the arguments' seq_length"});
  if (r.world_size) r.figures.push_back({"chips", static_cast<double>(*r.world_size), "the arguments' world_size"});
  const bool rate = r.step_seconds || r.tflops_per_chip || r.mfu || r.tokens_per_sec_per_chip || r.samples_per_sec;
  if (r.problems.empty() && !rate && r.loss.empty()) r.problems.push_back({"", "no throughput or loss could be read from the log"});
  if (!r.problems.empty()) {
    // Nothing half-read is offered.
    LogReading failed;
    failed.format = r.format;
    failed.problems = r.problems;
    return failed;
  }
  r.ok = true;
  return r;
}

std::vector<std::string> apply_reading(const LogReading& r, double chips, PilotMeasurement& pilot) {
  std::vector<std::string> set;
  auto put = [&](std::optional<double>& field, std::optional<double> value, const char* key) {
    if (!value) return;
    field = value;
    set.push_back(key);
  };
  if (r.tokens_per_sec_per_chip && chips > 0) put(pilot.tokens_per_sec, *r.tokens_per_sec_per_chip * chips, "tokens_per_sec");
  put(pilot.samples_per_sec, r.samples_per_sec, "samples_per_sec");
  put(pilot.step_seconds, r.step_seconds, "step_seconds");
  put(pilot.tflops_per_chip, r.tflops_per_chip, "tflops_per_chip");
  put(pilot.mfu, r.mfu, "mfu");
  put(pilot.global_batch_sequences, r.global_batch_sequences, "global_batch_sequences");
  if (r.warmup_seconds) put(pilot.compile_minutes, *r.warmup_seconds / 60, "compile_minutes");
  if (r.seq_len) {
    pilot.seq_len = *r.seq_len;
    set.push_back("seq_len");
  }
  if (r.tflops_per_chip) pilot.flops = FlopConvention::Model;  // Megatron and torchtitan count model FLOPs
  if (!r.loss.empty()) {
    pilot.loss = r.loss;
    if (pilot.loss.size() > kMaxLossPoints) pilot.loss.resize(kMaxLossPoints);
    set.push_back("loss");
  }
  return set;
}

PilotLogs apply_pilot_logs(const Scenario& before, const Catalog& catalog, size_t workload, int option, int instances,
                           const std::vector<LogReading>& logs, const LogReading* reference, const std::string& source) {
  PilotLogs out;
  out.after = before;
  const ResolvedScenario resolved = resolve(before, catalog);
  if (option < 0) {
    PilotOptions po;
    po.workload = workload;
    po.samples = 1;  // the candidate alone, not the value of the pilot
    option = std::max(0, plan_pilot(before, resolved, catalog, po).candidate);
  }
  out.option = option;
  const PairInputs& planned = resolved.workloads[workload].options[static_cast<size_t>(option)];
  // The pilot's size: as given, else the log's world size, else the planned cluster.
  if (instances <= 0) {
    for (const LogReading& r : logs)
      if (r.world_size && planned.chips_per_instance > 0 && *r.world_size % static_cast<int>(planned.chips_per_instance) == 0) {
        instances = *r.world_size / static_cast<int>(planned.chips_per_instance);
        out.size_note = "the pilot's size is the log's world_size";
      }
    if (instances <= 0) {
      instances = static_cast<int>(planned.instances);
      out.size_note = "the log gives no world_size and no pilot size was given: taken as measured on the planned cluster";
    }
  }
  out.instances = instances;
  PilotMeasurement pilot = before.options[static_cast<size_t>(option)].pilot.value_or(PilotMeasurement{});
  pilot.instances = instances;
  for (const LogReading& r : logs) apply_reading(r, instances * planned.chips_per_instance, pilot);
  if (reference) {
    pilot.reference_loss = reference->loss;
    if (pilot.reference_loss.size() > kMaxLossPoints) pilot.reference_loss.resize(kMaxLossPoints);
  }
  pilot.source = shorten(source, 200);
  out.after.options[static_cast<size_t>(option)].pilot = pilot;
  return out;
}

OrderedJson reading_to_json(const LogReading& r) {
  OrderedJson j = OrderedJson::object();
  j["ok"] = r.ok;
  j["format"] = word_of(kLogFormatWords, r.format);
  if (!r.ok) {
    OrderedJson problems = OrderedJson::array();
    for (const Problem& p : r.problems) problems.push_back({{"path", p.path}, {"message", p.message}});
    j["problems"] = problems;
    return j;
  }
  j["format_name"] = description_of(kLogFormatWords, r.format);
  j["reports"] = r.reports;
  j["warmup_skipped"] = r.warmup_skipped;
  if (!r.warmup_lines.empty()) j["warmup_lines"] = r.warmup_lines;
  OrderedJson figures = OrderedJson::array();
  for (const LogFigure& f : r.figures) figures.push_back({{"key", f.key}, {"value", f.value}, {"from", f.how}});
  j["figures"] = figures;
  OrderedJson pilot = OrderedJson::object();
  auto put = [&](const char* key, const std::optional<double>& v) {
    if (v) pilot[key] = *v;
  };
  put("step_seconds", r.step_seconds);
  put("tflops_per_chip", r.tflops_per_chip);
  put("mfu", r.mfu);
  put("tokens_per_sec_per_chip", r.tokens_per_sec_per_chip);
  put("samples_per_sec", r.samples_per_sec);
  put("global_batch_sequences", r.global_batch_sequences);
  put("memory_gib", r.memory_gib);
  put("warmup_seconds", r.warmup_seconds);
  if (r.seq_len) pilot["seq_len"] = *r.seq_len;
  if (r.world_size) pilot["world_size"] = *r.world_size;
  j["read"] = pilot;
  if (!r.loss.empty()) {
    OrderedJson curve = OrderedJson::array();
    for (const LossPoint& x : r.loss) curve.push_back(OrderedJson::array({x.tokens, x.loss}));
    j["loss"] = curve;
  }
  j["notes"] = r.notes;
  return j;
}

std::string reading_text(const LogReading& r) {
  std::string out;
  if (!r.ok) {
    out += "The log could not be read (nothing was applied):\n";
    for (const Problem& p : r.problems) out += "  " + to_string(p) + "\n";
    return out;
  }
  out += std::string("Read as ") + description_of(kLogFormatWords, r.format);
  if (r.format != LogFormat::HuggingFace) out += ": " + std::to_string(r.reports) + (r.format == LogFormat::Csv ? " rows" : " reports");
  if (r.warmup_skipped == 1) out += ", the first skipped as warm-up (" + r.warmup_lines + ")";
  if (r.warmup_skipped > 1) out += ", the first " + std::to_string(r.warmup_skipped) + " skipped as warm-up (" + r.warmup_lines + ")";
  out += ".\n";
  for (const LogFigure& f : r.figures) out += "  " + f.key + " = " + fmt::number(f.value, 4) + "  (" + f.how + ")\n";
  for (const std::string& n : r.notes) out += "  Note: " + n + ".\n";
  return out;
}

}  // namespace traincost
