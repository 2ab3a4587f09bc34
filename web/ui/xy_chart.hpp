#pragma once
// A chart of points joined by lines over two numeric axes (cost against days, one series per
// option), each axis linear or logarithmic. Unlike line_chart (a function of x, read at the
// cursor), its series may run in any direction, so hovering picks the nearest point and shows
// that point's own lines of text.
#include <string>
#include <vector>

#include "ui/charts.hpp"

namespace traincost::web::chart {

enum class Scale { Auto, Linear, Log };  // Auto: logarithmic when the data span a factor of 5 or more

struct XYSeries {
  std::string label;
  ImU32 color = 0;
  std::vector<double> x, y;             // one entry per point, drawn in this order
  std::vector<std::string> tips;        // per point: the tooltip's lines, '\n'-separated
  std::vector<std::string> names;       // per point (optional): its name in the item registry, so
                                        // that tests find a point (and hover it) by name
  std::vector<bool> hollow;             // per point (optional): an open circle (a point that misses a limit)
  int emphasized = -1;                  // a point drawn larger (the size the results use)
};

struct XYChartSpec {
  const char* id = "xy";
  float height = 0;  // 0: 16 em
  Unit x_unit = Unit::Days, y_unit = Unit::Usd;
  Scale x_scale = Scale::Auto, y_scale = Scale::Auto;
  std::string x_label;
  std::vector<XYSeries> series;
  std::vector<Guide> guides;  // vertical lines; the x range widens to show them
};

// Draws the chart; the axes it chose are reported for the page's text mirror and tests.
struct XYChartResult {
  Rect rect;
  bool log_x = false, log_y = false;
};
XYChartResult xy_chart(const XYChartSpec& spec);

}  // namespace traincost::web::chart
