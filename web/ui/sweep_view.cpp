// The cluster-size sweep chart (issue 18 item 5): for each option, cost per run against days until
// the model is done, one point per instance count, with the workload's deadline as a vertical
// line. It draws d.sweep's result, computed with the results (sweep_state.hpp), and edits nothing.
#include <cmath>

#include "app.hpp"
#include "imgui.h"
#include "sweep_state.hpp"
#include "traincost/base/format.hpp"
#include "ui/sweep_view.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"
#include "ui/xy_chart.hpp"

namespace traincost::web {
namespace {

// A point's tooltip: what a team reads off it to pick a size.
std::string point_tip(const SweepPoint& p, bool results_size, bool cheapest, double deadline_days) {
  std::string tip = fmt::number(p.instances) + (p.instances == 1 ? " instance (" : " instances (") + fmt::number(p.chips) + " chips)\n" +
                    fmt::days(p.days_to_model) + " until the model is done\n" + fmt::usd_exact(p.cost_per_run) + " per run, fully loaded\n" +
                    "MFU " + fmt::percent(p.mfu);
  if (!p.in_time) tip += "\nmisses the " + fmt::number(deadline_days) + "-day deadline";
  if (results_size) tip += "\nthe size the results use";
  if (cheapest) tip += std::string("\nthe cheapest size") + (deadline_days > 0 ? " in time" : "");
  return tip;
}

}  // namespace

chart::Rect draw_sweep_chart(App& app, unsigned long w) {
  const Derived& d = app.d;
  if (!sweep_current(d, w)) {
    ImGui::TextDisabled("Sweeping cluster sizes…");
    return {};
  }
  const Sweep& sw = d.sweep.result;
  const Palette& pal = palette();
  chart::XYChartSpec spec;
  spec.id = "sweep";
  spec.x_label = "days until the model is done";
  std::vector<std::pair<std::string, ImU32>> legend;
  std::string cannot;  // options with no size that runs
  for (size_t o = 0; o < sw.options.size() && o < d.resolved.options.size(); ++o) {
    const OptionSweep& os = sw.options[o];
    chart::XYSeries s;
    s.label = d.resolved.options[o].label;
    s.color = pal.series[o % 6];  // as in the other charts
    for (size_t i = 0; i < os.points.size(); ++i) {
      const SweepPoint& p = os.points[i];
      if (!p.feasible) continue;
      if (p.instances == os.evaluated_instances) s.emphasized = static_cast<int>(s.x.size());
      s.x.push_back(p.days_to_model);
      s.y.push_back(p.cost_per_run);
      s.hollow.push_back(!p.in_time);
      s.tips.push_back(point_tip(p, p.instances == os.evaluated_instances, static_cast<int>(i) == os.cheapest, sw.deadline_days));
      s.names.push_back("sweep point: " + s.label + " @ " + fmt::number(p.instances));
    }
    if (s.x.empty()) {
      cannot += (cannot.empty() ? "" : ", ") + s.label;
      continue;
    }
    legend.push_back({s.label, s.color});
    spec.series.push_back(std::move(s));
  }
  if (sw.deadline_days > 0) spec.guides.push_back({sw.deadline_days, "deadline " + fmt::number(sw.deadline_days) + " days"});
  const chart::XYChartResult drawn = chart::xy_chart(spec);
  chart::legend(legend);
  std::string note = "One point per instance count; the ringed point is the size in the results";
  if (sw.deadline_days > 0) note += ", open points miss the deadline";
  note += d.sweep.due_ms > 0 ? " (updating…)." : ".";
  if (!cannot.empty()) note += " Cannot run at any size: " + cannot + ".";
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  widget::wrapped(note, 0, "sweep note");
  ImGui::PopStyleColor();
  return drawn.rect;
}

}  // namespace traincost::web
