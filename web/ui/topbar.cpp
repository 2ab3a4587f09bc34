// The top bar: product name, example scenarios, share, export, import, saved scenarios, catalog,
// methodology, theme. Its buttons flow onto a second line on narrow windows.
#include <cctype>

#include "app.hpp"
#include "imgui.h"
#include "platform.hpp"
#include "presets.hpp"
#include "traincost/output/report.hpp"
#include "ui/panels.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace traincost::web {
namespace {

// Places the next item on this line if `width` fits, else on the next line.
void flow(float width) {
  ImGui::SameLine(0, em(0.45f));
  if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

float button_width(const char* label) { return ImGui::CalcTextSize(label).x + ImGui::GetStyle().FramePadding.x * 2; }

std::string file_stem(const App& app) {
  std::string stem = app.d.scenario.name.empty() ? "traincost-scenario" : app.d.scenario.name;
  for (char& c : stem)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '-';
  return stem.substr(0, 60);
}

void export_items(App& app) {
  const Derived& d = app.d;
  if (ImGui::MenuItem("Scenario as JSON", nullptr, false, d.valid))
    download_text(file_stem(app) + ".json", "application/json", scenario_to_text(d.scenario));
  if (ImGui::MenuItem("Results as Markdown (copy)", nullptr, false, d.valid)) {
    copy_to_clipboard(report_markdown(d.scenario, d.resolved, d.results, app.share_url()));
    app.banner(BannerKind::Info, "Copied the results as Markdown.", 4);
    app.announce("Copied to the clipboard.");
  }
  if (ImGui::MenuItem("Results as Markdown (file)", nullptr, false, d.valid))
    download_text(file_stem(app) + ".md", "text/markdown", report_markdown(d.scenario, d.resolved, d.results, app.share_url()));
  if (ImGui::MenuItem("Results as CSV", nullptr, false, d.valid))
    download_text(file_stem(app) + ".csv", "text/csv", report_csv(d.scenario, d.resolved, d.results));
}

void example_items(App& app) {
  for (const ScenarioPreset& p : scenario_presets())
    if (widget::selectable(p.title.c_str())) app.replace_scenario(p.json, "the example \"" + p.title + "\"");
}

void theme_items(App& app) {
  const char* themes[] = {"System theme", "Dark", "Light"};
  const int current = app.ui.theme_follows_system ? 0 : (app.ui.dark ? 1 : 2);
  for (int t = 0; t < 3; ++t)
    if (ImGui::MenuItem(themes[t], nullptr, t == current)) {
      if (t == 0) app.set_theme(prefers_dark_theme(), App::ThemeChoice::FollowSystem);
      else app.set_theme(t == 1, App::ThemeChoice::Chosen);
      storage_set("traincost.theme", t == 0 ? "system" : t == 1 ? "dark" : "light");
    }
}

// Undo and Redo, greyed out when there is nothing to undo or redo.
void undo_buttons(App& app) {
  ImGui::BeginDisabled(!app.can_undo());
  if (widget::button("Undo")) app.undo();
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("Undo the last change (Ctrl+Z)");
  ImGui::SameLine(0, em(0.3f));
  ImGui::BeginDisabled(!app.can_redo());
  if (widget::button("Redo")) app.redo();
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("Redo (Ctrl+Shift+Z)");
}

}  // namespace

void draw_topbar(App& app) {
  const Palette& pal = palette();
  const float pad = em(0.9f);
  ImGui::SetCursorPos(ImVec2(pad, em(0.55f)));
  ImGui::BeginGroup();
  ImGui::PushFont(fonts().heading);
  ImGui::TextUnformatted("TrainCost");
  ImGui::PopFont();
  if (!app.ui.narrow) {
    ImGui::SameLine();
    ImGui::SetCursorPosY(ImGui::GetCursorPosY() + em(0.25f));
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.text_muted));
    ImGui::TextUnformatted("the cost to finish the job, Trainium vs NVIDIA");
    ImGui::PopStyleColor();
  }
  ImGui::EndGroup();

  if (app.ui.compact) {
    // A phone: Undo, Redo and one menu with everything else, on the title's line.
    const float menu_w = button_width("Menu");
    const float undo_w = button_width("Undo") + button_width("Redo") + em(0.3f);
    ImGui::SameLine(std::max(ImGui::GetCursorPosX() + em(0.5f), ImGui::GetWindowWidth() - pad - menu_w - undo_w - em(0.5f)));
    ImGui::SetCursorPosY(em(0.45f));
    undo_buttons(app);
    ImGui::SameLine(0, em(0.5f));
    if (widget::button("Menu")) ImGui::OpenPopup("menu");
    if (ImGui::BeginPopup("menu")) {
      if (ImGui::BeginMenu("Example scenarios")) {
        example_items(app);
        ImGui::EndMenu();
      }
      if (ImGui::MenuItem("Share")) app.ui.open_share = true;
      if (ImGui::BeginMenu("Export")) {
        export_items(app);
        ImGui::EndMenu();
      }
      if (ImGui::MenuItem("Import")) app.ui.open_import = true;
      if (ImGui::MenuItem("Saved")) app.ui.open_saved = true;
      if (ImGui::MenuItem("Methodology")) open_in_new_tab("methodology.html");
      if (ImGui::BeginMenu("Theme")) {
        theme_items(app);
        ImGui::EndMenu();
      }
      ImGui::EndPopup();
    }
  } else {
    ImGui::SameLine(0, em(1.5f));
    ImGui::SetCursorPosY(em(0.45f));
    ImGui::BeginGroup();
    ImGui::SetNextItemWidth(em(11));
    if (widget::begin_combo("##examples", "Example scenarios", "Example scenarios", ImGuiComboFlags_HeightLarge)) {
      example_items(app);
      ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Replace the scenario with a worked example (Undo or Back brings yours back)");

    flow(button_width("Undo") + button_width("Redo") + em(0.3f));
    undo_buttons(app);

    flow(button_width("Share"));
    if (widget::button("Share")) app.ui.open_share = true;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("A link that opens exactly this scenario, and embed snippets for wikis");

    flow(button_width("Export"));
    if (widget::button("Export")) ImGui::OpenPopup("export");
    if (ImGui::BeginPopup("export")) {
      export_items(app);
      ImGui::Separator();
      ImGui::TextDisabled("Charts: use the PNG button on each chart");
      ImGui::EndPopup();
    }

    flow(button_width("Import"));
    if (widget::button("Import")) app.ui.open_import = true;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("A scenario file or text, a share link, or a Hugging Face config.json");

    flow(button_width("Saved"));
    if (widget::button("Saved")) app.ui.open_saved = true;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Scenarios saved in this browser");

    flow(button_width("Methodology"));
    if (widget::button("Methodology")) open_in_new_tab("methodology.html");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Every formula, convention and source (opens a new tab)");

    flow(em(9));
    ImGui::SetNextItemWidth(em(9));
    const char* themes[] = {"System theme", "Dark", "Light"};
    if (widget::begin_combo("##theme", "Theme", themes[app.ui.theme_follows_system ? 0 : (app.ui.dark ? 1 : 2)])) {
      theme_items(app);
      ImGui::EndCombo();
    }
    ImGui::EndGroup();
  }

  // A hairline under the bar.
  const float y = ImGui::GetCursorScreenPos().y + em(0.2f);
  ImGui::GetWindowDrawList()->AddLine(ImVec2(0, y), ImVec2(ImGui::GetWindowWidth(), y), pal.grid);
  ImGui::SetCursorPosY(ImGui::GetCursorPosY() + em(0.3f));
}

void draw_banners(App& app) {
  const Palette& pal = palette();
  for (size_t i = 0; i < app.ui.banners.size(); ++i) {
    Banner& b = app.ui.banners[i];
    const ImU32 color = b.kind == BannerKind::Error ? pal.bad : b.kind == BannerKind::Warning ? pal.warn : pal.accent;
    ImGui::PushID(static_cast<int>(i));
    const ImVec2 start = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetWindowWidth() - em(1.8f);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width - em(9));
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + em(0.8f));
    ImGui::TextUnformatted(b.text.c_str());
    ImGui::PopTextWrapPos();
    const ImVec2 end(start.x + width, ImGui::GetItemRectMax().y + em(0.35f));
    ImGui::GetWindowDrawList()->AddRectFilled(start, ImVec2(start.x + em(0.25f), end.y), color);
    ImGui::SameLine(width - em(8.5f) + ImGui::GetStyle().WindowPadding.x);
    bool remove = false;
    if (!b.action.empty()) {
      if (widget::small_button(b.action.c_str())) {
        if (b.action_id == kRestoreAutosave) app.restore_autosave();
        if (b.action_id == kUndoLoad) app.undo();
        remove = true;
      }
      ImGui::SameLine();
    }
    if (widget::small_button("Dismiss")) remove = true;
    ImGui::PopID();
    ImGui::Dummy(ImVec2(0, em(0.15f)));
    if (remove) {
      app.ui.banners.erase(app.ui.banners.begin() + static_cast<long>(i));
      break;
    }
  }
}

}  // namespace traincost::web
