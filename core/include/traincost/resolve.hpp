#pragma once
// A scenario with every default applied and every catalog lookup done: plain numbers, ready for
// the formulas. Evaluation, sensitivity and Monte Carlo work on this form, so a sample only
// changes a few doubles and re-evaluates, with no strings, lookups or allocation.
#include <string>
#include <vector>

#include "traincost/catalog.hpp"
#include "traincost/performance.hpp"
#include "traincost/scenario.hpp"

namespace traincost {

// Where an option's throughput comes from.
enum class ThroughputSource { Predicted, Mfu, Measured };
inline constexpr EnumWord<ThroughputSource> kThroughputSourceWords[] = {
    {ThroughputSource::Predicted, "predicted", "predicted from hardware figures"},
    {ThroughputSource::Mfu, "mfu", "your MFU"},
    {ThroughputSource::Measured, "measured", "your measured throughput"}};

// The step-time model's view of one (workload, option) pair: the fastest layout that fits in
// memory and its step time. It gives the throughput when the option states neither an MFU nor a
// measured rate, and the memory fit in every case.
struct PairPerformance {
  ThroughputSource source = ThroughputSource::Predicted;
  double global_batch_sequences = 0;
  bool assumed_architecture = false;  // the scenario gave only a parameter count
  bool layout_found = false;          // some layout fits in memory
  Layout layout;                      // the fastest that fits (or what the pins asked for)
  StepTime time;                      // its step time, breakdown and memory
  int layouts_tried = 0;
  double usable_bytes_per_chip = 0;
  double least_memory_bytes = 0;      // when nothing fits: the least any layout needs, and which
  Layout least_memory_layout;
  bool batch_divisible = true;        // some layout divides the global batch over the chips
  double min_instances = 0;           // when nothing fits: fewest instances that fit (0: none up to 64×)
  double mfu = 0;                     // of the prediction, model FLOPs (6N + 12·l·h·s per token) / dense peak
  double hfu = 0;                     // counting recomputation
  double error_median = 0;            // the family's held-out error, doubled for chips with no measurement
  double error_p90 = 0;
  bool validated = false;             // the chip has published measurements in the validation
};

// Everything the formulas need for one (workload, option) pair.
struct PairInputs {
  // A restart time of 0 is a real answer (an instant restart), so "not given" is negative.
  static constexpr double kDerived = -1;

  // Cluster
  double instances = 1;
  double chips_per_instance = 1;
  double peak_flops_per_chip = 0;      // FLOP/s at the option's precision
  double hbm_bytes_per_chip = 0;
  double price_usd_per_hour = 0;       // per instance, before discount
  double discount = 0;
  double mfu = 0;
  double measured_tokens_per_sec_per_chip = 0;  // 0: use mfu
  double scaling_reference_chips = 0;           // 0: no scaling loss
  double scaling_per_doubling = 1;
  // Reliability
  double mtbf_hours_per_instance = 0;
  double checkpoint_write_minutes = 0;     // 0: from the checkpoint size and bandwidth
  double checkpoint_gbps_per_instance = 0;
  double checkpoint_blocking_share = 1;
  double restart_minutes = kDerived;       // kDerived: from the failure classes
  double job_restart_minutes = 0;
  double replacement_share = 0;
  double replacement_minutes = 0;
  double lost_work_share = 1;
  double checkpoint_interval_hours = 0;    // 0: the Young/Daly optimum
  // Platform costs
  double engineer_weeks = 0;
  double usd_per_engineer_week = 0;
  double validation_runs = 0;
  double validation_run_fraction = 0;
  double convergence_penalty = 0;
  double compile_hours_per_run = 0;
  double maintenance_usd_per_year = 0;
  double egress_tb_per_run = 0;
  double egress_usd_per_tb = 0;
  // The step-time model's answer (filled per workload by resolve(); resolve_option() leaves it empty).
  PairPerformance performance;
};

// A workload as the scenario gives it (with model.active_params always set), and the resolved
// numbers of each option for it. Being a Workload, it is addressed by the same field table.
struct WorkloadInputs : Workload {
  std::vector<PairInputs> options;  // one per scenario option
};

// Descriptive facts about an option for reports and the UI (not used by the formulas).
struct OptionInfo {
  std::string label;        // the user's label, or the instance id
  std::string instance;     // catalog id or "custom"
  std::string provider;
  std::string chip_name;
  Family family = Family::Nvidia;
  PricingModel pricing = PricingModel::OnDemand;
  bool price_from_catalog = false;
  const Chip* chip = nullptr;             // the catalog chip, when there is one
  const Figure* catalog_price = nullptr;  // the instance's catalog price, when used
  double network_gbps_per_chip = 0;       // the instance's scale-out network per chip (0: the chip's usual)
  ThroughputSource throughput = ThroughputSource::Predicted;
};

struct ResolvedScenario {
  std::vector<WorkloadInputs> workloads;
  std::vector<OptionInfo> options;
  int reference = 0;
};

// Tokens per optimizer step: the workload's global_batch_tokens, else a steps target's batch, else
// kDefaultGlobalBatchTokens.
double batch_tokens_of(const Workload& workload);

// Requires a scenario that passed validate() against the same catalog.
ResolvedScenario resolve(const Scenario& scenario, const Catalog& catalog);

// One option's numbers with every default applied: the option's own values, then the catalog's.
// `costs` are a workload's overrides of the platform costs (they win over the option's). The web
// page also uses this to show each empty field's default. An option the catalog does not know
// resolves to zeros rather than failing.
PairInputs resolve_option(const Option& option, const Catalog& catalog, const PlatformCosts& costs = {},
                          OptionInfo* info = nullptr);

}  // namespace traincost
