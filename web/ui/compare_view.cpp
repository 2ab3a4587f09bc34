// The "By chip" tab: the selected workload's model and tokens on every instance and pricing of
// the catalog, the hardware alone (output/compare.hpp: the same rows and cells as `traincost
// compare`). Computed a few rows a slice while the tab is open (App::run_comparison). How the rows
// are sized and sorted is the tab's own choice (UiState), not the scenario's; "Use" puts a row
// into an option of the scenario.
#include <algorithm>
#include <iterator>

#include "app.hpp"
#include "imgui.h"
#include "traincost/api/builtin.hpp"
#include "traincost/api/edit.hpp"
#include "traincost/base/format.hpp"
#include "traincost/output/present.hpp"
#include "ui/panels.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace traincost::web {
namespace {

// The sizes offered: each instance sized to finish within kDefaultRunDays (0), or the fewest of
// it that hold at least this many chips, so that 1-GPU and 16-chip instances are compared on
// the same cluster.
constexpr double kChipCounts[] = {0, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096};

std::string size_name(double chips) {
  if (chips <= 0) return "Each sized to finish within " + fmt::number(kDefaultRunDays) + " days";
  return "At least " + fmt::counted(chips, "chip", "chips") + " each";
}

void size_and_order(App& app) {
  if (!widget::begin_form("compare-form", 6)) return;
  widget::row("Size");
  if (widget::begin_combo("##compare-size", "compare size", size_name(app.ui.compare_chips).c_str())) {
    for (double chips : kChipCounts)
      if (widget::selectable(size_name(chips).c_str(), chips == app.ui.compare_chips)) app.ui.compare_chips = chips;
    ImGui::EndCombo();
  }
  widget::row("Sort by");
  const char* shown = "";
  for (const auto& w : kCompareSortWords)
    if (w.value == app.ui.compare_sort) shown = w.description;
  if (widget::begin_combo("##compare-sort", "compare sort", shown)) {
    for (const auto& w : kCompareSortWords)
      if (widget::selectable(w.description, w.value == app.ui.compare_sort)) app.ui.compare_sort = w.value;
    ImGui::EndCombo();
  }
  widget::end_form();
}

// "Use": the row's instance, pricing and size into one of the scenario's options, or a new one.
void use_button(App& app, const CompareRow& row, size_t index) {
  const Catalog& c = builtin_catalog();
  ImGui::PushID(static_cast<int>(index));
  const bool open = widget::button("Use");
  widget::name_last("Use " + row.label);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Put this instance, pricing and size into an option of your scenario");
  if (open) ImGui::OpenPopup("use");
  if (ImGui::BeginPopup("use")) {
    const int instances = static_cast<int>(row.instances);
    for (size_t o = 0; o < app.scenario.options.size(); ++o) {
      Option& opt = app.scenario.options[o];
      const std::string item = "in option " + std::to_string(o + 1) + " (" + (opt.label.empty() ? automatic_label(opt, c) : opt.label) + ")";
      if (widget::selectable(item.c_str()) && edit::use_row(opt, c, row.instance, row.pricing, instances)) app.edited();
    }
    if (app.scenario.options.size() < static_cast<size_t>(kMaxOptions) && widget::selectable("as a new option")) {
      Option added;
      if (edit::use_row(added, c, row.instance, row.pricing, instances) && edit::add_option(app.scenario, added)) app.edited();
    }
    ImGui::EndPopup();
  }
  ImGui::PopID();
}

// The order the page shows the columns in (indices into compare_columns()): what a row costs and
// how long it takes right after the instance, in view without a sideways swipe even on a phone;
// the text mirror and the exports keep the CLI's order. Headers are the short ones; hovering one
// gives the full header and what it means.
constexpr int kShown[] = {0, 8, 7, 2, 4, 5, 6, 3, 9, 10, 1};

void comparison_table(App& app, const ChipComparison& comparison) {
  const Palette& pal = palette();
  const std::vector<CompareColumn>& columns = compare_columns();
  const int n = static_cast<int>(std::size(kShown));
  IM_ASSERT(columns.size() == std::size(kShown));
  // Eleven columns and some eighty rows fit no pane. Side by side with the inputs, the table is
  // as high as the pane and scrolls both ways with the instance and the header kept in view; in
  // one column (a phone) it is as high as its rows, so that the page scrolls, not a box in it.
  const ImGuiStyle& style = ImGui::GetStyle();
  ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit;
  float height = ImGui::GetTextLineHeight() + style.CellPadding.y * 2 +
                 static_cast<float>(comparison.rows.size()) * (ImGui::GetFrameHeight() + style.CellPadding.y * 2) + style.ScrollbarSize + 2;
  if (!app.ui.narrow) {
    flags |= ImGuiTableFlags_ScrollY;
    height = std::max(em(16), ImGui::GetContentRegionAvail().y - em(0.5f));
  }
  if (!ImGui::BeginTable("compare-table", n, flags, ImVec2(0, height))) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  for (int c : kShown) ImGui::TableSetupColumn(columns[static_cast<size_t>(c)].short_header);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int at = 0; at < n; ++at) {
    const CompareColumn& col = columns[static_cast<size_t>(kShown[at])];
    ImGui::TableSetColumnIndex(at);
    ImGui::TableHeader(col.short_header);
    widget::note(std::string("compare column: ") + col.short_header, col.short_header);
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(em(24));
      ImGui::TextUnformatted(col.header);
      ImGui::TextDisabled("%s", col.tip);
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
  }
  for (size_t r = 0; r < comparison.rows.size(); ++r) {
    const CompareRow& row = comparison.rows[r];
    const std::vector<std::string> cells = compare_cells(row);
    ImGui::TableNextRow();
    for (int at = 0; at < n; ++at) {
      ImGui::TableSetColumnIndex(at);
      // "Use" leads the instance's cell, so that it stays in view with it.
      if (at == 0) {
        if (row.feasible) use_button(app, row, r);
        else ImGui::Dummy(ImVec2(ImGui::CalcTextSize("Use").x + style.FramePadding.x * 2, ImGui::GetFrameHeight()));
        ImGui::SameLine();
      }
      ImGui::AlignTextToFramePadding();
      const std::string& cell = cells[static_cast<size_t>(kShown[at])];
      // A figure that rests on an estimate starts with the mark: shown in the warning colour, as
      // the results table shows its estimates; a row that cannot run is muted.
      const bool estimate = cell.rfind(kEstimateMark, 0) == 0;
      const ImU32 color = !row.feasible ? ImGui::GetColorU32(ImGuiCol_TextDisabled) : estimate ? pal.warn : 0;
      if (color) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color));
      ImGui::TextUnformatted(cell.c_str());
      if (color) ImGui::PopStyleColor();
      if (at == 0 && ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(em(26));
        ImGui::Text("%s, %s, %s", row.label.c_str(), row.provider.c_str(), row.region.c_str());
        for (const std::string& reason : row.reasons) ImGui::BulletText("%s", reason.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
      }
    }
  }
  ImGui::EndTable();
}

}  // namespace

void draw_chip_comparison(App& app) {
  const Derived& d = app.d;
  widget::wrapped("This workload's model and tokens on every instance and pricing of the catalog: the hardware alone, without porting or "
                  "other one-time costs, deadline or budget. Figures marked " +
                  std::string(kEstimateMark) + " rest on an estimate (hover an instance for why).");
  size_and_order(app);
  if (!d.comparison.has_result) {
    // The run starts after this frame on the tab's first opening: until then its row count is unknown.
    if (d.comparison.run) ImGui::TextDisabled("Comparing %s rows…", fmt::number(static_cast<double>(d.comparison.run->total())).c_str());
    else ImGui::TextDisabled("Comparing every instance and pricing of the catalog…");
    return;
  }
  const ChipComparison& c = d.comparison.result;
  const bool current = app.comparison_current();
  // The table before stays until the new one is done (the page does not collapse at each edit).
  std::string heading = c.workload + ", " + c.size;
  if (!current) heading += " (updating…)";
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  widget::wrapped(heading, 0, "compare heading");
  ImGui::PopStyleColor();
  widget::copy_button("Copy as CSV", comparison_csv(c));
  ImGui::SameLine();
  widget::copy_button("Copy as Markdown", comparison_markdown(c));
  comparison_table(app, c);
}

}  // namespace traincost::web
