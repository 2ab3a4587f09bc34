#include "ui/xy_chart.hpp"

#include <algorithm>
#include <cmath>

#include "ui/chart_parts.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace traincost::web::chart {
namespace {

// Auto axes turn logarithmic from this ratio of largest to smallest value: past it, a linear axis
// squeezes the small values (a sweep's costs near the deadline) against the baseline.
constexpr double kLogSpan = 5;

// One axis: its range and whether it is logarithmic; maps a value to [0, 1] along the axis.
struct Axis {
  double lo = 0, hi = 1;
  bool log = false;
  double at(double v) const {
    return log ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) : (v - lo) / (hi - lo);
  }
  std::vector<double> ticks(int count) const { return log ? log_ticks(lo, hi, count) : nice_ticks(lo, hi, count); }
};

enum class Baseline { Fit, ZeroUnlessClose };  // the axis fits the values, or starts at 0 unless they sit close together

// The range of `values` (finite ones; positive ones on a log axis) with a little room at both
// ends. A linear axis of costs starts at 0 unless the values sit close together, where a zero
// baseline would flatten the differences the chart is there to show.
Axis fit_axis(std::vector<double> values, Scale scale, Baseline baseline) {
  Axis a;
  values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }), values.end());
  if (values.empty()) return a;
  const auto [mn, mx] = std::minmax_element(values.begin(), values.end());
  double lo = *mn, hi = *mx;
  a.log = scale == Scale::Log || (scale == Scale::Auto && lo > 0 && hi / lo >= kLogSpan);
  if (a.log && lo <= 0) a.log = false;
  if (a.log) {
    a.lo = lo / 1.25;
    a.hi = hi * 1.25;
    return a;
  }
  if (!(hi > lo)) {
    const double pad = lo != 0 ? std::fabs(lo) * 0.1 : 1;
    lo -= pad;
    hi += pad;
  }
  const double span = hi - lo;
  a.lo = baseline == Baseline::ZeroUnlessClose && lo >= 0 && lo < hi * 0.6 ? 0 : lo - span * 0.08;
  if (lo >= 0 && a.lo < 0) a.lo = 0;
  a.hi = hi + span * 0.08;
  return a;
}

}  // namespace

XYChartResult xy_chart(const XYChartSpec& spec) {
  XYChartResult out;
  const float height = spec.height > 0 ? spec.height : em(16);
  ImRect frame;
  bool hovered = false;
  if (!begin_plot(spec.id, height, frame, hovered)) {
    out.rect = {frame.Min, frame.Max};
    return out;
  }
  out.rect = {frame.Min, frame.Max};
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const Palette& pal = palette();

  std::vector<double> xs, ys;
  for (const XYSeries& s : spec.series)
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i)
      if (std::isfinite(s.x[i]) && std::isfinite(s.y[i])) {
        xs.push_back(s.x[i]);
        ys.push_back(s.y[i]);
      }
  if (xs.empty()) {
    dl->AddText(frame.Min, pal.text_muted, "Nothing to draw");
    return out;
  }
  for (const Guide& g : spec.guides)
    if (std::isfinite(g.x) && g.x > 0) xs.push_back(g.x);
  const Axis ax = fit_axis(xs, spec.x_scale, Baseline::Fit);
  const Axis ay = fit_axis(ys, spec.y_scale, Baseline::ZeroUnlessClose);
  out.log_x = ax.log;
  out.log_y = ay.log;

  const float line_h = ImGui::GetTextLineHeight();
  const std::vector<double> yticks = ay.ticks(5);
  float left = 0;
  for (double t : yticks) left = std::max(left, text_width(format(t, spec.y_unit)));
  const ImRect plot(ImVec2(frame.Min.x + left + em(0.6f), frame.Min.y + line_h * 0.5f),
                    ImVec2(frame.Max.x - em(0.8f), frame.Max.y - line_h * 2.5f));
  auto px = [&](double x) { return plot.Min.x + float(ax.at(x)) * plot.GetWidth(); };
  auto py = [&](double y) { return plot.Max.y - float(ay.at(y)) * plot.GetHeight(); };
  auto visible = [&](double x, double y) {
    return std::isfinite(x) && std::isfinite(y) && (!ax.log || x > 0) && (!ay.log || y > 0);
  };

  for (double t : yticks) {
    const float y = py(t);
    dl->AddLine(ImVec2(plot.Min.x, y), ImVec2(plot.Max.x, y), pal.grid);
    const std::string s = format(t, spec.y_unit);
    dl->AddText(ImVec2(plot.Min.x - em(0.4f) - text_width(s), y - line_h * 0.5f), pal.text_muted, s.c_str());
  }
  // X tick labels: as many as fit the width, none overlapping its neighbour.
  const int x_count = std::max(2, static_cast<int>(plot.GetWidth() / em(5.5f)));
  float last_right = -INFINITY;
  for (double t : ax.ticks(x_count)) {
    const float x = px(t);
    dl->AddLine(ImVec2(x, plot.Min.y), ImVec2(x, plot.Max.y), pal.grid);
    dl->AddLine(ImVec2(x, plot.Max.y), ImVec2(x, plot.Max.y + 4), pal.text_muted);
    const std::string s = format(t, spec.x_unit);
    const float w = text_width(s);
    const float tx = std::clamp(x - w * 0.5f, frame.Min.x, frame.Max.x - w);
    if (tx < last_right + em(0.6f)) continue;
    dl->AddText(ImVec2(tx, plot.Max.y + 4), pal.text_muted, s.c_str());
    last_right = tx + w;
  }
  dl->AddLine(plot.GetBL(), plot.GetBR(), pal.text_muted);
  // The axis title says which scales are logarithmic; on a narrow chart (a phone) it drops those
  // notes, longest first, rather than run past the edge (the tick labels still show the scale).
  std::string axis_text = spec.x_label + (ax.log ? " (log scale)" : "") + (ay.log ? "; cost on a log scale" : "");
  const float room = frame.Max.x - plot.Min.x;
  if (text_width(axis_text) > room || frame.GetWidth() < em(36)) axis_text = spec.x_label + (ax.log ? " (log scale)" : "");
  if (text_width(axis_text) > room) axis_text = spec.x_label;
  if (!axis_text.empty())
    dl->AddText(ImVec2(std::max(plot.Min.x, plot.GetCenter().x - text_width(axis_text) * 0.5f), plot.Max.y + line_h * 1.35f), pal.text_muted,
                axis_text.c_str());
  widget::note(std::string(spec.id) + " axes", axis_text);

  for (const Guide& g : spec.guides) {
    if (!(g.x > 0) && ax.log) continue;
    const float x = px(g.x);
    dashed_vline(dl, x, plot.Min.y, plot.Max.y, pal.warn);
    // The label beside the line, on whichever side has room.
    const float w = text_width(g.text);
    const float tx = x + 4 + w <= plot.Max.x ? x + 4 : std::max(plot.Min.x, x - 4 - w);
    dl->AddText(ImVec2(tx, plot.Min.y), pal.warn, g.text.c_str());
    widget::note(std::string(spec.id) + " guide", g.text, pal.warn);
  }

  dl->PushClipRect(plot.Min, ImVec2(plot.Max.x + 1, plot.Max.y + 1), true);
  for (const XYSeries& s : spec.series) {
    std::vector<ImVec2> points;
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i)
      if (visible(s.x[i], s.y[i])) points.push_back(ImVec2(px(s.x[i]), py(s.y[i])));
    if (points.size() >= 2) dl->AddPolyline(points.data(), static_cast<int>(points.size()), s.color, 0, 2.0f);
  }
  // Points on top of every line; the nearest one to the pointer (within about an em) is hovered.
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const float reach = em(1.2f);
  float best = reach * reach;
  int hover_s = -1, hover_i = -1;
  const float r = em(0.28f);
  for (size_t si = 0; si < spec.series.size(); ++si) {
    const XYSeries& s = spec.series[si];
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!visible(s.x[i], s.y[i])) continue;
      const ImVec2 c(px(s.x[i]), py(s.y[i]));
      const bool hollow = i < s.hollow.size() && s.hollow[i];
      if (hollow) {
        dl->AddCircleFilled(c, r, pal.panel);
        dl->AddCircle(c, r, s.color, 0, 1.5f);
      } else {
        dl->AddCircleFilled(c, r, s.color);
      }
      if (static_cast<int>(i) == s.emphasized) dl->AddCircle(c, r * 2, s.color, 0, 2.0f);
      if (i < s.names.size() && !s.names[i].empty())
        widget::note_rect(s.names[i], ImVec2(c.x - r, c.y - r), ImVec2(c.x + r, c.y + r), i < s.tips.size() ? s.tips[i] : "", s.color);
      const float dx = c.x - mouse.x, dy = c.y - mouse.y;
      if (hovered && dx * dx + dy * dy < best) {
        best = dx * dx + dy * dy;
        hover_s = static_cast<int>(si);
        hover_i = static_cast<int>(i);
      }
    }
  }
  dl->PopClipRect();

  if (hover_s >= 0) {
    const XYSeries& s = spec.series[static_cast<size_t>(hover_s)];
    const size_t i = static_cast<size_t>(hover_i);
    const ImVec2 c(px(s.x[i]), py(s.y[i]));
    dl->AddCircle(c, r * 2.4f, pal.text, 0, 1.5f);
    ImGui::BeginTooltip();
    ImGui::ColorButton(s.label.c_str(), ImGui::ColorConvertU32ToFloat4(s.color), ImGuiColorEditFlags_NoTooltip, ImVec2(line_h * 0.7f, line_h * 0.7f));
    ImGui::SameLine();
    ImGui::PushFont(fonts().strong);
    ImGui::TextUnformatted(s.label.c_str());
    ImGui::PopFont();
    const std::string tip = i < s.tips.size() ? s.tips[i] : format(s.x[i], spec.x_unit) + ", " + format(s.y[i], spec.y_unit);
    ImGui::TextUnformatted(tip.c_str());
    widget::note(std::string(spec.id) + " tooltip", s.label + "\n" + tip, s.color);
    ImGui::EndTooltip();
  }
  return out;
}

}  // namespace traincost::web::chart
