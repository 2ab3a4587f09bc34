#pragma once
// Replaying published runs (`traincost replay`): each run of the library becomes a scenario built
// from its public inputs only (model, tokens, chip and chip count, global batch where stated),
// evaluated with TrainCost's defaults, and compared with what the run published: chip-hours
// (stated, or the stated wall-clock × chips), the MFU the step-time model predicts against the
// MFU the run realized over its whole duration, and the goodput TrainCost expected.
//
// Nothing is tuned to a run: the gap between the predicted step MFU and the realized MFU is what
// the table exists to show (restarts, evaluation, stalls, a cluster that changed size).
#include <string>
#include <vector>

#include "traincost/engine/evaluate.hpp"
#include "traincost/evidence/published_runs.hpp"
#include "traincost/evidence/whole_run.hpp"
#include "traincost/base/json_text.hpp"

namespace traincost {

enum class ReplayStatus { Replayed, NoDuration, NoTokens, NoChips, NoLayout };
inline constexpr EnumWord<ReplayStatus> kReplayStatusWords[] = {
    {ReplayStatus::Replayed, "replayed", "replayed"},
    {ReplayStatus::NoDuration, "no_duration", "no published duration"},
    {ReplayStatus::NoTokens, "no_tokens", "no published token count"},
    {ReplayStatus::NoChips, "no_chips", "no single published chip count"},
    {ReplayStatus::NoLayout, "no_layout", "TrainCost finds no layout that runs it"}};

struct ReplayRow {
  const PublishedRun* run = nullptr;
  ReplayStatus status = ReplayStatus::Replayed;
  std::string instance;               // the catalog instance the scenario uses
  double instances = 0;
  double published_chip_hours = 0;    // stated, or stated wall-clock × chips
  double published_wall_clock_days = 0;  // 0: not published
  double predicted_chip_hours = 0;
  double predicted_wall_clock_days = 0;
  double error = 0;                   // predicted / published chip-hours − 1
  double predicted_mfu = 0;           // the step-time model's, per step (model FLOPs / dense peak)
  double realized_mfu = 0;            // over the whole run, from the published chip-hours
  double goodput = 0;                 // predicted
  Layout layout;                      // the step-time model's choice
  // Whole runs (evidence/whole_run.hpp), for a counted run: r = published / predicted chip-hours,
  // and the 80% interval of chip-hours "as published runs realized", fitted on the other runs
  // only (leave one out): predicted × the others' 10th and 90th percentiles of r.
  double ratio = 0;
  double realized_low = 0, realized_median = 0, realized_high = 0;
  bool inside = false;                // published chip-hours within [realized_low, realized_high]
  bool counted() const { return status == ReplayStatus::Replayed; }
};

struct ReplaySummary {
  int runs = 0;          // runs with a published duration that replayed
  double median = 0;     // of |error|
  double worst = 0;      // the largest |error|
  std::string worst_run;
};

struct Replay {
  std::vector<ReplayRow> rows;
  ReplaySummary all, calibration, held_out;
  WholeRunSpread whole_run;     // fitted on every counted run (what an analysis draws)
  WholeRunCheck whole_run_check;  // its leave-one-out coverage and error
};

// The ratios r = published / predicted chip-hours of the counted runs, in row order.
std::vector<double> whole_run_ratios(const Replay& replay);

// The scenario a run replays as: one workload (its model, its tokens, its batch where stated),
// one option (the catalog's AWS instance of its chip with the most chips, enough of them for its
// chip count). The convergence penalty is 0, since the published tokens are the trained ones;
// every other input is TrainCost's default.
Scenario replay_scenario(const PublishedRun& run, const Catalog& catalog);

ReplayRow replay_run(const PublishedRun& run, const Catalog& catalog);
Replay replay(const RunLibrary& library, const Catalog& catalog);

// The same replay a run at a time, for a caller that must not hold its thread for the whole of it
// (the page: about 60 ms in WebAssembly). step() replays the next run and says whether all are
// done (after finish() too, doing nothing); finish() replays what is left and returns what
// replay() returns (replay() is this loop), once. `library` and `catalog` must outlive the run.
class ReplayRun {
 public:
  ReplayRun(const RunLibrary& library, const Catalog& catalog) : library_(library), catalog_(catalog) {}
  bool step();
  Replay finish();

 private:
  const RunLibrary& library_;
  const Catalog& catalog_;
  size_t next_ = 0;  // the next run to replay
  Replay out_;
};

// The replay as JSON (`traincost replay --format json`, the API's `replay`), text, Markdown
// (docs/validation.md), CSV and HTML (the methodology page). Run names and notes are escaped for
// each format.
OrderedJson replay_json(const Replay& replay, const RunLibrary& library);
std::string replay_text(const Replay& replay);
std::string replay_markdown(const Replay& replay, const RunLibrary& library);
std::string replay_csv(const Replay& replay);
std::string replay_html(const Replay& replay, const RunLibrary& library);

// The table's column headers and one row's cells, formatted as every format above prints them
// ("Error": "+12%"): the page's dialog shows a run with the CLI's own figures.
std::vector<std::string> replay_headers();
std::vector<std::string> replay_cells(const ReplayRow& row);

}  // namespace traincost
