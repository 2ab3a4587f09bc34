#pragma once
// Reusable chart widgets drawn with ImDrawList (ImPlot is not packaged here): a line chart with
// markers, stacked bars, a tornado and a histogram. Each lays itself out as one ImGui item, shows
// exact values in a tooltip on hover, formats its axes with units ($1.2M, 3.4 days, 2.1×), and
// returns its screen rectangle so the page can save it as a PNG.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "imgui.h"

namespace traincost::web::chart {

enum class Unit { Usd, Hours, Days, Seconds, Runs, Count, Percent, Ratio, Plain };
std::string format(double value, Unit unit);  // axis and tooltip text

// Round tick values covering [min, max], about `count` of them.
std::vector<double> nice_ticks(double min, double max, int count);
// Ticks for a logarithmic axis over [min, max] (min > 0): 1, 2, 3, 5 × 10^k, thinned to about `count`.
std::vector<double> log_ticks(double min, double max, int count);

struct Rect {
  ImVec2 min, max;
};

struct Line {
  std::string label;
  ImU32 color = 0;
  std::vector<double> x, y;
};
struct Marker {
  double x = 0, y = 0;
  std::string text;
  ImU32 color = 0;
};
struct Guide {  // a vertical reference line ("expected runs")
  double x = 0;
  std::string text;
};
struct LineChartSpec {
  const char* id = "line";
  float height = 0;  // 0: 16 em
  Unit x_unit = Unit::Runs, y_unit = Unit::Usd;
  std::string x_label, y_label;
  std::vector<Line> lines;
  std::vector<Marker> markers;
  std::vector<Guide> guides;
};
Rect line_chart(const LineChartSpec& spec);

struct Segment {
  std::string label;
  ImU32 color = 0;
};
struct StackedBarSpec {
  const char* id = "bars";
  Unit unit = Unit::Usd;
  std::vector<std::string> bars;            // one per option
  std::vector<Segment> segments;            // stack parts, bottom-up (left-right: bars are horizontal)
  std::vector<std::vector<double>> values;  // [bar][segment]
};
Rect stacked_bars(const StackedBarSpec& spec);

// One thin bar split into parts, each as wide as its share of the whole (where an option's step
// time goes), with every part's value and share on hover. Parts of 0 take no room.
struct ShareBarSpec {
  const char* id = "share";
  Unit unit = Unit::Seconds;
  std::vector<Segment> segments;
  std::vector<double> values;  // one per segment
};
Rect share_bar(const ShareBarSpec& spec);

struct TornadoRow {
  std::string label;
  std::string low_text, high_text;  // the input's values at each end
  double at_low = 0, at_high = 0;   // the metric there
  bool default_range = false;
  // The input's value at which the answer flips ("flips at 0.252"), written at the row's right end;
  // "" when none. When it lies within the input's range, the bar crosses `flip_at` there: marked.
  std::string flip_text;
  bool flip_in_range = false;
};
struct TornadoSpec {
  const char* id = "tornado";
  Unit unit = Unit::Usd;
  double base = 0;
  std::string metric_label;
  std::vector<TornadoRow> rows;  // largest swing first
  double flip_at = NAN;          // the metric's value where the answer flips (a lead of 0); NaN: none
};
Rect tornado(const TornadoSpec& spec);

struct HistogramSpec {
  const char* id = "histogram";
  float height = 0;
  Unit unit = Unit::Usd;
  std::vector<uint32_t> counts;
  double min = 0, max = 0;
  double split = 0;                 // bins above it in `above_color`, below in `below_color`
  ImU32 below_color = 0, above_color = 0;
  std::string below_label, above_label, x_label;
};
Rect histogram(const HistogramSpec& spec);

// A row of coloured swatches with labels.
void legend(const std::vector<std::pair<std::string, ImU32>>& entries);

}  // namespace traincost::web::chart
