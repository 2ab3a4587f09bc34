#include "ui/charts.hpp"

#include "ui/chart_parts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "imgui_internal.h"
#include "traincost/base/format.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace traincost::web::chart {

// Reserves a rectangle as one ImGui item (so layout, scrolling and hovering work).
bool begin_plot(const char* id, float height, ImRect& frame, bool& hovered) {
  const float width = ImGui::GetContentRegionAvail().x;
  const ImVec2 pos = ImGui::GetCursorScreenPos();
  frame = ImRect(pos, ImVec2(pos.x + width, pos.y + height));
  ImGui::ItemSize(frame);
  const ImGuiID gid = ImGui::GetID(id);
  widget::name_id(id, std::string("chart: ") + id);
  if (!ImGui::ItemAdd(frame, gid)) return false;
  hovered = ImGui::ItemHoverable(frame, gid);
  return true;
}

float text_width(const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x; }

void dashed_vline(ImDrawList* dl, float x, float y0, float y1, ImU32 color) {
  for (float y = y0; y < y1; y += 8) dl->AddLine(ImVec2(x, y), ImVec2(x, std::min(y + 4, y1)), color, 1.0f);
}

namespace {

ImU32 with_alpha(ImU32 color, float alpha) {
  ImVec4 c = ImGui::ColorConvertU32ToFloat4(color);
  c.w *= alpha;
  return ImGui::ColorConvertFloat4ToU32(c);
}

}  // namespace

std::string format(double v, Unit unit) {
  switch (unit) {
    case Unit::Usd: return v == 0 ? "$0" : fmt::usd(v);
    case Unit::Hours: return fmt::hours(v);
    case Unit::Days: return fmt::number(v) + (v == 1 ? " day" : " days");
    case Unit::Seconds: return v < 1 ? fmt::number(v * 1000, 3) + " ms" : fmt::number(v, 3) + " s";
    case Unit::Runs: return fmt::number(v) + (v == 1 ? " run" : " runs");
    case Unit::Count: return fmt::count(v);
    case Unit::Percent: return fmt::percent(v);
    case Unit::Ratio: return fmt::ratio(v);
    case Unit::Plain: return fmt::number(v);
  }
  return fmt::number(v);
}

std::vector<double> nice_ticks(double min, double max, int count) {
  std::vector<double> ticks;
  if (!(max > min) || !std::isfinite(min) || !std::isfinite(max)) return ticks;
  const double raw = (max - min) / std::max(1, count);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    step = m * magnitude;
    if (step >= raw) break;
  }
  for (double t = std::ceil(min / step) * step; t <= max + step * 1e-9; t += step) ticks.push_back(std::fabs(t) < step * 1e-9 ? 0 : t);
  return ticks;
}

std::vector<double> log_ticks(double min, double max, int count) {
  std::vector<double> ticks;
  if (!(min > 0) || !(max > min) || !std::isfinite(max)) return ticks;
  // The densest of 1-2-3-5, 1-2-5, 1-3 and 1 per decade within `count`; wider spans take every
  // second or third decade.
  const int first = static_cast<int>(std::floor(std::log10(min))), last = static_cast<int>(std::ceil(std::log10(max)));
  const std::vector<std::vector<double>> steps = {{1, 2, 3, 5}, {1, 2, 5}, {1, 3}, {1}};
  for (const std::vector<double>& mantissas : steps) {
    ticks.clear();
    for (int e = first; e <= last; ++e)
      for (double m : mantissas) {
        const double t = m * std::pow(10.0, e);
        if (t >= min * (1 - 1e-9) && t <= max * (1 + 1e-9)) ticks.push_back(t);
      }
    if (static_cast<int>(ticks.size()) <= count) return ticks;
  }
  const size_t stride = (ticks.size() + static_cast<size_t>(count) - 1) / static_cast<size_t>(std::max(1, count));
  std::vector<double> sparse;
  for (size_t i = 0; i < ticks.size(); i += stride) sparse.push_back(ticks[i]);
  return sparse;
}

Rect line_chart(const LineChartSpec& spec) {
  const float height = spec.height > 0 ? spec.height : em(16);
  ImRect frame;
  bool hovered = false;
  if (!begin_plot(spec.id, height, frame, hovered)) return {frame.Min, frame.Max};
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const Palette& pal = palette();

  double x0 = INFINITY, x1 = -INFINITY, y0 = 0, y1 = -INFINITY;
  for (const Line& l : spec.lines)
    for (size_t i = 0; i < l.x.size(); ++i) {
      if (!std::isfinite(l.y[i])) continue;
      x0 = std::min(x0, l.x[i]);
      x1 = std::max(x1, l.x[i]);
      y1 = std::max(y1, l.y[i]);
    }
  if (!(x1 > x0) || !(y1 > y0)) {
    dl->AddText(frame.Min, pal.text_muted, "Nothing to draw");
    return {frame.Min, frame.Max};
  }
  y1 *= 1.05;
  const std::vector<double> yticks = nice_ticks(y0, y1, 5);
  const std::vector<double> xticks = nice_ticks(x0, x1, 8);
  float left = 0;
  for (double t : yticks) left = std::max(left, text_width(format(t, spec.y_unit)));
  const float line_h = ImGui::GetTextLineHeight();
  const ImRect plot(ImVec2(frame.Min.x + left + em(0.6f), frame.Min.y + line_h * 0.5f),
                    ImVec2(frame.Max.x - em(0.8f), frame.Max.y - line_h * 2.2f));
  auto px = [&](double x) { return plot.Min.x + float((x - x0) / (x1 - x0)) * plot.GetWidth(); };
  auto py = [&](double y) { return plot.Max.y - float((y - y0) / (y1 - y0)) * plot.GetHeight(); };

  for (double t : yticks) {
    const float y = py(t);
    dl->AddLine(ImVec2(plot.Min.x, y), ImVec2(plot.Max.x, y), pal.grid);
    const std::string s = format(t, spec.y_unit);
    dl->AddText(ImVec2(plot.Min.x - em(0.4f) - text_width(s), y - line_h * 0.5f), pal.text_muted, s.c_str());
  }
  for (double t : xticks) {
    const float x = px(t);
    dl->AddLine(ImVec2(x, plot.Max.y), ImVec2(x, plot.Max.y + 4), pal.text_muted);
    const std::string s = fmt::number(t);
    dl->AddText(ImVec2(x - text_width(s) * 0.5f, plot.Max.y + 4), pal.text_muted, s.c_str());
  }
  dl->AddLine(plot.GetBL(), plot.GetBR(), pal.text_muted);
  if (!spec.x_label.empty())
    dl->AddText(ImVec2(plot.GetCenter().x - text_width(spec.x_label) * 0.5f, plot.Max.y + line_h * 1.1f), pal.text_muted,
                spec.x_label.c_str());

  for (const Guide& g : spec.guides) {
    const float x = px(g.x);
    dashed_vline(dl, x, plot.Min.y, plot.Max.y, pal.text_muted);
    dl->AddText(ImVec2(x + 4, plot.Min.y), pal.text_muted, g.text.c_str());
  }
  dl->PushClipRect(plot.Min, ImVec2(plot.Max.x + 1, plot.Max.y + 1), true);
  for (const Line& l : spec.lines) {
    std::vector<ImVec2> points;
    for (size_t i = 0; i < l.x.size(); ++i)
      if (std::isfinite(l.y[i])) points.push_back(ImVec2(px(l.x[i]), py(l.y[i])));
    if (points.size() >= 2) dl->AddPolyline(points.data(), static_cast<int>(points.size()), l.color, 0, 2.5f);
  }
  dl->PopClipRect();
  for (const Marker& m : spec.markers) {
    const ImVec2 c(px(m.x), py(m.y));
    if (!plot.Contains(c)) continue;
    dl->AddCircleFilled(c, 5.5f, m.color);
    dl->AddCircle(c, 5.5f, pal.panel, 0, 1.5f);
    const float w = text_width(m.text);
    const float tx = std::clamp(c.x - w * 0.5f, plot.Min.x, plot.Max.x - w);
    dl->AddText(ImVec2(tx, c.y - line_h * 1.5f), pal.text, m.text.c_str());
  }

  // Hover: a cursor line and every series' value there (whole runs when the x axis counts runs).
  if (hovered && plot.Contains(ImGui::GetIO().MousePos)) {
    double x = x0 + (ImGui::GetIO().MousePos.x - plot.Min.x) / plot.GetWidth() * (x1 - x0);
    if (spec.x_unit == Unit::Runs) x = std::clamp(std::round(x), std::ceil(x0), std::floor(x1));
    const float cx = px(x);
    dl->AddLine(ImVec2(cx, plot.Min.y), ImVec2(cx, plot.Max.y), pal.text_muted);
    ImGui::BeginTooltip();
    ImGui::Text("%s", format(x, spec.x_unit).c_str());
    for (const Line& l : spec.lines) {
      if (l.x.size() < 2) continue;
      // Linear interpolation between the samples around x.
      size_t k = 1;
      while (k + 1 < l.x.size() && l.x[k] < x) ++k;
      const double t = (x - l.x[k - 1]) / (l.x[k] - l.x[k - 1]);
      const double y = l.y[k - 1] + std::clamp(t, 0.0, 1.0) * (l.y[k] - l.y[k - 1]);
      ImGui::ColorButton(l.label.c_str(), ImGui::ColorConvertU32ToFloat4(l.color), ImGuiColorEditFlags_NoTooltip,
                         ImVec2(line_h * 0.7f, line_h * 0.7f));
      ImGui::SameLine();
      ImGui::Text("%s: %s", l.label.c_str(), spec.y_unit == Unit::Usd ? fmt::usd_exact(y).c_str() : format(y, spec.y_unit).c_str());
      dl->AddCircleFilled(ImVec2(cx, py(y)), 3.5f, l.color);
    }
    ImGui::EndTooltip();
  }
  return {frame.Min, frame.Max};
}

Rect share_bar(const ShareBarSpec& spec) {
  ImRect frame;
  bool hovered = false;
  if (!begin_plot(spec.id, em(0.8f), frame, hovered)) return {frame.Min, frame.Max};
  double total = 0;
  for (double v : spec.values) total += std::max(0.0, v);
  if (!(total > 0)) return {frame.Min, frame.Max};
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  int hover = -1;
  double acc = 0;
  for (size_t s = 0; s < spec.segments.size() && s < spec.values.size(); ++s) {
    const double v = std::max(0.0, spec.values[s]);
    if (v <= 0) continue;
    const ImVec2 a(frame.Min.x + float(acc / total) * frame.GetWidth(), frame.Min.y);
    const ImVec2 z(frame.Min.x + float((acc + v) / total) * frame.GetWidth(), frame.Max.y);
    dl->AddRectFilled(a, z, spec.segments[s].color);
    if (hovered && mouse.x >= a.x && mouse.x < z.x) hover = static_cast<int>(s);
    acc += v;
  }
  if (hovered) {
    ImGui::BeginTooltip();
    for (size_t s = 0; s < spec.segments.size() && s < spec.values.size(); ++s) {
      if (spec.values[s] <= 0) continue;
      const bool this_one = static_cast<int>(s) == hover;
      if (this_one) ImGui::PushFont(fonts().strong);
      ImGui::Text("%s: %s (%s)", spec.segments[s].label.c_str(), format(spec.values[s], spec.unit).c_str(), fmt::percent(spec.values[s] / total).c_str());
      if (this_one) ImGui::PopFont();
    }
    ImGui::Separator();
    ImGui::Text("Total: %s", format(total, spec.unit).c_str());
    ImGui::EndTooltip();
  }
  return {frame.Min, frame.Max};
}

Rect stacked_bars(const StackedBarSpec& spec) {
  const float bar_h = em(1.6f), gap = em(0.7f);
  const float line_h = ImGui::GetTextLineHeight();
  const float height = spec.bars.size() * (bar_h + gap) + line_h * 1.6f;
  ImRect frame;
  bool hovered = false;
  if (!begin_plot(spec.id, height, frame, hovered)) return {frame.Min, frame.Max};
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const Palette& pal = palette();
  double total_max = 0;
  for (const auto& row : spec.values) {
    double t = 0;
    for (double v : row) t += std::max(0.0, v);
    total_max = std::max(total_max, t);
  }
  if (!(total_max > 0)) return {frame.Min, frame.Max};
  float label_w = 0;
  for (const std::string& b : spec.bars) label_w = std::max(label_w, text_width(b));
  label_w = std::min(label_w, frame.GetWidth() * 0.35f);
  const std::vector<double> ticks = nice_ticks(0, total_max * 1.08, 5);
  const double x_max = ticks.empty() ? total_max : std::max(total_max, ticks.back());
  const float tick_room = ticks.empty() ? 0 : text_width(format(ticks.back(), spec.unit)) * 0.5f;
  const ImRect plot(ImVec2(frame.Min.x + label_w + em(0.8f), frame.Min.y),
                    ImVec2(frame.Max.x - std::max(em(0.8f), tick_room), frame.Max.y - line_h * 1.6f));
  auto px = [&](double v) { return plot.Min.x + float(v / x_max) * plot.GetWidth(); };
  for (double t : ticks) {
    const float x = px(t);
    dl->AddLine(ImVec2(x, plot.Min.y), ImVec2(x, plot.Max.y), pal.grid);
    const std::string s = format(t, spec.unit);
    dl->AddText(ImVec2(x - text_width(s) * 0.5f, plot.Max.y + 3), pal.text_muted, s.c_str());
  }
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  int hover_bar = -1, hover_segment = -1;
  for (size_t b = 0; b < spec.bars.size(); ++b) {
    const float y = plot.Min.y + b * (bar_h + gap) + gap * 0.5f;
    dl->PushClipRect(frame.Min, ImVec2(plot.Min.x - em(0.3f), frame.Max.y), true);
    dl->AddText(ImVec2(frame.Min.x, y + (bar_h - line_h) * 0.5f), pal.text, spec.bars[b].c_str());
    dl->PopClipRect();
    double acc = 0;
    for (size_t s = 0; s < spec.segments.size() && s < spec.values[b].size(); ++s) {
      const double v = std::max(0.0, spec.values[b][s]);
      if (v <= 0) continue;
      const ImVec2 a(px(acc), y), z(px(acc + v), y + bar_h);
      dl->AddRectFilled(a, z, spec.segments[s].color);
      // Each part as its tooltip gives it, for the tests (in the registry while it records).
      widget::note_rect(std::string(spec.id) + " part: " + spec.bars[b] + " / " + spec.segments[s].label, a, z, fmt::usd_exact(v),
                        spec.segments[s].color);
      if (hovered && ImRect(a, z).Contains(mouse)) {
        hover_bar = static_cast<int>(b);
        hover_segment = static_cast<int>(s);
        dl->AddRect(a, z, pal.text, 0, 0, 1.5f);
      }
      acc += v;
    }
    const std::string total = format(acc, spec.unit);
    const float tx = std::min(px(acc) + 6, plot.Max.x - text_width(total));
    dl->AddText(ImVec2(tx, y + (bar_h - line_h) * 0.5f), pal.text, total.c_str());
    // The bar's total as drawn beside it.
    widget::note_rect(std::string(spec.id) + " bar: " + spec.bars[b], ImVec2(plot.Min.x, y), ImVec2(px(acc), y + bar_h), total);
  }
  if (hover_bar >= 0) {
    ImGui::BeginTooltip();
    const auto& row = spec.values[static_cast<size_t>(hover_bar)];
    double total = 0;
    for (double v : row) total += v;
    ImGui::TextUnformatted(spec.bars[static_cast<size_t>(hover_bar)].c_str());
    ImGui::Separator();
    for (size_t s = 0; s < spec.segments.size() && s < row.size(); ++s) {
      if (row[s] <= 0) continue;
      const bool this_one = static_cast<int>(s) == hover_segment;
      if (this_one) ImGui::PushFont(fonts().strong);
      ImGui::Text("%s: %s (%s)", spec.segments[s].label.c_str(), fmt::usd_exact(row[s]).c_str(), fmt::percent(row[s] / total).c_str());
      if (this_one) ImGui::PopFont();
    }
    ImGui::Separator();
    ImGui::Text("Total: %s", fmt::usd_exact(total).c_str());
    ImGui::EndTooltip();
  }
  return {frame.Min, frame.Max};
}

Rect tornado(const TornadoSpec& spec) {
  const float row_h = em(1.45f), line_h = ImGui::GetTextLineHeight();
  const float height = spec.rows.size() * row_h + line_h * 2.6f;
  ImRect frame;
  bool hovered = false;
  if (!begin_plot(spec.id, height, frame, hovered)) return {frame.Min, frame.Max};
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const Palette& pal = palette();
  double lo = spec.base, hi = spec.base;
  for (const TornadoRow& r : spec.rows)
    for (double v : {r.at_low, r.at_high})
      if (std::isfinite(v)) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
  if (!(hi > lo)) {
    lo -= 1;
    hi += 1;
  }
  const double pad = (hi - lo) * 0.08;
  lo -= pad;
  hi += pad;
  float label_w = 0, flip_w = 0;
  for (const TornadoRow& r : spec.rows) {
    label_w = std::max(label_w, text_width(r.label));
    if (!r.flip_text.empty()) flip_w = std::max(flip_w, text_width(r.flip_text) + em(0.6f));
  }
  label_w = std::min(label_w, frame.GetWidth() * 0.38f);
  flip_w = std::min(flip_w, frame.GetWidth() * 0.22f);  // the flip values' column at the right
  const ImRect plot(ImVec2(frame.Min.x + label_w + em(0.8f), frame.Min.y + line_h * 1.2f),
                    ImVec2(frame.Max.x - em(0.6f) - flip_w, frame.Max.y - line_h * 1.4f));
  auto px = [&](double v) { return plot.Min.x + float((v - lo) / (hi - lo)) * plot.GetWidth(); };
  for (double t : nice_ticks(lo, hi, 5)) {
    const float x = px(t);
    dl->AddLine(ImVec2(x, plot.Min.y), ImVec2(x, plot.Max.y), pal.grid);
    const std::string s = format(t, spec.unit);
    dl->AddText(ImVec2(x - text_width(s) * 0.5f, plot.Max.y + 3), pal.text_muted, s.c_str());
  }
  const float base_x = px(spec.base);
  const std::string base_text = "base " + format(spec.base, spec.unit);
  dl->AddText(ImVec2(std::clamp(base_x - text_width(base_text) * 0.5f, plot.Min.x, plot.Max.x - text_width(base_text)), frame.Min.y),
              pal.text_muted, base_text.c_str());
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  int hover_row = -1;
  for (size_t i = 0; i < spec.rows.size(); ++i) {
    const TornadoRow& r = spec.rows[i];
    const float y = plot.Min.y + i * row_h;
    const ImRect row_rect(ImVec2(frame.Min.x, y), ImVec2(frame.Max.x, y + row_h));
    if (hovered && row_rect.Contains(mouse)) {
      hover_row = static_cast<int>(i);
      dl->AddRectFilled(row_rect.Min, row_rect.Max, pal.grid);
    }
    dl->PushClipRect(frame.Min, ImVec2(plot.Min.x - em(0.3f), frame.Max.y), true);
    dl->AddText(ImVec2(frame.Min.x, y + (row_h - line_h) * 0.5f), r.default_range ? pal.text_muted : pal.text, r.label.c_str());
    dl->PopClipRect();
    const float bar_top = y + row_h * 0.15f, bar_bottom = y + row_h * 0.85f;
    // The low end of the input in one colour, the high end in another, each from the base.
    for (int end = 0; end < 2; ++end) {
      const double v = end == 0 ? r.at_low : r.at_high;
      if (!std::isfinite(v)) continue;
      const float x = px(v);
      dl->AddRectFilled(ImVec2(std::min(x, base_x), bar_top), ImVec2(std::max(x, base_x), bar_bottom),
                        end == 0 ? pal.low : pal.high);
    }
    if (r.flip_text.empty()) continue;
    // Where the answer flips on this input: a diamond where its bar crosses the flip line (the
    // threshold lies within the range), and the value in the right-hand column either way.
    if (r.flip_in_range && std::isfinite(spec.flip_at) && spec.flip_at >= lo && spec.flip_at <= hi) {
      const ImVec2 c(px(spec.flip_at), y + row_h * 0.5f);
      const float s = row_h * 0.32f;
      dl->AddQuadFilled(ImVec2(c.x, c.y - s), ImVec2(c.x + s, c.y), ImVec2(c.x, c.y + s), ImVec2(c.x - s, c.y), pal.warn);
    }
    dl->PushClipRect(ImVec2(plot.Max.x, frame.Min.y), frame.Max, true);
    dl->AddText(ImVec2(frame.Max.x - text_width(r.flip_text), y + (row_h - line_h) * 0.5f), r.flip_in_range ? pal.warn : pal.text_muted,
                r.flip_text.c_str());
    dl->PopClipRect();
  }
  // The flip line: every threshold is where the lead is 0, so on this axis they share one line.
  if (std::isfinite(spec.flip_at) && spec.flip_at >= lo && spec.flip_at <= hi && flip_w > 0)
    dashed_vline(dl, px(spec.flip_at), plot.Min.y, plot.Max.y, pal.warn);
  dl->AddLine(ImVec2(base_x, plot.Min.y - 2), ImVec2(base_x, plot.Max.y), pal.text, 1.5f);
  if (!spec.metric_label.empty())
    dl->AddText(ImVec2(plot.GetCenter().x - text_width(spec.metric_label) * 0.5f, plot.Max.y + line_h * 1.0f - 2), pal.text_muted,
                spec.metric_label.c_str());
  if (hover_row >= 0) {
    const TornadoRow& r = spec.rows[static_cast<size_t>(hover_row)];
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(r.label.c_str());
    if (r.default_range) ImGui::TextDisabled("default range (TrainCost's guess; set your own in Ranges)");
    ImGui::Separator();
    ImGui::Text("at %s: %s", r.low_text.c_str(), std::isfinite(r.at_low) ? fmt::usd_exact(r.at_low).c_str() : "n/a");
    ImGui::Text("at %s: %s", r.high_text.c_str(), std::isfinite(r.at_high) ? fmt::usd_exact(r.at_high).c_str() : "n/a");
    ImGui::Text("swing %s", fmt::usd_exact(std::fabs(r.at_high - r.at_low)).c_str());
    if (!r.flip_text.empty())
      ImGui::TextUnformatted(r.flip_in_range ? (r.flip_text + ", within this range").c_str() : (r.flip_text + ", outside this range").c_str());
    ImGui::EndTooltip();
  }
  // For tests and screen readers: which rows carry a threshold.
  for (const TornadoRow& r : spec.rows)
    if (!r.flip_text.empty()) widget::note("tornado flip: " + r.label, r.flip_text, r.flip_in_range ? pal.warn : pal.text_muted);
  return {frame.Min, frame.Max};
}

Rect histogram(const HistogramSpec& spec) {
  const float height = spec.height > 0 ? spec.height : em(11);
  ImRect frame;
  bool hovered = false;
  if (!begin_plot(spec.id, height, frame, hovered)) return {frame.Min, frame.Max};
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const Palette& pal = palette();
  const float line_h = ImGui::GetTextLineHeight();
  uint32_t peak = 0, total = 0;
  for (uint32_t c : spec.counts) {
    peak = std::max(peak, c);
    total += c;
  }
  if (peak == 0 || !(spec.max > spec.min)) {
    dl->AddText(frame.Min, pal.text_muted, "No samples yet");
    return {frame.Min, frame.Max};
  }
  const ImRect plot(ImVec2(frame.Min.x + em(0.5f), frame.Min.y + line_h * 0.3f),
                    ImVec2(frame.Max.x - em(0.5f), frame.Max.y - line_h * 2.4f));
  const size_t n = spec.counts.size();
  const double bin_w = (spec.max - spec.min) / n;
  auto px = [&](double v) { return plot.Min.x + float((v - spec.min) / (spec.max - spec.min)) * plot.GetWidth(); };
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  int hover_bin = -1;
  for (size_t i = 0; i < n; ++i) {
    const double a = spec.min + i * bin_w, b = a + bin_w;
    const float h = float(spec.counts[i]) / peak * plot.GetHeight();
    const ImVec2 p0(px(a) + 1, plot.Max.y - h), p1(px(b) - 1, plot.Max.y);
    const ImU32 color = (a + b) * 0.5 < spec.split ? spec.below_color : spec.above_color;
    const bool over = hovered && mouse.x >= px(a) && mouse.x < px(b) && plot.Contains(mouse);
    if (over) hover_bin = static_cast<int>(i);
    dl->AddRectFilled(p0, p1, over ? with_alpha(color, 1.0f) : with_alpha(color, 0.85f));
  }
  dl->AddLine(plot.GetBL(), plot.GetBR(), pal.text_muted);
  if (spec.split > spec.min && spec.split < spec.max) {
    const float x = px(spec.split);
    dl->AddLine(ImVec2(x, plot.Min.y), ImVec2(x, plot.Max.y), pal.text, 1.5f);
  }
  for (double t : nice_ticks(spec.min, spec.max, 5)) {
    const float x = px(t);
    const std::string s = format(t, spec.unit);
    dl->AddLine(ImVec2(x, plot.Max.y), ImVec2(x, plot.Max.y + 4), pal.text_muted);
    dl->AddText(ImVec2(std::clamp(x - text_width(s) * 0.5f, frame.Min.x, frame.Max.x - text_width(s)), plot.Max.y + 4),
                pal.text_muted, s.c_str());
  }
  if (!spec.x_label.empty())
    dl->AddText(ImVec2(plot.GetCenter().x - text_width(spec.x_label) * 0.5f, plot.Max.y + line_h * 1.2f), pal.text_muted,
                spec.x_label.c_str());
  if (!spec.below_label.empty()) dl->AddText(ImVec2(plot.Min.x + 2, plot.Min.y), spec.below_color, spec.below_label.c_str());
  widget::note("histogram: below", spec.below_label, spec.below_color);
  widget::note("histogram: above", spec.above_label, spec.above_color);
  // The two labels share the top line when they fit, else the second goes below the first.
  const bool one_line = text_width(spec.below_label) + text_width(spec.above_label) + em(1) < plot.GetWidth();
  if (!spec.above_label.empty())
    dl->AddText(ImVec2(plot.Max.x - text_width(spec.above_label) - 2, plot.Min.y + (one_line ? 0 : line_h)), spec.above_color,
                spec.above_label.c_str());
  if (hover_bin >= 0) {
    const double a = spec.min + hover_bin * bin_w;
    const uint32_t c = spec.counts[static_cast<size_t>(hover_bin)];
    ImGui::BeginTooltip();
    ImGui::Text("%s to %s", fmt::usd(a).c_str(), fmt::usd(a + bin_w).c_str());
    ImGui::Text("%u samples (%s)", c, fmt::percent(double(c) / total).c_str());
    if (hover_bin == 0 || hover_bin + 1 == static_cast<int>(n)) ImGui::TextDisabled("the end bins also hold the tails");
    ImGui::EndTooltip();
  }
  return {frame.Min, frame.Max};
}

void legend(const std::vector<std::pair<std::string, ImU32>>& entries) {
  const float s = ImGui::GetTextLineHeight() * 0.75f;
  bool first = true;
  for (const auto& [label, color] : entries) {
    const float w = s + 4 + ImGui::CalcTextSize(label.c_str()).x;
    if (!first) {
      ImGui::SameLine(0, em(1));
      if (ImGui::GetContentRegionAvail().x < w) ImGui::NewLine();
    }
    first = false;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float off = (ImGui::GetTextLineHeight() - s) * 0.5f;
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + off), ImVec2(p.x + s, p.y + off + s), color, 2);
    ImGui::Dummy(ImVec2(s, ImGui::GetTextLineHeight()));
    ImGui::SameLine(0, 4);
    ImGui::TextUnformatted(label.c_str());
    widget::note("legend: " + label, label, color);
  }
}

}  // namespace traincost::web::chart
