// `pilot`: what the pilot must show for the verdict to hold, what it costs, and whether it is worth
// running before deciding (core/include/traincost/engine/pilot.hpp).
#include <cstdio>

#include "cli_io.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/api/api.hpp"
#include "traincost/engine/pilot.hpp"
#include "traincost/engine/resolve.hpp"

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

}  // namespace traincost::cli
