#include "ui/layout.hpp"

#include <algorithm>

#include "app.hpp"
#include "imgui.h"
#include "ui/panels.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace traincost::web {

// Widths, in em (multiples of the font size, so zoom and font size keep the layout):
// - from 60 em (900 CSS pixels): the inputs on the left, the verdict and results on the right;
// - below: one column, the verdict and its key figures first, then the inputs, then the results;
// - below 40 em (600 CSS pixels, a phone): the same, with the toolbar in one menu, options
//   stacked one after the other, tables scrolling sideways with their first column kept in view.
inline constexpr float kNarrowEm = 60;
inline constexpr float kCompactEm = 40;

void draw_app(App& app) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->Pos);
  ImGui::SetNextWindowSize(vp->Size);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  ImGui::Begin("TrainCost", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::PopStyleVar();

  if (app.ui.embed) {
    draw_embed(app);
    draw_dialogs(app);
    ImGui::End();
    return;
  }

  const float width = ImGui::GetWindowWidth();
  app.ui.narrow = width < em(kNarrowEm);
  app.ui.compact = width < em(kCompactEm);
  draw_topbar(app);
  const float pad = em(app.ui.compact ? 0.6f : 0.9f);
  ImGui::SetCursorPos(ImVec2(pad, ImGui::GetCursorPosY() + em(0.3f)));
  ImGui::BeginGroup();
  ImGui::PushItemWidth(-FLT_MIN);
  draw_banners(app);
  ImGui::PopItemWidth();
  ImGui::EndGroup();

  const ImVec2 area(width - 2 * pad, ImGui::GetWindowHeight() - ImGui::GetCursorPosY() - pad * 0.5f);
  ImGui::SetCursorPosX(pad);
  if (app.ui.narrow) {
    ImGui::BeginChild("page", area, false, ImGuiWindowFlags_NavFlattened);
    draw_verdict(app);
    // The results table comes after every input; on a phone that is many swipes away, so it is
    // one tap away from the verdict.
    if (widget::button("Jump to the results table", ImVec2(-FLT_MIN, 0))) app.ui.jump_to_results = true;
    ImGui::Separator();
    draw_scenario_name(app);
    draw_workloads(app);
    draw_options(app);
    ImGui::Spacing();
    if (app.ui.jump_to_results) {
      ImGui::SetScrollHereY(0.0f);
      app.ui.jump_to_results = false;
    }
    draw_results(app);
    ImGui::EndChild();
  } else {
    const float left_w = std::max(em(30), area.x * 0.46f);
    ImGui::BeginChild("inputs", ImVec2(left_w, area.y), false, ImGuiWindowFlags_NavFlattened);
    draw_scenario_name(app);
    draw_workloads(app);
    draw_options(app);
    ImGui::EndChild();
    ImGui::SameLine(0, pad);
    ImGui::BeginChild("results", ImVec2(0, area.y), false, ImGuiWindowFlags_NavFlattened);
    draw_verdict(app);
    draw_results(app);
    ImGui::EndChild();
  }
  draw_dialogs(app);
  ImGui::End();
}

}  // namespace traincost::web
