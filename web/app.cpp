#include "app.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

#include "imgui.h"
#include "imgui_internal.h"
#include "dom_form.hpp"
#include "pacing.hpp"
#include "platform.hpp"
#include "presets.hpp"
#include "sweep_state.hpp"
#include "ui/price_age_view.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/api/edit.hpp"
#include "traincost/base/format.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/io/hf_config.hpp"
#include "traincost/io/link.hpp"
#include "traincost/output/analysis_report.hpp"
#include "traincost/output/card.hpp"
#include "traincost/output/present.hpp"
#include "traincost/output/report.hpp"
#include "traincost/output/verdict.hpp"
#include "ui/layout.hpp"
#include "ui/theme.hpp"

namespace traincost::web {

const char* get_clipboard(void* app) { return static_cast<App*>(app)->clipboard_.c_str(); }
void set_clipboard(void* app, const char* text) {
  App& a = *static_cast<App*>(app);
  a.clipboard_ = text ? text : "";
  copy_to_clipboard(a.clipboard_);
}

namespace {

constexpr const char* kAutosaveKey = "traincost.autosave";
constexpr const char* kThemeKey = "traincost.theme";
constexpr double kPersistDelayMs = 400;   // URL and autosave follow edits after this pause
constexpr double kAnalysisDelayMs = 250;  // Monte Carlo reruns after this pause (debounce while dragging)
constexpr double kSweepDelayMs = 200;     // the cluster-size sweep, a little before it

std::string first_problems(const Problems& problems, size_t max = 4) {
  std::string text;
  for (size_t i = 0; i < problems.size() && i < max; ++i)
    text += (i ? "; " : "") + (problems[i].path == "link" ? "the link " + problems[i].message : to_string(problems[i]));
  if (problems.size() > max) text += "; and " + std::to_string(problems.size() - max) + " more";
  return text;
}

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  const size_t b = s.find_last_not_of(" \t\r\n");
  return s.substr(a, b - a + 1);
}

std::string key_of(const Scenario& s) { return scenario_to_json(s).dump(); }

// What would change a workload's answer (the line under its verdict and the thresholds tab), and
// the pilot's recommendation once planned, into the text mirror.
void publish_thresholds(const Derived& d, size_t w, OrderedJson& item) {
  if (w >= d.thresholds.size()) return;
  const std::string holds = holds_while(d.resolved, d.thresholds[w]);
  if (!holds.empty()) item["holds_while"] = holds;
  OrderedJson rows = OrderedJson::array();
  for (const Threshold& t : d.thresholds[w]) rows.push_back({{"input", t.path}, {"condition", threshold_condition(d.resolved, t)}});
  item["thresholds"] = rows;
  if (d.pilot.ready && d.pilot.result.workload == w)
    item["pilot"] = {{"recommendation", recommendation(d.pilot.result)}, {"summary", pilot_summary(d.resolved, d.pilot.result)}};
}

}  // namespace

bool analysis_usable(const Derived& d) {
  const Analysis& a = d.analysis.result;
  const size_t n = d.resolved.options.size();
  return d.analysis.has_result && a.monte_carlo.options.size() == n && a.workload < d.results.workloads.size() && a.leader < static_cast<int>(n) &&
         a.runner_up < static_cast<int>(n) && a.challenger < static_cast<int>(n);
}

std::string analysis_doubt(const Derived& d, size_t w) {
  // The analysis's own leader and shares, from one run (while a new one runs, the last one's).
  if (!analysis_usable(d) || d.analysis.result.workload != w) return {};
  return analysis_less_likely(d.resolved, d.analysis.result);
}

std::vector<std::string> schedule_warnings(const Derived& d, size_t w) {
  std::vector<std::string> out;
  if (w >= d.results.workloads.size() || w >= d.resolved.workloads.size()) return out;
  const WorkloadInputs& wi = d.resolved.workloads[w];
  const double horizon_hours = wi.horizon_months * 730.5;  // 365.25 days / 12
  for (size_t o = 0; o < d.results.workloads[w].options.size(); ++o) {
    const OptionResult& r = d.results.workloads[w].options[o];
    if (!r.feasible() || wi.runs * r.wall_clock_hours <= horizon_hours) continue;
    out.push_back(d.resolved.options[o].label + ": " + fmt::number(wi.runs) + (wi.runs == 1 ? " run × " : " runs × ") + fmt::hours(r.wall_clock_hours) +
                  " = " + fmt::hours(wi.runs * r.wall_clock_hours) + ", longer than the " + fmt::number(wi.horizon_months) +
                  "-month horizon: fewer runs fit, or the cluster must grow.");
  }
  return out;
}

namespace {
size_t workload_in_range(int selected, size_t count) {
  return count == 0 || selected < 0 ? 0 : std::min(static_cast<size_t>(selected), count - 1);
}
}  // namespace

size_t App::selected_workload() const { return workload_in_range(ui.workload, d.scenario.workloads.size()); }
PilotAim App::pilot_aim() const {
  const int options = static_cast<int>(d.resolved.options.size());
  PilotAim aim = ui.pilot_aim;
  if (aim.candidate >= options) aim.candidate = -1;
  if (aim.incumbent >= options || aim.incumbent == aim.candidate) aim.incumbent = -1;
  return aim;
}

void App::aim_pilot(PilotAim aim) {
  ui.pilot_aim = aim;
  d.pilot.schedule(now_ms());  // no pause to wait for: a choice is not typing
}

size_t App::edited_workload() const { return workload_in_range(ui.workload, scenario.workloads.size()); }

App::App() {
  ImGuiIO& io = ImGui::GetIO();
  io.UserData = this;
  io.GetClipboardTextFn = get_clipboard;
  io.SetClipboardTextFn = set_clipboard;
  io.ClipboardUserData = this;
  // The widget kit and the theme work on the App's state, handed to them here.
  widget::use({&widgets, &items, &input, [this](const std::string& text) { announce(text); }});
  use_theme(theme);
  ui.embed = url_query("embed") == "1";
  d.prices = price_age(builtin_catalog(), today_utc());
  const std::string saved_theme = storage_get(kThemeKey);
  const bool chosen = saved_theme == "dark" || saved_theme == "light";
  set_theme(chosen ? saved_theme == "dark" : prefers_dark_theme(), chosen ? ThemeChoice::Chosen : ThemeChoice::FollowSystem);
  load_initial_scenario();
}

void App::set_theme(bool dark, ThemeChoice choice) {
  ui.dark = dark;
  ui.theme_follows_system = choice == ThemeChoice::FollowSystem;
  apply_theme(dark);
}

void App::on_system_theme_change() {
  if (ui.theme_follows_system) set_theme(prefers_dark_theme(), ThemeChoice::FollowSystem);
}

void App::banner(BannerKind kind, const std::string& text, double seconds, const std::string& action, int action_id) {
  // The same message again replaces the old one rather than stacking up.
  ui.banners.erase(std::remove_if(ui.banners.begin(), ui.banners.end(), [&](const Banner& b) { return b.text == text; }),
                   ui.banners.end());
  ui.banners.push_back({kind, text, action, action_id, seconds > 0 ? now_ms() + seconds * 1000 : 0});
  if (ui.banners.size() > 4) ui.banners.erase(ui.banners.begin());
  ++ui.banners_shown;
  publish();
}

void App::announce(const std::string& text) {
  ui.announcement = text;
  publish();
}

void App::load_initial_scenario() {
  const std::string autosave = ui.embed ? std::string() : storage_get(kAutosaveKey);
  const std::string fragment = url_fragment();
  if (fragment.rfind("s=", 0) == 0) {
    Problems problems;
    std::vector<std::string> notices;
    if (auto s = decode_link(fragment, builtin_catalog(), problems, &notices)) {
      replace_scenario(*s, "", History::SameEntry);
      for (const std::string& n : notices) banner(BannerKind::Warning, n);
      Problems autosave_problems;
      if (!autosave.empty() && parse_scenario(autosave, builtin_catalog(), autosave_problems) &&
          autosave != scenario_to_json(scenario, JsonForm::Minimal).dump()) {
        autosave_backup_ = autosave;
        banner(BannerKind::Info, "Opened the scenario in the link. Your own last scenario is kept.", 0,
               "Restore my scenario", kRestoreAutosave);
      }
      return;
    }
    banner(BannerKind::Error, "This link could not be opened: " + first_problems(problems) +
                                  ". You are looking at " + (autosave.empty() ? "the default scenario" : "your last scenario") + " instead.");
  }
  if (!autosave.empty()) {
    Problems problems;
    if (auto s = parse_scenario(autosave, builtin_catalog(), problems)) {
      replace_scenario(*s, "", History::SameEntry);
      return;
    }
    banner(BannerKind::Warning, "Your autosaved scenario could not be read (" + first_problems(problems, 2) + "); starting from the default.");
  }
  replace_scenario(std::string(default_scenario_json()), "", History::SameEntry);
}

bool App::replace_scenario(const std::string& json_text, const std::string& what, History history) {
  Problems problems;
  auto s = parse_scenario(json_text, builtin_catalog(), problems);
  if (!s) {
    banner(BannerKind::Error, (what.empty() ? std::string("The scenario") : what) + " was not loaded: " + first_problems(problems) +
                                  ". Your current scenario is unchanged.");
    return false;
  }
  return replace_scenario(*s, what, history);
}

bool App::replace_scenario(const Scenario& s, const std::string& what, History history) {
  // The scenario being replaced keeps its own history entry: write its address now.
  if (history == History::NewEntry && !what.empty() && d.persist_due_ms > 0) {
    d.persist_due_ms = 0;
    persist();
  }
  scenario = s;
  edit::stamp_catalog(scenario, builtin_catalog());
  ui.workload = static_cast<int>(edited_workload());
  ui.explain_option = -1;
  d.problems = validate(scenario, builtin_catalog());
  d.valid = d.problems.empty();
  commit_history(what.empty() ? "" : "loading " + what);
  ++d.edits;
  if (d.valid) recompute();
  else publish();
  if (!what.empty()) {
    if (history == History::NewEntry && d.valid) push_url_fragment(d.link);  // Back returns to the scenario before
    if (history_.can_undo())
      banner(BannerKind::Info, "Loaded " + what + ". Undo (Ctrl+Z) or the browser's Back button brings back what you had.", 8, "Undo",
             kUndoLoad);
    else
      banner(BannerKind::Info, "Loaded " + what + ".", 4);
  }
  return d.valid;
}

void App::commit_history(const std::string& what) { history_.commit(scenario, key_of(scenario), what); }

void App::edited() {
  d.problems = validate(scenario, builtin_catalog());
  d.valid = d.problems.empty();
  commit_history("");
  ++d.edits;
  if (!d.valid) {  // the results keep describing the last valid scenario
    publish();
    return;
  }
  recompute();
}

void App::undo() {
  const std::string what = history_.undo_what();
  if (auto s = history_.undo()) step_to(*s, what.empty() ? "Undid the last edit." : "Undid " + what + ".");
}

void App::redo() {
  const std::string what = history_.redo_what();
  if (auto s = history_.redo()) step_to(*s, what.empty() ? "Redid the edit." : "Redid " + what + ".");
}

// Shows a scenario from the history (undo or redo): not a new edit, so nothing is recorded.
void App::step_to(const Scenario& s, const std::string& message) {
  scenario = s;
  ui.workload = static_cast<int>(edited_workload());
  d.problems = validate(scenario, builtin_catalog());
  d.valid = d.problems.empty();
  ++d.edits;
  if (d.valid) recompute();
  else publish();
  banner(BannerKind::Info, message, 3);
}

// A valid scenario to show: its link and autosave now, its results when the base evaluation is
// done. That evaluation starts at once, with a first slice in this frame: a small scenario's
// results are in place before the frame is drawn, as they were when the page evaluated in one go;
// a heavy one's (deadline searches over 100,000 instances) follow over the next frames.
void App::recompute() {
  d.pending = scenario;
  d.link = "s=" + encode_link(scenario);
  d.persist_due_ms = now_ms() + kPersistDelayMs;
  d.base.schedule(now_ms());
  run_base();
  if (!d.base.ready) publish();  // the text mirror says the results are updating
}

void App::run_base() {
  const bool finished =
      d.base.advance([&] { return std::make_unique<EvaluationRun>(d.pending, builtin_catalog()); }, now_ms);
  if (finished) base_done();
}

void App::base_done() {
  const double start = now_ms();
  d.scenario = d.pending;
  d.resolved = std::move(d.base.result.resolved);
  d.results = std::move(d.base.result.results);
  d.base.result = Evaluation{};
  // The sweep costs ten times the evaluation (a layout search per size): it follows a pause in
  // editing, as the Monte Carlo does, so that typing stays quick (sweep_state.hpp).
  d.sweep.schedule(now_ms() + kSweepDelayMs);
  d.thresholds.clear();
  for (size_t w = 0; w < d.results.workloads.size(); ++w) d.thresholds.push_back(leading_thresholds(d.scenario, d.resolved, d.results, w));
  d.analysis.schedule(now_ms() + kAnalysisDelayMs);
  d.pilot.schedule(d.analysis.due_ms);
  d.comparison.schedule(now_ms() + kSweepDelayMs);
  publish();
  d.last_compute_ms = d.base.last_ms + (now_ms() - start);
  ++d.recomputes;
}

bool App::base_updating() const { return !d.base.ready && d.base.due_ms > 0; }

void App::run_analysis() {
  const bool finished = d.analysis.advance(
      [&] {
        AnalyzeOptions options;
        options.samples = d.scenario.analysis.samples;
        options.seed = d.scenario.analysis.seed;
        options.workload = selected_workload();
        // On the base evaluation's resolved scenario: resolving again would repeat its deadline
        // searches in one go.
        return std::make_unique<AnalysisRun>(d.scenario, d.resolved, builtin_catalog(), options);
      },
      now_ms);
  if (finished) publish();
}

double App::analysis_progress() const { return d.analysis.progress(); }

bool App::pilot_wanted() const {
  if (ui.results_tab != kPilotTab || !d.valid || d.scenario.workloads.empty()) return false;
  return !d.pilot.ready || d.pilot.result.workload != selected_workload() || d.pilot_aimed != pilot_aim();
}

// Starts or advances the pilot plan by one slice of samples, sized as the analysis's are.
void App::run_pilot() {
  const size_t w = selected_workload();
  if (d.pilot.run && (d.pilot.run->workload() != w || d.pilot_aimed != pilot_aim())) d.pilot.run.reset();  // for a view before
  d.pilot_aimed = pilot_aim();
  const bool finished = d.pilot.advance(
      [&] {
        PilotOptions options;
        options.workload = w;
        options.candidate = pilot_aim().candidate;
        options.incumbent = pilot_aim().incumbent;
        // The scenario's sampling settings, as `traincost pilot` and TrainCost.pilot use by default.
        options.samples = d.scenario.analysis.samples;
        options.seed = d.scenario.analysis.seed;
        return std::make_unique<PilotPlanRun>(d.scenario, d.resolved, builtin_catalog(), options);
      },
      now_ms);
  if (!finished) return;
  d.pilot.result.workload = w;  // also without a plan, so that it is not planned again
  d.pilot_markdown = pilot_markdown(d.scenario, d.resolved, d.pilot.result);
  publish();
}

ComparisonAim App::comparison_aim() const {
  ComparisonAim aim;
  aim.workload = selected_workload();
  aim.chips = ui.compare_chips;
  aim.sort = ui.compare_sort;
  return aim;
}

bool App::comparison_current() const { return d.comparison.ready && d.comparison_aim == comparison_aim(); }

bool App::comparison_wanted() const {
  return ui.results_tab == kChipsTab && d.valid && !d.scenario.workloads.empty() && !comparison_current();
}

// Starts or advances the chip-by-chip table by one slice of rows.
void App::run_comparison() {
  const ComparisonAim aim = comparison_aim();
  if (d.comparison.run && d.comparison_running != aim) d.comparison.run.reset();  // for an aim before
  d.comparison_running = aim;
  const bool finished = d.comparison.advance(
      [&] {
        CompareOptions options;
        if (aim.chips > 0) options.chips = aim.chips;
        options.sort = aim.sort;
        return std::make_unique<ComparisonRun>(d.scenario.workloads[aim.workload], builtin_catalog(), options);
      },
      now_ms);
  if (!finished) return;
  d.comparison_aim = aim;
  publish();
}

void App::persist() {
  replace_url_fragment(d.link);
  if (!ui.embed && !storage_set(kAutosaveKey, scenario_to_json(d.pending, JsonForm::Minimal).dump()))
    banner(BannerKind::Warning, "This browser does not let the page save your scenario (storage blocked); use Share or Export to keep it.", 8);
}

// The verdict and the results table as text in the page's DOM (see calculator.js).
void App::publish() {
  ++publishes_;
  OrderedJson j;
  OrderedJson columns = OrderedJson::array();
  for (const ResultColumn& c : result_columns()) columns.push_back(c.header);
  j["columns"] = columns;
  OrderedJson workloads = OrderedJson::array();
  for (size_t w = 0; w < d.results.workloads.size(); ++w) {
    const WorkloadResult& wr = d.results.workloads[w];
    OrderedJson rows = OrderedJson::array();
    for (size_t o = 0; o < wr.options.size(); ++o)
      rows.push_back(result_cells(d.resolved.options[o].label, wr.options[o], estimate_flags(d.scenario, d.resolved, w, o, builtin_catalog())));
    OrderedJson item = {{"name", workload_title(d.scenario.workloads[w], w)},
                        {"verdict", workload_verdict(d.resolved, d.results, w)},
                        {"rows", rows}};
    const std::string note = estimate_footnote(d.scenario, d.resolved, w, builtin_catalog());
    if (!note.empty()) item["estimates"] = note;
    const std::vector<std::string> warnings = schedule_warnings(d, w);
    if (!warnings.empty()) item["warnings"] = warnings;
    publish_thresholds(d, w, item);
    // The headline's figures: the point estimate and, once simulated, the Monte Carlo's median and range.
    const int best = wr.comparison.cheapest;
    if (best >= 0) {
      const size_t b = static_cast<size_t>(best);
      std::string headline = headline_point_estimate(d.scenario, d.resolved, d.results, w);  // as the static card says it
      if (analysis_usable(d) && d.analysis.result.workload == w) {
        const OptionStats& st = d.analysis.result.monte_carlo.options[b];
        headline += "; Monte Carlo " + median_range_text(st.cost_per_run, st) + (d.analysis.ready ? "" : " (updating)");
        if (std::string doubt = analysis_doubt(d, w); !doubt.empty()) item["warnings"].push_back(std::move(doubt));
      }
      item["headline"] = headline;
    }
    workloads.push_back(item);
  }
  j["workloads"] = workloads;
  if (d.results.workloads.size() > 1) j["portfolio"] = portfolio_verdict(d.resolved, d.results);
  if (d.sweep.has_result) j["sweep"] = sweep_mirror(d);
  // The chip-by-chip table once computed for what the tab shows: as the CLI prints it, and its JSON.
  if (comparison_current())
    j["comparison"] = {{"workload", d.comparison_aim.workload},
                       {"text", comparison_text(d.comparison.result)},
                       {"data", comparison_to_json(d.comparison.result)}};
  j["prices"] = price_age_mirror(d.prices);
  // Banners are part of what the page says: screen readers and tests read them here too.
  OrderedJson banners = OrderedJson::array();
  for (const Banner& b : ui.banners)
    banners.push_back({{"kind", b.kind == BannerKind::Error ? "error" : b.kind == BannerKind::Warning ? "warning" : "info"}, {"text", b.text}});
  j["banners"] = banners;
  if (!ui.announcement.empty()) j["announce"] = ui.announcement;
  if (!d.valid) j["status"] = "Some inputs need fixing: " + first_problems(d.problems) + ". Results are for the last valid scenario.";
  if (base_updating())
    j["updating"] = d.results.workloads.empty() ? "Evaluating the scenario…" : "Updating the results: those shown are of the scenario before.";
  publish_results(j.dump());
  published_banners_ = ui.banners.size();
  // The accessible form follows every change, from either side, in tasks of its own: on the heavy
  // link building it costs more than the results, and the two in one task held the main thread
  // past 100 ms (issue 33 item 5).
  form_.due = true;
  form_.next = 0;
  form_.slices = 0;
  form_.groups.clear();
  if (!form_.task_pending) {
    form_.task_pending = true;
    run_soon([](void* app) { static_cast<App*>(app)->publish_form_slice(); }, this);
  }
}

// Builds up to kFormGroupsPerSlice groups of the form, fewer once kFormSliceMs have passed (at
// least one), then posts the next slice or sends the form. So a form of more than four groups
// always takes several tasks, and a slow machine more; neither changes what the form says.
void App::publish_form_slice() {
  constexpr size_t kFormGroupsPerSlice = 4;
  constexpr double kFormSliceMs = 8;
  form_.task_pending = false;
  if (!form_.due) return;  // already sent at once, after an edit made in the form
  const double start = now_ms();
  const size_t count = form_group_count(*this), stop = std::min(count, form_.next + kFormGroupsPerSlice);
  ++form_.slices;
  do {
    form_.groups += (form_.next ? "," : "") + form_group(*this, form_.next).dump();
    ++form_.next;
  } while (form_.next < stop && now_ms() - start < kFormSliceMs);
  if (form_.next < count) {
    form_.task_pending = true;
    run_soon([](void* app) { static_cast<App*>(app)->publish_form_slice(); }, this);
    return;
  }
  form_.due = false;
  form_.sent_slices = form_.slices;
  send_form(form_text(form_.groups, can_undo(), can_redo()));
  form_.groups.clear();
}

void App::publish_form() {
  if (!form_.due) return;  // nothing changed since the form was sent
  form_.due = false;
  form_.groups.clear();
  form_.sent_slices = 1;
  send_form(form_json(*this));
}

void App::send_form(std::string form) {
  if (form == published_form_) return;
  web::publish_form(form);  // the page's, platform.hpp
  published_form_ = std::move(form);
}

bool App::work_now() const { return !ui.pending_png.empty() || ui.select_results_tab >= 0; }

double App::next_due_ms() const {
  double due = pacing::kNever;
  if (d.persist_due_ms > 0) due = std::min(due, d.persist_due_ms);
  for (const Banner& b : ui.banners)
    if (b.expires_ms > 0) due = std::min(due, b.expires_ms);
  for (const auto& r : widgets.rejections) due = std::min(due, r.second.until_ms);
  if (widgets.copied_until_ms > 0) due = std::min(due, widgets.copied_until_ms);
  return due;
}

// The sweep follows the selected workload (its chart is of that workload): due when scheduled, and
// at once when another workload is shown.
namespace {
bool sweep_due(const Derived& d, size_t shown, double now) {
  return (d.sweep.due_ms > 0 && now >= d.sweep.due_ms) || (d.sweep.has_result && !sweep_current(d, shown));
}
}  // namespace

// One slice of one job, in order of urgency: the base evaluation of an edit (what follows waits for
// its results), then the chip-by-chip table while its tab is open (the user is looking at it),
// then the sweep and the Monte Carlo by turns, then the pilot plan while its tab is open.
bool App::work_slice() {
  const double now = now_ms();
  const unsigned published = publishes_;
  if (base_updating()) {
    if (now >= d.base.due_ms) run_base();
    return publishes_ != published;
  }
  if (comparison_wanted() && now >= d.comparison.due_ms) {
    run_comparison();
    return publishes_ != published;
  }
  const size_t shown = selected_workload();
  const bool sweep = !d.scenario.workloads.empty() && sweep_due(d, shown, now);
  const bool analysis = !d.analysis.ready && d.valid && now >= d.analysis.due_ms;
  sweep_turn_ = !sweep_turn_;
  if (sweep && (sweep_turn_ || !analysis)) {
    const bool had = d.sweep.has_result;
    if (compute_sweep(d, shown) || had != d.sweep.has_result) publish();
  } else if (analysis) {
    run_analysis();
  } else if (d.analysis.ready && pilot_wanted() && now >= d.pilot.due_ms) {
    run_pilot();
  }
  return publishes_ != published;
}

double App::work_due_ms() const {
  if (base_updating()) return d.base.due_ms;  // the rest waits for its results
  double due = pacing::kNever;
  if (comparison_wanted()) due = std::min(due, d.comparison.due_ms);
  if (!d.analysis.ready && d.valid) due = std::min(due, d.analysis.due_ms);
  else if (pilot_wanted()) due = std::min(due, d.pilot.due_ms);
  if (!d.scenario.workloads.empty()) {
    if (d.sweep.due_ms > 0) due = std::min(due, d.sweep.due_ms);
    if (d.sweep.has_result && !sweep_current(d, selected_workload())) due = 0;
  }
  return due;
}

bool App::working() const {
  return base_updating() || d.analysis.run || d.pilot.run || d.comparison.run || d.sweep.run;
}

bool App::settled() const {
  return !base_updating() && !form_.due && d.persist_due_ms == 0 && d.sweep.due_ms == 0 && (!d.valid || d.analysis.ready) && !pilot_wanted() &&
         !comparison_wanted() && !input.queued() && loop.frames_left == 0 &&
         ui.pending_png.empty();
}

void App::frame() {
  const double now = now_ms();
  items.begin_frame();
  if (d.persist_due_ms > 0 && now >= d.persist_due_ms) {
    d.persist_due_ms = 0;
    persist();
  }
  const bool base_ready = !base_updating();
  ui.banners.erase(std::remove_if(ui.banners.begin(), ui.banners.end(), [&](const Banner& b) { return b.expires_ms > 0 && b.expires_ms <= now; }),
                   ui.banners.end());
  if (widgets.copied_until_ms > 0 && widgets.copied_until_ms <= now) widgets.copied_until_ms = 0;
  // Expired explanations go even when their field is not drawn (a folded section), or the page
  // would keep waking up for them.
  for (auto it = widgets.rejections.begin(); it != widgets.rejections.end();)
    it = it->second.until_ms <= now ? widgets.rejections.erase(it) : std::next(it);
  // Re-run the Monte Carlo when another workload is selected.
  const size_t shown_workload = selected_workload();
  if (base_ready && d.valid && ((d.analysis.ready && d.analysis.result.workload != shown_workload) ||
                   (d.analysis.run && d.analysis.run->workload() != shown_workload)))
    d.analysis.schedule(now);
  const ImGuiIO& io = ImGui::GetIO();
  if (io.MouseClicked[0]) input.trace_note(" click@" + std::to_string(static_cast<int>(io.MousePos.x)) + "," + std::to_string(static_cast<int>(io.MousePos.y)));
  if (io.MouseReleased[0]) input.trace_note(" release");
  keyboard();
  const ImGuiID active_before = ImGui::GetCurrentContext()->ActiveId;
  draw_app(*this);
  if (ImGui::GetCurrentContext()->ActiveId != active_before) input.trace_note(" active:" + std::to_string(ImGui::GetCurrentContext()->ActiveId));
  if (ui.banners.size() != published_banners_) publish();
  items.end_frame();
  // When editing ends, a phone's keyboard goes away.
  if (text_input_ && !ImGui::GetIO().WantTextInput) end_text_input();
  text_input_ = ImGui::GetIO().WantTextInput;
}

void App::after_render() {
  if (loop.frames_drawn == 1) {
    d.first_frame_ms = d.last_frame_ms;
    d.first_frame_at_ms = now_ms();
  }
  if (ui.pending_png.empty()) return;
  const float* r = ui.pending_png_rect;
  download_canvas_png(ui.pending_png, r[0], r[1], r[2], r[3]);
  ui.pending_png.clear();
}

// ---- Keyboard -----------------------------------------------------------------------------------

void App::keyboard() {
  ImGuiIO& io = ImGui::GetIO();
  ImGuiContext& g = *ImGui::GetCurrentContext();
  // Undo and redo, outside text fields (which undo their own typing).
  if (!io.WantTextInput && (io.KeyCtrl || io.KeySuper)) {
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Z), false)) {
      if (io.KeyShift) redo();
      else undo();
    } else if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Y), false)) {
      redo();
    }
  }
  // Tab: the registry records items from this frame on; the focus moves once it has a frame
  // (the Tab waits at the head of the input queue until then).
  const int tab = input.tab();
  if (tab != 0 && !items.recording()) {
    tabbing_ = true;
    items.set_recording(true);
    input.defer_tab(tab);
    return;
  }
  if (tab != 0) move_focus(tab);
  // Enter activates a focused button, checkbox, tab or combo (Space does already).
  if (g.NavId != 0 && !g.NavDisableHighlight && g.ActiveId == 0 && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false)) {
    const ItemRecord* item = items.find(g.NavId);
    if (!item || !item->text_input) {
      g.NavActivateId = g.NavActivateDownId = g.NavActivatePressedId = g.NavId;
      g.NavActivateFlags = ImGuiActivateFlags_None;
    }
  }
}

// Moves the keyboard focus to the next (+1) or previous (-1) item in reading order: every item
// with a name, within the open popup or dialog if there is one. Text fields start editing with
// their text selected; other items show the focus ring and act on Enter or Space.
void App::move_focus(int direction) {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  ImGuiWindow* popup = g.OpenPopupStack.Size > 0 ? g.OpenPopupStack.back().Window : nullptr;
  if (g.OpenPopupStack.Size > 0 && !popup) {
    input.defer_tab(direction);  // a dialog opening this frame: its items are there in the next
    return;
  }
  std::vector<const ItemRecord*> order;
  for (const ItemRecord& r : items.items()) {
    if (r.name.empty() || !r.window || r.window->Hidden || !r.window->WasActive) continue;
    if (popup && r.window->RootWindow != popup->RootWindow) continue;
    // Notes (id 0), greyed-out buttons and charts take no focus.
    if (r.id == 0 || r.disabled || r.name.rfind("chart: ", 0) == 0) continue;
    if (!popup && (r.window->RootWindow->Flags & (ImGuiWindowFlags_Popup | ImGuiWindowFlags_Tooltip))) continue;
    order.push_back(&r);
  }
  if (order.empty()) {
    if (popup) input.defer_tab(direction);
    return;
  }
  const ImGuiID current = g.ActiveId ? g.ActiveId : (g.NavDisableHighlight ? 0 : g.NavId);
  int at = -1;
  for (size_t i = 0; i < order.size(); ++i)
    if (order[i]->id == current) at = static_cast<int>(i);
  const int n = static_cast<int>(order.size());
  const int next = at < 0 ? (direction > 0 ? 0 : n - 1) : ((at + direction) % n + n) % n;
  const ItemRecord& target = *order[static_cast<size_t>(next)];
  ImGui::ClearActiveID();  // the field being edited commits (it sees its deactivation)
  ImGui::FocusWindow(target.window);
  ImGui::SetFocusID(target.id, target.window);
  g.NavDisableHighlight = false;
  g.NavDisableMouseHover = true;
  g.NavMousePosDirty = false;
  if (target.text_input) {
    g.NavNextActivateId = target.id;
    g.NavNextActivateFlags = ImGuiActivateFlags_PreferInput;
    // The field activates in the next frame's widgets: keys typed after this Tab (a digit, another
    // Tab) wait for the frame after, or they would reach the field before (a quick typist's burst
    // of Tabs skipped or repeated fields, and the digit after them went where the focus had been).
    input.wait_a_frame();
  }
  ImGui::ScrollToRectEx(target.window, target.rect, ImGuiScrollFlags_KeepVisibleEdgeY | ImGuiScrollFlags_KeepVisibleEdgeX);
}

void App::record_items(bool on) {
  tests_record_ = on;
  items.set_recording(on || tabbing_);
}

bool App::reveal(const std::string& name) {
  const ItemRecord* item = items.find(name);
  if (!item || !item->window) return false;
  ImGui::ScrollToRectEx(item->window, item->rect, ImGuiScrollFlags_AlwaysCenterY | ImGuiScrollFlags_KeepVisibleEdgeX);
  return true;
}

// ---- Browser events -----------------------------------------------------------------------------

void App::on_hashchange() {
  const std::string fragment = url_fragment();
  if (fragment == d.link || fragment.rfind("s=", 0) != 0) return;
  Problems problems;
  std::vector<std::string> notices;
  if (auto s = decode_link(fragment, builtin_catalog(), problems, &notices)) {
    // The browser made the history entry (a new address, or Back and Forward).
    replace_scenario(*s, "the scenario from the link", History::SameEntry);
    for (const std::string& n : notices) banner(BannerKind::Warning, n);
  } else {
    banner(BannerKind::Error, "This link could not be opened: " + first_problems(problems) + ". Your current scenario is unchanged.");
    replace_url_fragment(d.link);
  }
}

void App::on_popstate() { on_hashchange(); }

void App::on_file_loaded(const std::string& bytes, double size) {
  if (size > static_cast<double>(JsonLimits{}.max_bytes)) {
    ui.import_problems = "That file is " + fmt::bytes(size) + ", larger than 1 MiB; a TrainCost scenario is a few kilobytes. Nothing was loaded.";
    ui.open_import = true;
    return;
  }
  const std::string problem = import_text(bytes);
  if (!problem.empty()) {
    ui.import_problems = problem;
    ui.open_import = true;
  }
}

std::string App::import_text(const std::string& raw) {
  const std::string text = trim(raw);
  if (text.empty()) return "Nothing to import: paste a scenario, a share link or a config.json.";
  // A share link, or a page address holding one.
  const size_t link_at = text.find("s=1.") != std::string::npos ? text.find("s=1.") : text.find("s=");
  if (text[0] != '{' && link_at != std::string::npos) {
    // The whole text, as `traincost evaluate --link` and decodeLink read it (tests/links/fragments.json):
    // cutting it at "&" or a space opened "#s=1.…&x=1", which they refuse (issue 33, item 1).
    const std::string& link = text;
    Problems problems;
    std::vector<std::string> notices;
    auto s = decode_link(link, builtin_catalog(), problems, &notices);
    if (!s) return "This link could not be opened: " + first_problems(problems) + ".";
    replace_scenario(*s, "the scenario from the pasted link");
    for (const std::string& n : notices) banner(BannerKind::Warning, n);
    return "";
  }
  if (text[0] != '{') return "This is not a scenario (JSON), a share link or a Hugging Face config.json.";
  // A Hugging Face config.json names the architecture, a scenario has workloads.
  const bool hf = text.find("\"workloads\"") == std::string::npos &&
                  (text.find("\"hidden_size\"") != std::string::npos || text.find("\"model_type\"") != std::string::npos ||
                   text.find("\"num_hidden_layers\"") != std::string::npos);
  if (hf) {
    Problems problems;
    auto import = import_hf_config(text, problems);
    if (!import) return "This config.json could not be read: " + first_problems(problems) + ".";
    Workload& w = scenario.workloads[edited_workload()];
    banner(BannerKind::Info, hf_import_summary(apply_hf_import(*import, w.model), w.model), 8);
    edited();
    return "";
  }
  Problems problems;
  auto s = parse_scenario(text, builtin_catalog(), problems);
  if (!s) return "This scenario could not be loaded: " + first_problems(problems) + ".";
  replace_scenario(*s, "the imported scenario");
  return "";
}

void App::on_paste(const std::string& text) {
  // A field holds C strings: text after a NUL would silently vanish, and the part before it be
  // imported. No scenario, link or number holds one, so nothing is pasted (issue 33, item 1).
  if (const size_t nul = text.find('\0'); nul != std::string::npos) {
    banner(BannerKind::Error, "The pasted text holds a NUL byte (U+0000 at byte " + std::to_string(nul + 1) +
                                  "), which no scenario, link or number can hold. Nothing was pasted.");
    clipboard_.clear();
    return;
  }
  clipboard_ = text;
}

void App::restore_autosave() {
  if (!autosave_backup_.empty()) replace_scenario(autosave_backup_, "your previous scenario");
  autosave_backup_.clear();
}

void App::note_frame_time(double ms, bool recomputed) {
  d.last_frame_ms = ms;
  if (recomputed) d.last_recompute_frame_ms = ms;
}

std::string App::stats_json() const {
  return OrderedJson({{"last_compute_ms", d.last_compute_ms},
                      {"last_frame_ms", d.last_frame_ms},
                      {"last_recompute_frame_ms", d.last_recompute_frame_ms},
                      {"first_frame_ms", d.first_frame_ms},
                      {"base_ready", !base_updating()},
                      {"base_progress", d.base.progress()},
                      {"base_slices", d.base.slices},
                      {"form_slices", form_.sent_slices},
                      {"last_base_ms", d.base.last_ms},
                      {"last_analysis_ms", d.analysis.last_ms},
                      {"last_sweep_ms", d.sweep.last_ms},
                      {"last_pilot_ms", d.pilot.last_ms},
                      {"pilot_ready", d.pilot.ready},
                      {"pilot_progress", d.pilot.progress()},
                      {"comparison_ready", comparison_current()},
                      {"comparison_slices", d.comparison.slices},
                      {"recomputes", d.recomputes},
                      {"edits", d.edits},
                      {"analysis_ready", d.analysis.ready},
                      {"analysis_progress", analysis_progress()},
                      {"analysis_slices", d.analysis.slices},
                      {"link", d.link},
                      {"valid", d.valid},
                      {"settled", settled()},
                      {"banners_shown", ui.banners_shown},
                      {"input_idle", !input.queued() && loop.frames_drawn >= loop.settled_at_frame},
                      {"undo_steps", history_.undo_steps()},
                      {"redo_steps", history_.redo_steps()},
                      {"results_tab", ui.results_tab},
                      {"narrow", ui.narrow},
                      {"compact", ui.compact},
                      {"recording", items.recording()},
                      {"missing_glyphs", items.missing_glyphs()},
                      {"duplicate_ids", items.duplicate_ids()},
                      {"first_frame_at_ms", d.first_frame_at_ms}})
      .dump();
}

std::string App::scenario_json() const { return scenario_to_json(scenario).dump(); }

std::string App::share_url() const { return page_url_without_fragment() + "#" + d.link; }

}  // namespace traincost::web
