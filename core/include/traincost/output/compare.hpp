#pragma once
// The chip-by-chip view (`traincost compare`, the APIs' `compare`, the page's tab): one workload on
// every instance of the catalog and every way it is priced there (on demand, commitments, spot,
// Capacity Blocks), each evaluated on its own through resolve() and evaluate(), so there is no
// limit to the options of a scenario. A row says what the chip does for this model (tokens per
// second per chip, MFU), how long the run takes on the chosen size, what a million tokens cost in
// hardware alone (compute only: no porting, no one-time costs, whatever the runs), and how far
// to trust it (the step-time model's evidence for the chip, and an estimated price).
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "traincost/base/json_text.hpp"
#include "traincost/data/catalog.hpp"
#include "traincost/scenario/scenario.hpp"

namespace traincost {

enum class CompareSort { Cost, Time, Throughput };
inline constexpr EnumWord<CompareSort> kCompareSortWords[] = {
    {CompareSort::Cost, "cost", "compute-only $ per M tokens, lowest first"},
    {CompareSort::Time, "time", "wall clock, shortest first"},
    {CompareSort::Throughput, "throughput", "tokens per second per chip, highest first"}};

// How the rows are sized and ordered. Without `instances` or `chips`, each instance is sized as a
// scenario without `instances` is: the fewest that finish within kDefaultRunDays.
struct CompareOptions {
  std::optional<double> tokens;   // the target; default: the workload's own
  std::optional<int> instances;   // every row on this many instances
  std::optional<double> chips;    // or on the fewest instances with at least this many chips
  CompareSort sort = CompareSort::Cost;
};

// How far a row's throughput rests on published evidence, from the step-time model's error band
// (resolved.hpp's PairPerformance): validated (the model was validated on held-out published
// measurements of this chip), predicted (from the chip's own few measurements, or a fine-tune step
// derived from a measured full-training one), estimate (no published measurement of the chip).
enum class Evidence { Validated, Predicted, Estimate };
inline constexpr EnumWord<Evidence> kEvidenceWords[] = {
    {Evidence::Validated, "validated", "validated on published measurements of the chip"},
    {Evidence::Predicted, "predicted", "predicted from few or indirect measurements"},
    {Evidence::Estimate, "estimate", "estimate: no published measurement of the chip"}};

struct CompareRow {
  std::string label;         // "H200 x4 (p5en, spot)": the automatic label of the option evaluated
  std::string instance;      // catalog id
  std::string provider, region, chip;  // chip: its catalog name ("NVIDIA H100 SXM")
  PricingModel pricing = PricingModel::OnDemand;
  double price_usd_per_instance_hour = 0;
  double price_usd_per_chip_hour = 0;
  bool price_estimate = false;  // the catalog marks the price an estimate
  double instances = 0, chips = 0;
  bool feasible = false;
  std::string status;           // the results table's word: "fits", "does not fit", ...
  double mfu = 0;
  double tokens_per_sec_per_chip = 0;
  double wall_clock_hours = 0;  // one run on `instances`
  double hardware_cost_per_run = 0;
  double compute_usd_per_m_tokens = 0;  // compute only: hardware per run per million target tokens
  Evidence evidence = Evidence::Estimate;
  double error_median = 0;      // the step-time model's held-out median error for the chip
  std::vector<std::string> reasons;  // why a figure rests on an estimate (estimate_flags)
};

struct ChipComparison {
  std::string workload;    // its title
  bool named = false;      // the title is a typed name (an automatic one already states the size and tokens)
  double params = 0;
  double target_tokens = 0;
  std::string size;        // "on 4 instances", "on 128 chips", "sized to finish in 30 days"
  CompareSort sort = CompareSort::Cost;
  std::vector<CompareRow> rows;  // every (instance, pricing) of the catalog, sorted; rows that cannot run last
};

// The comparison for `workload` (its option overrides, deadline, budget and cost of delay are left
// out: this is the hardware alone). The workload must be valid.
ChipComparison compare_chips(const Workload& workload, const Catalog& catalog, const CompareOptions& options);

// The same comparison a few rows at a time, for the page: a row is one evaluation with its own
// sizing search (about a millisecond natively), and the catalog has some eighty rows, more than
// one frame should hold. advance(n) evaluates up to n more rows and says whether all are done;
// finish() sorts them. compare_chips() is this run driven to the end, so the two agree to the bit.
// `catalog` must outlive the run.
class ComparisonRun {
 public:
  ComparisonRun(const Workload& workload, const Catalog& catalog, const CompareOptions& options);
  bool advance(size_t rows);
  size_t done() const { return result_.rows.size(); }
  size_t total() const { return rows_.size(); }
  ChipComparison finish();

 private:
  const Catalog& catalog_;
  CompareOptions options_;
  Workload workload_;  // the hardware-only copy
  std::vector<std::pair<const Instance*, PricingModel>> rows_;  // every row to evaluate, in catalog order
  ChipComparison result_;
};

// The table as every output shows it (the CLI's text, Markdown and CSV, the page's tab): its
// columns and each row's cells (a "≈" before a figure that rests on an estimate; dashes for a row
// that cannot run the job).
struct CompareColumn {
  const char* header;        // "Compute only $ per M tokens"
  const char* short_header;  // "Compute $/M tok", where space is short (the page's canvas)
  const char* tip;
};
const std::vector<CompareColumn>& compare_columns();
std::vector<std::string> compare_cells(const CompareRow& row);

OrderedJson comparison_to_json(const ChipComparison& comparison);
std::string comparison_text(const ChipComparison& comparison);
std::string comparison_markdown(const ChipComparison& comparison);
std::string comparison_csv(const ChipComparison& comparison);

}  // namespace traincost
