#include <cstdio>

#include "cli_io.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/api/api.hpp"
#include "traincost/base/text.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/output/explain.hpp"
#include "traincost/io/hf_config.hpp"
#include "traincost/output/report.hpp"

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
  // Every point estimate with its odds beside it (odds.hpp): a small fixed-seed Monte Carlo.
  const QuickOdds odds = quick_odds(*s, builtin_catalog(), results);
  if (format == "json") std::puts(results_to_json(*s, resolved, results, odds).dump(2).c_str());
  else if (format == "markdown") std::fputs(report_markdown(*s, resolved, results, "", odds).c_str(), stdout);
  else if (format == "csv") std::fputs(report_csv(*s, resolved, results, odds).c_str(), stdout);
  else std::fputs(report_text(*s, resolved, results, odds).c_str(), stdout);
  return kOk;
}

int embed(const Args& args) {
  const Flags flags = parse_flags(args, {"--format", "--link", "--url", "--styles"});
  if (!flags.error.empty() || (flags.positional.empty() == !flags.has("--link"))) {
    std::fprintf(stderr, "traincost embed: %s\nusage: traincost embed FILE|- [--format html|svg] [--url CALCULATOR_URL] [--styles inline|none]\n"
                         "       traincost embed --link FRAGMENT [--format html|svg] [--url CALCULATOR_URL] [--styles inline|none]\n",
                 flags.error.empty() ? "give a scenario file or --link" : flags.error.c_str());
    return kUsageError;
  }
  // The flags go through the API's option checker, so the CLI and the packages say the same.
  Json options = Json::object();
  options["format"] = flags.get("--format", "html");
  if (flags.has("--url")) options["url"] = flags.get("--url");
  if (flags.has("--styles")) options["styles"] = flags.get("--styles");
  Problems problems;
  const std::optional<CardOptions> card_options = card_options_from_json(options, problems);
  if (!card_options) {
    print_option_problems("embed", problems);
    return kUsageError;
  }
  std::optional<Scenario> s = flags.has("--link") ? scenario_from_link_argument(flags.get("--link"))
                                                  : load_scenario(flags.positional);
  if (!s) return kBadInput;
  const ResolvedScenario resolved = resolve(*s, builtin_catalog());
  const Results results = evaluate(resolved);
  std::fputs(scenario_card(*s, resolved, results, link_json(*s)["fragment"].get<std::string>(), *card_options).c_str(), stdout);
  return kOk;
}

int explain(const Args& args) {
  const Flags flags = parse_flags(args, {"--format"});
  const std::string format = flags.get("--format", "text");
  if (!flags.error.empty() || flags.positional.empty() || (format != "text" && format != "json")) {
    std::fprintf(stderr, "usage: traincost explain FILE|- [--format text|json]\n");
    return kUsageError;
  }
  std::optional<Scenario> s = load_scenario(flags.positional);
  if (!s) return kBadInput;
  const ResolvedScenario resolved = resolve(*s, builtin_catalog());
  const Results results = evaluate(resolved);
  if (format == "json") std::puts(explain_json(*s, resolved, results).dump(2).c_str());
  else std::fputs(explain_text(*s, resolved, results).c_str(), stdout);
  return kOk;
}

int schema(const Args& args) {
  const Flags flags = parse_flags(args, {"--format"});
  const std::string format = flags.get("--format", "markdown");
  if (!flags.error.empty() || !flags.positional.empty() || (format != "markdown" && format != "json")) {
    std::fprintf(stderr, "usage: traincost schema [--format markdown|json]\n");
    return kUsageError;
  }
  // The Markdown table (docs/scenario-format.md) is made from the JSON the packages return.
  const OrderedJson schema = schema_json();
  if (format == "json") {
    std::puts(schema.dump(2).c_str());
    return kOk;
  }
  std::puts("| Field | Unit | Valid range | Default | Meaning | Typical |");
  std::puts("|---|---|---|---|---|---|");
  for (const OrderedJson& f : schema["fields"]) {
    const auto cell = [&f](const char* key) { return f[key].get<std::string>(); };
    std::printf("| `%s` | %s | %s | %s | %s | %s |\n", cell("path").c_str(), cell("unit").c_str(), cell("range").c_str(),
                cell("default").c_str(), cell("meaning").c_str(), cell("typical").c_str());
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
  const std::optional<HfImport> import = import_hf_config(*text, problems);
  if (!import) {
    print_problems(flags.positional, problems);
    return kBadInput;
  }
  // What was taken from where (the training length from the context window, shared experts
  // counted) goes to stderr, so that stdout stays the model block alone.
  for (const std::string& note : import->notes) std::fprintf(stderr, "note: %s\n", escape_terminal(note).c_str());
  std::puts(model_to_json(import->model).dump(2).c_str());
  return kOk;
}

}  // namespace traincost::cli
