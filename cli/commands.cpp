#include <cstdio>

#include "cli_io.hpp"
#include "traincost/explain.hpp"
#include "traincost/fields.hpp"
#include "traincost/hf_config.hpp"
#include "traincost/format.hpp"
#include "traincost/report.hpp"

namespace traincost::cli {

int evaluate(const Args& args) {
  const Flags flags = parse_flags(args, {"--format", "--link"});
  if (!flags.error.empty() || (flags.positional.empty() == !flags.has("--link"))) {
    std::fprintf(stderr, "traincost evaluate: %s\nusage: traincost evaluate FILE|- [--format text|json|markdown|csv]\n"
                         "       traincost evaluate --link FRAGMENT [--format ...]\n",
                 flags.error.empty() ? "give a scenario file or --link" : flags.error.c_str());
    return kUsageError;
  }
  const std::string format = flags.get("--format", "text");
  if (format != "text" && format != "json" && format != "markdown" && format != "csv") {
    std::fprintf(stderr, "traincost evaluate: --format must be text, json, markdown or csv\n");
    return kUsageError;
  }
  std::optional<Scenario> s = flags.has("--link") ? scenario_from_link_argument(flags.get("--link"))
                                                  : load_scenario(flags.positional);
  if (!s) return kBadInput;
  const ResolvedScenario resolved = resolve(*s, builtin_catalog());
  const Results results = evaluate(resolved);
  if (format == "json") std::puts(results_to_json(*s, resolved, results).dump(2).c_str());
  else if (format == "markdown") std::fputs(report_markdown(*s, resolved, results, "").c_str(), stdout);
  else if (format == "csv") std::fputs(report_csv(*s, resolved, results).c_str(), stdout);
  else std::fputs(report_text(*s, resolved, results).c_str(), stdout);
  return kOk;
}

int explain(const Args& args) {
  const Flags flags = parse_flags(args, {});
  if (!flags.error.empty() || flags.positional.empty()) {
    std::fprintf(stderr, "usage: traincost explain FILE|-\n");
    return kUsageError;
  }
  std::optional<Scenario> s = load_scenario(flags.positional);
  if (!s) return kBadInput;
  const ResolvedScenario resolved = resolve(*s, builtin_catalog());
  std::fputs(explain_text(*s, resolved, evaluate(resolved)).c_str(), stdout);
  return kOk;
}

int schema(const Args& args) {
  const Flags flags = parse_flags(args, {"--format"});
  if (!flags.error.empty() || !flags.positional.empty() || flags.get("--format", "markdown") != "markdown") {
    std::fprintf(stderr, "usage: traincost schema [--format markdown]\n");
    return kUsageError;
  }
  std::puts("| Field | Unit | Valid range | Default | Meaning | Typical |");
  std::puts("|---|---|---|---|---|---|");
  for (const FieldSpec* f : all_fields()) {
    const Bounds& b = f->bounds;
    const std::string range = std::string(b.min_exclusive ? "> " : "") + fmt::number(b.min, 6) + " to " +
                              fmt::number(b.max, 6) + (b.integer ? " (whole)" : "");
    std::printf("| `%s` | %s | %s | %s | %s | %s |\n", f->path, f->unit, range.c_str(), f->default_text, f->meaning, f->typical);
  }
  return kOk;
}

int import_hf(const Args& args) {
  const Flags flags = parse_flags(args, {});
  if (!flags.error.empty() || flags.positional.empty()) {
    std::fprintf(stderr, "usage: traincost import-hf CONFIG.json|-\n");
    return kUsageError;
  }
  const std::optional<std::string> text = read_input(flags.positional);
  if (!text) return kBadInput;
  Problems problems;
  const std::optional<Model> m = model_from_hf_config(*text, problems);
  if (!m) {
    print_problems(flags.positional, problems);
    return kBadInput;
  }
  std::puts(model_to_json(*m).dump(2).c_str());
  return kOk;
}

}  // namespace traincost::cli
