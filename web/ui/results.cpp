// Results: the verdict first, then per-option figures (each expandable into its formulas), the
// cost-over-runs and cost-breakdown charts, and the portfolio; tabs for uncertainty and catalog.
//
// Index of this file (as imgui_demo.cpp's):
// [SECTION] The results table and its explanation
// [SECTION] Charts: cumulative cost, what one run costs
// [SECTION] The portfolio
// [SECTION] The verdict and its headline figures
// [SECTION] draw_results()
#include <algorithm>
#include <cmath>

#include "app.hpp"
#include "imgui.h"
#include "traincost/api/builtin.hpp"
#include "traincost/engine/cost_parts.hpp"
#include "traincost/output/explain.hpp"
#include "traincost/base/format.hpp"
#include "traincost/output/analysis_report.hpp"
#include "traincost/model/formulas.hpp"
#include "traincost/output/present.hpp"
#include "traincost/output/report.hpp"
#include "traincost/output/verdict.hpp"
#include "ui/charts.hpp"
#include "ui/panels.hpp"
#include "ui/price_age_view.hpp"
#include "ui/sweep_view.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace traincost::web {
namespace {

//-------------------------------------------------------------------------------------------------
// [SECTION] The results table and its explanation
//-------------------------------------------------------------------------------------------------

// A chart's title line with a PNG export button on the right.
void chart_title(App& app, const char* title, const char* file, chart::Rect& rect_out, bool draw_button = true) {
  ImGui::PushFont(fonts().strong);
  ImGui::TextUnformatted(title);
  ImGui::PopFont();
  if (!draw_button) return;
  ImGui::SameLine(ImGui::GetContentRegionAvail().x + ImGui::GetCursorPosX() - em(3));
  ImGui::PushID(file);
  const bool png = widget::small_button("PNG");
  widget::name_last(std::string("PNG ") + file);
  if (png) {
    app.ui.pending_png = file;
    const float pad = em(0.3f);
    app.ui.pending_png_rect[0] = rect_out.min.x - pad;
    app.ui.pending_png_rect[1] = rect_out.min.y - em(1.8f);
    app.ui.pending_png_rect[2] = rect_out.max.x - rect_out.min.x + 2 * pad;
    app.ui.pending_png_rect[3] = rect_out.max.y - rect_out.min.y + em(2.1f);
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Save this chart as a PNG image");
  ImGui::PopID();
}

// A header on two lines, split at the space that makes its wider line narrowest ("Compute
// $/M tok" -> "Compute\n$/M tok"); a header of one word stays as it is.
std::string two_lines(const char* header) {
  std::string text = header, best = header;
  float narrowest = ImGui::CalcTextSize(header).x;
  for (size_t at = text.find(' '); at != std::string::npos; at = text.find(' ', at + 1)) {
    std::string split = text;
    split[at] = '\n';
    const float width = ImGui::CalcTextSize(split.c_str()).x;  // the wider of the two lines
    if (width < narrowest) narrowest = width, best = split;
  }
  return best;
}

void results_table(App& app, size_t w) {
  const Derived& d = app.d;
  const WorkloadResult& wr = d.results.workloads[w];
  const Palette& pal = palette();
  const std::vector<ResultColumn>& columns = result_columns();
  const int n = static_cast<int>(columns.size());
  // Where the pane is too narrow for every column at its natural width, the headers take two
  // lines (a header is often wider than its figures); where that is still too wide, the table
  // scrolls sideways with the option's name kept in view, rather than squeezing figures.
  // The natural width: each column as wide as its header or its widest cell, plus padding.
  const ImGuiStyle& style = ImGui::GetStyle();
  // Each row's cells, formatted once per frame: measured here, drawn below.
  std::vector<std::vector<std::string>> row_cells;
  std::vector<EstimateFlags> row_estimates;
  for (size_t o = 0; o < wr.options.size(); ++o) {
    row_estimates.push_back(estimate_flags(d.scenario, d.resolved, w, o, builtin_catalog()));
    row_cells.push_back(result_cells(d.resolved.options[o].label, wr.options[o], row_estimates.back()));
  }
  std::vector<float> cell_widths(static_cast<size_t>(n), 0.0f);
  for (const std::vector<std::string>& cells : row_cells)
    for (int c = 0; c < n; ++c)
      cell_widths[static_cast<size_t>(c)] = std::max(cell_widths[static_cast<size_t>(c)], ImGui::CalcTextSize(cells[static_cast<size_t>(c)].c_str()).x);
  std::vector<std::string> headers(static_cast<size_t>(n));
  const auto natural_width = [&](bool wrapped) {
    float natural = ImGui::GetFrameHeight() + style.ItemSpacing.x;  // the explain arrow
    for (int c = 0; c < n; ++c) {
      const size_t i = static_cast<size_t>(c);
      headers[i] = wrapped ? two_lines(columns[i].short_header) : columns[i].short_header;
      natural += std::max(cell_widths[i], ImGui::CalcTextSize(headers[i].c_str()).x) + style.CellPadding.x * 2 + 1;
    }
    return natural;
  };
  const float avail = ImGui::GetContentRegionAvail().x;
  const bool scroll = natural_width(false) > avail && natural_width(true) > avail;  // leaves `headers` wrapped when one line is too wide
  ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH;
  ImVec2 size(0, 0);
  if (scroll) {
    flags |= ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit;
    float header_height = 0;
    for (const std::string& header : headers) header_height = std::max(header_height, ImGui::CalcTextSize(header.c_str()).y);
    size.y = header_height + style.CellPadding.y * 2 + wr.options.size() * (ImGui::GetFrameHeight() + style.CellPadding.y * 2) +
             style.ScrollbarSize + 2;
  } else {
    flags |= ImGuiTableFlags_SizingStretchProp;
  }
  // The order shown: where the table scrolls sideways (a phone), what the row costs and whether it
  // runs come right after the option, so they are in view without a swipe.
  std::vector<int> shown;
  if (scroll)
    for (ResultCol first : {ResultCol::Option, ResultCol::FullyLoaded, ResultCol::UsdPerMTokens, ResultCol::Status})
      shown.push_back(static_cast<int>(column_index(first)));
  for (int c = 0; c < n; ++c)
    if (std::find(shown.begin(), shown.end(), c) == shown.end()) shown.push_back(c);
  if (!ImGui::BeginTable("results-table", n, flags, size)) return;
  if (scroll) ImGui::TableSetupScrollFreeze(1, 1);
  // Short headers; each explains itself on hover.
  // Stretched in proportion to its natural width, each column gets at least that width when the
  // table fits (the option's name is never cut while the figures have room to spare).
  for (int c : shown) {
    const size_t i = static_cast<size_t>(c);
    const float weight = std::max(cell_widths[i], ImGui::CalcTextSize(headers[i].c_str()).x) +
                         (c == 0 ? ImGui::GetFrameHeight() + style.ItemSpacing.x : 0.0f);
    ImGui::TableSetupColumn(columns[i].short_header, scroll ? ImGuiTableColumnFlags_WidthFixed : ImGuiTableColumnFlags_WidthStretch,
                            scroll ? 0.0f : weight);
  }
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int at = 0; at < n; ++at) {
    const int c = shown[static_cast<size_t>(at)];
    ImGui::TableSetColumnIndex(at);
    const std::string& header = headers[static_cast<size_t>(c)];
    const bool header_fits = ImGui::CalcTextSize(header.c_str()).x <= ImGui::GetContentRegionAvail().x + 0.5f;
    ImGui::TableHeader((header + "##" + columns[static_cast<size_t>(c)].short_header).c_str());
    widget::note(std::string("column: ") + columns[static_cast<size_t>(c)].short_header, columns[static_cast<size_t>(c)].short_header, 0, header_fits);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", columns[static_cast<size_t>(c)].tip);
  }
  for (size_t o = 0; o < wr.options.size(); ++o) {
    const OptionResult& r = wr.options[o];
    const EstimateFlags& estimates = row_estimates[o];
    const std::vector<std::string>& cells = row_cells[o];
    const bool winner = wr.comparison.cheapest == static_cast<int>(o);
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::PushID(static_cast<int>(o));
    const bool open = app.ui.explain_option == static_cast<int>(o);
    if (ImGui::ArrowButton("explain", open ? ImGuiDir_Down : ImGuiDir_Right)) app.ui.explain_option = open ? -1 : static_cast<int>(o);
    widget::name_last(cells[0] + " explain");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Show how this row was computed: every formula with these numbers");
    ImGui::PopID();
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    if (winner) ImGui::PushFont(fonts().strong);
    ImGui::TextUnformatted(cells[0].c_str());
    if (winner) ImGui::PopFont();
    for (int at = 1; at < n; ++at) {
      const int c = shown[static_cast<size_t>(at)];
      const ResultCol column = static_cast<ResultCol>(c);
      ImGui::TableSetColumnIndex(at);
      ImGui::AlignTextToFramePadding();
      const bool total = column == ResultCol::FullyLoaded, status = column == ResultCol::Status;
      const bool strong = winner && total;
      ImU32 color = 0;
      if (strong) color = pal.good;
      if (status) color = r.feasible() ? pal.good : pal.bad;
      if (color) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color));
      if (strong) ImGui::PushFont(fonts().strong);
      const bool cell_fits = ImGui::CalcTextSize(cells[static_cast<size_t>(c)].c_str()).x <= ImGui::GetContentRegionAvail().x + 0.5f;
      ImGui::TextUnformatted(cells[static_cast<size_t>(c)].c_str());
      widget::note("cell: " + cells[0] + " / " + columns[static_cast<size_t>(c)].short_header, cells[static_cast<size_t>(c)], 0, cell_fits);
      if (strong) ImGui::PopFont();
      if (color) ImGui::PopStyleColor();
      if (!ImGui::IsItemHovered() || (!r.feasible() && !status)) continue;
      if (column_is_estimate(column, estimates)) {
        std::string why;
        for (const std::string& reason : estimates.reasons) why += "\n" + std::string(kEstimateMark) + " " + reason;
        ImGui::SetTooltip("Rests on an estimate:%s", why.c_str());
        continue;
      }
      switch (column) {
        case ResultCol::WallClock:
          ImGui::SetTooltip("%.1f hours: %.1f training at %s goodput + %.2g compiling", r.wall_clock_hours, r.training_hours,
                            fmt::percent(r.goodput).c_str(), r.wall_clock_hours - r.training_hours);
          break;
        case ResultCol::Hardware: ImGui::SetTooltip("%s", fmt::usd_exact(r.hardware_cost_per_run).c_str()); break;
        case ResultCol::OneTime:
          ImGui::SetTooltip("Porting %s + validation %s (paid once, spread over the runs)", fmt::usd_exact(r.porting_cost).c_str(),
                            fmt::usd_exact(r.validation_cost).c_str());
          break;
        case ResultCol::FullyLoaded: ImGui::SetTooltip("%s per run, all costs included", fmt::usd_exact(r.cost_per_run).c_str()); break;
        default:
          if (status) ImGui::SetTooltip("%s", status_detail(r).c_str());
      }
    }
  }
  ImGui::EndTable();
  draw_estimate_footnote(app, w);
}

void explain_block(App& app, size_t w) {
  const int o = app.ui.explain_option;
  const Derived& d = app.d;
  if (o < 0 || o >= static_cast<int>(d.results.workloads[w].options.size())) return;
  const size_t oi = static_cast<size_t>(o);
  ImGui::PushFont(fonts().strong);
  ImGui::Text("How %s was computed", d.resolved.options[oi].label.c_str());
  ImGui::PopFont();
  ImGui::SameLine();
  ImGui::TextDisabled("(the same steps as `traincost explain`)");
  const std::vector<ExplainStep> steps =
      explain_pair(d.resolved.workloads[w], d.resolved.workloads[w].options[oi], d.results.workloads[w].options[oi], d.results.workloads[w].target_tokens,
                   *d.resolved.catalog);
  if (ImGui::BeginTable("explain", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_BordersInnerH)) {
    ImGui::TableSetupColumn("Quantity", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn("Formula", ImGuiTableColumnFlags_WidthStretch, 1.4f);
    ImGui::TableSetupColumn("With your numbers", ImGuiTableColumnFlags_WidthStretch, 2.2f);
    ImGui::TableHeadersRow();
    // Wrapped at spaces only, so that a number never breaks after its decimal point.
    for (const ExplainStep& s : steps) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      widget::wrapped(s.quantity);
      ImGui::TableSetColumnIndex(1);
      widget::wrapped(s.formula);
      ImGui::TableSetColumnIndex(2);
      widget::wrapped(s.substituted + " " + s.result);
    }
    ImGui::EndTable();
  }
}

}  // namespace

//-------------------------------------------------------------------------------------------------
// [SECTION] Charts: cumulative cost, what one run costs
//-------------------------------------------------------------------------------------------------

void draw_cumulative_chart(App& app, unsigned long w, float height) {
  const Derived& d = app.d;
  const WorkloadResult& wr = d.results.workloads[w];
  const Palette& pal = palette();
  const double runs = d.resolved.workloads[w].runs;
  double last = std::max({10.0, std::ceil(runs * 2)});
  const Comparison& c = wr.comparison;
  if (c.breakeven.kind == BreakevenKind::AtRuns || c.breakeven.kind == BreakevenKind::UntilRuns)
    last = std::max(last, std::ceil(c.breakeven.runs * 1.6));
  last = std::min(last, 10000.0);
  chart::LineChartSpec spec;
  spec.id = "cumulative";
  spec.height = height;
  spec.x_label = "runs of the recipe";
  for (size_t o = 0; o < wr.options.size(); ++o) {
    const OptionResult& r = wr.options[o];
    if (!r.feasible()) continue;
    chart::Line line;
    line.label = d.resolved.options[o].label;
    line.color = pal.series[o % 6];
    const int points = 120;
    for (int k = 0; k <= points; ++k) {
      const double n = 1 + (last - 1) * k / points;
      line.x.push_back(n);
      line.y.push_back(cumulative_cost(r.fixed_cost, r.per_run_cost, n));
    }
    spec.lines.push_back(line);
  }
  if (c.cheapest >= 0 && c.runner_up >= 0 &&
      (c.breakeven.kind == BreakevenKind::AtRuns || c.breakeven.kind == BreakevenKind::UntilRuns)) {
    const OptionResult& a = wr.options[static_cast<size_t>(c.cheapest)];
    const double n = c.breakeven.runs;
    spec.markers.push_back({n, cumulative_cost(a.fixed_cost, a.per_run_cost, n), "break-even at " + fmt::number(n, 3) + " runs", pal.warn});
  }
  spec.guides.push_back({runs, "expected: " + fmt::number(runs)});
  chart::Rect& rect = app.ui.embed ? app.ui.embed_cumulative_rect : app.ui.cumulative_rect;
  chart_title(app, "Cumulative cost over runs", "traincost-cumulative-cost.png", rect);
  rect = chart::line_chart(spec);
  std::vector<std::pair<std::string, ImU32>> legend;
  for (const chart::Line& l : spec.lines) legend.push_back({l.label, l.color});
  chart::legend(legend);
}

namespace {

void breakdown_chart(App& app, size_t w) {
  const Derived& d = app.d;
  const WorkloadResult& wr = d.results.workloads[w];
  const Palette& pal = palette();
  chart::StackedBarSpec spec;
  spec.id = "breakdown";
  static_assert(std::size(Palette{}.stack) >= kCostPartCount, "the theme needs a colour for every cost part");
  for (size_t i = 0; i < kCostPartCount; ++i) spec.segments.push_back({kCostParts[i].label, pal.stack[i]});
  for (size_t o = 0; o < wr.options.size(); ++o) {
    const CostBreakdown b = breakdown(wr.options[o], d.resolved.workloads[w].runs);
    spec.bars.push_back(d.resolved.options[o].label);
    spec.values.push_back(std::vector<double>(b.begin(), b.end()));
  }
  chart::Rect& rect = app.ui.breakdown_rect;
  chart_title(app, "What one run costs", "traincost-cost-per-run.png", rect);
  rect = chart::stacked_bars(spec);
  std::vector<std::pair<std::string, ImU32>> legend;
  for (const chart::Segment& s : spec.segments) legend.push_back({s.label, s.color});
  chart::legend(legend);
}

//-------------------------------------------------------------------------------------------------
// [SECTION] The portfolio
//-------------------------------------------------------------------------------------------------

void portfolio_table(App& app) {
  const Derived& d = app.d;
  const size_t nw = d.results.workloads.size(), no = d.resolved.options.size();
  ImGui::PushFont(fonts().strong);
  ImGui::TextUnformatted("Portfolio: a year of all workloads");
  ImGui::PopFont();
  if (nw < 2) {
    ImGui::TextDisabled("Add a workload (the + tab) to decide per workload across a portfolio.");
    return;
  }
  ImGui::TextWrapped("%s", portfolio_verdict(d.resolved, d.results).c_str());
  if (!widget::begin_wide_table("portfolio", static_cast<int>(no) + 2, static_cast<int>(nw) + 1, app.ui.compact,
                                ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH))
    return;
  ImGui::TableSetupColumn("Workload");
  ImGui::TableSetupColumn("Pick");
  for (size_t o = 0; o < no; ++o) ImGui::TableSetupColumn(("All on " + d.resolved.options[o].label).c_str());
  ImGui::TableHeadersRow();
  for (size_t w = 0; w < nw; ++w) {
    const WorkloadResult& wr = d.results.workloads[w];
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(workload_title(d.scenario.workloads[w], w).c_str());
    ImGui::TableSetColumnIndex(1);
    const int best = wr.comparison.cheapest;
    ImGui::TextUnformatted(best >= 0 ? d.resolved.options[static_cast<size_t>(best)].label.c_str() : "none");
    for (size_t o = 0; o < no; ++o) {
      ImGui::TableSetColumnIndex(static_cast<int>(o) + 2);
      const OptionResult& r = wr.options[o];
      if (r.feasible()) ImGui::Text("%s/yr", fmt::usd(r.annual_cost).c_str());
      else ImGui::TextDisabled("cannot run");
    }
  }
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::PushFont(fonts().strong);
  ImGui::TextUnformatted("Total per year");
  ImGui::TableSetColumnIndex(1);
  ImGui::Text("%s", fmt::usd(d.results.portfolio.best_mix_annual).c_str());
  for (size_t o = 0; o < no; ++o) {
    ImGui::TableSetColumnIndex(static_cast<int>(o) + 2);
    if (d.results.portfolio.single_option_feasible[o]) ImGui::Text("%s", fmt::usd(d.results.portfolio.single_option_annual[o]).c_str());
    else ImGui::TextDisabled("not all run");
  }
  ImGui::PopFont();
  ImGui::EndTable();
}

}  // namespace

//-------------------------------------------------------------------------------------------------
// [SECTION] The verdict and its headline figures
//-------------------------------------------------------------------------------------------------

void draw_estimate_footnote(App& app, unsigned long w) {
  const Derived& d = app.d;
  const std::string note = estimate_footnote(d.scenario, d.resolved, w, builtin_catalog());
  // Beside the planned figures, the run as published runs realized (the CLI's line under its table).
  const std::string realized = as_realized_line(d.scenario, d.resolved, d.results, w);
  if (note.empty() && realized.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  if (!note.empty()) widget::wrapped(note);
  if (!realized.empty()) widget::wrapped(realized, 0, "as realized");
  ImGui::PopStyleColor();
}

std::string progress_text(const App& app) {
  const double p = app.analysis_progress();
  return p > 0 ? " " + fmt::percent(p) : "";
}

void draw_verdict_sentence(App& app, unsigned long w) {
  ImGui::PushFont(fonts().heading);
  widget::wrapped(workload_verdict(app.d.resolved, app.d.results, w), 0, "verdict");
  ImGui::PopFont();
  // The most decisive threshold: what would have to change for the answer to flip.
  if (w < app.d.thresholds.size()) {
    const std::string holds = holds_while(app.d.resolved, app.d.thresholds[w]);
    if (!holds.empty()) widget::wrapped(holds, 0, "holds while");
  }
  for (const std::string& warning : schedule_warnings(app.d, w)) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(palette().warn));
    widget::wrapped(warning, 0, "schedule warning");
    ImGui::PopStyleColor();
  }
}

void draw_headline_figures(App& app, unsigned long w) {
  const Derived& d = app.d;
  const Palette& pal = palette();
  const WorkloadResult& wr = d.results.workloads[w];
  if (wr.comparison.cheapest < 0) return;
  const size_t best = static_cast<size_t>(wr.comparison.cheapest);
  const EstimateFlags estimates = estimate_flags(d.scenario, d.resolved, w, best, builtin_catalog());
  const bool estimated = column_is_estimate(ResultCol::FullyLoaded, estimates);
  ImGui::PushFont(fonts().figure);
  const std::string figure = (estimated ? std::string(kEstimateMark) : std::string()) + fmt::usd(wr.options[best].cost_per_run);
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.good), "%s", figure.c_str());
  widget::note("headline figure", figure);
  ImGui::PopFont();
  if (estimated && ImGui::IsItemHovered()) {
    std::string why;
    for (const std::string& reason : estimates.reasons) why += "\n" + std::string(kEstimateMark) + " " + reason;
    ImGui::SetTooltip("Rests on an estimate:%s", why.c_str());
  }
  ImGui::SameLine();
  ImGui::AlignTextToFramePadding();
  widget::wrapped("per run on " + d.resolved.options[best].label + ", fully loaded (point estimate)");
  // The Monte Carlo's own answer beside it: median and 90% range of the same figure, and how
  // often the option is cheapest (from the last analysis while a new one runs).
  if (analysis_usable(d) && d.analysis.result.workload == w) {
    const OptionStats& st = d.analysis.result.monte_carlo.options[best];
    const std::string on_time = st.deadline_days > 0 ? "; " + on_time_text(st) : "";
    const std::string line = "Monte Carlo: " + median_range_text(st.cost_per_run, st) + "; cheapest in " +
                             fmt::percent(st.probability_cheapest) + " of " + fmt::number(d.analysis.result.monte_carlo.samples) +
                             " simulated futures" + on_time + (d.analysis.ready ? "" : " (updating…)");
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    widget::wrapped(line, 0, "monte carlo");
    ImGui::PopStyleColor();
    // The headline follows the point estimates; when most futures favour another option, the
    // reader learns it here, in the warning's colour, not only from a percentage.
    if (const std::string doubt = analysis_doubt(d, w); !doubt.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.warn));
      widget::wrapped(doubt, 0, "less likely verdict");
      ImGui::PopStyleColor();
    }
  } else {
    ImGui::TextDisabled("Monte Carlo: simulating…%s", progress_text(app).c_str());
  }
}

void draw_verdict(App& app) {
  const Derived& d = app.d;
  const Palette& pal = palette();
  if (!d.valid) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.bad));
    ImGui::TextWrapped("Some inputs need fixing; the results below are for your last valid scenario:");
    for (size_t i = 0; i < d.problems.size() && i < 5; ++i) ImGui::BulletText("%s", to_string(d.problems[i]).c_str());
    ImGui::PopStyleColor();
    ImGui::Spacing();
  }
  // The base evaluation of an edit runs a slice per task (a heavy scenario's deadline searches
  // take seconds): the results of the scenario before stay until it is done.
  if (app.base_updating()) {
    const double p = d.base.progress();
    const std::string share = p > 0 ? " " + fmt::percent(p) : "";
    if (d.results.workloads.empty()) ImGui::TextDisabled("Evaluating the scenario…%s", share.c_str());
    else ImGui::TextDisabled("Updating the results…%s (those below are of the scenario before)", share.c_str());
  }
  if (d.results.workloads.empty()) return;
  const size_t w = app.selected_workload();
  if (d.results.workloads.size() > 1) {
    ImGui::TextDisabled("%s", workload_title(d.scenario.workloads[w], w).c_str());
  }
  draw_verdict_sentence(app, w);
  draw_headline_figures(app, w);
  ImGui::Spacing();
}

//-------------------------------------------------------------------------------------------------
// [SECTION] draw_results()
//-------------------------------------------------------------------------------------------------

void draw_results(App& app) {
  const Derived& d = app.d;
  if (d.results.workloads.empty()) return;
  const size_t w = app.selected_workload();
  if (ImGui::BeginTabBar("result-tabs")) {
    // In the order shown; each with its UiState::results_tab number.
    const char* names[] = {"Results", "How sure?", "Thresholds & pilot", "By chip", "Catalog"};
    const int tabs[] = {0, 1, kPilotTab, kChipsTab, 2};
    for (int k = 0; k < 5; ++k) {
      if (ImGui::BeginTabItem(names[k])) {
        app.ui.results_tab = tabs[k];
        ImGui::EndTabItem();
      }
    }
    ImGui::EndTabBar();
  }
  if (app.ui.results_tab == 1) {
    draw_uncertainty(app);
    return;
  }
  if (app.ui.results_tab == 2) {
    draw_catalog(app);
    return;
  }
  if (app.ui.results_tab == kPilotTab) {
    draw_pilot(app);
    return;
  }
  if (app.ui.results_tab == kChipsTab) {
    draw_chip_comparison(app);
    return;
  }
  results_table(app, w);
  draw_price_age(app);
  explain_block(app, w);
  ImGui::Spacing();
  draw_cumulative_chart(app, w, 0);
  ImGui::Spacing();
  chart_title(app, "Cost and time by cluster size", "traincost-cluster-sizes.png", app.ui.sweep_rect);
  app.ui.sweep_rect = draw_sweep_chart(app, w);
  ImGui::Spacing();
  breakdown_chart(app, w);
  ImGui::Spacing();
  portfolio_table(app);
  ImGui::Dummy(ImVec2(0, em(1)));
}

}  // namespace traincost::web
