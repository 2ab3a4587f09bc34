#pragma once
// Edits to a scenario that keep it whole: the page's panels call these rather than changing the
// vectors themselves, so every cross-reference (workload overrides and ranges point at options and
// workloads by index, the reference option) stays right, and each edit is tested here.
//
// Each returns false (and changes nothing) when it cannot apply: an index out of range, the
// maximum number of options or workloads reached, the last option or workload.
#include <optional>
#include <string>

#include "traincost/data/catalog.hpp"
#include "traincost/scenario/fields.hpp"
#include "traincost/scenario/scenario.hpp"

namespace traincost::edit {

// ---- Options ----------------------------------------------------------------------------------

// Inserts a copy of option `index` right after it (a typed label gets " (2)"; an automatic one
// stays automatic): overrides, ranges and the reference that point past it move along.
bool duplicate_option(Scenario& s, int index);
// Appends `o` as the last option (nothing points past the last option, so nothing moves).
bool add_option(Scenario& s, const Option& o);
// Removes option `index` with the overrides and ranges that were about it; the others move down.
// The reference falls back to the first option when it was the one removed.
bool remove_option(Scenario& s, int index);

// An option's label follows its instance and count (automatic_label in present.hpp) until the user
// names it: the edits below that change them clear a label equal to the automatic one of before.

// Switches an option to catalog instance `id`: a pricing model the instance has (the current one
// when it can), BF16 when its chip has no FP8.
bool set_instance(Option& o, const Catalog& catalog, const std::string& id);
// Sets how the option is paid for; an automatic label follows.
void set_pricing(Option& o, const Catalog& catalog, PricingModel pricing);
// Sets the number of instances (checked against the field's bounds).
bool set_instances(Option& o, const Catalog& catalog, int instances);
// A row of the chip-by-chip view put into an option: its instance, pricing and size together
// (false, and nothing changed, when the instance lacks that pricing or the size is out of bounds).
bool use_row(Option& o, const Catalog& catalog, const std::string& id, PricingModel pricing, int instances);
// Makes an option a custom instance that starts as a copy of its catalog instance (chip, size,
// price), so nothing changes until the user edits its figures.
bool make_custom(Option& o, const Catalog& catalog);
// A custom instance's chip: a catalog chip id, or "" for the user's own figures (starting from
// the chip chosen so far: its peak at the option's precision and its memory, and `current_mfu`,
// the MFU the option runs at now, since own figures cannot be predicted from).
bool set_custom_chip(Option& o, const Catalog& catalog, const std::string& chip, double current_mfu);

// Switches between a measured throughput and MFU (the option's own, or the predicted one),
// starting from `current_tokens_per_sec_per_chip`, the rate the option runs at now (the results'
// tokens/s per chip of the selected workload), so the results do not move until the user edits
// the new figure. Without a rate (an option that cannot run), it starts at kFallbackTokensPerSec.
inline constexpr double kFallbackTokensPerSec = 1000;
bool use_measured_throughput(Option& o, double current_tokens_per_sec_per_chip, bool measured);

// Takes the MFU that published run `run_id` realized over its whole duration as the option's
// (mfu_from_run: "utilization as realized by run X"). The option's own MFU or measured throughput
// goes, since a scenario may give only one. False (and no change) for an id the library lacks;
// whether the run suits the option (its chip family, a published duration) is the validator's
// to say, as for a typed id.
bool use_run_mfu(Option& o, const std::string& run_id);

// ---- Workloads --------------------------------------------------------------------------------

bool add_workload(Scenario& s, const Workload& w);
// Appends a copy of workload `index` named "… (copy)".
bool duplicate_workload(Scenario& s, int index);
// Removes workload `index` with the ranges that were about it; the others move down.
bool remove_workload(Scenario& s, int index);

// Switches the target kind keeping the work about the same: tokens and steps × batch convert into
// each other (with kDefaultTokensPerStep as the batch); without a finite token count to convert,
// kChinchillaTokensPerParam × params tokens. A loss target starts kLossHeadroom above the loss the
// model can reach at best, rounded to 0.01.
inline constexpr double kDefaultTokensPerStep = 4194304;  // 4M tokens: Llama-3-class global batch
inline constexpr double kChinchillaTokensPerParam = 20;   // Hoffmann et al. 2022's compute-optimal ratio
inline constexpr double kLossHeadroom = 0.15;
bool set_target_kind(Workload& w, TargetKind kind);
// Switches the scaling law of a loss target; "custom" starts from the constants of the law in use.
bool set_scaling_law(Workload& w, ScalingLawKind law);
// A mixture-of-experts model starts with kDefaultActiveShare of its parameters active per token.
inline constexpr double kDefaultActiveShare = 0.25;
bool set_mixture_of_experts(Workload& w, bool moe);

// A workload's own value of a platform cost (`cost`, a field of PlatformCosts) for option
// `option`: made in the workload's override for that option (created when needed); an unset value
// clears it, and an override left with no value is removed.
bool set_override(Workload& w, int option, const FieldSpec& cost, std::optional<double> value);

// Pins one layout key (`pin`, a field of LayoutPins) of option `option` on this workload, in the
// workload's override for that option (created when needed); an unset value lets the layout search
// choose it again, and an override left with no value is removed. The two keys that are not
// numbers have their own edits.
bool set_pin(Workload& w, int option, const FieldSpec& pin, std::optional<double> value);
bool set_recompute_pin(Workload& w, int option, std::optional<Recompute> value);
bool set_sequence_parallel_pin(Workload& w, int option, std::optional<bool> value);

// ---- Ranges -----------------------------------------------------------------------------------

// Adds a triangular range on `path` from kStartingSpread below to kStartingSpread above `value`
// (the input's current value), within the field's bounds; 1 stands for a value of 0.
inline constexpr double kStartingSpread = 0.2;
bool add_range(Scenario& s, const std::string& path, double value);
bool add_range(Scenario& s, const Range& range);  // a range as given (adopting a default one)
bool remove_range(Scenario& s, int index);

// ---- Catalog ----------------------------------------------------------------------------------

// Records the catalog the scenario is made with, when it names none.
void stamp_catalog(Scenario& s, const Catalog& catalog);

}  // namespace traincost::edit
