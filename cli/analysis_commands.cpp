// `analyze` (sensitivity and Monte Carlo), `sweep` (cost and time over cluster sizes) and `link` (share links).
#include <cstdio>

#include "cli_io.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/api/api.hpp"
#include "traincost/base/text.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/io/link.hpp"
#include "traincost/output/analysis_report.hpp"
#include "traincost/output/present.hpp"
#include "traincost/engine/sweep.hpp"
#include "traincost/engine/uncertainty.hpp"
#include "traincost/output/sweep_report.hpp"

namespace traincost::cli {

std::optional<Scenario> scenario_from_link_argument(const std::string& link) {
  Problems problems;
  std::vector<std::string> notices;
  std::optional<Scenario> s = decode_link(link, builtin_catalog(), problems, &notices);
  if (!s) print_problems("the link", problems);
  for (const std::string& n : notices) std::fprintf(stderr, "traincost: note: %s\n", escape_terminal(n).c_str());
  return s;
}

int analyze(const Args& args) {
  const Flags flags = parse_flags(args, {"--samples", "--seed", "--format", "--workload"});
  if (!flags.error.empty() || flags.positional.empty()) {
    std::fprintf(stderr, "traincost analyze: %s\nusage: traincost analyze FILE|- [--samples N] [--seed S] [--workload W] [--format text|json|markdown]\n",
                 flags.error.empty() ? "give a scenario file" : flags.error.c_str());
    return kUsageError;
  }
  const std::string format = flags.get("--format", "text");
  if (format != "text" && format != "json" && format != "markdown") {
    std::fprintf(stderr, "traincost analyze: --format must be text, json or markdown\n");
    return kUsageError;
  }
  std::optional<Scenario> s = load_scenario(flags.positional);
  if (!s) return kBadInput;
  Json requested = Json::object();
  for (const char* flag : {"--samples", "--seed", "--workload"})
    if (flags.has(flag)) requested[flag + 2] = flag_value(flags.get(flag));
  Problems problems;
  const std::optional<AnalyzeOptions> options = analyze_options_from_json(requested, *s, problems);
  if (!options) {
    print_option_problems("analyze", problems);
    return kUsageError;
  }
  const ResolvedScenario resolved = resolve(*s, builtin_catalog());
  const Analysis a = analyze(*s, builtin_catalog(), *options);
  if (format == "json") std::puts(analysis_to_json(*s, resolved, a).dump(2).c_str());
  else if (format == "markdown") std::fputs(analysis_markdown(resolved, a).c_str(), stdout);
  else std::fputs(analysis_text(resolved, a).c_str(), stdout);
  return kOk;
}

int sweep(const Args& args) {
  const Flags flags = parse_flags(args, {"--format", "--workload"});
  const std::string format = flags.get("--format", "text");
  if (!flags.error.empty() || flags.positional.empty() || (format != "text" && format != "json" && format != "csv")) {
    std::fprintf(stderr, "traincost sweep: %s\nusage: traincost sweep FILE|- [--workload W] [--format text|json|csv]\n",
                 flags.error.empty() ? "give a scenario file and a format of text, json or csv" : flags.error.c_str());
    return kUsageError;
  }
  std::optional<Scenario> s = load_scenario(flags.positional);
  if (!s) return kBadInput;
  Json requested = Json::object();
  if (flags.has("--workload")) requested["workload"] = flag_value(flags.get("--workload"));
  Problems problems;
  const std::optional<size_t> workload = sweep_options_from_json(requested, *s, problems);
  if (!workload) {
    for (const Problem& p : problems) std::fprintf(stderr, "traincost sweep: --workload %s\n", p.message.c_str());
    return kUsageError;
  }
  const ResolvedScenario resolved = resolve(*s, builtin_catalog());
  const Sweep result = sweep(*s, resolved, builtin_catalog(), *workload);
  if (format == "json") std::puts(sweep_to_json(*s, resolved, result).dump(2).c_str());
  else if (format == "csv") std::fputs(sweep_csv(resolved, result).c_str(), stdout);
  else std::fputs(sweep_text(*s, resolved, result).c_str(), stdout);
  return kOk;
}

int link(const Args& args) {
  const Flags flags = parse_flags(args, {"--format"});
  const std::string format = flags.get("--format", "text");
  if (!flags.error.empty() || flags.positional.empty() || (format != "text" && format != "json")) {
    std::fprintf(stderr, "usage: traincost link FILE|- [--format text|json]\n");
    return kUsageError;
  }
  std::optional<Scenario> s = load_scenario(flags.positional);
  if (!s) return kBadInput;
  // link_json stamps the catalog the link was made with, so a later catalog can say its figures changed.
  const OrderedJson link = link_json(*s);
  if (format == "json") std::puts(link.dump(2).c_str());
  else std::puts(link["link"].get<std::string>().c_str());
  return kOk;
}

}  // namespace traincost::cli

namespace traincost::cli {

namespace {
constexpr const char* kCompareUsage =
    "usage: traincost compare MODEL|FILE|- [--tokens N] [--instances N | --chips N] [--sort cost|time|throughput] "
    "[--workload W] [--format text|markdown|csv|json]\n"
    "  MODEL: a workload preset's name (or a unique part of it); FILE: a scenario (its workload W, default 0) or a Hugging Face config.json\n";

// What the positional argument names: a file (or "-") to read, else a preset's name.
bool names_a_file(const std::string& argument) {
  if (argument == "-" || argument.find('/') != std::string::npos) return true;
  if (argument.size() > 5 && argument.compare(argument.size() - 5, 5, ".json") == 0) return true;
  if (std::FILE* f = std::fopen(argument.c_str(), "rb")) {
    std::fclose(f);
    return true;
  }
  return false;
}
}  // namespace

int compare(const Args& args) {
  const Flags flags = parse_flags(args, {"--tokens", "--instances", "--chips", "--sort", "--workload", "--format"});
  const std::string format = flags.get("--format", "text");
  if (!flags.error.empty() || flags.positional.empty() || (format != "text" && format != "json" && format != "markdown" && format != "csv")) {
    std::fprintf(stderr, "traincost compare: %s\n%s",
                 flags.error.empty() ? "give a preset's name or a file, and a format of text, markdown, csv or json" : flags.error.c_str(),
                 kCompareUsage);
    return kUsageError;
  }
  // A preset's name is plain text: one with a control character or a byte that is not UTF-8 names
  // no preset, and would not survive being written into JSON.
  for (const std::string& given : {flags.positional, flags.get("--workload", ""), flags.get("--sort", "")})
    if (const std::optional<ControlCharacter> bad = find_control_character(given)) {
      std::fprintf(stderr, "traincost compare: an argument holds %s at character %zu: give a preset's name or a file\n%s",
                   bad->invalid_utf8 ? "a byte that is not UTF-8" : "a control character", bad->position + 1, kCompareUsage);
      return kUsageError;
    }
  std::string input;
  if (names_a_file(flags.positional)) {
    const std::optional<std::string> text = read_input(flags.positional);
    if (!text) return kBadInput;
    input = *text;
  } else {
    input = Json(flags.positional).dump();
  }
  Json requested = Json::object();
  for (const char* flag : {"--tokens", "--instances", "--chips", "--workload"})
    if (flags.has(flag)) requested[flag + 2] = flag_value(flags.get(flag));
  if (flags.has("--sort")) requested["sort"] = flags.get("--sort");
  std::string error;
  Problems problems;
  const std::optional<ChipComparison> c = compare_from_json(input, requested.dump(), error, problems);
  if (!c) {
    if (error == "invalid options") {
      print_option_problems("compare", problems);
      return kUsageError;
    }
    print_problems(error == "invalid preset" ? "the preset" : "the input", problems);
    return kBadInput;
  }
  if (format == "json") std::puts(comparison_to_json(*c).dump(2).c_str());
  else if (format == "markdown") std::fputs(comparison_markdown(*c).c_str(), stdout);
  else if (format == "csv") std::fputs(comparison_csv(*c).c_str(), stdout);
  else std::fputs(comparison_text(*c).c_str(), stdout);
  return kOk;
}

}  // namespace traincost::cli
