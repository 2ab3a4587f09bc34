#pragma once
// What one run costs, part by part, declared once. Each part is a member of OptionResult that
// evaluate_pair() computes with its formula (formulas.hpp); everything that adds parts up or lists
// them iterates this table: the per-run and fixed sums, the check that every figure is valid, the
// budget's split, the breakdown in the JSON results, the page's chart and legend, `traincost
// schema` (and from it the site, the npm types' test and the browser tests). Adding a part is one
// row here plus its formula and the member it fills (docs/architecture.md shows how).
#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "traincost/engine/results.hpp"
#include "traincost/model/formulas.hpp"

namespace traincost {

// How often a part is paid: by every run, or once over the horizon (a run's share is it ÷ runs).
enum class Recurrence { PerRun, Fixed };

struct CostPart {
  const char* key;      // "compute": its key in breakdown_per_run_usd and in `traincost schema`
  const char* label;    // "Compute": the chart's legend, the site
  const char* meaning;  // what it pays for, one sentence
  Recurrence recurrence;
  double OptionResult::*member;  // the option's amount: per run, or over the horizon for a fixed part
  const Formula* formula;        // how evaluate_pair() computes it
  // For a budget (budget.hpp), which splits a run's cash into a part proportional to the tokens and
  // a fixed rest:
  bool grows_with_tokens;      // proportional to the tokens trained
  bool cash;                   // money spent (the cost of delay is a value, not a payment)
  bool repeated_by_re_port;    // one-time work a forced re-port does again
  bool is_re_port;             // the expected re-ports themselves (the budget counts them as the repeat above)
};

// In the order the parts are shown; within each recurrence, the order they are added up.
inline constexpr CostPart kCostParts[] = {
    {"compute", "Compute", "Training time on the cluster, goodput losses included", Recurrence::PerRun, &OptionResult::compute_cost,
     &kTrainingCost, true, true, false, false},
    {"compile", "Compile", "Compiling the model on the cluster before each run", Recurrence::PerRun, &OptionResult::compile_cost,
     &kCompileCost, false, true, false, false},
    {"porting", "Porting (amortized)", "Engineering to port the model to the platform, once", Recurrence::Fixed,
     &OptionResult::porting_cost, &kPortingCost, false, true, true, false},
    {"validation", "Validation (amortized)", "Runs that confirm the port converges, once", Recurrence::Fixed,
     &OptionResult::validation_cost, &kValidationCost, true, true, true, false},
    {"maintenance", "Maintenance", "Keeping up with the platform's SDK over the horizon", Recurrence::Fixed,
     &OptionResult::maintenance_cost, &kMaintenanceCost, false, true, false, false},
    {"re_porting", "Re-porting", "Expected ports forced again by SDK changes over the horizon", Recurrence::Fixed,
     &OptionResult::re_porting_cost, &kRePortingCost, false, true, false, true},
    {"egress", "Egress", "Data moved in from another cloud for each run", Recurrence::PerRun, &OptionResult::egress_cost_per_run,
     &kEgressCost, false, true, false, false},
    {"delay", "Cost of delay", "The value of the days until the model is done", Recurrence::PerRun,
     &OptionResult::delay_cost_per_run, &kDelayCost, false, false, false, false},
};
inline constexpr size_t kCostPartCount = std::size(kCostParts);

// One run's share of each part, in kCostParts order: a per-run part as it is, a fixed part ÷ runs.
using CostBreakdown = std::array<double, kCostPartCount>;

// The cost per run in the symbols of its parts' formulas, per-run parts then fixed ones over the
// runs: "total = (Hc + Hk + E + Dl) + (Op + Ov + Mt + Rp) / runs" (explain, `traincost schema` and
// the methodology page). A part that is a value rather than a payment (the cost of delay) is
// named only `with_values` (explain leaves it out when the workload puts no value on a day).
std::string total_formula(bool with_values = true);

// The place of part `key` in kCostParts (kCostPartCount for none).
size_t cost_part_index(std::string_view key);

// The sum of one recurrence's parts, in table order.
double sum_of_parts(const OptionResult& result, Recurrence recurrence);

// One run's share of each part. Withheld (every part NaN: "n/a" in text, null in JSON, no bar)
// for an option that cannot run the job, whose compute cost can even be negative.
CostBreakdown breakdown(const OptionResult& result, double runs);

}  // namespace traincost
