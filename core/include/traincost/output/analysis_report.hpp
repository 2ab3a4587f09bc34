#pragma once
// The uncertainty analysis (sensitivity and Monte Carlo) as JSON (the contract of `analyze
// --format json` and the API), as text and as Markdown.
#include <string>

#include "traincost/base/json_text.hpp"
#include "traincost/engine/uncertainty.hpp"

namespace traincost {

OrderedJson analysis_to_json(const Scenario& scenario, const ResolvedScenario& resolved, const Analysis& analysis);
std::string analysis_text(const ResolvedScenario& resolved, const Analysis& analysis);
std::string analysis_markdown(const ResolvedScenario& resolved, const Analysis& analysis);

}  // namespace traincost
