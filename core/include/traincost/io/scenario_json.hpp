#pragma once
// The scenario's one JSON form (format version 1, documented in docs/scenario-format.md).
// Reading reports every problem with its path; nothing throws.
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "traincost/data/catalog.hpp"
#include "traincost/base/json_text.hpp"
#include "traincost/scenario/scenario.hpp"

namespace traincost {

// Structure and value ranges only (types, bounds, unknown fields, required fields).
std::optional<Scenario> scenario_from_json(const Json& doc, Problems& problems);

// Everything that needs the catalog or relates fields to each other: unknown instance, a pricing
// model the instance has no price for, FP8 on a chip without it, an unreachable target loss,
// indices out of range, ranges on inputs the scenario does not use or with bounds the input
// cannot take. (A range need not contain the input's value: a triangular one then puts its mode
// at the nearer end.)
Problems validate(const Scenario& scenario, const Catalog& catalog);

// Text -> checked scenario: parse, read, validate. Returns nothing when any problem was found.
std::optional<Scenario> parse_scenario(std::string_view text, const Catalog& catalog, Problems& problems);

// How much of a scenario its JSON form writes. Minimal leaves out every field equal to its format
// default (links use it); Full still leaves out fields with constant defaults when unchanged, but
// writes every set field, in a stable order.
enum class JsonForm { Full, Minimal };
OrderedJson scenario_to_json(const Scenario& scenario, JsonForm form = JsonForm::Full);
std::string scenario_to_text(const Scenario& scenario);  // pretty, 2-space indent
OrderedJson model_to_json(const Model& model);
// An option's pilot block as the scenario writes it (`all`: defaults too).
OrderedJson pilot_to_json(const PilotMeasurement& pilot, bool all = false);

}  // namespace traincost
