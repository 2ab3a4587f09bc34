#pragma once
// How results read, wherever they are shown: the cells of the results table (the CLI's text,
// Markdown and CSV reports, the page's canvas table and its text mirror all use these), the one
// word saying whether an option can run the job, figure citations, and the escaping rule of each
// output format.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traincost/base/text.hpp"
#include "traincost/data/catalog.hpp"
#include "traincost/engine/evaluate.hpp"
#include "traincost/scenario/fields.hpp"
#include "traincost/scenario/labels.hpp"

namespace traincost {

// The results table: one row per option.
struct ResultColumn {
  const char* header;        // "Fully loaded per run"
  const char* short_header;  // "All-in / run", where space is short (the page's canvas)
  const char* tip;           // what the column means
};
const std::vector<ResultColumn>& result_columns();
// The columns by name, in result_columns() order: cells[column_index(ResultCol::FullyLoaded)].
// Two prices of a token, named apart: ComputeUsdPerMTokens is the hardware alone (compute only),
// UsdPerMTokens the fully loaded cost (all-in, one-time costs spread over the runs).
enum class ResultCol : size_t { Option, WallClock, ChipHours, Hardware, ComputeUsdPerMTokens, OneTime, FullyLoaded, UsdPerMTokens, Status, Count };
constexpr size_t column_index(ResultCol column) { return static_cast<size_t>(column); }

// The row of an option, in column order; the first cell is the option's label (unescaped).
std::vector<std::string> result_cells(const std::string& label, const OptionResult& result);

// The status column, one word or phrase: "fits" when the option can run the job; otherwise why
// not: "needs 4+ instances", "does not fit", "fails too often", "target unreachable".
std::string status_text(const OptionResult& result);
// The same for a size the sweep tried (no deadline sizing).
std::string status_text(Infeasible why, const MemoryFit& memory);
// A sentence for a tooltip: the memory figures when it runs, the reason when it cannot.
std::string status_detail(const OptionResult& result);

// ---- Estimates ---------------------------------------------------------------------------------

// Which of an option's results rest on an estimate, and why: its MFU is predicted for a chip with
// no published measurement, its hourly price is a catalog figure marked as an estimate, its price
// is for another region than the reference
// option's (prices differ by region), or its porting effort is the catalog's estimated default.
struct EstimateFlags {
  bool speed = false;     // MFU: time, chip-hours and every cost
  bool price = false;     // price: every cost
  bool one_time = false;  // porting effort: the one-time cost and the all-in ones (per run, $/M tok)
  std::vector<std::string> reasons;  // one sentence each, naming the option
  bool any() const { return speed || price || one_time; }
};
// The mark put before a figure that rests on an estimate.
inline constexpr const char* kEstimateMark = "≈";
EstimateFlags estimate_flags(const Scenario& scenario, const ResolvedScenario& resolved, size_t workload, size_t option,
                             const Catalog& catalog);
// result_cells() with kEstimateMark before each figure that rests on an estimate.
std::vector<std::string> result_cells(const std::string& label, const OptionResult& result, const EstimateFlags& flags);
// Whether a column rests on an estimate under `flags`.
bool column_is_estimate(ResultCol column, const EstimateFlags& flags);
// "≈ rests on an estimate: …" for a table's footnote, or "" when nothing does.
std::string estimate_footnote(const Scenario& scenario, const ResolvedScenario& resolved, size_t workload, const Catalog& catalog);

// A field's name in a form: its label, capitalized, with its unit when the value alone does not
// say it ("Porting effort (engineer-weeks)", "Discount", "Price").
std::string field_label(const FieldSpec& field);

// A run "as published runs realized": the planned figures × the catalog's whole-run spread
// (Catalog::whole_run, the ratio of published to predicted chip-hours over the replayed runs):
// its 10th percentile, median and 90th percentile. Shown for an option that can run the job,
// unless its MFU is a published run's realized one (it includes the whole run already) or the
// workload sets its own whole_run_factor (its figures are then the realized ones).
struct AsRealized {
  bool shown = false;
  double chip_hours[3] = {0, 0, 0};       // low, median, high
  double wall_clock_hours[3] = {0, 0, 0};
  double hardware_cost[3] = {0, 0, 0};    // per run: the training part scales, compilation does not
};
AsRealized as_realized(const Workload& workload, const OptionResult& result, const PairInputs& pair, const Catalog& catalog);
// One line per workload: "As published runs realized (80% interval, 16 replayed runs): Trn2 x16
// 410k to 1.1M chip-hours, $1.2M to $3.3M; …"; "" when no option shows it.
std::string as_realized_line(const Scenario& scenario, const ResolvedScenario& resolved, const Results& results, size_t workload);
// How sure a whole run is, for the "how sure" texts: "whole runs: published runs took ×0.65 to
// ×1.7 of the plan (80% interval; 75% of 16 runs inside it when each is held out; the plan's
// median error 30%)"; "" without a fit.
std::string whole_run_note(const Catalog& catalog);
// A value of a scenario field as people read it, by the field's display style: "$35.76", "30%",
// "8.0B", "0.35".
std::string field_value_text(const FieldSpec& field, double value);

// "AWS Neuron docs: Trainium2 architecture, 2025-12-02 (estimate). Note…", or "" for an absent figure.
std::string citation(const Figure& figure, const Catalog& catalog);

}  // namespace traincost
