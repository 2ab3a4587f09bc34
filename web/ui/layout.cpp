#include "ui/layout.hpp"

#include "app.hpp"
#include "imgui.h"
#include "ui/panels.hpp"
#include "ui/theme.hpp"

namespace traincost::web {

// Full window: top bar, banners, then inputs on the left and results on the right; below about
// 900 CSS pixels the two columns stack into one scrolling page.
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

  draw_topbar(app);
  const float pad = em(0.9f);
  ImGui::SetCursorPos(ImVec2(pad, ImGui::GetCursorPosY() + em(0.3f)));
  ImGui::BeginGroup();
  ImGui::PushItemWidth(-FLT_MIN);
  draw_banners(app);
  ImGui::PopItemWidth();
  ImGui::EndGroup();

  const float width = ImGui::GetWindowWidth();
  app.ui.narrow = width < 900;
  const ImVec2 area(width - 2 * pad, ImGui::GetWindowHeight() - ImGui::GetCursorPosY() - pad * 0.5f);
  ImGui::SetCursorPosX(pad);
  if (app.ui.narrow) {
    ImGui::BeginChild("page", area, false, ImGuiWindowFlags_NavFlattened);
    draw_workloads(app);
    draw_options(app);
    ImGui::Spacing();
    draw_verdict(app);
    draw_results(app);
    ImGui::EndChild();
  } else {
    const float left_w = std::max(em(30), area.x * 0.46f);
    ImGui::BeginChild("inputs", ImVec2(left_w, area.y), false, ImGuiWindowFlags_NavFlattened);
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
