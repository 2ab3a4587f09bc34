// "Compare with a published run" (issue 14): the library of published runs replayed with
// TrainCost's defaults, as `traincost replay` prints it (predicted against published chip-hours,
// and the error), and a button that takes the utilization a run realized over its whole duration
// as an option's assumption (mfu_from_run), through the same edit path as every field.
#include "ui/replay_dialog.hpp"

#include <algorithm>
#include <cmath>

#include "app.hpp"
#include "imgui.h"
#include "traincost/api/builtin.hpp"
#include "traincost/api/edit.hpp"
#include "traincost/base/format.hpp"
#include "traincost/evidence/published_runs.hpp"
#include "ui/dialog_parts.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace traincost::web {
namespace {

// Columns shown of replay_headers(): the run and the comparison, the error first so that it stays
// in view when the table scrolls sideways.
const char* const kShown[] = {"Run", "Error", "Published chip-hours", "Predicted", "Chips"};

size_t column_of(const std::vector<std::string>& headers, const char* name) {
  return static_cast<size_t>(std::find(headers.begin(), headers.end(), name) - headers.begin());
}

void muted(const std::string& text, const char* note) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  widget::wrapped(text, 0, note);
  ImGui::PopStyleColor();
}

void runs_table(App& app, const std::vector<std::string>& headers) {
  const Replay& replay = app.d.replay;
  // Columns as wide as their widest cell ("2048 (assumed) × a100-80gb" is not cut); where the
  // dialog is narrower (a phone), the table scrolls sideways with the run kept in view.
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX |
                                ImGuiTableFlags_SizingFixedFit;
  // At most a third of the screen, so that the chosen run and the buttons stay on a phone's.
  const float height = std::min(em(13), ImGui::GetMainViewport()->Size.y * 0.3f);
  if (!ImGui::BeginTable("published-runs", 5, flags, ImVec2(0, height))) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  for (int c = 0; c < 5; ++c) ImGui::TableSetupColumn(kShown[c], ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableHeadersRow();
  for (const ReplayRow& row : replay.rows) {
    const std::vector<std::string> cells = replay_cells(row);
    ImGui::TableNextRow();
    for (int c = 0; c < 5; ++c) {
      ImGui::TableSetColumnIndex(c);
      const std::string& cell = cells[column_of(headers, kShown[c])];
      if (c == 0) {
        if (widget::selectable(cell.c_str(), app.ui.replay_run == row.run->id)) app.ui.replay_run = row.run->id;
      } else if (!row.counted() && c <= 3) {
        ImGui::TextDisabled("%s", cell.c_str());
      } else {
        ImGui::TextUnformatted(cell.c_str());
      }
    }
  }
  ImGui::EndTable();
}

// The chosen run: its figures, and the button that takes its realized utilization.
void run_details(App& app, const ReplayRow& row, const std::vector<std::string>& headers) {
  const PublishedRun& run = *row.run;
  const std::vector<std::string> cells = replay_cells(row);
  auto cell = [&](const char* name) { return cells[column_of(headers, name)]; };
  ImGui::PushFont(fonts().strong);
  widget::wrapped(cell("Run"), 0, "replay run");
  ImGui::PopFont();
  if (row.counted()) {
    widget::wrapped("Chip-hours: published " + cell("Published chip-hours") + ", predicted " + cell("Predicted") + ".", 0, "replay chip-hours");
    ImGui::TextUnformatted("Error:");
    ImGui::SameLine();
    const ImU32 color = std::abs(row.error) > 0.3 ? palette().warn : palette().good;
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(color), "%s", cell("Error").c_str());
    widget::note("replay error", cell("Error"), color);
    ImGui::SameLine();
    ImGui::TextDisabled("(predicted / published − 1)");
    widget::wrapped("MFU: step " + cell("Step MFU (predicted)") + " predicted, " + cell("Realized MFU") + " realized over the whole run, " +
                        cell("Stated MFU") + " stated; wall-clock published / predicted " + cell("Wall-clock published / predicted") + ".",
                    0, "replay mfu");
  } else {
    widget::wrapped("Not compared: " + cell("Status") + ".", 0, "replay status");
  }
  if (!run.note.empty()) muted(run.note, "replay note");

  // Taking the run's realized utilization for the option the dialog was opened from.
  const Derived& d = app.d;
  const int o = app.ui.replay_option;
  if (o < 0 || o >= static_cast<int>(app.scenario.options.size()) || static_cast<size_t>(o) >= d.resolved.options.size()) return;
  const size_t oi = static_cast<size_t>(o);
  ImGui::Separator();
  Option trial = app.scenario.options[oi];
  edit::use_run_mfu(trial, run.id);
  const std::vector<std::string> problems = mfu_from_run_problems(trial, d.resolved.options[oi].family, builtin_catalog());
  const double realized = realized_mfu_of(run, builtin_catalog());
  const size_t w = app.selected_workload();
  const double now = w < d.resolved.workloads.size() && oi < d.resolved.workloads[w].options.size() ? d.resolved.workloads[w].options[oi].mfu : 0;
  const std::string label = d.resolved.options[oi].label;  // a copy: the edit below replaces d.resolved
  if (problems.empty())
    widget::wrapped(label + " runs at MFU " + fmt::percent(now) + " now; with this run's realized utilization it runs at " + fmt::percent(realized) +
                        " (restarts, evaluation and stalls included).",
                    0, "replay apply");
  else
    muted("Not for " + label + ": " + problems.front() + ".", "replay apply");
  ImGui::BeginDisabled(!problems.empty() || app.scenario.options[oi].mfu_from_run == run.id);
  const bool apply = widget::button("Use this run's utilization");
  ImGui::EndDisabled();
  // Last: the edit replaces d.resolved, which the lines above read from.
  if (apply && edit::use_run_mfu(app.scenario.options[oi], run.id)) {
    app.edited();
    app.banner(BannerKind::Info, label + " now assumes the utilization realized by " + run.name + " (" + fmt::percent(realized) + "). Undo brings back what it had.", 6);
    ImGui::CloseCurrentPopup();
  }
}

}  // namespace

void open_replay_dialog(App& app, int option) {
  if (!app.d.replay_ready) {
    app.d.replay = replay(builtin_published_runs(), builtin_catalog());
    app.d.replay_ready = true;
  }
  app.ui.replay_option = option;
  app.ui.open_replay = true;
}

void replay_dialog(App& app) {
  if (!begin_dialog("Compare with a published run", app.ui.open_replay, 56)) return;
  const Replay& replay = app.d.replay;
  const std::vector<std::string> headers = replay_headers();
  widget::wrapped("Each run replayed from its public inputs (model, tokens, chips) with TrainCost's defaults, as `traincost replay` does. "
                  "Median error " + fmt::percent(replay.all.median) + " over " + std::to_string(replay.all.runs) + " runs with a published duration, worst " +
                      fmt::percent(replay.all.worst) + " (" + replay.all.worst_run + "). Their 80% interval as published runs realized, each run held out, contains " +
                      std::to_string(replay.whole_run_check.inside) + " of " + std::to_string(replay.whole_run_check.runs) + " (coverage " +
                      fmt::percent(replay.whole_run_check.coverage) + ").",
                  0, "replay summary");
  runs_table(app, headers);
  const auto chosen = std::find_if(replay.rows.begin(), replay.rows.end(), [&](const ReplayRow& r) { return r.run->id == app.ui.replay_run; });
  if (chosen != replay.rows.end()) run_details(app, *chosen, headers);
  else muted("Choose a run to see its figures.", "replay hint");
  if (widget::button("Close")) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

}  // namespace traincost::web
