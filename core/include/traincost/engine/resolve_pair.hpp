#pragma once
// One (workload, option) pair resolved: the option's numbers with every default applied, and the
// step-time model's layout and utilization at a given cluster size. resolve() builds every pair
// with it; deadline sizing and the cluster-size sweep call it at other sizes.
#include <optional>

#include "traincost/data/catalog.hpp"
#include "traincost/engine/resolved.hpp"
#include "traincost/scenario/scenario.hpp"

namespace traincost {

// Tokens per optimizer step the scenario gives: the workload's global_batch_tokens, else a steps
// target's batch; none when the default applies.
std::optional<double> given_batch_tokens(const Workload& workload);

// Tokens per optimizer step for a resolved pair: the given batch, else the default the pair was
// resolved with (default_batch_tokens() at its cluster size: it grows with the cluster).
double batch_tokens_of(const Workload& workload, const PairInputs& pair);

// A pilot's throughput in tokens/s per chip, from the first figure it gives (scenario.hpp's
// order), with `from` the field it came from; 0 and "" when it gives none that can be used.
// `batch_sequences` is the batch a step time counts when the pilot gives none; `model` has the
// pilot's sequence length.
struct PilotRate {
  double tokens_per_sec_per_chip = 0;
  const char* from = "";
};
PilotRate pilot_rate(const PilotMeasurement& pilot, const Model& model, double chips, double batch_sequences, double peak_flops_per_chip);

// One option's numbers with every default applied: the option's own values, then the catalog's.
// `costs` are a workload's overrides of the platform costs (they win over the option's). The web
// page also uses this to show each empty field's default. An option the catalog does not know
// resolves to zeros rather than failing.
PairInputs resolve_option(const Option& option, const Catalog& catalog, const PlatformCosts& costs = {},
                          OptionInfo* info = nullptr);

// Whether resolve_pair() searches for the fewest instances that hold a model that does not fit at
// the size asked (what the status column says: "needs 4+ instances"). Deadline sizing and the
// cluster-size sweep, which try many sizes themselves, skip it: there it is wasted work.
enum class MinInstances { Find, Skip };

// One (workload, option) pair with the option at `instances` instances: the option's numbers with
// the workload's overrides, and the step-time model's layout and utilization at that size.
// resolve() builds every pair with it; deadline sizing and the cluster-size sweep call it at other
// sizes. `index` is the option's place in the scenario (workload overrides name options by it).
PairInputs resolve_pair(const Workload& workload, const Option& option, size_t index, double instances, const Catalog& catalog,
                        MinInstances min_instances = MinInstances::Find);

}  // namespace traincost
