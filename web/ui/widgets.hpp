#pragma once
// Input widgets for scenario fields. Each returns true when the user changed the value (the
// moment the app revalidates and recomputes), shows a tooltip with the field's meaning, unit,
// typical values and valid range (from core/src/scenario/fields.cpp, the same table the validator uses),
// and refuses out-of-range input with the validator's own message instead of clamping silently.
//
// Every field input is named in the item registry by its scenario path
// ("options[1].porting.engineer_weeks"), from the field's path and the scopes the panels open.
#include <array>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>

#include "imgui.h"
#include "input_repair.hpp"
#include "item_registry.hpp"
#include "traincost/scenario/fields.hpp"
#include "traincost/output/present.hpp"

namespace traincost::web::widget {

// What the widgets remember between frames (owned by the App).
struct State {
  // Text typed into number fields, until it is committed. Usually one field, but a click from a
  // field into one drawn above it activates the new field before the old one sees its
  // deactivation (a frame later), so each field keeps its own text.
  std::unordered_map<ImGuiID, std::array<char, 96>> typing;
  // Rejected input is explained under the field for a few seconds.
  struct Rejection {
    std::string message;
    double until_ms = 0;
  };
  std::unordered_map<ImGuiID, Rejection> rejections;
  float next_width = -1.0f;  // negative: the whole available width
  bool next_width_set = false;
  // "Copied" shown beside a copy button for a moment.
  ImGuiID copied_id = 0;
  double copied_until_ms = 0;
};

// What the kit works with, owned by the App and handed to the kit once with use() (as ImGui is
// handed its context): the kit knows nothing of the App.
struct Kit {
  State* state = nullptr;
  ItemRegistry* items = nullptr;  // names and notes for the tests and the keyboard focus
  InputRepair* input = nullptr;   // its trace records what each field saw (tests print it on failure)
  std::function<void(const std::string&)> announce;  // a confirmation for screen readers ("Copied to the clipboard.")
};
void use(const Kit& kit);

// How a value is shown and typed: the field's display style (core/include/traincost/scenario/fields.hpp).
using Style = Display;

// The tooltip for a field; `source` adds where a default comes from ("catalog: … , 2025-12-02").
void field_tooltip(const FieldSpec& spec, const std::string& source = "");
// A muted "(?)" that shows `text` on hover (and on a long press).
void help(const char* text);

// Width of the next number or text field (default: the whole available width).
void next_width(float width);

// A number field for a scenario field, shown and typed in the field's display style. Its ImGui
// identity is the field's key ("##engineer_weeks") within the ID scope the panel opened for the
// option or workload; its registry name is the field's scenario path, or `name` when given.
bool number(double& value, const FieldSpec& spec, const char* name = nullptr);
bool integer(int& value, const FieldSpec& spec, const char* name = nullptr);
// An optional number: shows `fallback` muted while unset (a default from the catalog or the
// option; "none" when fallback is NaN), takes the user's value when typed, and offers a reset.
bool optional_number(std::optional<double>& value, double fallback, const FieldSpec& spec, const std::string& fallback_source = "",
                     const char* name = nullptr);
// An optional field of the table on its owner struct (a reset clears it).
template <typename O>
bool optional_field(O& owner, const FieldSpec& spec, double fallback, const std::string& fallback_source = "", const char* name = nullptr) {
  std::optional<double> value = spec.get(owner);
  if (!optional_number(value, fallback, spec, fallback_source, name)) return false;
  spec.set(owner, value);
  return true;
}
// A text field named `name` in the registry (a scenario path such as "options[1].label").
bool text(const char* id, const std::string& name, std::string& value, size_t max_length, const char* hint = nullptr);
bool text_area(const char* id, const std::string& name, std::string& value, ImVec2 size, const char* hint = nullptr);

// A combo box named `name` in the registry ("options[1].pricing", "Example scenarios").
bool begin_combo(const char* id, const std::string& name, const char* preview, ImGuiComboFlags flags = 0);
// Names the last item (a checkbox or button with a hidden label), or the item `id` will make.
void name_last(const std::string& name);
void name_id(const char* id, const std::string& name);
// A member of the open scope: scoped("pricing") in options[1] is "options[1].pricing".
std::string scoped(const char* member);
// The registry path of a field in the open scopes ("options[1].mfu").
std::string path_of(const FieldSpec& spec);

// ImGui's buttons and checkboxes, named in the registry by their visible label even when they are
// scrolled out of view (ImGui reports the label of a clipped item to the hooks only for some kinds).
bool button(const char* label, ImVec2 size = ImVec2(0, 0));
bool small_button(const char* label);
bool checkbox(const char* label, bool* value);
bool radio(const char* label, bool active);
bool selectable(const char* label, bool selected = false);

// A button that copies `text` and says "Copied" beside itself for a moment.
bool copy_button(const char* label, const std::string& text);

// Text wrapped at spaces only (ImGui 1.86 also breaks after '.', splitting "6.507e+11").
// The paragraph is recorded in the registry as `note` ("text" unless named).
void wrapped(const std::string& text, float wrap_width = 0, const char* note = "text");

// Records the last item's text (and a colour) in the registry under `name`, for tests.
void note(const std::string& name, const std::string& text, unsigned color = 0, bool fits = true);
// The same for something drawn at a rectangle of its own (a point of a chart), not the last item.
void note_rect(const std::string& name, ImVec2 min, ImVec2 max, const std::string& text, unsigned color = 0);

// A table of `rows` rows (each a frame high) that, on a phone (`sideways`), keeps its columns at
// their natural width and scrolls sideways with its first column and header kept in view, instead
// of squeezing headers and figures.
bool begin_wide_table(const char* id, int columns, int rows, bool sideways, ImGuiTableFlags flags);

// Two-column forms: a label column in em and a stretching control column.
bool begin_form(const char* id, float label_em = 10.5f);
void end_form();
// Starts a row: the label (with the field's tooltip when given) and moves to the control cell.
void row(const char* label, const FieldSpec* spec = nullptr, const std::string& source = "");

std::string show(double value, Style style);  // how number() displays a value
std::string id_of(const FieldSpec& spec);     // "##engineer_weeks"

}  // namespace traincost::web::widget
