#pragma once
// The inputs an analysis draws: the scenario's ranges and TrainCost's default ranges for the
// inputs that are guesses, each bound to the doubles of a resolved scenario it controls and drawn
// through its inverse CDF. analyze() (uncertainty.hpp), the pilot's value of information and the
// sizing of a deadline for an on-time probability (deadline_odds.hpp) sample through them.
#include <string>
#include <vector>

#include "traincost/base/random.hpp"
#include "traincost/data/catalog.hpp"
#include "traincost/engine/resolved.hpp"
#include "traincost/scenario/inputs.hpp"

namespace traincost {

struct RangedInput {
  InputRef ref;
  std::string path;   // "options[0].mfu"
  std::string label;  // "Trn2: MFU"
  double value = 0;   // the base (most likely) value
  double low = 0;
  double high = 0;
  Distribution dist = Distribution::Triangular;
  bool default_range = false;  // added by TrainCost, not written in the scenario
};

// The scenario's ranges plus, when analysis.default_ranges, default ranges for the inputs that
// are guesses: MFU (or a measured throughput), porting effort, convergence penalty, the chance of
// a forced re-port, runs and catalog prices that carry a plausible range.
std::vector<RangedInput> ranged_inputs(const Scenario& scenario, const ResolvedScenario& resolved, const Catalog& catalog);

// The value an input has now: an option's own value (with catalog defaults, before any workload
// override), or a workload's.
double input_value(const Scenario& scenario, const ResolvedScenario& resolved, const Catalog& catalog, const InputRef& ref);

// The doubles of a resolved scenario that one input controls, as the analysis moves them: an
// option's input in every workload that does not override it (a predicted MFU, which differs by
// workload, in proportion), a model's parameter count also in its active count when the scenario
// gave none. The pilot's value of information (pilot.cpp) samples through the same bindings.
class InputBinding {
 public:
  InputBinding(ResolvedScenario& work, const InputRef& ref, const Scenario& scenario);
  void set(double value) const;  // each double to value × its factor
  void restore() const;          // each double to what it was when bound, exactly
  double value() const;          // the input's value when bound (0 when it controls nothing)

 private:
  struct Bound {
    double* at;
    double scale;
    double original;  // restored exactly (value × scale need not round back)
  };
  std::vector<Bound> targets_;
};

// The input's distribution as an inverse CDF, held to the field's valid range (a lognormal has no
// upper end), prepared once for a sampling loop: analyze() and the pilot's value of information
// draw through it.
class InputSampler {
 public:
  explicit InputSampler(const RangedInput& input);
  double operator()(double u) const;

 private:
  PreparedQuantile quantile_;
  double lowest_, highest_;
};

// One draw of InputSampler, for tests.
double sample_value(const RangedInput& input, double u);

}  // namespace traincost
