#pragma once
// The cluster-size sweep chart of a workload (results tab); returns where it was drawn (for PNG).
#include "ui/charts.hpp"

namespace traincost::web {
class App;
chart::Rect draw_sweep_chart(App& app, unsigned long workload);
}  // namespace traincost::web
