// `analyze` (sensitivity and Monte Carlo) and `link` (share links).
#include <cstdio>
#include <cstdlib>

#include "cli_io.hpp"
#include "traincost/link.hpp"
#include "traincost/present.hpp"
#include "traincost/uncertainty.hpp"

namespace traincost::cli {

std::optional<Scenario> scenario_from_link_argument(const std::string& link) {
  Problems problems;
  std::vector<std::string> notices;
  std::optional<Scenario> s = decode_link(link, builtin_catalog(), problems, &notices);
  if (!s) print_problems("the link", problems);
  for (const std::string& n : notices) std::fprintf(stderr, "traincost: note: %s\n", escape_terminal(n).c_str());
  return s;
}

namespace {
// A whole number within [min, max], or nothing.
std::optional<long long> whole_number(const std::string& text, long long min, long long max) {
  if (text.empty() || text.size() > 19) return std::nullopt;
  for (char c : text)
    if (c < '0' || c > '9') return std::nullopt;
  const long long v = std::strtoll(text.c_str(), nullptr, 10);
  if (v < min || v > max) return std::nullopt;
  return v;
}
}  // namespace

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
  AnalyzeOptions options;
  options.samples = s->analysis.samples;
  options.seed = s->analysis.seed;
  if (flags.has("--samples")) {
    const auto n = whole_number(flags.get("--samples"), 100, 1000000);
    if (!n) {
      std::fprintf(stderr, "traincost analyze: --samples must be a whole number from 100 to 1000000\n");
      return kUsageError;
    }
    options.samples = static_cast<int>(*n);
  }
  if (flags.has("--seed")) {
    const auto seed = whole_number(flags.get("--seed"), 0, 9007199254740991LL);
    if (!seed) {
      std::fprintf(stderr, "traincost analyze: --seed must be a whole number from 0 to 2^53-1\n");
      return kUsageError;
    }
    options.seed = static_cast<uint64_t>(*seed);
  }
  if (flags.has("--workload")) {
    const auto w = whole_number(flags.get("--workload"), 0, static_cast<long long>(s->workloads.size()) - 1);
    if (!w) {
      std::fprintf(stderr, "traincost analyze: --workload must be 0 to %zu\n", s->workloads.size() - 1);
      return kUsageError;
    }
    options.workload = static_cast<size_t>(*w);
  }
  const ResolvedScenario resolved = resolve(*s, builtin_catalog());
  const Analysis a = analyze(*s, builtin_catalog(), options);
  if (format == "json") std::puts(analysis_to_json(*s, resolved, a).dump(2).c_str());
  else if (format == "markdown") std::fputs(analysis_markdown(resolved, a).c_str(), stdout);
  else std::fputs(analysis_text(resolved, a).c_str(), stdout);
  return kOk;
}

int link(const Args& args) {
  const Flags flags = parse_flags(args, {});
  if (!flags.error.empty() || flags.positional.empty()) {
    std::fprintf(stderr, "usage: traincost link FILE|-\n");
    return kUsageError;
  }
  std::optional<Scenario> s = load_scenario(flags.positional);
  if (!s) return kBadInput;
  // Stamp the catalog the link was made with, so a later catalog can say its figures changed.
  if (s->catalog.empty()) s->catalog = builtin_catalog().version;
  std::printf("#s=%s\n", encode_link(*s).c_str());
  return kOk;
}

}  // namespace traincost::cli
