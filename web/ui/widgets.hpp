#pragma once
// Input widgets for scenario fields. Each returns true when the user changed the value (the
// moment the app revalidates and recomputes), shows a tooltip with the field's meaning, unit,
// typical values and valid range (from core/src/fields.cpp, the same table the validator uses),
// and refuses out-of-range input with the validator's own message instead of clamping silently.
#include <optional>
#include <string>

#include "imgui.h"
#include "traincost/fields.hpp"

namespace traincost::web::widget {

enum class Style {
  Plain,     // 0.35, 1024
  Quantity,  // 8.03B, 2.0T: accepts suffixes k M B T and e-notation
  Usd,       // $35.76
  Percent,   // shown and typed as a percentage of a fraction field: 30% <-> 0.30
};

// The tooltip for a field; `source` adds where a default comes from ("catalog: … , 2025-12-02").
void field_tooltip(const FieldSpec& spec, const std::string& source = "");
// A muted "(?)" that shows `text` on hover.
void help(const char* text);

// Width of the next number or text field (default: the whole available width).
void next_width(float width);

// A number field. `id` is the ImGui label ("##mfu" for none).
bool number(const char* id, double& value, const FieldSpec& spec, Style style = Style::Plain);
bool integer(const char* id, int& value, const FieldSpec& spec);
// An optional number: shows `fallback` muted while unset (a default from the catalog or the
// option), takes the user's value when typed, and offers a reset to the default.
bool optional_number(const char* id, std::optional<double>& value, double fallback, const FieldSpec& spec,
                     Style style = Style::Plain, const std::string& fallback_source = "");
bool text(const char* id, std::string& value, size_t max_length, const char* hint = nullptr);
bool text_area(const char* id, std::string& value, ImVec2 size, const char* hint = nullptr);

// Two-column forms: a label column in em and a stretching control column.
bool begin_form(const char* id, float label_em = 10.5f);
void end_form();
// Starts a row: the label (with the field's tooltip when given) and moves to the control cell.
void row(const char* label, const FieldSpec* spec = nullptr, const std::string& source = "");

std::string show(double value, Style style);  // how number() displays a value

}  // namespace traincost::web::widget
