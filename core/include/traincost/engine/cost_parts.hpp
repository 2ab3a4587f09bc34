#pragma once
// What one run costs, part by part, declared once. Each part is a member of OptionResult that
// evaluate_pair() fills by applying the part's formula (formulas.hpp) with its `work` function
// below; everything that computes, adds up, explains or lists the parts iterates this table:
// evaluate_pair(), the per-run and fixed sums, the check that every figure is valid, explain's
// steps and total, the budget's split, the breakdown in the JSON results, the page's chart and
// legend, `traincost schema` (and from it the site, the npm types' test and the browser tests).
// Adding a part is one row here with its `work` function, its formula and the member it fills
// (docs/architecture.md shows how).
#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "traincost/engine/results.hpp"
#include "traincost/model/formulas.hpp"

namespace traincost {

// How often a part is paid: by every run, or once over the horizon (a run's share is it ÷ runs).
enum class Recurrence { PerRun, Fixed };

// What a part's formula was given and gave, for one pair: evaluate_pair() stores `amount` in the
// part's member, explain shows the formula with `arguments` in place of its placeholders (when
// `shown`: a part whose inputs say it does not apply, such as compilation on CUDA, is left out).
inline constexpr size_t kMaxPartArguments = 6;
struct PartWorking {
  double amount = 0;
  double arguments[kMaxPartArguments] = {};
  size_t count = 0;
  bool shown = true;
  const char* note = "";  // appended to the step's quantity in explain
};

// What a part's formula may read: the workload, the pair's resolved numbers, and the option's
// figures computed before the money (times, price) and the parts above it in the table.
struct PartContext {
  const WorkloadInputs& w;
  const PairInputs& p;
  const OptionResult& r;
};

// The number of names in a Formula's argument list ("E, A, B" -> 3).
constexpr size_t formula_arity(const char* args) {
  size_t n = *args ? 1 : 0;
  for (; *args; ++args) n += *args == ',';
  return n;
}

template <typename T> struct SameType { using type = T; };

// Calls a part's formula with its arguments and keeps them for explain; the formula's text must
// name one argument per parameter (explain.cpp also checks each placeholder names one).
template <const Formula& F, typename... A>
PartWorking apply_formula(double (*fn)(A...), typename SameType<A>::type... args) {
  static_assert(formula_arity(F.arguments) == sizeof...(A), "the formula names one argument per parameter");
  static_assert(sizeof...(A) <= kMaxPartArguments, "PartWorking holds the arguments");
  return PartWorking{fn(args...), {static_cast<double>(args)...}, sizeof...(A), true, ""};
}

struct CostPart {
  const char* key;      // "compute": its key in breakdown_per_run_usd and in `traincost schema`
  const char* label;    // "Compute": the chart's legend, the site
  const char* meaning;  // what it pays for, one sentence
  Recurrence recurrence;
  double OptionResult::*member;  // the option's amount: per run, or over the horizon for a fixed part
  const Formula* formula;        // its text
  PartWorking (*work)(const PartContext&);  // its formula applied to one pair (evaluate_pair() and explain)
  // For a budget (budget.hpp), which splits a run's cash into a part proportional to the tokens and
  // a fixed rest:
  bool grows_with_tokens;      // proportional to the tokens trained
  bool cash;                   // money spent (the cost of delay is a value, not a payment)
  bool repeated_by_re_port;    // one-time work a forced re-port does again
  bool is_re_port;             // the expected re-ports themselves (the budget counts them as the repeat above)
};

// Each part's formula applied to a pair, in the table's order (a part may read the ones above it).
namespace part {
inline PartWorking compute(const PartContext& c) {
  // Reclaimed spot capacity is not billed while the job waits for it to come back.
  PartWorking x = apply_formula<kTrainingCost>(instance_cost, c.r.training_hours - c.r.reclaim_wait_hours, c.p.instances,
                                               c.r.price_usd_per_hour);
  if (c.r.reclaim_wait_hours > 0) x.note = " (hours running: the wait for spot capacity is not billed)";
  return x;
}
inline PartWorking compile(const PartContext& c) {
  PartWorking x = apply_formula<kCompileCost>(instance_cost, c.p.compile_hours_per_run, c.p.instances, c.r.price_usd_per_hour);
  x.shown = c.p.compile_hours_per_run > 0;
  return x;
}
inline PartWorking porting(const PartContext& c) {
  return apply_formula<kPortingCost>(porting_cost, c.p.engineer_weeks, c.p.usd_per_engineer_week);
}
inline PartWorking validation(const PartContext& c) {
  return apply_formula<kValidationCost>(validation_cost, c.p.validation_runs, c.p.validation_run_fraction, c.r.compute_cost);
}
inline PartWorking maintenance(const PartContext& c) {
  return apply_formula<kMaintenanceCost>(maintenance_cost, c.p.maintenance_usd_per_year, c.w.horizon_months);
}
inline PartWorking re_porting(const PartContext& c) {
  // O, the one-time cost, is porting + validation (the parts above).
  return apply_formula<kRePortingCost>(re_porting_cost, c.p.report_probability_per_year, c.p.report_effort_share,
                                       c.r.porting_cost + c.r.validation_cost, c.w.horizon_months);
}
inline PartWorking egress(const PartContext& c) {
  return apply_formula<kEgressCost>(egress_cost, c.p.egress_tb_per_run, c.p.egress_usd_per_tb);
}
inline PartWorking storage(const PartContext& c) {
  PartWorking x = apply_formula<kStorageCost>(storage_cost, c.p.storage_tb, c.p.storage_usd_per_tb_month, c.r.training_hours);
  x.shown = c.p.storage_tb > 0;
  return x;
}
inline PartWorking delay(const PartContext& c) {
  const double per_day = c.w.usd_per_day_of_delay.value_or(0);
  PartWorking x = apply_formula<kDelayCost>(delay_cost, per_day, c.r.days_to_model);
  x.shown = per_day > 0;
  return x;
}
}  // namespace part

// In the order the parts are shown; within each recurrence, the order they are added up.
inline constexpr CostPart kCostParts[] = {
    {"compute", "Compute", "Training time on the cluster, goodput losses included", Recurrence::PerRun, &OptionResult::compute_cost,
     &kTrainingCost, part::compute, true, true, false, false},
    {"compile", "Compile", "Compiling the model on the cluster before each run", Recurrence::PerRun, &OptionResult::compile_cost,
     &kCompileCost, part::compile, false, true, false, false},
    {"porting", "Porting (amortized)", "Engineering to port the model to the platform, once", Recurrence::Fixed,
     &OptionResult::porting_cost, &kPortingCost, part::porting, false, true, true, false},
    {"validation", "Validation (amortized)", "Runs that confirm the port converges, once", Recurrence::Fixed,
     &OptionResult::validation_cost, &kValidationCost, part::validation, true, true, true, false},
    {"maintenance", "Maintenance", "Keeping up with the platform's SDK over the horizon", Recurrence::Fixed,
     &OptionResult::maintenance_cost, &kMaintenanceCost, part::maintenance, false, true, false, false},
    {"re_porting", "Re-porting", "Expected ports forced again by SDK changes over the horizon", Recurrence::Fixed,
     &OptionResult::re_porting_cost, &kRePortingCost, part::re_porting, false, true, false, true},
    {"egress", "Egress", "Data moved in from another cloud for each run", Recurrence::PerRun, &OptionResult::egress_cost_per_run,
     &kEgressCost, part::egress, false, true, false, false},
    {"storage", "Storage", "File system or buckets holding the data and checkpoints while the run trains", Recurrence::PerRun,
     &OptionResult::storage_cost_per_run, &kStorageCost, part::storage, true, true, false, false},
    {"delay", "Cost of delay", "The value of the days until the model is done", Recurrence::PerRun,
     &OptionResult::delay_cost_per_run, &kDelayCost, part::delay, false, false, false, false},
};
inline constexpr size_t kCostPartCount = std::size(kCostParts);

// One run's share of each part, in kCostParts order: a per-run part as it is, a fixed part ÷ runs.
using CostBreakdown = std::array<double, kCostPartCount>;

// The cost per run in the symbols of its parts' formulas, per-run parts then fixed ones over the
// runs: "total = (Hc + Hk + E + St + Dl) + (Op + Ov + Mt + Rp) / runs" (explain, `traincost schema` and
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
