#pragma once
// The library of published training runs (assets/published_runs.json): for each run, what its
// sources state (model, tokens, chip, chip count, wall-clock or chip-hours, MFU and its counting
// convention, cost), each figure with its source and the date it speaks for. It is embedded at
// build time like the catalog, because scenarios may name a run (an option's `mfu_from_run`).
//
// Only stated figures are recorded. A field no source states is listed in `missing`; an input the
// replay needs but no source gives (Meta's GPU counts) is a figure marked `assumed`; a figure
// computed from stated ones (a duration from stated dates) is marked `derived`.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traincost/data/catalog.hpp"
#include "traincost/scenario/scenario.hpp"

namespace traincost {

// One figure of a run. Cited's month_only covers YYYY-MM dates; year_only YYYY ones (a few
// secondary sources give no more).
struct RunFigure : Cited {
  double value = NAN;
  double low = NAN, high = NAN;  // where the source gives a range (Llama 3's MFU by stage)
  bool year_only = false;
  bool assumed = false;      // no source states it; the replay needs it
  bool derived = false;      // computed from stated figures (see note)
  bool approximate = false;  // the source says "about", "roughly"
  std::string note;
  std::string convention;    // MFU: how the source counted FLOPs
  std::string covers;        // cost: what the stated cost includes

  bool present() const { return !std::isnan(value); }
};

struct PublishedRun {
  std::string id;            // forever: scenarios name it (mfu_from_run)
  std::string name, org, kind, architecture, hardware, note;
  int year = 0;
  std::string chip;          // catalog chip id (an H800 run replays as H100: see hardware)
  Precision precision = Precision::BF16;
  Model model;
  Cited model_source;
  RunFigure tokens, chips, wall_clock_days, chip_hours, mfu, cost_usd, global_batch_sequences;
  std::vector<std::string> missing;      // fields no source states
  std::vector<std::string> calibration;  // assets/measurements.json rows of this run's step throughput
  // The MoE token dispatcher the run's source describes ("moe_dispatcher": {"value": "flex", ...});
  // absent: all_to_all, as a scenario's default.
  MoeDispatcher moe_dispatcher = MoeDispatcher::AllToAll;
  Cited moe_dispatcher_source;

  bool in_calibration() const { return !calibration.empty(); }
  // The run's chip-hours as published: stated, else the stated wall-clock × the stated chips;
  // 0 when neither (or when the chip count is only assumed).
  double published_chip_hours() const;
  bool chip_hours_from_wall_clock() const { return !chip_hours.present() && published_chip_hours() > 0; }
  // "Meta, 2024": who and when, as explain names a run.
  std::string attribution() const { return org + ", " + std::to_string(year); }
};

struct RunSource {
  std::string id, title, url;
  bool secondary = false;
};

struct RunLibrary {
  std::string split_rule;
  std::vector<RunSource> sources;
  std::vector<PublishedRun> runs;
  const PublishedRun* find(std::string_view id) const;
  const RunSource* find_source(std::string_view id) const;
  std::string ids() const;  // "hlat-7b, rinna-nekomata-14b, ...": for messages
};

// Parses and checks the library against the catalog: unknown keys, a chip the catalog lacks, a
// figure without a known source or a valid date, a field neither given nor listed in `missing`.
std::optional<RunLibrary> load_published_runs(std::string_view json_text, const Catalog& catalog, Problems& problems);

// The MFU the run realized over its whole duration: model FLOPs of its tokens (6·N + 12·l·h·s
// when its architecture is known, as the step-time model counts) over what its chips could have
// done in its published chip-hours at the dense peak of its precision. 0 without a published
// duration or tokens. Restarts, evaluation and stalls are inside it: it is below a step MFU.
double realized_mfu_of(const PublishedRun& run, const Catalog& catalog);
// What is wrong with an option's `mfu_from_run` (one message per problem, for that field): an
// unknown run (the message lists the ids), a run without a realized MFU, an MFU or measured
// throughput given as well, a run on another chip family than the option's.
std::vector<std::string> mfu_from_run_problems(const Option& option, Family option_family, const Catalog& catalog);

// The three numbers behind it (for the explain text); all 0 when the run has no realized MFU.
struct RealizedMfuInputs {
  double training_flops = 0, chip_hours = 0, peak_flops = 0;
};
RealizedMfuInputs realized_mfu_inputs(const PublishedRun& run, const Catalog& catalog);

}  // namespace traincost
