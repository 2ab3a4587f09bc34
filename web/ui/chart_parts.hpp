#pragma once
// The pieces every chart widget is built from (charts.cpp defines them): a chart reserves its
// rectangle as one ImGui item, measures its labels and draws reference lines the same way, so
// each new chart file uses these rather than a copy of its own.
#include <string>

#include "imgui.h"
#include "imgui_internal.h"

namespace traincost::web::chart {

// Reserves a rectangle of the available width and `height` as one ImGui item named
// "chart: <id>" in the item registry; false when it is clipped (nothing to draw).
bool begin_plot(const char* id, float height, ImRect& frame, bool& hovered);
float text_width(const std::string& s);
void dashed_vline(ImDrawList* dl, float x, float y0, float y1, ImU32 color);

}  // namespace traincost::web::chart
