#include "ui/widgets.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unordered_map>

#include "imgui_internal.h"
#include "platform.hpp"
#include "traincost/format.hpp"
#include "ui/theme.hpp"

namespace traincost::web::widget {
namespace {

// Text typed into number fields, until it is committed. Usually one field, but a click from a
// field into one drawn above it activates the new field before the old one sees its deactivation
// (a frame later), so each field keeps its own text.
using Buffer = std::array<char, 96>;
std::unordered_map<ImGuiID, Buffer> g_typing;

// Rejected input is explained under the field for a few seconds.
struct Rejection {
  std::string message;
  double until_ms = 0;
};
std::unordered_map<ImGuiID, Rejection> g_rejections;
float g_next_width = -FLT_MIN;

float take_width() {
  const float w = g_next_width;
  g_next_width = -FLT_MIN;
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
  const auto it = g_rejections.find(id);
  if (it == g_rejections.end()) return;
  if (it->second.until_ms < now_ms()) {
    g_rejections.erase(it);
    return;
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(palette().bad));
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(it->second.message.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

// The text field behind number() and optional_number(): shows `shown`, and on commit parses and
// checks the text. Returns the accepted value.
std::optional<double> edit(const char* id, const std::string& shown, const FieldSpec& spec, bool muted,
                           const std::string& source = "") {
  const Style style = spec.display;
  const ImGuiID gid = ImGui::GetID(id);
  auto typing = g_typing.find(gid);
  // Text left by a field that went away while active (a section closed) is dropped.
  const ImGuiContext& context = *ImGui::GetCurrentContext();
  if (typing != g_typing.end() && context.ActiveId != gid && context.ActiveIdPreviousFrame != gid) {
    g_typing.erase(typing);
    typing = g_typing.end();
  }
  const bool editing = typing != g_typing.end();
  Buffer local;
  std::snprintf(local.data(), local.size(), "%s", shown.c_str());
  ImGui::SetNextItemWidth(take_width());
  if (muted && !editing) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::InputText(id, editing ? typing->second.data() : local.data(), local.size(), ImGuiInputTextFlags_AutoSelectAll);
  if (muted && !editing) ImGui::PopStyleColor();
  if (ImGui::IsItemActivated()) g_typing[gid] = local;
  if (ImGui::IsItemHovered() && !editing) field_tooltip(spec, source);
  std::optional<double> accepted;
  if (ImGui::IsItemDeactivated() && editing) {
    const Buffer typed = typing->second;
    g_typing.erase(typing);
    if (std::strcmp(typed.data(), local.data()) != 0) {
      const std::optional<double> v = parse(typed.data(), style);
      const std::string problem = v ? spec.check(*v) : std::string("not a number: ") + typed.data();
      if (problem.empty()) {
        accepted = v;
        g_rejections.erase(gid);
      } else {
        g_rejections[gid] = {spec.key() + ": " + problem + ". Kept the previous value.", now_ms() + 6000};
      }
    }
  }
  draw_rejection(gid);
  return accepted;
}

}  // namespace

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

void next_width(float width) { g_next_width = width; }

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

bool number(double& value, const FieldSpec& spec) {
  if (auto v = edit(id_of(spec).c_str(), show(value, spec.display), spec, false)) {
    value = *v;
    return true;
  }
  return false;
}

bool integer(int& value, const FieldSpec& spec) {
  double v = value;
  if (number(v, spec)) {
    value = static_cast<int>(v);
    return true;
  }
  return false;
}

bool optional_number(std::optional<double>& value, double fallback, const FieldSpec& spec, const std::string& fallback_source) {
  bool changed = false;
  const Style style = spec.display;
  ImGui::PushID(id_of(spec).c_str());
  ImGui::BeginGroup();
  // While unset the field shows the default, muted; hovering tells where it comes from.
  const float reset_w = ImGui::CalcTextSize("default").x + ImGui::GetStyle().FramePadding.x * 2 + ImGui::GetStyle().ItemSpacing.x;
  if (value) next_width(ImGui::GetContentRegionAvail().x - reset_w);
  const std::optional<double> typed = edit("##v", show(value ? *value : fallback, style), spec, !value,
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
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Back to the default: %s", show(fallback, style).c_str());
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

bool text(const char* id, std::string& value, size_t max_length, const char* hint) {
  ImGui::SetNextItemWidth(take_width());
  std::string copy = value;
  const bool edited = hint ? ImGui::InputTextWithHint(id, hint, copy.data(), copy.capacity() + 1, ImGuiInputTextFlags_CallbackResize,
                                                      resize_callback, &copy)
                           : ImGui::InputText(id, copy.data(), copy.capacity() + 1, ImGuiInputTextFlags_CallbackResize,
                                              resize_callback, &copy);
  if (edited && copy.size() <= max_length) {
    value = copy;
    return true;
  }
  return false;
}

bool text_area(const char* id, std::string& value, ImVec2 size, const char* hint) {
  (void)hint;
  return ImGui::InputTextMultiline(id, value.data(), value.capacity() + 1, size, ImGuiInputTextFlags_CallbackResize,
                                   resize_callback, &value);
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
