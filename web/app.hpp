#pragma once
// The calculator: one Scenario (what the user compares), the UI state around it, and the
// results derived from it. Panels render from this state and report edits; the app then
// validates, recomputes, and keeps the link, the autosave, the undo history and the page's text
// mirror in step. It also owns everything the page keeps between frames (main loop, input
// mending, widget registry, widget state): there is no other global state.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "input_repair.hpp"
#include "item_registry.hpp"
#include "sliced_job.hpp"
#include "sweep_state.hpp"
#include "traincost/engine/evaluate.hpp"
#include "traincost/engine/evaluation_run.hpp"
#include "traincost/engine/replay.hpp"
#include "traincost/engine/sweep.hpp"
#include "traincost/engine/pilot.hpp"
#include "traincost/engine/thresholds.hpp"
#include "traincost/engine/uncertainty.hpp"
#include "traincost/output/compare.hpp"
#include "ui/charts.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"
#include "undo.hpp"

struct GLFWwindow;

namespace traincost::web {

enum class BannerKind { Info, Warning, Error };
struct Banner {
  BannerKind kind = BannerKind::Info;
  std::string text;
  std::string action;  // label of the banner's button, if any ("Restore my scenario")
  int action_id = 0;
  double expires_ms = 0;  // 0: until dismissed
};

// Everything about the page that is not the scenario.
// The pilot tab's choice of options to pilot: an index into the scenario's options, -1 for the
// core's choice (the candidate: of the leader and runner-up, the one with the larger fixed cost;
// the incumbent: the other), as `traincost pilot --candidate/--against`.
struct PilotAim {
  int candidate = -1, incumbent = -1;
  bool operator==(const PilotAim& o) const { return candidate == o.candidate && incumbent == o.incumbent; }
  bool operator!=(const PilotAim& o) const { return !(*this == o); }
};

// What the "By chip" tab compares (compare_view.cpp): the selected workload, on each instance sized
// one way and sorted one way. The tab's own choice, not part of the scenario or link.
struct ComparisonAim {
  size_t workload = 0;
  double chips = 0;  // every row on the fewest instances with at least this many chips; 0: each sized to finish in kDefaultRunDays
  CompareSort sort = CompareSort::Cost;
  bool operator==(const ComparisonAim& o) const { return workload == o.workload && chips == o.chips && sort == o.sort; }
  bool operator!=(const ComparisonAim& o) const { return !(*this == o); }
};

struct UiState {
  bool dark = true;
  bool theme_follows_system = true;
  bool embed = false;           // ?embed=1: the compact view for iframes
  int workload = 0;             // selected workload tab
  int explain_option = -1;      // option whose formulas are expanded
  bool narrow = false;          // one column (window narrower than about 60 em)
  bool compact = false;         // phone-sized: toolbar in a menu, tables as cards
  bool open_share = false, open_import = false, open_saved = false, open_hf = false;
  bool open_replay = false;      // "Compare with a published run"
  int replay_option = -1;        // the option its button sets the utilization of
  std::string replay_run;        // the run chosen in it (id)
  int results_tab = 0;          // 0 results, 1 uncertainty, 2 catalog, 3 what would change it (kPilotTab), 4 by chip (kChipsTab)
  int select_results_tab = -1;  // a tab to select in the next frame (keyboard, tests)
  bool jump_to_results = false;  // the phone's "Jump to the results table": scrolls there in this frame
  PilotAim pilot_aim;           // the options the pilot tab plans for (not part of the scenario or link)
  double compare_chips = 0;     // the "By chip" tab's size (ComparisonAim::chips) and order
  CompareSort compare_sort = CompareSort::Cost;
  bool runs_per_month = false;  // the runs field shows runs per month × months
  // The accessible form's group of layout pins and cost overrides shows this workload on this option.
  size_t form_pair_workload = 0, form_pair_option = 0;
  // The "Pilot results" dialog (pilot_log_dialog.cpp): the log pasted, the option and size it is
  // of (-1 and unset: the pilot plan's candidate and the log's world size), and what reading it
  // showed (the preview), of the text, option and size in `pilot_log_read` (Apply needs them equal).
  bool open_pilot_log = false;
  std::string pilot_log_text, pilot_log_preview, pilot_log_problems, pilot_log_read;
  int pilot_log_option = -1;
  std::optional<double> pilot_log_instances;
  std::string import_text, hf_text, save_name;
  std::string hf_problems, import_problems;
  std::string announcement;     // the last confirmation, in the text mirror
  unsigned banners_shown = 0;   // banners shown since the page opened (tests wait for the next one)
  std::vector<Banner> banners;
  std::string pending_png;      // chart to save as PNG after the next frame ("" none)
  float pending_png_rect[4] = {0, 0, 0, 0};
  // Where each chart was drawn last frame (its PNG button sits above it); per view.
  chart::Rect cumulative_rect, embed_cumulative_rect, breakdown_rect, histogram_rect, tornado_rect;
  chart::Rect sweep_rect;
};

// Units in the base evaluation's first chunk, before its rate is known: one, since a unit (a
// layout search) can cost from a tenth of a millisecond to tens in WebAssembly. The slice goes on
// a chunk at a time until its time is spent (SlicedJob), so a small scenario (the default
// example: 8 units) is still done in the edit's own frame.
inline constexpr size_t kBaseFirstSlice = 1;

// What is computed from the scenario.
struct Derived {
  bool valid = false;
  Problems problems;             // of the edited scenario; results stay those of the last valid one
  Scenario scenario;             // the scenario the results describe (the last valid one once `base` is ready)
  ResolvedScenario resolved;
  Results results;
  // The base evaluation (resolve and evaluate, with their deadline searches: evaluation_run.hpp)
  // of `pending`, due at once on every edit and run a slice per task (App::work_slice); a small scenario's is done
  // in the edit's own slice. Until it is, `scenario`, `resolved` and `results` stay those before
  // (shown as updating), and the jobs below wait for it; it replaces all three at once, so nothing
  // ever reads half-filled results.
  SlicedJob<EvaluationRun> base{kBaseFirstSlice, 1};
  Scenario pending;              // last valid scenario (what the link and the autosave hold)
  std::string link;              // "s=1.…" of the last valid scenario
  // Per workload, its leader's thresholds against its runner-up (thresholds.hpp): computed with the
  // results, as they are cheap (two evaluations of one pair per input).
  std::vector<std::vector<Threshold>> thresholds;
  // The work that follows a pause in editing, a slice per task (sliced_job.hpp); each keeps the
  // result before until its new one is ready.
  // - The Monte Carlo of the selected workload: starts kAnalysisDelayMs after the last edit.
  SlicedJob<AnalysisRun> analysis;
  // - The cluster-size sweep of the selected workload (sweep_state.hpp): a few sizes a slice, a
  //   little before the Monte Carlo. `has_result`: there is a chart to draw (maybe of the scenario before).
  SlicedJob<SweepRun> sweep{kSweepFirstSlice, 1};
  // - The pilot plan of the selected workload. Its value of information is a Monte Carlo, so it is
  //   planned only while its tab is open, after the analysis (never in the frame of an edit), and
  //   kept until the scenario or the workload changes.
  SlicedJob<PilotPlanRun> pilot;
  std::string pilot_markdown;    // its export, written once per plan
  PilotAim pilot_aimed;          // the aim its plan was made for
  // - The chip-by-chip table of the selected workload: only while its tab is open, a few rows a
  //   frame (a row is an evaluation with its own sizing search), kept until the scenario or the
  //   tab's aim changes.
  SlicedJob<ComparisonRun> comparison{1, 1};
  ComparisonAim comparison_aim;      // of `comparison.result`
  ComparisonAim comparison_running;  // of `comparison.run`
  PriceAge prices;               // how old the catalog's prices are today (once, at start: price_age_view.hpp)
  Replay replay;                 // the published runs replayed (catalog only: computed once, when first shown)
  bool replay_ready = false;
  double persist_due_ms = 0;     // URL and autosave are written after a pause in editing
  double last_compute_ms = 0;    // CPU time of the last recompute (evaluate + text mirror)
  unsigned recomputes = 0;
  unsigned edits = 0;            // scenario changes (edits, loads, undo) since the page opened
  double last_frame_ms = 0;            // CPU time of the last frame (UI, recompute, drawing)
  double last_recompute_frame_ms = 0;  // of the last frame that recomputed the results
  double first_frame_ms = 0;           // CPU time of the first frame drawn
  double first_frame_at_ms = 0;        // when it was on screen (ms since the page started loading)
};

// The page's main loop (main.cpp) and what it keeps.
struct Loop {
  GLFWwindow* window = nullptr;
  int frames_left = 0;        // frames still promised to earlier input (pacing.hpp)
  bool paused = false;
  bool started = false;
  double wake_at_ms = 0;      // a timed wake-up is pending for then (0: none)
  double pump_at_ms = 0;      // the background work's next slice is pending for then (0: none)
  double progress_frame_at_ms = 0;  // when the pump last asked for a frame
  unsigned frames_drawn = 0;  // read by the browser tests through tc_frames_drawn()
  // The frame count by which the last wake-up's frames are drawn: input has settled then even
  // while background work (a Monte Carlo's progress) keeps asking for frames.
  unsigned settled_at_frame = 0;
  int backbuffer_w = 0, backbuffer_h = 0;
  float font_ratio = 0;       // pixel ratio the font atlas was rasterized for
  std::vector<unsigned char> fonts[3];  // Inter Regular, SemiBold, symbols (kept for re-rasterizing)
};

class App {
 public:
  App();

  void frame();         // builds this frame's UI
  void after_render();  // work that needs the frame on screen (PNG snapshots)
  bool work_now() const;      // a frame is needed now (pacing.hpp)
  double next_due_ms() const; // the earliest timed work a frame does (pacing::kNever: none)

  // The background work: the sliced jobs above (the base evaluation, the chip-by-chip table, the
  // sweep, the Monte Carlo, the pilot plan). main.cpp's pump runs it a slice per task, in tasks of
  // its own rather than in drawn frames: a drawn frame costs the browser a raster and a commit
  // besides ImGui's frame, and a slice inside it made the task that much longer (issue 33 item 5).
  bool work_slice();           // runs one slice of the most urgent job due now; true when what is shown changed
  double work_due_ms() const;  // when the next slice is due (pacing::kNever: nothing to do)
  bool working() const;        // a job is under way, its progress on the canvas

  // Browser events (main.cpp forwards them).
  void on_hashchange();
  void on_popstate();
  // An imported file's bytes and its size (bytes is empty when the file is over the limit and was not read).
  void on_file_loaded(const std::string& bytes, double size);
  void on_paste(const std::string& text);
  void on_system_theme_change();

  // Edits: the panels change `scenario` in place and call this; it validates and recomputes,
  // and records the change for undo.
  void edited();
  // Replaces the whole scenario (example, link, import): validated first; an invalid one is
  // refused with a banner and the current scenario stays. A new browser history entry is made
  // for it with History::NewEntry (Back returns to the scenario before).
  enum class History { NewEntry, SameEntry };  // Back returns to the scenario before, or opening it is no step of its own
  bool replace_scenario(const std::string& json_text, const std::string& what, History history = History::NewEntry);
  bool replace_scenario(const Scenario& s, const std::string& what, History history = History::NewEntry);
  // Import: a scenario JSON, a share link (or a page address with one), or a Hugging Face
  // config.json (which fills the selected workload's model). Returns "" or the problem.
  std::string import_text(const std::string& text);

  void undo();
  void redo();
  bool can_undo() const { return history_.can_undo(); }
  bool can_redo() const { return history_.can_redo(); }

  void banner(BannerKind kind, const std::string& text, double seconds = 0, const std::string& action = "", int action_id = 0);
  // A short confirmation for screen readers ("Copied to the clipboard."), in the text mirror.
  void announce(const std::string& text);
  enum class ThemeChoice { FollowSystem, Chosen };  // the system's light or dark, or the user's own choice
  void set_theme(bool dark, ThemeChoice choice);
  void restore_autosave();  // brings back the scenario a link displaced
  std::string share_url() const;
  std::string stats_json() const;     // timings and state for the browser tests (Module._tc_stats)
  std::string scenario_json() const;  // the scenario being edited, in full (Module._tc_scenario)
  void note_frame_time(double ms, bool recomputed);

  // The widget registry (item_registry.hpp), for tests and keyboard focus.
  void record_items(bool on);
  std::string items_json() const { return items.json(); }
  bool reveal(const std::string& name);  // scrolls the named item into view
  double analysis_progress() const;      // share of the running Monte Carlo's samples done (0 when none runs)
  // The base evaluation of the last valid edit is running: the results shown are of the scenario
  // before (or none yet, on opening a heavy link).
  bool base_updating() const;

  // The selected workload tab (ui.workload) as an index into the results (d.scenario, d.resolved,
  // d.results), and into the scenario being edited: each within its own workloads (an invalid edit
  // can leave the edited scenario with one more or one fewer), 0 when there are none.
  size_t selected_workload() const;
  // The pilot tab's aim as the results can take it: an option that no longer exists, or the
  // incumbent chosen as the candidate, falls back to the core's choice (-1).
  PilotAim pilot_aim() const;
  void aim_pilot(PilotAim aim);  // the user chose: plan again now
  // What the "By chip" tab shows now (the selected workload and the tab's size and order).
  ComparisonAim comparison_aim() const;
  // Whether `d.comparison.result` is the table of the current results and aim.
  bool comparison_current() const;
  size_t edited_workload() const;

  Scenario scenario;
  UiState ui;
  Derived d;
  Loop loop;
  InputRepair input;
  ItemRegistry items;
  widget::State widgets;
  ThemeState theme;

 // The accessible form as the last publish() left the page, at once: after an edit made in the
  // form, so that the form shows the edit as the scenario took it before the edit returns.
  void publish_form();

 private:
  void recompute();
  void run_base();           // advances the base evaluation by one slice
  void base_done();          // its results in place; the work that follows them scheduled
  void run_analysis();       // starts or advances the Monte Carlo by one slice
  void run_pilot();
  bool pilot_wanted() const;  // the pilot tab is open and its plan is not yet that of the scenario
  void run_comparison();
  bool comparison_wanted() const;  // the "By chip" tab is open and its table is not yet that of the scenario and aim
  void persist();
  void publish();
  void load_initial_scenario();
  void commit_history(const std::string& what);
  void step_to(const Scenario& s, const std::string& message);  // undo/redo's shared half
  void keyboard();           // Tab focus, Enter on a focused button, undo shortcuts
  void move_focus(int direction);
  bool settled() const;

  size_t published_banners_ = 0;
  unsigned publishes_ = 0;       // publish() calls: work_slice() tells a frame that what is shown changed
  bool sweep_turn_ = false;      // the sweep and another job are due: they take turns, a slice each
  // The form publish() asked for, built a few groups per task (publish_form_slice): on the heavy
  // link its 27 groups took 40-80 ms in one task, over 100 ms with the page's part (issue 33 item 5).
  // A publish() while it is built starts it again, so a form never mixes two scenarios.
  struct FormBuild {
    bool due = false;         // publish() has changed what the form may show
    size_t next = 0;          // the next group to build
    std::string groups;       // the groups built so far, joined by commas
    bool task_pending = false;  // a publish_form_slice() task is posted
    unsigned slices = 0;        // tasks this build has taken so far
    unsigned sent_slices = 0;   // tasks the form last sent took (Module._tc_stats, for the tests)
  } form_;
  std::string published_form_;   // the form's JSON as last sent (an unchanged form is not sent again)
  void publish_form_slice();
  void send_form(std::string form);
  std::string clipboard_;        // ImGui's clipboard: filled by copies and by the page's paste event
  std::string autosave_backup_;  // the autosave a link displaced, offered back by a banner
  UndoHistory<Scenario> history_;
  bool text_input_ = false;      // a text field was being edited last frame
  bool tabbing_ = false;         // the keyboard has moved focus (the registry records for it)
  bool tests_record_ = false;    // a test asked for the registry
  friend const char* get_clipboard(void*);
  friend void set_clipboard(void*, const char*);
  friend std::string form_edit(App& app, const std::string& path, const std::string& value);  // its view choices republish
};

// Whether `d.analysis.result` can be shown with the current results: it is kept while a new one runs (so
// the page does not collapse and jump), as long as it has the same options.
bool analysis_usable(const Derived& d);
// The sentence saying most simulated futures favour another option than the headline's
// (analysis_less_likely), for workload w once its Monte Carlo has run; else "".
std::string analysis_doubt(const Derived& d, size_t w);

// Options whose expected runs take longer than the workload's horizon ("Trn2 x64: 2 runs × 232
// days = 464 days, longer than the 12-month horizon"), for the verdict and the text mirror.
std::vector<std::string> schedule_warnings(const Derived& d, size_t workload);

// The results tab that shows the thresholds and the pilot plan (UiState::results_tab).
inline constexpr int kPilotTab = 3;
// The chip-by-chip tab (compare_view.cpp).
inline constexpr int kChipsTab = 4;

// Action ids for banner buttons.
enum BannerAction { kRestoreAutosave = 1, kUndoLoad = 2 };

}  // namespace traincost::web
