// The compact view for iframes (?embed=1): verdict, the key inputs, the main chart, and a way
// into the full calculator. It fits about 800 × 600 and follows the iframe's size.
#include <algorithm>

#include "app.hpp"
#include "imgui.h"
#include "platform.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/base/format.hpp"
#include "traincost/output/present.hpp"
#include "traincost/output/report.hpp"
#include "ui/panels.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace traincost::web {

void draw_embed(App& app) {
  const Derived& d = app.d;
  ImGui::SetCursorPos(ImVec2(em(0.8f), em(0.6f)));
  ImGui::BeginChild("embed", ImVec2(ImGui::GetWindowWidth() - em(1.6f), ImGui::GetWindowHeight() - em(1.0f)), false);
  ImGui::PushFont(fonts().strong);
  ImGui::TextUnformatted("TrainCost");
  ImGui::PopFont();
  ImGui::SameLine();
  ImGui::TextDisabled("%s", d.scenario.name.c_str());
  widget::note("scenario name", d.scenario.name);
  const float open_w = ImGui::CalcTextSize("Open in the full calculator").x + em(1);
  ImGui::SameLine(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowWidth() - open_w));
  if (widget::small_button("Open in the full calculator")) open_in_new_tab("calculator.html#" + d.link);

  for (const Banner& b : app.ui.banners) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette().bad), "%s", b.text.c_str());
  if (d.results.workloads.empty()) {
    ImGui::EndChild();
    return;
  }
  const size_t w = app.selected_workload();
  if (d.results.workloads.size() > 1) {
    ImGui::SetNextItemWidth(em(16));
    if (widget::begin_combo("##workload", "Workload", workload_title(d.scenario.workloads[w], w).c_str())) {
      for (size_t i = 0; i < d.results.workloads.size(); ++i)
        if (widget::selectable(workload_title(d.scenario.workloads[i], i).c_str(), i == w)) app.ui.workload = static_cast<int>(i);
      ImGui::EndCombo();
    }
  }
  draw_verdict_sentence(app, w);
  draw_headline_figures(app, w);

  // Key inputs and the figure each option comes to; the expected runs can be changed here.
  const WorkloadResult& wr = d.results.workloads[w];
  if (ImGui::BeginTable("key", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("Option", ImGuiTableColumnFlags_WidthStretch, 2.0f);
    ImGui::TableSetupColumn("Cluster", ImGuiTableColumnFlags_WidthStretch, 2.2f);
    ImGui::TableSetupColumn("Utilization", ImGuiTableColumnFlags_WidthStretch, 1.2f);
    ImGui::TableSetupColumn("Per run", ImGuiTableColumnFlags_WidthStretch, 1.2f);
    ImGui::TableHeadersRow();
    for (size_t o = 0; o < wr.options.size(); ++o) {
      const PairInputs& p = d.resolved.workloads[w].options[o];
      const EstimateFlags estimates = estimate_flags(d.scenario, d.resolved, w, o, builtin_catalog());
      const ImVec4 warn = ImGui::ColorConvertU32ToFloat4(palette().warn);
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(d.resolved.options[o].label.c_str());
      ImGui::TableSetColumnIndex(1);
      ImGui::Text("%s × %s", fmt::number(p.instances).c_str(), d.resolved.options[o].instance.c_str());
      ImGui::TableSetColumnIndex(2);
      if (p.measured_tokens_per_sec_per_chip > 0) ImGui::Text("%s tok/s/chip", fmt::count(p.measured_tokens_per_sec_per_chip).c_str());
      else if (estimates.speed) ImGui::TextColored(warn, "MFU %s%s", kEstimateMark, fmt::percent(p.mfu).c_str());
      else ImGui::Text("MFU %s", fmt::percent(p.mfu).c_str());
      ImGui::TableSetColumnIndex(3);
      if (!wr.options[o].feasible()) ImGui::TextDisabled("cannot run");
      else if (column_is_estimate(ResultCol::FullyLoaded, estimates)) ImGui::TextColored(warn, "%s%s", kEstimateMark, fmt::usd(wr.options[o].cost_per_run).c_str());
      else ImGui::TextUnformatted(fmt::usd(wr.options[o].cost_per_run).c_str());
    }
    ImGui::EndTable();
  }
  draw_estimate_footnote(app, w);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Expected runs");
  ImGui::SameLine();
  widget::next_width(em(6));
  if (widget::number(app.scenario.workloads[w].runs, fields::runs)) app.edited();
  ImGui::SameLine();
  ImGui::TextDisabled("over %s months", fmt::number(d.scenario.workloads[w].horizon_months).c_str());

  const float chart_h = std::max(em(9), ImGui::GetContentRegionAvail().y - em(3.2f));
  draw_cumulative_chart(app, w, chart_h);
  ImGui::EndChild();
}

}  // namespace traincost::web
