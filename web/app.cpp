#include "app.hpp"

#include <algorithm>

#include "imgui.h"
#include "platform.hpp"
#include "presets.hpp"
#include "traincost/format.hpp"
#include "traincost/link.hpp"
#include "traincost/present.hpp"
#include "traincost/report.hpp"
#include "traincost/verdict.hpp"
#include "ui/layout.hpp"
#include "ui/theme.hpp"

namespace traincost::web {
namespace {

constexpr const char* kAutosaveKey = "traincost.autosave";
constexpr const char* kThemeKey = "traincost.theme";
constexpr double kPersistDelayMs = 400;   // URL and autosave follow edits after this pause
constexpr double kAnalysisDelayMs = 250;  // Monte Carlo reruns after this pause (debounce while dragging)

std::string clipboard_text;  // ImGui's clipboard: filled by copies and by the page's paste event

const char* get_clipboard(void*) { return clipboard_text.c_str(); }
void set_clipboard(void*, const char* text) {
  clipboard_text = text ? text : "";
  copy_to_clipboard(clipboard_text);
}

std::string first_problems(const Problems& problems, size_t max = 4) {
  std::string text;
  for (size_t i = 0; i < problems.size() && i < max; ++i)
    text += (i ? "; " : "") + (problems[i].path == "link" ? "the link " + problems[i].message : to_string(problems[i]));
  if (problems.size() > max) text += "; and " + std::to_string(problems.size() - max) + " more";
  return text;
}

std::string autosave_backup;  // the autosave a link displaced, offered back by a banner

}  // namespace

App::App() {
  ImGuiIO& io = ImGui::GetIO();
  io.GetClipboardTextFn = get_clipboard;
  io.SetClipboardTextFn = set_clipboard;
  ui.embed = url_query("embed") == "1";
  const std::string theme = storage_get(kThemeKey);
  set_theme(theme == "dark" || (theme != "light" && prefers_dark_theme()), theme != "dark" && theme != "light");
  load_initial_scenario();
}

void App::set_theme(bool dark, bool follow_system) {
  ui.dark = dark;
  ui.theme_follows_system = follow_system;
  apply_theme(dark);
}

void App::on_system_theme_change() {
  if (ui.theme_follows_system) set_theme(prefers_dark_theme(), true);
}

void App::banner(BannerKind kind, const std::string& text, double seconds, const std::string& action, int action_id) {
  // The same message again replaces the old one rather than stacking up.
  ui.banners.erase(std::remove_if(ui.banners.begin(), ui.banners.end(), [&](const Banner& b) { return b.text == text; }),
                   ui.banners.end());
  ui.banners.push_back({kind, text, action, action_id, seconds > 0 ? now_ms() + seconds * 1000 : 0});
  if (ui.banners.size() > 4) ui.banners.erase(ui.banners.begin());
  publish();
}

void App::load_initial_scenario() {
  const std::string autosave = ui.embed ? std::string() : storage_get(kAutosaveKey);
  const std::string fragment = url_fragment();
  if (fragment.rfind("s=", 0) == 0) {
    Problems problems;
    std::vector<std::string> notices;
    if (auto s = decode_link(fragment, builtin_catalog(), problems, &notices)) {
      replace_scenario(*s, "");
      for (const std::string& n : notices) banner(BannerKind::Warning, n);
      Problems autosave_problems;
      if (!autosave.empty() && parse_scenario(autosave, builtin_catalog(), autosave_problems) &&
          autosave != scenario_to_json(scenario, true).dump()) {
        autosave_backup = autosave;
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
      replace_scenario(*s, "");
      return;
    }
    banner(BannerKind::Warning, "Your autosaved scenario could not be read (" + first_problems(problems, 2) + "); starting from the default.");
  }
  replace_scenario(std::string(default_scenario_json()), "");
}

bool App::replace_scenario(const std::string& json_text, const std::string& what) {
  Problems problems;
  auto s = parse_scenario(json_text, builtin_catalog(), problems);
  if (!s) {
    banner(BannerKind::Error, (what.empty() ? std::string("The scenario") : what) + " was not loaded: " + first_problems(problems) +
                                  ". Your current scenario is unchanged.");
    return false;
  }
  return replace_scenario(*s, what);
}

bool App::replace_scenario(const Scenario& s, const std::string& what) {
  scenario = s;
  if (scenario.catalog.empty()) scenario.catalog = builtin_catalog().version;
  ui.workload = std::clamp(ui.workload, 0, static_cast<int>(scenario.workloads.size()) - 1);
  ui.explain_option = -1;
  edited();
  if (!what.empty()) banner(BannerKind::Info, "Loaded " + what + ".", 4);
  return d.valid;
}

void App::edited() {
  d.problems = validate(scenario, builtin_catalog());
  d.valid = d.problems.empty();
  if (!d.valid) {  // the results keep describing the last valid scenario
    publish();
    return;
  }
  recompute();
}

void App::recompute() {
  const double start = now_ms();
  d.scenario = scenario;
  d.resolved = resolve(scenario, builtin_catalog());
  evaluate(d.resolved, d.results);
  d.link = "s=" + encode_link(scenario);
  d.analysis_ready = false;
  d.analysis_due_ms = now_ms() + kAnalysisDelayMs;
  d.persist_due_ms = now_ms() + kPersistDelayMs;
  publish();
  d.last_compute_ms = now_ms() - start;
  ++d.recomputes;
}

void App::run_analysis() {
  const double start = now_ms();
  AnalyzeOptions options;
  options.samples = d.scenario.analysis.samples;
  options.seed = d.scenario.analysis.seed;
  options.workload = static_cast<size_t>(std::clamp(ui.workload, 0, static_cast<int>(d.scenario.workloads.size()) - 1));
  d.analysis = analyze(d.scenario, builtin_catalog(), options);
  d.analysis_ready = true;
  d.last_analysis_ms = now_ms() - start;
}

void App::persist() {
  replace_url_fragment(d.link);
  if (!ui.embed && !storage_set(kAutosaveKey, scenario_to_json(d.scenario, true).dump()))
    banner(BannerKind::Warning, "This browser does not let the page save your scenario (storage blocked); use Share or Export to keep it.", 8);
}

// The verdict and the results table as text in the page's DOM (see calculator.js).
void App::publish() {
  OrderedJson j;
  OrderedJson columns = OrderedJson::array();
  for (const ResultColumn& c : result_columns()) columns.push_back(c.header);
  j["columns"] = columns;
  OrderedJson workloads = OrderedJson::array();
  for (size_t w = 0; w < d.results.workloads.size(); ++w) {
    const WorkloadResult& wr = d.results.workloads[w];
    OrderedJson rows = OrderedJson::array();
    for (size_t o = 0; o < wr.options.size(); ++o) rows.push_back(result_cells(d.resolved.options[o].label, wr.options[o]));
    workloads.push_back({{"name", workload_title(d.scenario.workloads[w], w)},
                         {"verdict", workload_verdict(d.resolved, d.results, w)},
                         {"rows", rows}});
  }
  j["workloads"] = workloads;
  if (d.results.workloads.size() > 1) j["portfolio"] = portfolio_verdict(d.resolved, d.results);
  // Banners are part of what the page says: screen readers and tests read them here too.
  OrderedJson banners = OrderedJson::array();
  for (const Banner& b : ui.banners)
    banners.push_back({{"kind", b.kind == BannerKind::Error ? "error" : b.kind == BannerKind::Warning ? "warning" : "info"}, {"text", b.text}});
  j["banners"] = banners;
  if (!d.valid) j["status"] = "Some inputs need fixing: " + first_problems(d.problems) + ". Results are for the last valid scenario.";
  publish_results(j.dump());
  published_banners_ = ui.banners.size();
}

bool App::wants_frames() const {
  const double now = now_ms();
  return (!d.analysis_ready && d.valid) || (d.persist_due_ms > 0) || !ui.pending_png.empty() ||
         std::any_of(ui.banners.begin(), ui.banners.end(), [&](const Banner& b) { return b.expires_ms > 0 && b.expires_ms > now - 1; });
}

void App::frame() {
  const double now = now_ms();
  if (d.persist_due_ms > 0 && now >= d.persist_due_ms) {
    d.persist_due_ms = 0;
    persist();
  }
  if (!d.analysis_ready && d.valid && now >= d.analysis_due_ms) run_analysis();
  ui.banners.erase(std::remove_if(ui.banners.begin(), ui.banners.end(), [&](const Banner& b) { return b.expires_ms > 0 && b.expires_ms < now; }),
                   ui.banners.end());
  // Re-run the Monte Carlo when another workload is selected.
  if (d.analysis_ready && d.valid && d.analysis.workload != static_cast<size_t>(std::clamp(ui.workload, 0, static_cast<int>(d.scenario.workloads.size()) - 1))) {
    d.analysis_ready = false;
    d.analysis_due_ms = now;
  }
  draw_app(*this);
  if (ui.banners.size() != published_banners_) publish();
}

void App::after_render() {
  if (ui.pending_png.empty()) return;
  const float* r = ui.pending_png_rect;
  download_canvas_png(ui.pending_png, r[0], r[1], r[2], r[3]);
  ui.pending_png.clear();
}

void App::on_hashchange() {
  const std::string fragment = url_fragment();
  if (fragment == d.link || fragment.rfind("s=", 0) != 0) return;
  Problems problems;
  std::vector<std::string> notices;
  if (auto s = decode_link(fragment, builtin_catalog(), problems, &notices)) {
    replace_scenario(*s, "the scenario from the link");
    for (const std::string& n : notices) banner(BannerKind::Warning, n);
  } else {
    banner(BannerKind::Error, "This link could not be opened: " + first_problems(problems) + ". Your current scenario is unchanged.");
    replace_url_fragment(d.link);
  }
}

void App::on_file_loaded(const std::string& text) {
  if (text.rfind("{\"__too_large__\"", 0) == 0) {
    banner(BannerKind::Error, "That file is larger than 1 MB; a TrainCost scenario is a few kilobytes. Nothing was loaded.");
    return;
  }
  replace_scenario(text, "the imported file");
}

void App::on_paste(const std::string& text) { clipboard_text = text; }

void App::restore_autosave() {
  if (!autosave_backup.empty()) replace_scenario(autosave_backup, "your previous scenario");
  autosave_backup.clear();
}

void App::note_frame_time(double ms, bool recomputed) {
  d.last_frame_ms = ms;
  if (recomputed) d.last_recompute_frame_ms = ms;
}

std::string App::stats_json() const {
  return OrderedJson({{"last_compute_ms", d.last_compute_ms},
                      {"last_frame_ms", d.last_frame_ms},
                      {"last_recompute_frame_ms", d.last_recompute_frame_ms},
                      {"last_analysis_ms", d.last_analysis_ms},
                      {"recomputes", d.recomputes},
                      {"analysis_ready", d.analysis_ready},
                      {"link", d.link},
                      {"valid", d.valid}})
      .dump();
}

std::string App::share_url() const { return page_url_without_fragment() + "#" + d.link; }

}  // namespace traincost::web
