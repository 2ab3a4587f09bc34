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

#include "traincost/problems.hpp"

namespace traincost {

// One sourced number. `low`/`high` (when the catalog gives them) bound what the figure
// plausibly is; the uncertainty analysis uses them as default ranges.
struct Figure {
  double value = NAN;
  double low = NAN;
  double high = NAN;
  std::string source;  // key into Catalog::sources
  std::string as_of;   // date the figure speaks for (YYYY, YYYY-MM or YYYY-MM-DD)
  std::string note;
  std::string unit;    // only where the catalog states one (memory: "GB" or "GiB")
  bool estimate = false;

  bool present() const { return !std::isnan(value); }
  bool has_range() const { return !std::isnan(low) && !std::isnan(high); }
};

struct Source {
  std::string id;
  std::string title;
  std::string url;
};

enum class Family { Trainium, Nvidia };
const char* to_string(Family family);

enum class Precision { BF16, FP8 };

struct Chip {
  std::string id;
  std::string name;
  std::string vendor;
  Family family = Family::Nvidia;
  Figure bf16_tflops;
  Figure fp8_tflops;          // absent when the chip has no FP8 (A100)
  Figure hbm;                 // value in `unit` (GB or GiB)
  Figure hbm_bandwidth_tbps;
  Figure interconnect_gbps;   // GB/s per chip, as the vendor states it
  Figure mamf_bf16_tflops;    // measured achievable matmul peak, where published
  Figure mfu;                 // default achieved utilization for dense transformers
  std::string mfu_convention; // how that utilization was counted

  double hbm_bytes() const;
  const Figure& peak_tflops(Precision p) const { return p == Precision::FP8 ? fp8_tflops : bf16_tflops; }
};

enum class PricingModel { OnDemand, Reserved1yr, Reserved3yr, Spot, CapacityBlock };
constexpr int kPricingModels = 5;
const char* to_string(PricingModel model);        // "on_demand", ...
const char* describe(PricingModel model);         // "On-demand", "1-year commitment", ...
std::optional<PricingModel> pricing_model_from_string(std::string_view text);

struct Instance {
  std::string id;
  std::string provider;
  std::string region;
  std::string chip;  // Chip::id
  int chips = 0;
  Figure network_gbps;
  std::array<Figure, kPricingModels> prices;  // indexed by PricingModel; absent where unpublished

  const Figure& price(PricingModel m) const { return prices[static_cast<size_t>(m)]; }
};

// Per-family defaults of the platform costs a scenario may leave out.
struct PlatformDefaults {
  Figure engineer_weeks;
  Figure validation_runs;
  Figure validation_run_fraction;
  Figure convergence_penalty;
  Figure compile_hours_per_run;
  Figure maintenance_usd_per_year;
};

struct Defaults {
  Figure usd_per_engineer_week;
  Figure egress_usd_per_tb;
  Figure mtbf_hours_per_chip;
  Figure checkpoint_write_minutes;
  Figure restart_minutes;
  PlatformDefaults trainium;
  PlatformDefaults nvidia;

  const PlatformDefaults& platform(Family f) const { return f == Family::Trainium ? trainium : nvidia; }
};

struct Catalog {
  std::string version;
  std::vector<Source> sources;
  std::vector<Chip> chips;
  std::vector<Instance> instances;
  Defaults defaults;

  const Chip* find_chip(std::string_view id) const;
  const Instance* find_instance(std::string_view id) const;
  const Source* find_source(std::string_view id) const;
};

// Parses and checks a catalog: every figure must name a known source and an as-of date, every
// instance a known chip. Returns nothing (and the problems) when anything is wrong.
std::optional<Catalog> load_catalog(std::string_view json_text, Problems& problems);

// The catalog built into this binary (assets/catalog.json at build time), parsed once.
const Catalog& builtin_catalog();

}  // namespace traincost
