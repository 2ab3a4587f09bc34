#pragma once
// The resolved form of a scenario: every default applied and every catalog lookup done, plain
// numbers ready for the formulas (resolve.hpp makes it). Evaluation, sensitivity and Monte Carlo work on this form, so a sample only
// changes a few doubles and re-evaluates, with no strings, lookups or allocation.
#include <optional>
#include <string>
#include <vector>

#include "traincost/data/catalog.hpp"
#include "traincost/evidence/convergence.hpp"
#include "traincost/model/performance.hpp"
#include "traincost/scenario/pair_numbers.hpp"
#include "traincost/scenario/scenario.hpp"

namespace traincost {

struct PublishedRun;

// Where an option's throughput comes from.
enum class ThroughputSource { Predicted, Mfu, Measured, Pilot };
inline constexpr EnumWord<ThroughputSource> kThroughputSourceWords[] = {
    {ThroughputSource::Predicted, "predicted", "predicted from hardware figures"},
    {ThroughputSource::Mfu, "mfu", "your MFU"},
    {ThroughputSource::Measured, "measured", "your measured throughput"},
    {ThroughputSource::Pilot, "pilot", "your pilot, carried to this cluster by the step-time model"}};

// How an option's pilot measurement became its throughput on the planned cluster (issue 31): the
// model's prediction at the planned size × measured ÷ predicted at the pilot's size and layout.
struct PilotFit {
  bool applied = false;
  const char* from = "";                  // the pilot field the rate was taken from
  double chips = 0;                       // the pilot's
  double measured_tokens_per_sec_per_chip = 0;
  double predicted_at_pilot = 0;          // the model's tokens/s per chip at the pilot's size and layout
  double ratio = 1;                       // measured ÷ predicted at the pilot
  double predicted_at_plan = 0;           // the model's tokens/s per chip on the planned cluster
  double tokens_per_sec_per_chip = 0;     // what the plan now uses: predicted_at_plan × ratio
  bool same_size = false;                 // measured at the planned size: used as it is
  bool by_rule = false;                   // the model cannot lay out the pilot: the option's scaling rule carried it
  Layout pilot_layout;                    // the model's layout at the pilot
};

// The step-time model's view of one (workload, option) pair: the fastest layout that fits in
// memory and its step time. It gives the throughput when the option states neither an MFU nor a
// measured rate, and the memory fit in every case.
struct PairPerformance {
  ThroughputSource source = ThroughputSource::Predicted;
  double global_batch_sequences = 0;
  double batch_tokens = 0;            // the global batch asked for: the scenario's, else the default at this size
  bool batch_default = false;         // the scenario gives no batch: default_batch_tokens() chose it
  double optimal_batch_tokens = 0;    // DeepSeek's compute-optimal batch for the job (the default's cap)
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
  double error_median = 0;            // the held-out error of the chip's calibration (resolve_pair.cpp says how it widens)
  double error_p90 = 0;
  bool validated = false;             // the chip has published measurements in the validation
  double measurements = 0;            // published measurements its calibration rests on (calibration + held out)
  bool few_measurements = false;      // the chip's own calibration (Trainium2's) rests on a handful of rows
  bool moe = false;                   // the band is the family's mixture-of-experts rows' (dense rows' otherwise)
  bool moe_unmeasured = false;        // no held-out MoE row in the family: twice its dense band
  bool estimate_band = false;         // thin or poor evidence (resolve_pair.cpp): figures from the prediction are estimates
  std::string evidence;               // the measurements the band is of ("NVIDIA mixture-of-experts training")
  PilotFit pilot;                     // when the option has a pilot measurement (source Pilot)
  bool fine_tune_derived = false;     // a LoRA/QLoRA step: derived, never measured, so its error band is doubled
};

// How a workload's deadline sized an option (deadline.hpp): the fewest instances whose run is done
// within the deadline, counting the wait for capacity, else the fastest size found.
struct DeadlineSizing {
  bool applied = false;             // the workload has a deadline
  double deadline_days = 0;
  double configured_instances = 0;  // the option's own `instances`, which the deadline replaces
  double instances = 0;             // the size chosen
  bool met = false;                 // some size up to the limit finishes in time
  double fastest_instances = 0;     // of the sizes tried, the one done soonest
  double fastest_days = 0;          // its days until the model is done (infinite when none can run)
  double limit = 0;                 // the largest size considered
  bool capacity_limited = false;    // the limit is the option's max_instances
  int sizes_tried = 0;
  // Sized for an on-time probability (workloads[].deadline_confidence, deadline_odds.hpp): the
  // probability asked for (0: sized for the point estimate), the size the point estimate chose,
  // the share of the drawn futures on time at the size chosen, and whether it reaches the target.
  double confidence = 0;
  double point_instances = 0;
  double probability_on_time = 0;
  bool confidence_met = false;
};

// Everything the formulas need for one (workload, option) pair: its numbers, and what the
// step-time model and a deadline made of them.
struct PairInputs : PairNumbers {
  const PublishedRun* mfu_run = nullptr;  // the run whose realized MFU `mfu` is (mfu_from_run)
  // The step-time model's answer (filled per workload by resolve(); resolve_option() leaves it empty).
  PairPerformance performance;
  DeadlineSizing deadline;
  // An option whose scenario gives no `instances` (and whose workload has no deadline) is sized as
  // for a deadline of kDefaultRunDays; `applied` says so, and the report names the field.
  DeadlineSizing default_size;
};


// A workload as the scenario gives it (with model.active_params and usd_per_day_of_delay always
// set), and the resolved numbers of each option for it. Being a Workload, it is addressed by the same field table.
struct WorkloadInputs : Workload {
  std::vector<PairInputs> options;  // one per scenario option
};

// Descriptive facts about an option for reports and the UI (not used by the formulas).
struct OptionInfo {
  std::string label;        // the user's label, or the automatic one (scenario/labels.hpp)
  bool label_counts_instances = false;  // an automatic label naming the instance count every workload used
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
  // The pilot's loss curves compared (when it has both): measured, its convergence penalty is the
  // option's (evidence/convergence.hpp).
  std::optional<ConvergenceEstimate> convergence;
};

struct ResolvedScenario {
  const Catalog* catalog = nullptr;  // what it was resolved against
  std::vector<WorkloadInputs> workloads;
  std::vector<OptionInfo> options;
  int reference = 0;
};

}  // namespace traincost
