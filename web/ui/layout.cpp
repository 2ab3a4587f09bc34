#include "ui/layout.hpp"

#include "app.hpp"
#include "imgui.h"
#include "traincost/format.hpp"
#include "traincost/verdict.hpp"
#include "ui/theme.hpp"

namespace traincost::web {

void draw_app(App& app) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->Pos);
  ImGui::SetNextWindowSize(vp->Size);
  ImGui::Begin("TrainCost", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  ImGui::PushFont(fonts().heading);
  ImGui::TextUnformatted("TrainCost");
  ImGui::PopFont();
  if (!app.scenario.options.empty()) {
    int n = app.scenario.options[0].instances;
    if (ImGui::SliderInt("Instances of the first option", &n, 1, 128)) {
      app.scenario.options[0].instances = n;
      app.edited();
    }
  }
  for (size_t w = 0; w < app.d.results.workloads.size(); ++w) {
    ImGui::TextWrapped("%s", workload_verdict(app.d.resolved, app.d.results, w).c_str());
    for (size_t o = 0; o < app.d.results.workloads[w].options.size(); ++o)
      ImGui::Text("%s: %s per run", app.d.resolved.options[o].label.c_str(),
                  fmt::usd(app.d.results.workloads[w].options[o].cost_per_run).c_str());
  }
  ImGui::End();
}

}  // namespace traincost::web
