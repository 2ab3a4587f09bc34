// "How sure?": Monte Carlo probabilities, the distribution of the lead, the tornado of
// sensitivities, and the ranges they come from (the scenario's own and TrainCost's defaults).
#include <algorithm>
#include <cmath>

#include "app.hpp"
#include "imgui.h"
#include "traincost/api/builtin.hpp"
#include "traincost/api/edit.hpp"
#include "traincost/base/format.hpp"
#include "traincost/output/analysis_report.hpp"
#include "traincost/output/present.hpp"
#include "traincost/scenario/inputs.hpp"
#include "traincost/output/report.hpp"
#include "ui/charts.hpp"
#include "ui/panels.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace traincost::web {
namespace {

std::string runs_text(double runs) {
  if (std::isnan(runs)) return "n/a";
  if (std::isinf(runs)) return "never";
  return fmt::number(runs, 3);
}

std::string input_value_text(const RangedInput& in, double v) { return field_value_text(*in.ref.kind->spec, v); }

void probability_table(App& app) {
  const Derived& d = app.d;
  const MonteCarlo& mc = d.analysis.result.monte_carlo;
  const bool sideways = app.ui.compact;
  if (!widget::begin_wide_table("probabilities", 5, static_cast<int>(mc.options.size()), sideways,
                                ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH))
    return;
  const ImGuiTableColumnFlags stretch = sideways ? ImGuiTableColumnFlags_WidthFixed : ImGuiTableColumnFlags_WidthStretch;
  ImGui::TableSetupColumn("Option", stretch, sideways ? 0.0f : 2.0f);
  ImGui::TableSetupColumn("Cheapest", sideways ? ImGuiTableColumnFlags_WidthFixed : 0, sideways ? em(5) : 0.0f);
  ImGui::TableSetupColumn("All workloads");
  ImGui::TableSetupColumn("Per run, 90% range", stretch, sideways ? 0.0f : 2.0f);
  ImGui::TableSetupColumn("Median");
  ImGui::TableHeadersRow();
  for (size_t o = 0; o < mc.options.size(); ++o) {
    const OptionStats& st = mc.options[o];
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(d.resolved.options[o].label.c_str());
    if (st.deadline_days > 0) ImGui::TextDisabled("%s", on_time_text(st).c_str());  // "on time for the 14-day deadline in 80% of futures"
    ImGui::TableSetColumnIndex(1);
    ImGui::ProgressBar(static_cast<float>(st.probability_cheapest), ImVec2(-FLT_MIN, 0), fmt::percent(st.probability_cheapest).c_str());
    ImGui::TableSetColumnIndex(2);
    ImGui::TextUnformatted(fmt::percent(st.probability_cheapest_horizon).c_str());
    ImGui::TableSetColumnIndex(3);
    ImGui::TextWrapped("%s", range_text(st.cost_per_run.p5, st.cost_per_run.p95, st).c_str());
    ImGui::TableSetColumnIndex(4);
    ImGui::TextWrapped("%s", percentile_text(st.cost_per_run.p50, st).c_str());
  }
  ImGui::EndTable();
}

// The ranges behind the analysis: explicit ones editable, default ones adoptable.
void ranges_editor(App& app) {
  Scenario& s = app.scenario;
  bool changed = false;
  ImGui::PushFont(fonts().strong);
  ImGui::TextUnformatted("Ranges");
  ImGui::PopFont();
  ImGui::SameLine();
  ImGui::TextDisabled("what is uncertain, and how much");
  if (widget::checkbox("Add default ranges for the guesses (MFU, porting effort, convergence, runs, estimated prices)",
                      &s.analysis.default_ranges))
    changed = true;
  const std::vector<RangedInput>& inputs = app.d.analysis.result.inputs;
  int range_rows = static_cast<int>(s.ranges.size());
  for (const RangedInput& in : inputs) range_rows += in.default_range ? 1 : 0;
  const bool sideways = app.ui.compact;
  if (widget::begin_wide_table("ranges", 5, range_rows, sideways, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("Input", ImGuiTableColumnFlags_WidthStretch, 2.4f);
    ImGui::TableSetupColumn("Distribution", ImGuiTableColumnFlags_WidthStretch, 1.4f);
    ImGui::TableSetupColumn("Low", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn("High", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthStretch, 0.8f);
    ImGui::TableHeadersRow();
    int remove = -1;
    for (size_t i = 0; i < s.ranges.size(); ++i) {
      Range& r = s.ranges[i];
      const auto ref = parse_input_path(r.input);
      if (!ref) continue;
      Scope scope(app.items, "ranges", static_cast<int>(i));
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::AlignTextToFramePadding();
      std::string label = r.input;
      for (const RangedInput& in : inputs)
        if (in.path == r.input) label = in.label;
      ImGui::TextUnformatted(label.c_str());
      ImGui::TableSetColumnIndex(1);
      ImGui::SetNextItemWidth(-FLT_MIN);
      if (widget::begin_combo("##dist", widget::scoped("dist"), description_of(kDistributionWords, r.dist))) {
        for (const EnumWord<Distribution>& d : kDistributionWords)
          if (widget::selectable(d.description, r.dist == d.value)) {
            r.dist = d.value;
            changed = true;
          }
        ImGui::EndCombo();
      }
      ImGui::TableSetColumnIndex(2);
      ImGui::PushID("low");
      changed |= widget::number(r.low, *ref->kind->spec, widget::scoped("low").c_str());
      ImGui::PopID();
      ImGui::TableSetColumnIndex(3);
      ImGui::PushID("high");
      changed |= widget::number(r.high, *ref->kind->spec, widget::scoped("high").c_str());
      ImGui::PopID();
      ImGui::TableSetColumnIndex(4);
      if (widget::small_button("Remove")) remove = static_cast<int>(i);
    }
    if (remove >= 0) changed |= edit::remove_range(s, remove);
    for (size_t i = 0; i < inputs.size(); ++i) {
      const RangedInput& in = inputs[i];
      if (!in.default_range) continue;
      ImGui::PushID(static_cast<int>(1000 + i));
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::AlignTextToFramePadding();
      ImGui::TextDisabled("%s", in.label.c_str());
      ImGui::TableSetColumnIndex(1);
      ImGui::TextDisabled("%s (default)", to_string(in.dist));
      ImGui::TableSetColumnIndex(2);
      ImGui::TextDisabled("%s", input_value_text(in, in.low).c_str());
      ImGui::TableSetColumnIndex(3);
      ImGui::TextDisabled("%s", input_value_text(in, in.high).c_str());
      ImGui::TableSetColumnIndex(4);
      const bool adopt = widget::small_button("Edit");
      widget::name_last("Edit range " + in.path);
      if (adopt) changed |= edit::add_range(s, Range{in.path, in.low, in.high, in.dist});
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Make this range your own (it then travels with the link)");
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
  // Add a range on any numeric input of the scenario.
  ImGui::SetNextItemWidth(em(16));
  if (widget::begin_combo("##add-range", "Add a range on…", "Add a range on…", ImGuiComboFlags_HeightLarge)) {
    for (const InputKind& kind : rangeable_inputs()) {
      const size_t count = kind.scope == InputScope::Workload ? s.workloads.size() : s.options.size();
      for (size_t i = 0; i < count; ++i) {
        const std::string path = InputRef{&kind, static_cast<int>(i)}.path();
        bool taken = false;
        for (const Range& r : s.ranges) taken = taken || r.input == path;
        if (taken) continue;
        const std::string item = input_title(s, InputRef{&kind, static_cast<int>(i)}, builtin_catalog()) + "##" + path;
        widget::name_id(item.c_str(), "range on " + path);
        if (ImGui::Selectable(item.c_str()))
          changed |= edit::add_range(s, path, input_value(s, app.d.resolved, builtin_catalog(), InputRef{&kind, static_cast<int>(i)}));
      }
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  widget::next_width(em(7));
  double samples = s.analysis.samples;
  if (widget::number(samples, fields::samples)) {
    s.analysis.samples = static_cast<int>(samples);
    changed = true;
  }
  ImGui::SameLine();
  ImGui::TextDisabled("samples, seed");
  ImGui::SameLine();
  widget::next_width(em(6));
  double seed = static_cast<double>(s.analysis.seed);
  if (widget::number(seed, fields::seed)) {
    s.analysis.seed = static_cast<unsigned long long>(seed);
    changed = true;
  }
  if (changed) app.edited();
}

// Thresholds on the tornado. The tornado is in cost terms (the leader's lead per run) and every
// threshold is, by definition, the input value where that lead is 0: placed on this axis, all of
// them would sit on one point. So the chart draws that point once as the flip line, marks each bar
// that crosses it (its threshold lies within the input's range), and labels each row with its
// threshold in the input's own units, as the row's low and high ends are shown ("flips at 0.252"),
// which also tells of thresholds outside the range, that no bar reaches. Only for the pair the
// thresholds are of (the analysis's leader and runner-up are the comparison's).
void mark_threshold(const Derived& d, const Analysis& a, const SensitivityRow& row, const RangedInput* in, chart::TornadoRow& out) {
  if (!in || a.workload >= d.thresholds.size() || a.workload >= d.results.workloads.size()) return;
  const Comparison& c = d.results.workloads[a.workload].comparison;
  if (a.leader != c.cheapest || a.runner_up != c.runner_up) return;
  for (const Threshold& t : d.thresholds[a.workload]) {
    if (t.path != row.input || !t.flips) continue;
    out.flip_text = "flips at " + input_value_text(*in, t.value);
    out.flip_in_range = t.value >= std::min(row.low_value, row.high_value) && t.value <= std::max(row.low_value, row.high_value);
  }
}

}  // namespace

void draw_uncertainty(App& app) {
  const Derived& d = app.d;
  const Palette& pal = palette();
  if (!analysis_usable(d)) {
    ImGui::TextDisabled("Simulating %s futures…%s", fmt::number(d.scenario.analysis.samples).c_str(), progress_text(app).c_str());
    ranges_editor(app);
    return;
  }
  // While a new simulation runs, the last one stays on screen (the pane keeps its place).
  const Analysis& a = d.analysis.result;
  const MonteCarlo& mc = a.monte_carlo;
  // One paragraph whether or not a new simulation is running, so the pane below never moves.
  widget::wrapped("Every ranged input below is drawn at random, " + fmt::number(mc.samples) + " times (seed " + std::to_string(mc.seed) +
                  "), and the whole model recomputed. " +
                  (d.analysis.ready ? "Computed in " + fmt::number(std::round(d.analysis.last_ms)) + " ms in your browser."
                                    : std::string("Updating for your last edit…")));
  probability_table(app);
  if (a.challenger >= 0 && a.leader >= 0 && a.runner_up >= 0) {
    const std::string challenger = d.resolved.options[static_cast<size_t>(a.challenger)].label;
    if (a.challenger_one_time_usd > 0)  // else neither has one-time costs: no payback to state
      ImGui::TextWrapped("Runs until %s's one-time costs pay off: P5 %s, median %s, P95 %s. "
                       "It pays off within the expected runs in %s of the futures.",
                       challenger.c_str(), runs_text(mc.breakeven_runs.p5).c_str(), runs_text(mc.breakeven_runs.p50).c_str(),
                       runs_text(mc.breakeven_runs.p95).c_str(), fmt::percent(mc.probability_pays_off).c_str());
    const std::string leader = d.resolved.options[static_cast<size_t>(a.leader)].label;
    const std::string runner = d.resolved.options[static_cast<size_t>(a.runner_up)].label;
    ImGui::Spacing();
    ImGui::PushFont(fonts().strong);
    widget::wrapped("How much " + leader + " saves per run over " + runner);
    ImGui::PopFont();
    chart::HistogramSpec h;
    h.counts = mc.difference.counts;
    h.min = mc.difference.min;
    h.max = mc.difference.max;
    h.split = 0;
    h.below_color = pal.series[static_cast<size_t>(a.runner_up) % 6];
    h.above_color = pal.series[static_cast<size_t>(a.leader) % 6];
    const double p_leader = a.leader < static_cast<int>(mc.options.size()) ? mc.options[static_cast<size_t>(a.leader)].probability_cheapest : 0;
    const double p_runner = a.runner_up < static_cast<int>(mc.options.size()) ? mc.options[static_cast<size_t>(a.runner_up)].probability_cheapest : 0;
    h.below_label = runner + " cheaper: " + fmt::percent(p_runner);
    h.above_label = leader + " cheaper: " + fmt::percent(p_leader);
    h.x_label = "cost per run of " + runner + " minus " + leader;
    chart::Rect& hist_rect = app.ui.histogram_rect;
    hist_rect = chart::histogram(h);
    const bool png_hist = widget::small_button("PNG##hist");
    widget::name_last("PNG traincost-monte-carlo.png");
    if (png_hist) {
      app.ui.pending_png = "traincost-monte-carlo.png";
      const float r[4] = {hist_rect.min.x, hist_rect.min.y - em(1.6f), hist_rect.max.x - hist_rect.min.x, hist_rect.max.y - hist_rect.min.y + em(1.6f)};
      std::copy(r, r + 4, app.ui.pending_png_rect);
    }

    ImGui::Spacing();
    ImGui::PushFont(fonts().strong);
    ImGui::TextUnformatted("What the lead depends on most");
    ImGui::PopFont();
    ImGui::TextDisabled("Each input moved alone to the low and high end of its range; bars show %s's lead per run.", leader.c_str());
    chart::TornadoSpec t;
    t.base = a.base_metric;
    t.metric_label = "lead of " + leader + " per run";
    for (size_t i = 0; i < a.sensitivity.size() && i < 12; ++i) {
      const SensitivityRow& row = a.sensitivity[i];
      const RangedInput* in = nullptr;
      for (const RangedInput& each : a.inputs)
        if (each.path == row.input) in = &each;
      t.rows.push_back({row.label, in ? input_value_text(*in, row.low_value) : fmt::number(row.low_value),
                        in ? input_value_text(*in, row.high_value) : fmt::number(row.high_value), row.metric_at_low, row.metric_at_high,
                        row.default_range, "", false});
      mark_threshold(d, a, row, in, t.rows.back());
    }
    t.flip_at = 0;  // a lead of 0: the leader and the runner-up cost the same
    chart::Rect& tornado_rect = app.ui.tornado_rect;
    tornado_rect = chart::tornado(t);
    // Not the options' colours (the histogram above uses those): low and high are greys.
    chart::legend({{"input at its low end", pal.low}, {"input at its high end", pal.high}});
    ImGui::SameLine(0, em(2));
    const bool png_tornado = widget::small_button("PNG##tornado");
    widget::name_last("PNG traincost-sensitivity.png");
    if (png_tornado) {
      app.ui.pending_png = "traincost-sensitivity.png";
      const float r[4] = {tornado_rect.min.x, tornado_rect.min.y, tornado_rect.max.x - tornado_rect.min.x, tornado_rect.max.y - tornado_rect.min.y};
      std::copy(r, r + 4, app.ui.pending_png_rect);
    }
  } else {
    ImGui::TextDisabled("The lead and the tornado need two options that can run the workload.");
  }
  ImGui::Spacing();
  ranges_editor(app);
  ImGui::Dummy(ImVec2(0, em(1)));
}

}  // namespace traincost::web
