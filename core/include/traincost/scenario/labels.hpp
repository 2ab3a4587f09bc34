#pragma once
// What options and workloads are called when the user has not named them.
#include <optional>
#include <string>
#include <vector>

#include "traincost/data/catalog.hpp"
#include "traincost/scenario/inputs.hpp"
#include "traincost/scenario/scenario.hpp"

namespace traincost {

// The label an option shows when it has none of its own: its chip, how many instances, where, and
// how it is paid for when not on demand ("Trn2 x16", "H100 x32 (p5)", "H100 x32 (Lambda)",
// "H200 x2 (p5en, spot)", "Trn2 x16 (spot)"). It follows the instance, its count and its pricing.
// `instances` is the count the run used (a deadline may size the option); without one (the
// workloads used different counts) the label names none.
std::string automatic_label(const Option& option, const Catalog& catalog, std::optional<int> instances);
// Before a run: a default-sized option's size depends on the workload, so its label names none.
inline std::string automatic_label(const Option& option, const Catalog& catalog) {
  return automatic_label(option, catalog, option.sized_by_default() ? std::nullopt : std::optional<int>(option.instances));
}

// The labels made distinct, so that no two options ever read the same: a label an earlier option
// already reads gets its option's number ("H100 x32 (p5) #3").
std::vector<std::string> distinct_labels(std::vector<std::string> labels);

// The name a workload shows when it has none of its own, read from its numbers, so that it follows
// them as an option's automatic label follows its instance: the model ("8B", "MoE 47B total / 13B
// active", "70B LoRA"), the target ("2T tokens", "to loss 1.95", "50k steps"), a deadline ("within
// 10 days") and a regular cadence ("weekly": 52 runs a year, "monthly" 12, "quarterly" 4):
// "MoE 47B total / 13B active, 500B tokens", "8B, 2T tokens, within 10 days", "1B, 20B tokens, weekly".
std::string automatic_workload_name(const Workload& workload);

// A workload's name: the one the user typed, else the automatic one. `index` is unused (kept
// for the callers that number workloads).
std::string workload_title(const Workload& workload, size_t index);

// How the page names one input of one workload or option (a range, a choice of input): its owner's
// title or label, then the input, "H100 x32: MFU". An owner past the scenario's end is numbered.
std::string input_title(const Scenario& scenario, const InputRef& ref, const Catalog& catalog);

}  // namespace traincost
