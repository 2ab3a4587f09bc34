// "Thresholds & pilot": for the selected workload, the value of each deciding input at which
// its leader and runner-up would cost the same (thresholds.hpp), and the pilot plan (pilot.hpp):
// what to run, what it costs, the pass marks, whether it is worth running, and the plan as
// Markdown to download or copy. Every word and figure comes from the core (threshold_row,
// pass_mark_rows, pilot_run_rows, …), so the page says what `traincost pilot` says.
#include <algorithm>

#include "app.hpp"
#include "imgui.h"
#include "platform.hpp"
#include "traincost/base/format.hpp"
#include "traincost/output/verdict.hpp"
#include "ui/panels.hpp"
#include "ui/pilot_log_dialog.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace traincost::web {
namespace {

void heading(const char* text) {
  ImGui::PushFont(fonts().strong);
  ImGui::TextUnformatted(text);
  ImGui::PopFont();
}

void muted(const std::string& text, const char* note = "text") {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  widget::wrapped(text, 0, note);
  ImGui::PopStyleColor();
}

// Label and text rows (what to run, the value): a narrow label column, the text wrapped beside it.
void label_rows(const char* id, const std::vector<std::pair<std::string, std::string>>& rows, float label_em) {
  if (!ImGui::BeginTable(id, 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH)) return;
  // At most a third of a narrow pane for the labels (they wrap).
  ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthFixed, std::min(em(label_em), ImGui::GetContentRegionAvail().x / 3));
  ImGui::TableSetupColumn("text", ImGuiTableColumnFlags_WidthStretch);
  for (const auto& [label, text] : rows) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    widget::wrapped(label);
    ImGui::TableSetColumnIndex(1);
    widget::wrapped(text, 0, ("pilot: " + label).c_str());
  }
  ImGui::EndTable();
}

// The leader against the runner-up, one row per deciding input; the most decisive in bold. On a
// phone the columns keep their natural width and scroll sideways; elsewhere the cells wrap.
void thresholds_table(App& app, size_t w) {
  const Derived& d = app.d;
  const std::vector<Threshold>& rows = d.thresholds[w];
  const int decisive = most_decisive(rows);
  const bool sideways = app.ui.compact;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
  if (!widget::begin_wide_table("thresholds", 5, static_cast<int>(rows.size()), sideways, flags)) return;
  const ImGuiTableColumnFlags stretch = sideways ? ImGuiTableColumnFlags_WidthFixed : ImGuiTableColumnFlags_WidthStretch;
  ImGui::TableSetupColumn("Option", stretch, sideways ? 0.0f : 1.1f);
  ImGui::TableSetupColumn("Input", stretch, sideways ? 0.0f : 1.2f);
  ImGui::TableSetupColumn("Now", stretch, sideways ? 0.0f : 1.6f);
  ImGui::TableSetupColumn("The answer holds while it is", stretch, sideways ? 0.0f : 2.0f);
  // The move as wide as its widest figure ("+28062%"): a stretched column clipped it.
  float move_w = ImGui::CalcTextSize("Move").x;
  for (const Threshold& t : rows) move_w = std::max(move_w, ImGui::CalcTextSize(threshold_row(d.resolved, t).change.c_str()).x);
  ImGui::TableSetupColumn("Move", ImGuiTableColumnFlags_WidthFixed, move_w);
  ImGui::TableHeadersRow();
  const Palette& pal = palette();
  for (size_t k = 0; k < rows.size(); ++k) {
    const Threshold& t = rows[k];
    const ThresholdRow row = threshold_row(d.resolved, t);
    const bool strong = static_cast<int>(k) == decisive;
    ImGui::TableNextRow();
    if (strong) ImGui::PushFont(fonts().strong);
    // Single lines when the table scrolls sideways (a wrapped cell would take the narrow width).
    const auto cell = [&](int column, const std::string& text, const std::string& note) {
      ImGui::TableSetColumnIndex(column);
      if (sideways) {
        ImGui::AlignTextToFramePadding();  // frame-high rows, as begin_wide_table sizes the table for
        ImGui::TextUnformatted(text.c_str());
        if (!note.empty()) widget::note(note, text);
      } else {
        widget::wrapped(text, 0, note.empty() ? "text" : note.c_str());
      }
    };
    cell(0, row.option, "");
    cell(1, row.input, "");
    cell(2, row.base, "");
    if (!t.flips) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    else if (strong) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.warn));
    cell(3, t.flips ? row.direction + " " + row.value : row.value, "threshold " + t.path);
    if (!t.flips || strong) ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n(%s)", threshold_condition(d.resolved, t).c_str(), t.path.c_str());
    cell(4, row.change, "");
    if (strong) ImGui::PopFont();
  }
  ImGui::EndTable();
}

// One of the two choices of what to pilot: an option, or the core's choice ("automatic"). The
// preview names the option the plan shown was made for, so that "automatic" says whom it chose.
void aim_combo(App& app, const char* label, int PilotAim::*member, int planned) {
  const Derived& d = app.d;
  const PilotAim aim = app.pilot_aim();
  const int chosen = aim.*member;
  const bool shown = d.pilot.ready && planned >= 0 && planned < static_cast<int>(d.resolved.options.size());
  std::string preview = chosen >= 0 ? d.resolved.options[static_cast<size_t>(chosen)].label
                        : shown     ? d.resolved.options[static_cast<size_t>(planned)].label + " (automatic)"
                                    : "Automatic";
  widget::row(label);
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (widget::begin_combo((std::string("##") + label).c_str(), label, preview.c_str())) {
    PilotAim next = app.ui.pilot_aim;
    const char* automatic = member == &PilotAim::candidate ? "Automatic: of the leading two, the one with the larger one-time cost"
                                                           : "Automatic: the other of the leading two";
    if (widget::selectable(automatic, chosen < 0)) {
      next.*member = -1;
      app.aim_pilot(next);
    }
    for (size_t k = 0; k < d.resolved.options.size(); ++k) {
      const int index = static_cast<int>(k);
      if (member == &PilotAim::incumbent && index == aim.candidate) continue;  // not against itself
      // Named "Pilot candidate: Trn2 x16" in the registry: the bare label also names the option's results.
      const std::string entry = d.resolved.options[k].label + "###" + label + std::to_string(k);
      widget::name_id(entry.c_str(), std::string(label) + ": " + d.resolved.options[k].label);
      if (ImGui::Selectable(entry.c_str(), chosen == index)) {
        next.*member = index;
        if (member == &PilotAim::candidate && next.incumbent == index) next.incumbent = -1;
        app.aim_pilot(next);
      }
    }
    ImGui::EndCombo();
  }
}

void pilot_plan(App& app, size_t w) {
  const Derived& d = app.d;
  heading("Plan a pilot");
  muted("Port one representative job, confirm it converges, measure it, then decide: what that pilot must show, what it costs, "
        "and whether knowing first is worth its cost.");
  // What to pilot against what, as `traincost pilot --candidate/--against`.
  const bool planned = d.pilot.ready && d.pilot.result.workload == w;
  // After the pilot: its log turned into the option's measured figures, and the decision again.
  if (widget::button("Pilot results: paste a log…")) open_pilot_log_dialog(app);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Read a pilot's training log, see what it changes, then apply it to an option");
  if (widget::begin_form("pilot-aim", 7)) {
    aim_combo(app, "Pilot candidate", &PilotAim::candidate, planned ? d.pilot.result.candidate : -1);
    aim_combo(app, "Against", &PilotAim::incumbent, planned ? d.pilot.result.incumbent : -1);
    widget::end_form();
  }
  if (!d.pilot.ready || d.pilot.result.workload != w) {
    // Planned a slice per task once the analysis is done (App::run_pilot): a Monte Carlo.
    const double share = d.pilot.progress();
    ImGui::TextDisabled("Computing the pilot plan (%s Monte Carlo samples)… %s", fmt::number(d.scenario.analysis.samples).c_str(),
                        fmt::percent(share).c_str());
    widget::note("pilot status", "computing");
    return;
  }
  const PilotPlan& plan = d.pilot.result;
  const Palette& pal = palette();
  ImGui::PushFont(fonts().heading);
  const std::string verdict = recommendation(plan);
  const std::string shown = std::string(plan.worth_running ? "Worth running" : plan.ok ? "Not worth it: decide now" : "No plan");
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(plan.worth_running ? pal.good : plan.ok ? pal.warn : pal.bad), "%s", shown.c_str());
  widget::note("pilot recommendation", verdict);
  ImGui::PopFont();
  widget::wrapped(pilot_summary(d.resolved, plan), 0, "pilot summary");
  // The export, near the top so that it is found without scrolling.
  if (widget::button("Download plan (.md)")) download_text("traincost-pilot-plan.md", "text/markdown", d.pilot_markdown);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The plan as Markdown, to paste into a design document or a ticket");
  ImGui::SameLine();
  widget::copy_button("Copy plan (Markdown)", d.pilot_markdown);
  if (!plan.ok) return;
  const std::string& candidate = d.resolved.options[static_cast<size_t>(plan.candidate)].label;
  const std::string& incumbent = d.resolved.options[static_cast<size_t>(plan.incumbent)].label;
  ImGui::Spacing();
  heading("What to run");
  label_rows("pilot-run", pilot_run_rows(d.resolved, plan), 6);
  ImGui::Spacing();
  heading("What to measure: the pass marks");
  muted("For " + candidate + " to be the cheaper choice against " + incumbent + ", each with the other inputs at their planned values.");
  const std::vector<std::vector<std::string>> marks = pass_mark_rows(d.resolved, plan);
  if (ImGui::BeginTable("pass-marks", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("Measure", ImGuiTableColumnFlags_WidthStretch, 1.3f);
    ImGui::TableSetupColumn("Pass mark", ImGuiTableColumnFlags_WidthStretch, 2.0f);
    ImGui::TableSetupColumn("Planned", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableHeadersRow();
    for (const std::vector<std::string>& row : marks) {
      ImGui::TableNextRow();
      for (int c = 0; c < 3; ++c) {
        ImGui::TableSetColumnIndex(c);
        widget::wrapped(row[static_cast<size_t>(c)], 0, c == 1 ? ("pass mark: " + row[0]).c_str() : "text");
      }
    }
    ImGui::EndTable();
  }
  ImGui::Spacing();
  heading("Is it worth it?");
  label_rows("pilot-value", pilot_value_rows(d.resolved, plan), 9);
  muted(pilot_method_note(plan));
}

}  // namespace

void draw_pilot(App& app) {
  const Derived& d = app.d;
  if (d.results.workloads.empty()) return;
  const size_t w = app.selected_workload();
  const Comparison& c = d.results.workloads[w].comparison;
  heading("What would change the answer");
  if (w >= d.thresholds.size() || d.thresholds[w].empty() || c.cheapest < 0 || c.runner_up < 0) {
    ImGui::TextDisabled("Thresholds need two options that can run the workload.");
  } else {
    muted("Each input moved alone, everything else at its value now: where " + d.resolved.options[static_cast<size_t>(c.cheapest)].label +
          " and " + d.resolved.options[static_cast<size_t>(c.runner_up)].label + " would cost the same per run.");
    const std::string holds = holds_while(d.resolved, d.thresholds[w]);
    if (!holds.empty()) widget::wrapped(holds, 0, "pilot holds while");
    thresholds_table(app, w);
  }
  ImGui::Spacing();
  ImGui::Separator();
  ImGui::Spacing();
  pilot_plan(app, w);
  ImGui::Dummy(ImVec2(0, em(1)));
}

}  // namespace traincost::web
