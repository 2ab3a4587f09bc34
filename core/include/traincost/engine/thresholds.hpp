#pragma once
// What would change the answer. For two options of a workload, the value of each deciding input at
// which the two cost the same per run, every other input at its base value: each option's
// throughput, price, porting effort, convergence penalty and compile time, and the workload's runs
// (the break-even). The results JSON gives them for the leader against the runner-up
// (comparison.thresholds); the pilot plan (pilot.hpp) takes the candidate's as its pass marks.
//
// An option's cost is affine in each of these inputs on the right scale (affine_root in
// formulas.hpp): price, porting effort, penalty and compile time as they are, throughput and runs
// as their reciprocals. So a threshold is solved exactly from two evaluations, and then checked:
// should the check fail (a model term that is not affine), the input is bracketed over its valid
// range and bisected until the costs agree to kThresholdTolerance.
#include <functional>
#include <string>
#include <vector>

#include "traincost/engine/evaluate.hpp"

namespace traincost {

enum class ThresholdInput { Throughput, Price, PortingEffort, ConvergencePenalty, CompileTime, Runs };
inline constexpr EnumWord<ThresholdInput> kThresholdInputWords[] = {
    {ThresholdInput::Throughput, "throughput", "throughput"},
    {ThresholdInput::Price, "price", "price per instance-hour"},
    {ThresholdInput::PortingEffort, "porting_effort", "porting effort"},
    {ThresholdInput::ConvergencePenalty, "convergence_penalty", "convergence penalty"},
    {ThresholdInput::CompileTime, "compile_time", "compile time"},
    {ThresholdInput::Runs, "runs", "runs"}};

struct Threshold {
  ThresholdInput input = ThresholdInput::Throughput;
  int option = -1;       // whose input it is; -1 for the workload's runs
  std::string path;      // the scenario field to change: "options[0].mfu", "workloads[2].overrides[0].engineer_weeks"
  double base = 0;       // the field's value now (for a predicted MFU: the MFU it would take to write)
  bool flips = false;    // some value in the field's valid range makes the two options cost the same
  double value = 0;      // that value, when it flips
  bool at_least = true;  // the first option stays cheaper while the field is at least (else at most) it
  // Throughput only: the threshold and the base as the effective rates evaluate() uses (after any
  // scaling loss): MFU, and tokens per second per chip.
  double mfu = 0, base_mfu = 0;
  double tokens_per_sec_per_chip = 0, base_tokens_per_sec_per_chip = 0;
  // How it was solved (for the explanation): the two evaluations on the input's affine scale, t (the
  // resolved value or its reciprocal) and the gap as a share of the second option's cost; or bisection.
  double t0 = 0, gap0 = 0, t1 = 0, gap1 = 0;
  bool bisected = false;

  // value / base − 1: how far the field must move (infinite from a base of 0, NaN without a flip).
  double change() const;
};

// The thresholds of option `first` against option `second` on `workload`, where first stays
// cheaper per run: each option's throughput, price, porting effort, convergence penalty and compile
// time (first's, then second's), then the runs. Empty unless both options can run the workload.
std::vector<Threshold> thresholds(const Scenario& scenario, const ResolvedScenario& resolved, size_t workload, int first,
                                  int second);

// The threshold nearest to flipping the answer: among those that flip from a non-zero base, the
// smallest relative change; else the first that flips; -1 when none flips.
int most_decisive(const std::vector<Threshold>& thresholds);

// ---- The solver (exposed for tests) ------------------------------------------------------------

inline constexpr double kThresholdTolerance = 1e-9;  // |gap| at the solution, as a share of a cost

enum class InputScale { Linear, Reciprocal };  // the scale on which the cost is affine in the input
struct ThresholdSolution {
  bool found = false;
  double value = 0;
  bool at_least = true;  // gap > 0 above the value (else below it)
  bool bisected = false;
  double t0 = 0, gap0 = 0, t1 = 0, gap1 = 0;  // the two evaluations on the affine scale
};
// Where gap(x) (one cost minus the other, as a share of a cost) crosses zero within [low, high]:
// the affine root through x = base and x = probe, checked, else bisection over the range.
ThresholdSolution solve_threshold(const std::function<double(double)>& gap, double base, double probe, InputScale scale,
                                  double low, double high);

}  // namespace traincost
