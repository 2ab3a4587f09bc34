#pragma once
// Workload presets and example scenarios, from assets/presets.json and assets/scenarios/
// (embedded in the page at build time).
#include <string>
#include <string_view>
#include <vector>

#include "traincost/scenario/scenario.hpp"

namespace traincost::web {

struct WorkloadPreset {
  std::string name;
  Workload workload;
};
struct ScenarioPreset {
  std::string title;
  std::string json;
};

const std::vector<WorkloadPreset>& workload_presets();
const std::vector<ScenarioPreset>& scenario_presets();
std::string_view default_scenario_json();  // the first scenario preset

}  // namespace traincost::web
