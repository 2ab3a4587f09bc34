#pragma once
// Input widgets for scenario fields. Each returns true when the user changed the value (the
// moment the app revalidates and recomputes), shows a tooltip with the field's meaning, unit,
// typical values and valid range (from core/src/fields.cpp, the same table the validator uses),
// and refuses out-of-range input with the validator's own message instead of clamping silently.
#include <optional>
#include <string>

#include "imgui.h"
#include "traincost/fields.hpp"
#include "traincost/present.hpp"

namespace traincost::web::widget {

// How a value is shown and typed: the field's display style (core/include/traincost/fields.hpp).
using Style = Display;

// The tooltip for a field; `source` adds where a default comes from ("catalog: … , 2025-12-02").
void field_tooltip(const FieldSpec& spec, const std::string& source = "");
// A muted "(?)" that shows `text` on hover.
void help(const char* text);

// Width of the next number or text field (default: the whole available width).
void next_width(float width);

// A number field for a scenario field, shown and typed in the field's display style. Its ImGui
// identity is the field's key ("##engineer_weeks"): unique within the ID scope a panel pushes
// for each option or workload, so no two fields share state.
bool number(double& value, const FieldSpec& spec);
bool integer(int& value, const FieldSpec& spec);
// An optional number: shows `fallback` muted while unset (a default from the catalog or the
// option), takes the user's value when typed, and offers a reset to the default.
bool optional_number(std::optional<double>& value, double fallback, const FieldSpec& spec, const std::string& fallback_source = "");
// An optional field of the table on its owner struct (a reset clears it).
template <typename O>
bool optional_field(O& owner, const FieldSpec& spec, double fallback, const std::string& fallback_source = "") {
  std::optional<double> value = spec.get(owner);
  if (!optional_number(value, fallback, spec, fallback_source)) return false;
  spec.set(owner, value);
  return true;
}
bool text(const char* id, std::string& value, size_t max_length, const char* hint = nullptr);
bool text_area(const char* id, std::string& value, ImVec2 size, const char* hint = nullptr);

// Two-column forms: a label column in em and a stretching control column.
bool begin_form(const char* id, float label_em = 10.5f);
void end_form();
// Starts a row: the label (with the field's tooltip when given) and moves to the control cell.
void row(const char* label, const FieldSpec* spec = nullptr, const std::string& source = "");

std::string show(double value, Style style);  // how number() displays a value
std::string id_of(const FieldSpec& spec);     // "##engineer_weeks"

}  // namespace traincost::web::widget
