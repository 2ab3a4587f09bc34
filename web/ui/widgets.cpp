#include "ui/widgets.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "imgui_internal.h"
#include "platform.hpp"
#include "traincost/base/format.hpp"
#include "ui/theme.hpp"

namespace traincost::web::widget {
namespace {

using Buffer = std::array<char, 96>;

Kit kit;  // set by use(): the App's

State& state() { return *kit.state; }
ItemRegistry& registry() { return *kit.items; }
InputRepair& input() { return *kit.input; }

float take_width() {
  State& s = state();
  const float w = s.next_width_set ? s.next_width : -FLT_MIN;
  s.next_width_set = false;
  return w;
}

// Parses "8.03B", "2T", "1.5e12", "35.76", "$35", "30%" (Percent style), "1,024".
std::optional<double> parse(const char* text, Style style) {
  std::string s;
  for (const char* p = text; *p; ++p)
    if (*p != ',' && *p != '$' && *p != ' ' && *p != '_') s += *p;
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str()) return std::nullopt;
  std::string suffix(end);
  if (suffix == "%") return v / 100;
  if (style == Style::Percent && suffix.empty()) return v / 100;
  if (suffix == "k" || suffix == "K") v *= 1e3;
  else if (suffix == "M" || suffix == "m") v *= 1e6;
  else if (suffix == "B" || suffix == "b" || suffix == "G") v *= 1e9;
  else if (suffix == "T" || suffix == "t") v *= 1e12;
  else if (!suffix.empty()) return std::nullopt;
  return v;
}

void draw_rejection(ImGuiID id) {
  auto& rejections = state().rejections;
  const auto it = rejections.find(id);
  if (it == rejections.end()) return;
  if (it->second.until_ms < now_ms()) {
    rejections.erase(it);
    return;
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(palette().bad));
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(it->second.message.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

// What a field shows while not being edited: the user's value, or the default it falls back to (muted).
enum class Shown { Value, Default };

// The text field behind number() and optional_number(): shows `shown`, and on commit parses and
// checks the text. Returns the accepted value.
std::optional<double> edit(const char* id, const std::string& name, const std::string& shown, const FieldSpec& spec, Shown what,
                           const std::string& source = "") {
  const Style style = spec.display;
  const ImGuiID gid = ImGui::GetID(id);
  auto& all = state().typing;
  auto typing = all.find(gid);
  // Text left by a field that went away while active (a section closed) is dropped.
  const ImGuiContext& context = *ImGui::GetCurrentContext();
  if (typing != all.end() && context.ActiveId != gid && context.ActiveIdPreviousFrame != gid) {
    all.erase(typing);
    typing = all.end();
  }
  const bool editing = typing != all.end();
  const ImGuiID active_at_start = context.ActiveId;
  Buffer local;
  std::snprintf(local.data(), local.size(), "%s", shown.c_str());
  ImGui::SetNextItemWidth(take_width());
  const bool muted = what == Shown::Default;
  if (muted && !editing) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::InputText(id, editing ? typing->second.data() : local.data(), local.size(), ImGuiInputTextFlags_AutoSelectAll);
  registry().name(gid, name, true, editing ? std::string(typing->second.data()) : shown);
  if (muted && !editing) ImGui::PopStyleColor();
  if (ImGui::IsItemActivated()) all[gid] = local;
  if (ImGui::IsItemHovered() && !editing) field_tooltip(spec, source);
  std::optional<double> accepted;
  if (ImGui::IsItemActivated()) input().trace_note(" [on " + name + "]");
  if (ImGui::IsItemDeactivated() && editing) {
    const Buffer typed = typing->second;
    all.erase(typing);
    const ImGuiIO& io = ImGui::GetIO();
    input().trace_note(" [off " + name + " '" + typed.data() + "' was:" + std::to_string(active_at_start == gid) + " clk:" +
                                    std::to_string(io.MouseClicked[0]) + " nav:" + std::to_string(io.NavInputs[ImGuiNavInput_Activate]) +
                                    std::to_string(io.NavInputs[ImGuiNavInput_Input]) + std::to_string(io.NavInputs[ImGuiNavInput_Cancel]) +
                                    " navid:" + std::to_string(context.NavId == gid) + " win:" + (context.NavWindow ? context.NavWindow->Name : "-") + "]");
    if (std::strcmp(typed.data(), local.data()) != 0) {
      const std::optional<double> v = parse(typed.data(), style);
      const std::string problem = v ? spec.check(*v) : std::string("not a number: ") + typed.data();
      if (problem.empty()) {
        accepted = v;
        state().rejections.erase(gid);
      } else {
        state().rejections[gid] = {spec.key() + ": " + problem + ". Kept the previous value.", now_ms() + 6000};
      }
    }
  }
  draw_rejection(gid);
  return accepted;
}

}  // namespace

void use(const Kit& k) { kit = k; }

std::string show(double v, Style style) {
  char buffer[64];
  switch (style) {
    case Style::Quantity:
      if (std::fabs(v) >= 1e3) {
        const char* suffix = "k";
        double s = v / 1e3;
        if (std::fabs(v) >= 1e12) { s = v / 1e12; suffix = "T"; }
        else if (std::fabs(v) >= 1e9) { s = v / 1e9; suffix = "B"; }
        else if (std::fabs(v) >= 1e6) { s = v / 1e6; suffix = "M"; }
        std::snprintf(buffer, sizeof buffer, "%.4g%s", s, suffix);
        return buffer;
      }
      std::snprintf(buffer, sizeof buffer, "%.4g", v);
      return buffer;
    case Style::Usd:
      std::snprintf(buffer, sizeof buffer, v >= 1000 ? "$%.0f" : "$%.4g", v);
      return buffer;
    case Style::Percent:
      std::snprintf(buffer, sizeof buffer, "%.4g%%", v * 100);
      return buffer;
    case Style::Plain:
      std::snprintf(buffer, sizeof buffer, "%.6g", v);
      return buffer;
  }
  return {};
}

void next_width(float width) {
  state().next_width = width;
  state().next_width_set = true;
}

void field_tooltip(const FieldSpec& spec, const std::string& source) {
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(em(26));
  ImGui::TextUnformatted(spec.meaning);
  ImGui::Spacing();
  if (spec.unit[0]) ImGui::TextDisabled("Unit: %s", spec.unit);
  if (spec.typical[0]) ImGui::TextDisabled("Typical: %s", spec.typical);
  const Bounds& b = spec.bounds;
  ImGui::TextDisabled("Valid: %s%s to %s%s", b.min_exclusive ? "above " : "", fmt::number(b.min, 4).c_str(),
                      fmt::number(b.max, 4).c_str(), b.integer ? " (whole numbers)" : "");
  ImGui::TextDisabled("Default: %s", spec.default_text);
  if (!source.empty()) ImGui::TextDisabled("Source: %s", source.c_str());
  ImGui::TextDisabled("Scenario field: %s", spec.path);
  note("tooltip", spec.path);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void help(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(em(26));
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

std::string id_of(const FieldSpec& spec) { return "##" + spec.key(); }

std::string path_of(const FieldSpec& spec) { return registry().path_of(spec.path); }

bool number(double& value, const FieldSpec& spec, const char* name) {
  const std::string path = name ? std::string(name) : path_of(spec);
  if (auto v = edit(id_of(spec).c_str(), path, show(value, spec.display), spec, Shown::Value)) {
    value = *v;
    return true;
  }
  return false;
}

bool integer(int& value, const FieldSpec& spec, const char* name) {
  double v = value;
  if (number(v, spec, name)) {
    value = static_cast<int>(v);
    return true;
  }
  return false;
}

bool optional_number(std::optional<double>& value, double fallback, const FieldSpec& spec, const std::string& fallback_source,
                     const char* name) {
  bool changed = false;
  const Style style = spec.display;
  const std::string path = name ? std::string(name) : path_of(spec);
  ImGui::PushID(id_of(spec).c_str());
  ImGui::BeginGroup();
  // While unset the field shows the default, muted; hovering tells where it comes from.
  const float reset_w = ImGui::CalcTextSize("default").x + ImGui::GetStyle().FramePadding.x * 2 + ImGui::GetStyle().ItemSpacing.x;
  if (value) next_width(ImGui::GetContentRegionAvail().x - reset_w);
  // A NaN fallback means the field has no default value at all (no deadline, no budget).
  const auto shown = [&](double v) { return std::isnan(v) ? std::string("none") : show(v, style); };
  const std::optional<double> typed = edit("##v", path, shown(value ? *value : fallback), spec, value ? Shown::Value : Shown::Default,
                                           value ? std::string() : fallback_source);
  if (typed) {
    value = *typed;
    changed = true;
  }
  if (value) {
    ImGui::SameLine();
    if (ImGui::SmallButton("default")) {
      value.reset();
      changed = true;
    }
    name_last(path + "#default");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Back to the default: %s", shown(fallback).c_str());
  }
  ImGui::EndGroup();
  ImGui::PopID();
  return changed;
}

namespace {
int resize_callback(ImGuiInputTextCallbackData* data) {
  if (data->EventFlag == ImGuiInputTextFlags_CallbackResize) {
    auto* s = static_cast<std::string*>(data->UserData);
    s->resize(static_cast<size_t>(data->BufTextLen));
    data->Buf = s->data();
  }
  return 0;
}
}  // namespace

bool text(const char* id, const std::string& name, std::string& value, size_t max_length, const char* hint) {
  ImGui::SetNextItemWidth(take_width());
  std::string copy = value;
  const bool edited = hint ? ImGui::InputTextWithHint(id, hint, copy.data(), copy.capacity() + 1, ImGuiInputTextFlags_CallbackResize,
                                                      resize_callback, &copy)
                           : ImGui::InputText(id, copy.data(), copy.capacity() + 1, ImGuiInputTextFlags_CallbackResize,
                                              resize_callback, &copy);
  registry().name(ImGui::GetItemID(), name, true, value.empty() && hint ? std::string(hint) : value);
  if (edited && copy.size() <= max_length) {
    value = copy;
    return true;
  }
  return false;
}

bool text_area(const char* id, const std::string& name, std::string& value, ImVec2 size, const char* hint) {
  (void)hint;
  const bool edited = ImGui::InputTextMultiline(id, value.data(), value.capacity() + 1, size, ImGuiInputTextFlags_CallbackResize,
                                                resize_callback, &value);
  registry().name(ImGui::GetItemID(), name, true);
  return edited;
}

bool begin_combo(const char* id, const std::string& name, const char* preview, ImGuiComboFlags flags) {
  registry().name(ImGui::GetID(id), name);
  return ImGui::BeginCombo(id, preview, flags);
}

namespace {
// The visible part of a label ("Edit##3" -> "Edit").
std::string visible(const char* label) {
  const char* end = std::strstr(label, "##");
  return end ? std::string(label, end) : std::string(label);
}
void name_by_label(const char* label) {
  const std::string v = visible(label);
  if (!v.empty()) registry().name(ImGui::GetID(label), v);
}
}  // namespace

bool button(const char* label, ImVec2 size) {
  name_by_label(label);
  return ImGui::Button(label, size);
}
bool small_button(const char* label) {
  name_by_label(label);
  return ImGui::SmallButton(label);
}
bool checkbox(const char* label, bool* value) {
  name_by_label(label);
  return ImGui::Checkbox(label, value);
}
bool radio(const char* label, bool active) {
  name_by_label(label);
  return ImGui::RadioButton(label, active);
}
bool selectable(const char* label, bool selected) {
  name_by_label(label);
  return ImGui::Selectable(label, selected);
}

void name_last(const std::string& name) { registry().name(ImGui::GetItemID(), name); }
void name_id(const char* id, const std::string& name) { registry().name(ImGui::GetID(id), name); }
std::string scoped(const char* member) {
  const std::string& scope = registry().scope();
  return scope.empty() ? std::string(member) : scope + "." + member;
}

bool copy_button(const char* label, const std::string& text) {
  State& s = state();
  const bool pressed = button(label);
  const ImGuiID id = ImGui::GetItemID();
  if (pressed) {
    copy_to_clipboard(text);
    kit.announce("Copied to the clipboard.");
    s.copied_id = id;
    s.copied_until_ms = now_ms() + 2500;
  }
  if (s.copied_id == id && s.copied_until_ms > now_ms()) {
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette().good), "Copied");
  }
  return pressed;
}

void wrapped(const std::string& text, float wrap_width, const char* note_name) {
  const float width = wrap_width > 0 ? wrap_width : ImGui::GetContentRegionAvail().x;
  const float space = ImGui::CalcTextSize(" ").x;
  std::string out, line;
  float line_w = 0;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find_first_of(" \n", start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    const float w = ImGui::CalcTextSize(word.c_str()).x;
    if (!line.empty() && line_w + space + w > width) {
      out += line + "\n";
      line.clear();
      line_w = 0;
    }
    line += (line.empty() ? "" : " ") + word;
    line_w += (line_w > 0 ? space : 0) + w;
    if (end < text.size() && text[end] == '\n') {
      out += line + "\n";
      line.clear();
      line_w = 0;
    }
    start = end + 1;
  }
  out += line;
  ImGui::TextUnformatted(out.c_str());
  registry().note(note_name, ImRect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax()), out);
}

void note(const std::string& name, const std::string& text, unsigned color, bool fits) {
  registry().note(name, ImRect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax()), text, color, fits);
}

void note_rect(const std::string& name, ImVec2 min, ImVec2 max, const std::string& text, unsigned color) {
  registry().note(name, ImRect(min, max), text, color);
}

bool begin_wide_table(const char* id, int columns, int rows, bool sideways, ImGuiTableFlags flags) {
  if (!sideways) return ImGui::BeginTable(id, columns, flags);
  const ImGuiStyle& st = ImGui::GetStyle();
  const float height = ImGui::GetTextLineHeight() + st.CellPadding.y * 2 + rows * (ImGui::GetFrameHeight() + st.CellPadding.y * 2) +
                       st.ScrollbarSize + 2;
  flags &= ~(ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_SizingStretchSame);
  if (!ImGui::BeginTable(id, columns, flags | ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit, ImVec2(0, height))) return false;
  ImGui::TableSetupScrollFreeze(1, 1);
  return true;
}

bool begin_form(const char* id, float label_em) {
  if (!ImGui::BeginTable(id, 2, ImGuiTableFlags_SizingFixedFit)) return false;
  ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthFixed, em(label_em));
  ImGui::TableSetupColumn("control", ImGuiTableColumnFlags_WidthStretch);
  return true;
}

void end_form() { ImGui::EndTable(); }

void row(const char* label, const FieldSpec* spec, const std::string& source) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  if (spec && ImGui::IsItemHovered()) field_tooltip(*spec, source);
  ImGui::TableSetColumnIndex(1);
}

}  // namespace traincost::web::widget
