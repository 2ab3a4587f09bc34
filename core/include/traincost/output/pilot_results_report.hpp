#pragma once
// After the pilot (issue 31), as text and JSON: what the pilot measured and how it carries to the
// planned cluster, each pass mark passed or failed with the measured value, and the verdict before
// and after side by side (`traincost pilot-results`, the API's pilot_results).
#include <string>

#include "traincost/base/json_text.hpp"
#include "traincost/engine/pilot.hpp"

namespace traincost {

// A loss-curve comparison (evidence/convergence.hpp) as JSON, and as a line of text (empty when it
// has no number: the caller says why).
OrderedJson convergence_to_json(const ConvergenceEstimate& c);
std::string convergence_text(const ConvergenceEstimate& c);

OrderedJson pilot_results_to_json(const Scenario& before, const Scenario& after, const Catalog& catalog, const PilotResults& results);
std::string pilot_results_text(const Scenario& before, const Scenario& after, const Catalog& catalog, const PilotResults& results);

}  // namespace traincost
