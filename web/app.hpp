#pragma once
// The calculator: one Scenario (what the user compares), the UI state around it, and the
// results derived from it. Panels render from this state and report edits; the app then
// validates, recomputes, and keeps the link, the autosave and the page's text mirror in step.
#include <string>
#include <vector>

#include "traincost/evaluate.hpp"
#include "traincost/uncertainty.hpp"

namespace traincost::web {

enum class BannerKind { Info, Warning, Error };
struct Banner {
  BannerKind kind = BannerKind::Info;
  std::string text;
  std::string action;  // label of the banner's button, if any ("Restore autosave")
  int action_id = 0;
  double expires_ms = 0;  // 0: until dismissed
};

// Everything about the page that is not the scenario.
struct UiState {
  bool dark = true;
  bool theme_follows_system = true;
  bool embed = false;           // ?embed=1: the compact view for iframes
  int workload = 0;             // selected workload tab
  int explain_option = -1;      // option whose formulas are expanded
  bool narrow = false;          // columns stacked (window below ~900 px)
  bool open_share = false, open_import = false, open_saved = false, open_hf = false;
  int results_tab = 0;          // 0 results, 1 uncertainty, 2 catalog
  bool runs_per_month = false;  // the runs field shows runs per month × months
  std::string import_text, hf_text, save_name;
  std::string hf_problems;
  std::vector<Banner> banners;
  std::string pending_png;      // chart to save as PNG after the next frame ("" none)
  float pending_png_rect[4] = {0, 0, 0, 0};
};

// What is computed from the scenario.
struct Derived {
  bool valid = false;
  Problems problems;             // of the edited scenario; results stay those of the last valid one
  Scenario scenario;             // last valid scenario (what the results describe)
  ResolvedScenario resolved;
  Results results;
  std::string link;              // "s=1.…" of the last valid scenario
  Analysis analysis;
  bool analysis_ready = false;
  double analysis_due_ms = 0;    // Monte Carlo runs this long after the last edit
  double persist_due_ms = 0;     // URL and autosave are written after a pause in editing
  double last_compute_ms = 0;    // CPU time of the last recompute (evaluate + text mirror)
  double last_analysis_ms = 0;
  unsigned recomputes = 0;
  double last_frame_ms = 0;            // CPU time of the last frame (UI, recompute, drawing)
  double last_recompute_frame_ms = 0;  // of the last frame that recomputed the results
};

class App {
 public:
  App();
  void frame();         // builds this frame's UI
  void after_render();  // work that needs the frame on screen (PNG snapshots)
  bool wants_frames() const;

  // Browser events (main.cpp forwards them).
  void on_hashchange();
  void on_file_loaded(const std::string& text);
  void on_paste(const std::string& text);
  void on_system_theme_change();

  // Edits: the panels change `scenario` in place and call this; it validates and recomputes.
  void edited();
  // Replaces the whole scenario (preset, link, import): validated first; an invalid one is refused
  // with a banner and the current scenario stays.
  bool replace_scenario(const std::string& json_text, const std::string& what);
  bool replace_scenario(const Scenario& s, const std::string& what);

  void banner(BannerKind kind, const std::string& text, double seconds = 0, const std::string& action = "", int action_id = 0);
  void set_theme(bool dark, bool follow_system);
  void restore_autosave();  // brings back the scenario a link displaced
  std::string share_url() const;
  std::string stats_json() const;  // timings and state for the browser tests (Module._tc_stats)
  void note_frame_time(double ms, bool recomputed);

  Scenario scenario;
  UiState ui;
  Derived d;

 private:
  void recompute();
  void run_analysis();
  void persist();
  void publish();
  void load_initial_scenario();
  size_t published_banners_ = 0;
};

// Action ids for banner buttons.
enum BannerAction { kRestoreAutosave = 1 };

}  // namespace traincost::web
