// The "Pilot results" dialog (issue 31): a pilot's training log pasted, read by the core
// (io/pilot_log.hpp: Megatron-LM / NeMo, torchtitan, neuronx-distributed, the NxD and NeMo
// progress bars, the Hugging Face Trainer's summary, a CSV of step,tokens,loss), and shown before
// anything changes: what was read from which line, the pass marks passed or failed, the verdict
// before and after, exactly as `traincost pilot-results` prints them. "Apply" puts the figures
// into the option's pilot block as one edit (Undo takes it back); a log that cannot be read
// changes nothing and its problem names the line.
#include "ui/pilot_log_dialog.hpp"

#include <cmath>

#include "app.hpp"
#include "imgui.h"
#include "traincost/api/builtin.hpp"
#include "traincost/io/pilot_log.hpp"
#include "traincost/io/scenario_json.hpp"
#include "traincost/output/pilot_results_report.hpp"
#include "traincost/scenario/fields.hpp"
#include "ui/dialog_parts.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace traincost::web {
namespace {

// The log read and put into the scenario being edited, for the option and size the dialog says;
// nullopt (with `problems` naming the line or field) when it cannot be.
std::optional<PilotLogs> read_into_scenario(App& app, std::string& problems, std::string& preview) {
  if (!app.d.valid) {
    problems = "Nothing was applied: fix the scenario's inputs first (" + to_string(app.d.problems) + ").";
    return std::nullopt;
  }
  const LogReading reading = read_training_log(app.ui.pilot_log_text);
  if (!reading.ok) {
    problems = "Nothing was applied: " + to_string(reading.problems);
    return std::nullopt;
  }
  const Scenario& before = app.scenario;
  const size_t workload = app.edited_workload();
  const int option = app.ui.pilot_log_option < static_cast<int>(before.options.size()) ? app.ui.pilot_log_option : -1;
  const int instances = app.ui.pilot_log_instances ? static_cast<int>(*app.ui.pilot_log_instances) : 0;
  PilotLogs applied = apply_pilot_logs(before, builtin_catalog(), workload, option, instances, {reading}, nullptr, "a log pasted on the page");
  const Problems invalid = validate(applied.after, builtin_catalog());
  if (!invalid.empty()) {
    problems = "Nothing was applied: the scenario with these figures would not be valid: " + to_string(invalid);
    return std::nullopt;
  }
  const PilotResults results = pilot_results(before, applied.after, builtin_catalog(), applied.option, workload);
  preview = reading_text(reading);
  if (!applied.size_note.empty()) preview += "Note: " + applied.size_note + ".\n";
  preview += "\n" + pilot_results_text(before, applied.after, builtin_catalog(), results);
  return applied;
}

// What the preview was read from: Apply applies only what the user saw.
std::string read_key(const App& app) {
  return std::to_string(app.ui.pilot_log_option) + "|" +
         (app.ui.pilot_log_instances ? std::to_string(*app.ui.pilot_log_instances) : std::string("-")) + "|" + app.ui.pilot_log_text;
}

void option_combo(App& app) {
  const ResolvedScenario& r = app.d.resolved;
  const int chosen = app.ui.pilot_log_option;
  const std::string shown = chosen >= 0 && static_cast<size_t>(chosen) < r.options.size() ? r.options[static_cast<size_t>(chosen)].label
                                                                                         : std::string("the pilot plan's candidate");
  if (widget::begin_combo("##pilot-log-option", "pilot log option", shown.c_str())) {
    if (widget::selectable("the pilot plan's candidate", chosen < 0)) app.ui.pilot_log_option = -1;
    for (size_t o = 0; o < r.options.size(); ++o) {
      ImGui::PushID(static_cast<int>(o));
      if (widget::selectable(r.options[o].label.c_str(), chosen == static_cast<int>(o))) app.ui.pilot_log_option = static_cast<int>(o);
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
}

void clear(App& app) {
  app.ui.pilot_log_preview.clear();
  app.ui.pilot_log_problems.clear();
  app.ui.pilot_log_read.clear();
}

}  // namespace

void open_pilot_log_dialog(App& app) {
  clear(app);
  app.ui.open_pilot_log = true;
}

void pilot_log_dialog(App& app) {
  if (!begin_dialog("Pilot results", app.ui.open_pilot_log, 46)) return;
  ImGui::TextWrapped("Paste the training log of your pilot: Megatron-LM / NeMo iteration lines, torchtitan metrics, neuronx-distributed "
                     "LOG lines, an NxD Training or NeMo progress bar, a Hugging Face Trainer summary, or a CSV of step,tokens,loss. "
                     "TrainCost shows what it read and what it changes before anything is applied; Undo takes it back.");
  if (widget::begin_form("pilot-log-form", 9)) {
    widget::row("Option it ran on");
    option_combo(app);
    widget::row("Pilot instances", &fields::pilot_instances);
    widget::optional_number(app.ui.pilot_log_instances, NAN, fields::pilot_instances,
                            "the log's world size, else the planned cluster", "pilot log instances");
    widget::end_form();
  }
  widget::text_area("##pilot-log", "pilot log text", app.ui.pilot_log_text, ImVec2(-FLT_MIN, em(9)));
  const bool current = !app.ui.pilot_log_read.empty() && app.ui.pilot_log_read == read_key(app);
  if (widget::button("Read the log")) {
    clear(app);
    if (read_into_scenario(app, app.ui.pilot_log_problems, app.ui.pilot_log_preview)) app.ui.pilot_log_read = read_key(app);
  }
  if (!app.ui.pilot_log_problems.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(palette().bad));
    widget::wrapped(app.ui.pilot_log_problems, 0, "pilot log problems");
    ImGui::PopStyleColor();
  }
  if (current) {
    // Long (the pass marks, both verdicts): a box of its own, so the buttons stay on a phone's screen.
    ImGui::BeginChild("pilot-log-preview", ImVec2(-FLT_MIN, em(11)), true);
    widget::wrapped(app.ui.pilot_log_preview, 0, "pilot log preview");
    ImGui::EndChild();
  } else if (!app.ui.pilot_log_preview.empty()) {
    ImGui::TextDisabled("The log, option or size changed since it was read: read it again.");
  }
  ImGui::BeginDisabled(!current);
  const bool apply = widget::button("Apply to the scenario");
  ImGui::EndDisabled();
  if (apply && current) {
    std::string problems, preview;
    if (const std::optional<PilotLogs> applied = read_into_scenario(app, problems, preview)) {
      const size_t o = static_cast<size_t>(applied->option);
      app.scenario.options[o].pilot = applied->after.options[o].pilot;
      app.edited();
      app.banner(BannerKind::Info, "The pilot's figures are now option " + std::to_string(o + 1) + "'s pilot block; Undo takes them back.", 8);
      app.ui.pilot_log_text.clear();
      clear(app);
      ImGui::CloseCurrentPopup();
    } else {
      app.ui.pilot_log_problems = problems;
    }
  }
  ImGui::SameLine();
  if (widget::button("Cancel")) {
    clear(app);
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

}  // namespace traincost::web
