#pragma once
// The cluster-size sweep as JSON (the contract of `sweep --format json` and the API), as text
// and as CSV.
#include <string>

#include "traincost/base/json_text.hpp"
#include "traincost/engine/sweep.hpp"

namespace traincost {

OrderedJson sweep_to_json(const Scenario& scenario, const ResolvedScenario& resolved, const Sweep& sweep);
std::string sweep_text(const Scenario& scenario, const ResolvedScenario& resolved, const Sweep& sweep);
std::string sweep_csv(const ResolvedScenario& resolved, const Sweep& sweep);

}  // namespace traincost
