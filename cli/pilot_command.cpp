// `pilot`: what the pilot must show for the verdict to hold, what it costs, and whether it is worth
// running before deciding (core/include/traincost/engine/pilot.hpp).
#include <cstdio>

#include "cli_io.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/api/api.hpp"
#include "traincost/engine/pilot.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/io/pilot_log.hpp"
#include "traincost/output/pilot_results_report.hpp"
#include "traincost/base/text.hpp"

namespace traincost::cli {

int pilot(const Args& args) {
  static const char* const kUsageLine =
      "usage: traincost pilot FILE|- [--workload W] [--candidate I] [--against J] [--fraction F] [--instances N]\n"
      "                              [--samples N] [--seed S] [--format text|json|markdown]\n";
  const Flags flags =
      parse_flags(args, {"--workload", "--candidate", "--against", "--fraction", "--instances", "--samples", "--seed", "--format"});
  if (!flags.error.empty() || flags.positional.empty()) {
    std::fprintf(stderr, "traincost pilot: %s\n%s", flags.error.empty() ? "give a scenario file" : flags.error.c_str(), kUsageLine);
    return kUsageError;
  }
  const std::string format = flags.get("--format", "text");
  if (format != "text" && format != "json" && format != "markdown") {
    std::fprintf(stderr, "traincost pilot: --format must be text, json or markdown\n");
    return kUsageError;
  }
  std::optional<Scenario> s = load_scenario(flags.positional);
  if (!s) return kBadInput;
  Json requested = Json::object();
  for (const char* flag : {"--workload", "--candidate", "--against", "--fraction", "--instances", "--samples", "--seed"})
    if (flags.has(flag)) requested[flag + 2] = flag_value(flags.get(flag));
  Problems problems;
  const std::optional<PilotOptions> options = pilot_options_from_json(requested, *s, problems);
  if (!options) {
    print_option_problems("pilot", problems);
    return kUsageError;
  }
  const ResolvedScenario resolved = resolve(*s, builtin_catalog());
  const PilotPlan plan = plan_pilot(*s, resolved, builtin_catalog(), *options);
  if (format == "json") std::puts(pilot_to_json(*s, resolved, plan).dump(2).c_str());
  else if (format == "markdown") std::fputs(pilot_markdown(*s, resolved, plan).c_str(), stdout);
  else std::fputs(pilot_text(*s, resolved, plan).c_str(), stdout);
  return kOk;
}

// Text with user content (file names, log lines), each line escaped for the terminal.
void print_escaped(const std::string& text) {
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    std::fputs(escape_terminal(line).c_str(), stdout);
    if (end == std::string::npos) break;
    std::fputc('\n', stdout);
    start = end + 1;
  }
}

// `pilot-results`: a pilot's training logs read into the option's pilot block, the measurement
// carried to the planned cluster, the pass marks passed or failed and the verdict before and after.
int pilot_results(const Args& args) {
  static const char* const kUsageLine =
      "usage: traincost pilot-results FILE|- --log LOG [--log LOG ...] [--reference-log LOG] [--option I] [--instances N]\n"
      "                              [--workload W] [--write FILE] [--format text|json]\n";
  const Flags flags = parse_flags(args, {"--log", "--reference-log", "--option", "--instances", "--workload", "--write", "--format"});
  if (!flags.error.empty() || flags.positional.empty() || !flags.has("--log")) {
    std::fprintf(stderr, "traincost pilot-results: %s\n%s",
                 !flags.error.empty() ? flags.error.c_str() : flags.positional.empty() ? "give a scenario file" : "give a log with --log",
                 kUsageLine);
    return kUsageError;
  }
  const std::string format = flags.get("--format", "text");
  if (format != "text" && format != "json") {
    std::fprintf(stderr, "traincost pilot-results: --format must be text or json\n");
    return kUsageError;
  }
  auto whole = [&](const char* flag, int low, int high, int& out) {
    if (!flags.has(flag)) return true;
    const Json v = flag_value(flags.get(flag));
    if (!v.is_number_integer() || v.get<long long>() < low || v.get<long long>() > high) {
      std::fprintf(stderr, "traincost pilot-results: %s must be a whole number from %d to %d\n", flag, low, high);
      return false;
    }
    out = static_cast<int>(v.get<long long>());
    return true;
  };
  std::optional<Scenario> before = load_scenario(flags.positional);
  if (!before) return kBadInput;
  int option = -1, instances = 0, workload = 0;
  if (!whole("--option", 0, static_cast<int>(before->options.size()) - 1, option) || !whole("--instances", 1, 100000, instances) ||
      !whole("--workload", 0, static_cast<int>(before->workloads.size()) - 1, workload))
    return kUsageError;
  const Catalog& catalog = builtin_catalog();

  // Every log read first: one that cannot be read changes nothing.
  std::vector<LogReading> readings;
  bool failed = false;
  // --reference-log: the incumbent's (or a reference run's) loss curve, compared with the pilot's.
  std::optional<LogReading> reference;
  if (flags.has("--reference-log")) {
    const std::string value = flags.get("--reference-log");
    const std::optional<std::string> text = read_input(value);
    if (!text) return kBadInput;
    reference = read_training_log(*text);
    if (!reference->ok) {
      std::fprintf(stderr, "traincost: %s could not be read (nothing was applied):\n", escape_terminal(value).c_str());
      for (const Problem& p : reference->problems) std::fprintf(stderr, "  %s\n", escape_terminal(to_string(p)).c_str());
      return kBadInput;
    }
    if (reference->loss.empty()) {
      std::fprintf(stderr, "traincost: %s has no loss against tokens (nothing was applied)\n", escape_terminal(value).c_str());
      return kBadInput;
    }
  }
  for (const auto& [name, value] : flags.named) {
    if (name != "--log") continue;
    const std::optional<std::string> text = read_input(value);
    if (!text) return kBadInput;
    LogReading r = read_training_log(*text);
    if (!r.ok) {
      std::fprintf(stderr, "traincost: %s could not be read (nothing was applied):\n", escape_terminal(value).c_str());
      for (const Problem& p : r.problems) std::fprintf(stderr, "  %s\n", escape_terminal(to_string(p)).c_str());
      failed = true;
    }
    readings.push_back(std::move(r));
  }
  if (failed) return kBadInput;

  std::string sources;
  for (const auto& [name, value] : flags.named)
    if (name == "--log") sources += (sources.empty() ? "" : ", ") + value;
  if (reference) sources += ", reference " + flags.get("--reference-log");
  const PilotLogs applied = apply_pilot_logs(*before, catalog, static_cast<size_t>(workload), option, instances, readings,
                                             reference ? &*reference : nullptr, sources);
  option = applied.option;
  const Scenario& after = applied.after;
  const PilotMeasurement& pilot = *after.options[static_cast<size_t>(option)].pilot;
  const std::string& size_note = applied.size_note;
  Problems problems = validate(after, catalog);
  if (!problems.empty()) {
    print_problems("the scenario with the pilot", problems);
    return kBadInput;
  }
  const PilotResults results = traincost::pilot_results(*before, after, catalog, option, static_cast<size_t>(workload));
  if (format == "json") {
    OrderedJson j = OrderedJson::object();
    OrderedJson logs = OrderedJson::array();
    for (const LogReading& r : readings) logs.push_back(reading_to_json(r));
    j["logs"] = logs;
    if (reference) j["reference_log"] = reading_to_json(*reference);
    if (!size_note.empty()) j["size_note"] = size_note;
    j["pilot"] = pilot_to_json(pilot);
    j["results"] = pilot_results_to_json(*before, after, catalog, results);
    std::puts(j.dump(2).c_str());
  } else {
    for (size_t i = 0, k = 0; i < flags.named.size(); ++i)
      if (flags.named[i].first == "--log") {
        std::printf("%s: ", escape_terminal(flags.named[i].second).c_str());
        print_escaped(reading_text(readings[k++]));
      }
    if (reference) {
      std::printf("%s (reference): ", escape_terminal(flags.get("--reference-log")).c_str());
      print_escaped(reading_text(*reference));
    }
    if (!size_note.empty()) std::printf("Note: %s.\n", size_note.c_str());
    std::puts("");
    print_escaped(pilot_results_text(*before, after, catalog, results));
  }
  if (flags.has("--write")) {
    const std::string path = flags.get("--write");
    FILE* f = std::fopen(path.c_str(), "wb");
    const std::string text = scenario_to_json(after, JsonForm::Minimal).dump(2) + "\n";
    if (!f || std::fwrite(text.data(), 1, text.size(), f) != text.size()) {
      if (f) std::fclose(f);
      std::fprintf(stderr, "traincost pilot-results: cannot write %s\n", escape_terminal(path).c_str());
      return kBadInput;
    }
    std::fclose(f);
    if (format == "text") std::printf("Wrote the scenario with options[%d].pilot to %s.\n", option, escape_terminal(path).c_str());
  }
  return results.ok ? kOk : kBadInput;
}

}  // namespace traincost::cli
