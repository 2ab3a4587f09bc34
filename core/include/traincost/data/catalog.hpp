#pragma once
// The hardware catalog: chips, instances with their prices, and default assumptions, each figure
// with its source and the date it speaks for. The data lives in assets/catalog.json; this file
// only gives it types. The build embeds the JSON so every target uses the same catalog.
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traincost/base/enum_words.hpp"
#include "traincost/base/problems.hpp"

namespace traincost {

// Where a fact comes from: a key into Catalog::sources and the day it speaks for. A source that
// gives only a month says so ("2026-08" with month_only); no other precision is accepted.
struct Cited {
  std::string source;
  std::string as_of;        // YYYY-MM-DD, or YYYY-MM when month_only
  bool month_only = false;
};

// One sourced number. `low`/`high` (when the catalog gives them) bound what the figure
// plausibly is; the uncertainty analysis uses them as default ranges. `flag` is a short caveat
// every view shows beside the figure ("expired offer", "single snapshot").
struct Figure : Cited {
  double value = NAN;
  double low = NAN;
  double high = NAN;
  std::string note;
  std::string unit;    // only where the catalog states one (memory: "bytes")
  std::string flag;
  bool estimate = false;

  bool present() const { return !std::isnan(value); }
  bool has_range() const { return !std::isnan(low) && !std::isnan(high); }
};

struct Source {
  std::string id;
  std::string title;
  std::string url;
  bool secondary = false;  // reports or transcribes another publisher's figure
};

enum class Family { Trainium, Nvidia };
inline constexpr EnumWord<Family> kFamilyWords[] = {{Family::Trainium, "trainium", "Trainium"}, {Family::Nvidia, "nvidia", "NVIDIA"}};
inline const char* to_string(Family family) { return word_of(kFamilyWords, family); }

enum class Precision { BF16, FP8 };
inline constexpr EnumWord<Precision> kPrecisionWords[] = {{Precision::BF16, "bf16", "BF16"}, {Precision::FP8, "fp8", "FP8"}};
inline const char* to_string(Precision precision) { return word_of(kPrecisionWords, precision); }

// A chip's training software and where it stands: a stack that reached end of support strands a
// port made on it (Trainium1's NxD Training). The catalog's "software" list gives one per family.
enum class StackStatus { Supported, Maintenance, EndOfSupport };
inline constexpr EnumWord<StackStatus> kStackStatusWords[] = {{StackStatus::Supported, "supported", "supported"},
                                                              {StackStatus::Maintenance, "maintenance", "in maintenance"},
                                                              {StackStatus::EndOfSupport, "end_of_support", "at end of support"}};
inline const char* to_string(StackStatus status) { return word_of(kStackStatusWords, status); }

struct SoftwareLifecycle : Cited {
  std::string family;     // "Trainium1": whose stack it is
  std::string stack;      // "NxD Training and PyTorch/XLA training"
  StackStatus status = StackStatus::Supported;
  std::string announced;  // YYYY-MM-DD the status was announced ("" when none)
  std::string since;      // when it took effect, as the vendor puts it ("Neuron 2.32")
  std::string successor;  // what replaces it, and for which chips ("" when supported)
  std::string note;
};

struct Chip {
  std::string id;
  std::string name;
  std::string vendor;
  Family family = Family::Nvidia;
  Figure bf16_tflops;
  Figure fp8_tflops;             // absent when the chip has no FP8 (A100)
  Figure hbm;                    // bytes (one unit for every chip)
  Figure hbm_bandwidth_tbps;
  Figure interconnect_gbps;      // GB/s per chip, as the vendor states it
  Figure scale_up_gbps;          // NVLink/NeuronLink GB/s per chip and direction
  Figure scale_up_chips;         // chips one NVLink/NeuronLink domain connects
  Figure network_gbps_per_chip;  // scale-out network (EFA, InfiniBand), Gbit/s per chip, as usually deployed
  Figure mamf_bf16_tflops;       // measured achievable matmul peak, where published
  Figure mamf_fp8_tflops;
  std::optional<SoftwareLifecycle> software;  // its training stack's lifecycle (catalog "software")

  double hbm_bytes() const { return hbm.value; }
  const Figure& peak_tflops(Precision p) const { return p == Precision::FP8 ? fp8_tflops : bf16_tflops; }
};

enum class PricingModel { OnDemand, Reserved1yr, Reserved3yr, Spot, CapacityBlock };
inline constexpr EnumWord<PricingModel> kPricingWords[] = {
    {PricingModel::OnDemand, "on_demand", "On-demand"},
    {PricingModel::Reserved1yr, "reserved_1yr", "1-year commitment"},
    {PricingModel::Reserved3yr, "reserved_3yr", "3-year commitment"},
    {PricingModel::Spot, "spot", "Spot"},
    {PricingModel::CapacityBlock, "capacity_block", "Capacity Block"}};
constexpr int kPricingModels = 5;
inline const char* to_string(PricingModel model) { return word_of(kPricingWords, model); }      // "on_demand", ...
inline const char* describe(PricingModel model) { return description_of(kPricingWords, model); }  // "On-demand", ...

struct NamedFigure {
  std::string key;
  Figure figure;
};

struct Instance {
  std::string id;
  std::string provider;
  std::string region;
  Cited region_cited;
  std::string chip;  // Chip::id
  int chips = 0;
  Cited chips_cited;
  Figure network_gbps;
  std::array<Figure, kPricingModels> prices;  // indexed by PricingModel; absent where unpublished
  // Figures for this instance type that take the place of the family's defaults of the same key
  // ("instances[].defaults.<key>"). Only keys a source gives per type are allowed
  // (kInstanceDefaultKeys): AWS's Spot Instance Advisor band for this type's reclaims.
  std::vector<NamedFigure> defaults;

  const Figure& price(PricingModel m) const { return prices[static_cast<size_t>(m)]; }
};

// Defaults for what a scenario leaves out, by key: "defaults.<key>" in the catalog applies to
// every chip family, "defaults.platform.<family>.<key>" to one. Which scenario field each key is
// the default of is declared with the field (FieldSpec::catalog_default in fields.cpp).
struct Defaults {
  std::vector<NamedFigure> shared;
  std::vector<NamedFigure> trainium;
  std::vector<NamedFigure> nvidia;

  // The family's own figure, else the shared one; nullptr when the catalog has neither.
  const Figure* find(std::string_view key, Family family) const;
};

// The step-time model's calibrated factors for one chip family (fitted by `traincost calibrate`
// on assets/measurements.json), and how wrong the model was on the measurements it did not see.
struct FamilyPerformance {
  Figure matmul_efficiency;
  Figure fp8_matmul_efficiency;
  Figure attention_efficiency;
  Figure gemm_knee;
  Figure memory_bound_bytes;
  Figure moe_overhead_bytes;  // of the MoE overhead (absent: memory_bound_bytes, none fitted)
  Figure flex_moe_share;  // of the MoE memory-bound overhead, with a flex dispatcher (absent: 1, none fitted)
  Figure holdout_median_error;  // |predicted / measured - 1| over the held-out rows
  Figure holdout_p90_error;
  Figure holdout_rows;
  Figure calibration_rows;
  // The same errors split by the model's kind (is_moe): an option's band is its workload's kind's.
  // A family with no held-out mixture-of-experts row has no moe_holdout_median_error (value 0).
  Figure dense_holdout_median_error, dense_holdout_p90_error, dense_holdout_rows, dense_calibration_rows;
  Figure moe_holdout_median_error, moe_holdout_p90_error, moe_holdout_rows, moe_calibration_rows;
};
// A mixture of experts, for the error bands and their evidence: a model with more than one expert.
inline bool is_moe(double experts) { return experts > 1; }
// A chip generation calibrated on its own measurements (Trainium2, on the AXLearn paper's rows):
// the one factor its few rows can fit (the matmul efficiency; every other factor is its family's)
// and its held-out errors. `chips` are the chips predicted with it: those in validated_chips were
// measured, the others borrow it (Trainium3 borrows Trainium2's).
struct ChipCalibration {
  std::vector<std::string> chips;
  Figure matmul_efficiency;
  Figure holdout_median_error;
  Figure holdout_p90_error;
  Figure holdout_rows;
  Figure calibration_rows;
  bool applies_to(std::string_view chip) const;
};
struct Performance {
  Figure ring_efficiency;  // measured bus bandwidth / link bandwidth of ring collectives
  std::vector<std::string> validated_chips;  // chips with published measurements in the validation
  FamilyPerformance trainium;  // fitted on Trn1's rows
  FamilyPerformance nvidia;
  ChipCalibration trainium2;
  const FamilyPerformance& family(Family f) const { return f == Family::Trainium ? trainium : nvidia; }
  // The chip's own calibration, when it has one (nullptr: its family's alone).
  const ChipCalibration* own_calibration(std::string_view chip) const { return trainium2.applies_to(chip) ? &trainium2 : nullptr; }
  bool validated(std::string_view chip) const;
};

struct RunLibrary;  // evidence/published_runs.hpp

// How whole published runs realized against TrainCost's plan: the ratio r = published / predicted
// chip-hours of the replayed runs (engine/replay.hpp), fitted as a lognormal by
// evidence/whole_run.hpp. `low` and `high` bound the 80% predictive interval of r for a new run.
// Empty (runs 0, every figure 1) for a catalog without runs.
struct WholeRunSpread {
  int runs = 0;         // runs the fit saw
  double median = 1;    // exp(mean of log r)
  double log_sd = 0;    // sample standard deviation of log r
  double predictive_log_sd = 0;  // a new run's: log_sd × √(1 + 1/runs)
  double low = 1;       // 10th percentile of r for a new run
  double high = 1;      // 90th percentile
  double planned_median_error = 0;  // median |1 / r − 1|: how far the planned figure was off
  double loo_coverage = 0;          // share of runs inside their own interval fitted without them
  bool fitted() const { return runs >= 3; }
};

struct Catalog {
  std::string version;
  std::vector<Source> sources;
  std::vector<Chip> chips;
  std::vector<Instance> instances;
  Defaults defaults;
  Performance performance;
  // The published runs checked against this catalog, which scenarios may name (an option's
  // mfu_from_run): they travel with it (api/builtin.hpp sets them for the built-in data).
  const RunLibrary* runs = nullptr;
  // The spread of realized against planned chip-hours over those runs (api/builtin.cpp fits it
  // from their replay when it loads the built-in data).
  WholeRunSpread whole_run;

  const Chip* find_chip(std::string_view id) const;
  const Instance* find_instance(std::string_view id) const;
  const Source* find_source(std::string_view id) const;
  // The default a scenario field takes on one instance type: the type's own figure for the key
  // (Instance::defaults), else the family's, else the shared one; nullptr when there is none.
  const Figure* default_for(std::string_view key, std::string_view instance, Family family) const;
};

// The keys an instance may carry in its own "defaults": per-type figures a source publishes.
inline constexpr std::string_view kInstanceDefaultKeys[] = {"spot_interruptions_per_instance_hour"};

// Parses and checks a catalog: every figure must name a known source and an as-of date, every
// instance a known chip. Returns nothing (and the problems) when anything is wrong.
std::optional<Catalog> load_catalog(std::string_view json_text, Problems& problems);

// ---- How old the prices are ---------------------------------------------------------------------

// Prices older than this many months are out of date; when even the newest one is, the CLI, the
// site and the page warn.
inline constexpr int kStalePriceMonths = 6;

// The span of as_of dates over every instance price, and its age on `today`. Pure: the CLI passes
// the clock's date, the site its build date. A month-only ("2026-08") or year-only as_of stands for
// its first day: the catalog cannot claim a later one, so an age is never understated.
struct PriceAge {
  std::string oldest;      // the oldest as_of as the catalog writes it; "" when no price has a date
  std::string newest;      // the newest
  int prices = 0;          // price figures with a readable as_of
  int newest_months = -1;  // whole months from the newest to today; -1 when today is not a date
                           // or comes before the newest
  int out_of_date = 0;     // prices more than kStalePriceMonths months old on today
  bool stale = false;      // the newest price is more than kStalePriceMonths months old
  std::string summary;     // "Prices as of 2025-01-01 to 2026-08-26 (newest 3 months old; 5 of 38 older than 6 months)"
  std::string warning;     // a sentence for users when stale, else ""
};
PriceAge price_age(const Catalog& catalog, std::string_view today);

// True for a real calendar day written YYYY-MM-DD (what `today` must be).
bool is_day_date(std::string_view text);

// What is wrong with an as-of date, or "" when it is right: a day (YYYY-MM-DD), or a month
// (YYYY-MM) marked month_only, or a year (YYYY) marked year_only. The catalog has no year-only
// figure; the library of published runs (published_runs.hpp) does.
std::string as_of_problem(std::string_view as_of, bool month_only, bool year_only = false);

}  // namespace traincost
