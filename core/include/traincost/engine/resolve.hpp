#pragma once
// A scenario resolved: every pair of a workload and an option through resolve_pair(), each option
// at its own size or, when the workload has a deadline, at the size the deadline needs
// (deadline.hpp). Evaluation, sensitivity and Monte Carlo work on this form, so a sample only
// changes a few doubles and re-evaluates, with no strings, lookups or allocation.
#include "traincost/data/catalog.hpp"
#include "traincost/engine/resolved.hpp"
#include "traincost/scenario/scenario.hpp"

namespace traincost {

// Requires a scenario that passed validate() against the same catalog.
ResolvedScenario resolve(const Scenario& scenario, const Catalog& catalog);

}  // namespace traincost
