#pragma once
// What options and workloads are called when the user has not named them.
#include <string>

#include "traincost/data/catalog.hpp"
#include "traincost/scenario/scenario.hpp"

namespace traincost {

// The label an option shows when it has none of its own: its chip, how many instances, and where
// ("Trn2 x16", "H100 x32 (p5)", "H100 x32 (Lambda)"). It follows the instance and its count.
std::string automatic_label(const Option& option, const Catalog& catalog);

// A workload's name, or "Workload 2" when it has none.
std::string workload_title(const Workload& workload, size_t index);

}  // namespace traincost
