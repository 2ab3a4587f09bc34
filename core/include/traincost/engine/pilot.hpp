#pragma once
// Plan a pilot: "port one representative job, confirm it converges, measure the cost to reach the
// target, then decide" as a plan with figures, for one workload and a candidate platform (by
// default, of the two leading options, the one with the larger one-time cost: the port):
//   - what to run: a fraction of a full run on the candidate, on the planned cluster or a smaller
//     one (per-chip throughput converted with the option's scaling rule);
//   - what it costs: the porting before it, plus the pilot's compute and compilation;
//   - the pass marks: the candidate's thresholds against the incumbent (thresholds.hpp) as the
//     pilot measures them, and the loss gap its convergence-penalty threshold allows;
//   - whether it is worth running: under the analysis's uncertainty model (uncertainty.hpp), the
//     expected cost of deciding now against deciding after the pilot has revealed the candidate's
//     throughput and convergence penalty (expected value of partial perfect information), and the
//     net value once the pilot's cost is paid and a port that passes is reused.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "traincost/base/json_text.hpp"
#include "traincost/engine/thresholds.hpp"
#include "traincost/engine/uncertainty.hpp"

namespace traincost {

// A pilot is as long as one validation run of the candidate (its porting.validation_run_fraction:
// the share of a run the scenario already says confirming convergence takes), or this when that is 0.
inline constexpr double kDefaultPilotFraction = 0.05;
// The shortest pilot, 0.1% of a run: shorter, it measures the warm-up (compilation, the first
// steps' learning-rate ramp) rather than throughput or convergence, and its loss pass mark is
// meaningless (a fraction of 1e-300 read "0.0 tokens, 1 optimizer steps" and "a loss at most
// 1.3e+82 above": issue 33, item 9). Given fractions below it are refused; a scenario's shorter
// validation run is lengthened to it.
inline constexpr double kMinPilotFraction = 0.001;

struct PilotOptions {
  size_t workload = 0;
  int candidate = -1;   // -1: of the leader and the runner-up, the one with the larger fixed cost
  int incumbent = -1;   // -1: the leader, or the runner-up when the candidate leads
  double fraction = 0;  // of a full run's tokens; 0: the default above
  int instances = 0;    // the pilot cluster; 0: the planned one
  int samples = 20000;
  uint64_t seed = 1;
};

struct PilotRun {
  int instances = 0, planned_instances = 0;
  double chips = 0, planned_chips = 0;
  double fraction = 0;
  double tokens = 0;       // fraction × the run's trained tokens
  double steps = 0;        // optimizer steps of the workload's global batch
  double hours = 0;        // wall clock, with compilation
  double efficiency = 1;   // per-chip throughput of the planned cluster relative to the pilot's (≤ 1)
  double per_doubling = 1; // the candidate's scaling per doubling, which gives it
  bool by_model = false;   // the step-time model's ratio of its predictions at the two sizes gives it instead
  double run_compute_usd = 0;  // a full run's training compute on the planned cluster
  double engineer_weeks = 0;
  double porting_usd = 0;  // spent before the pilot can run
  double compute_usd = 0;
  double compile_usd = 0;
  double cost_usd = 0;     // all three
};

// What the pilot must show for the candidate to be the cheaper choice, each with every other input
// at its base value.
struct PilotMarks {
  Threshold throughput;                  // the candidate's throughput threshold (on the planned cluster)
  double pilot_tokens_per_sec_per_chip = 0;  // that mark as the pilot cluster measures it
  double pilot_mfu = 0;
  double base_pilot_tokens_per_sec_per_chip = 0;  // what the plan expects the pilot to measure
  // Throughput and convergence together: tokens/s per chip ÷ (1 + penalty) on the pilot cluster.
  double adjusted_rate = 0, base_adjusted_rate = 0;
  Threshold penalty;                     // the candidate's convergence-penalty threshold
  double tokens_factor = 0;              // at most this × the incumbent's tokens to the same loss
  double base_tokens_factor = 0;         // the planned ratio
  double loss_gap = 0;                   // the loss gap that allows at the pilot's end (scaling law below)
  ScalingLawKind law = ScalingLawKind::Hoffmann2022;
  Threshold compile;                     // the candidate's compile-time threshold
};

struct PilotValue {
  int samples = 0;
  uint64_t seed = 0;
  std::vector<std::string> revealed;  // the ranged inputs the pilot reveals (paths)
  int decide_now = -1;                // the option with the lower expected cost over the horizon
  double candidate_usd = 0;           // expected horizon cost of each, knowing what we know now
  double incumbent_usd = 0;
  double expected_porting_usd = 0;
  double after_pilot_usd = 0;         // expected cost choosing after the pilot, were it free
  double value_usd = 0;               // of the information: decide-now minus after-pilot, ≥ 0
  double standard_error_usd = 0;      // of value_usd, from the sample spread
  double max_saving_usd = 0;          // the most knowing can save, in any sample
  double perfect_information_usd = 0; // were every uncertain input revealed: the most any study is worth
  double probability_changes = 0;     // share of samples in which the pilot changes the choice
  double probability_passes = 0;      // share in which the candidate is then the cheaper (its port paid)
  double net_value_usd = 0;           // piloting minus deciding now: pilot cost paid, a passed port reused
  uint32_t skipped_samples = 0;       // samples in which either option could not run the workload
};

struct PilotPlan {
  bool ok = false;
  std::string reason;  // why there is no plan, when !ok
  size_t workload = 0;
  int candidate = -1, incumbent = -1;
  bool candidate_leads = false;       // the candidate is the cheaper per run now
  PilotRun run;
  std::vector<Threshold> thresholds;  // the candidate against the incumbent: where the candidate is cheaper
  PilotMarks marks;
  PilotValue value;
  bool worth_running = false;         // net value > 0
};

// Requires a scenario that passed validate() and its resolve(). Options must name existing, distinct
// options and a fraction in (0, 1] (api.cpp checks them).
PilotPlan plan_pilot(const Scenario& scenario, const ResolvedScenario& resolved, const Catalog& catalog, const PilotOptions& options);

// The same plan with its value of information sampled a slice at a time, so that the page keeps
// answering while a large Monte Carlo runs. Bit for bit plan_pilot()'s however it is sliced: the
// samples are drawn from the same generator in the same order, and plan_pilot() is this run driven
// to the end in one slice. Everything but the sampling is done on construction.
class PilotPlanRun {
 public:
  PilotPlanRun(const Scenario& scenario, const ResolvedScenario& resolved, const Catalog& catalog, const PilotOptions& options);
  ~PilotPlanRun();
  PilotPlanRun(const PilotPlanRun&) = delete;
  PilotPlanRun& operator=(const PilotPlanRun&) = delete;

  // Simulates up to `samples` more; true once every sample is done (at once without a plan to value).
  bool advance(size_t samples);
  size_t done() const;
  size_t total() const;
  size_t workload() const { return plan_.workload; }
  PilotPlan finish();  // once advance() has returned true

 private:
  struct Sampler;  // the Monte Carlo's state (pilot.cpp); its bindings point into its own copy of the scenario
  PilotPlan plan_;
  std::unique_ptr<Sampler> sampler_;  // null when there is no plan to value
};

// ---- The plan as JSON (`traincost pilot --format json`, the API's pilot), text and Markdown -------

// "worth running" or "not worth it: decide now"; "no plan" without one.
const char* recommendation(const PilotPlan& plan);
// One paragraph: the recommendation and the figures behind it (or why there is no plan).
std::string pilot_summary(const ResolvedScenario& resolved, const PilotPlan& plan);
// The pass marks as rows of text: {what to measure, the mark, what the plan expects}.
std::vector<std::vector<std::string>> pass_mark_rows(const ResolvedScenario& resolved, const PilotPlan& plan);
// What to run as rows of {label, text}: on which cluster, how long, the porting before it, the cost.
std::vector<std::pair<std::string, std::string>> pilot_run_rows(const ResolvedScenario& resolved, const PilotPlan& plan);
// Whether it is worth it as rows of {label, figure}: deciding now, after the pilot, the value of the
// information, the chances, the net value.
std::vector<std::pair<std::string, std::string>> pilot_value_rows(const ResolvedScenario& resolved, const PilotPlan& plan);
// How the value was estimated: samples, seed, what the pilot reveals.
std::string pilot_method_note(const PilotPlan& plan);
OrderedJson pilot_to_json(const Scenario& scenario, const ResolvedScenario& resolved, const PilotPlan& plan);
std::string pilot_text(const Scenario& scenario, const ResolvedScenario& resolved, const PilotPlan& plan);
// To paste into a design document or a ticket; user text escaped.
std::string pilot_markdown(const Scenario& scenario, const ResolvedScenario& resolved, const PilotPlan& plan);

// ---- The value of learning, from Monte Carlo means (exposed for tests) ---------------------------

// After averaging over everything the pilot does not reveal, the candidate's expected horizon cost
// is affine in g = (1 + penalty) / throughput (the time per useful token): a + b × g. The
// incumbent's expected cost and the candidate's expected porting do not depend on g.
struct LearningModel {
  double a = 0, b = 0;
  double incumbent = 0;
  double porting = 0;
};
// The value of learning g (one sample per element of `g`) before choosing, and the net value of a
// pilot costing `pilot_cost` (its compute: the porting is in the model) that reveals it. Sets every
// field of PilotValue but samples, seed, revealed, perfect_information_usd and skipped_samples;
// decide_now is 0 for the candidate, 1 for the incumbent.
PilotValue value_of_learning(const LearningModel& model, const std::vector<double>& g, double pilot_cost);

}  // namespace traincost

namespace traincost {

// ---- After the pilot (issue 31): the measurement against the plan ----------------------------------

// What a pilot measured on option `option` (the scenario `after` holds it in options[option].pilot;
// `before` is the scenario without it): the plan's pass marks at the pilot's size, each passed or
// failed with the measured value, the throughput carried to the planned cluster, and the cheapest
// option before and after.
struct PilotResults {
  bool ok = false;
  std::string reason;         // why there is nothing to compare, when !ok
  size_t workload = 0;
  int option = -1, incumbent = -1;
  PilotPlan plan;             // before, on the pilot's cluster: its pass marks
  PilotFit fit;               // the measurement and how it was carried (after)
  double measured_mfu = 0;    // the measured rate at the pilot as MFU (model FLOPs)
  double planned_mfu = 0;     // the rate carried to the planned cluster, as MFU
  bool throughput_has_mark = false, throughput_passed = false;
  bool compile_measured = false, compile_has_mark = false, compile_passed = false;
  double compile_hours = 0;
  // Convergence: the pilot's loss curve against its reference (absent without both curves); when
  // measured, its penalty (ratio − 1, held to [0, 1]) against the convergence-penalty mark.
  std::optional<ConvergenceEstimate> convergence;
  bool penalty_has_mark = false, penalty_passed = false;
  double measured_penalty = 0;
  int cheapest_before = -1, cheapest_after = -1;
};
PilotResults pilot_results(const Scenario& before, const Scenario& after, const Catalog& catalog, int option, size_t workload);

}  // namespace traincost
