#pragma once
// How sure is the verdict? One-at-a-time sensitivity (the data of a tornado chart) and a Monte
// Carlo of the whole model over the scenario's ranged inputs.
//
// The decision metric is the fully loaded cost difference per run between the two options that
// lead in the base case (runner-up minus leader: positive while the leader stays ahead), and the
// break-even runs: payback_runs() (formulas.hpp) of the pair's "challenger" (the one with the
// larger fixed cost, usually the port) against the other; infinite when it never pays back.
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "traincost/engine/evaluate.hpp"
#include "traincost/engine/ranges.hpp"
#include "traincost/scenario/inputs.hpp"
#include "traincost/base/random.hpp"
#include "traincost/base/json_text.hpp"

namespace traincost {

struct SensitivityRow {
  std::string input;
  std::string label;
  double base_value = 0;
  double low_value = 0;
  double high_value = 0;
  double metric_at_low = 0;
  double metric_at_high = 0;
  double breakeven_at_low = 0;
  double breakeven_at_high = 0;
  double swing = 0;  // |metric_at_high - metric_at_low|
  bool default_range = false;
};

struct Percentiles {
  double p5 = 0, p50 = 0, p95 = 0;
};

struct OptionStats {
  double probability_cheapest = 0;          // per run, on the analysed workload
  double probability_cheapest_horizon = 0;  // all workloads on this option, over their horizons
  double probability_feasible = 0;
  Percentiles cost_per_run;               // +inf in the samples where it cannot run
  Percentiles horizon_cost;
  // A workload with a deadline (deadline_days > 0; else 0 and NaN): the share of samples whose
  // model is done within it (the option runs and its days to the model are within the deadline),
  // the share that runs but finishes late, and the days to the model (+inf where it cannot run).
  double deadline_days = 0;
  double probability_on_time = NAN;
  double probability_late = NAN;
  Percentiles days_to_model;
};

struct Histogram {
  double min = 0, max = 0;   // range of the bins; samples outside are counted in the end bins
  std::vector<uint32_t> counts;
};

struct MonteCarlo {
  int samples = 0;
  uint64_t seed = 0;
  std::vector<OptionStats> options;
  Percentiles breakeven_runs;         // may be +inf ("never")
  double probability_pays_off = 0;    // break-even at or below the expected runs
  Histogram difference;               // runner-up minus leader, cost per run
  uint32_t infeasible_samples = 0;    // samples where no option could run the workload
};

struct Analysis {
  size_t workload = 0;
  int leader = -1;      // cheapest in the base case
  int runner_up = -1;
  int challenger = -1;  // of leader and runner-up, the one with the larger fixed cost
  double challenger_one_time_usd = 0;  // its fixed cost in the base case: 0, nothing to pay back
  double base_metric = 0;
  double base_breakeven = 0;
  std::vector<RangedInput> inputs;
  std::vector<SensitivityRow> sensitivity;  // sorted by swing, largest first
  MonteCarlo monte_carlo;
};

struct AnalyzeOptions {
  int samples = 20000;
  uint64_t seed = 1;
  size_t workload = 0;
  bool monte_carlo = true;
  bool sensitivity = true;
};

// Requires a scenario that passed validate().
Analysis analyze(const Scenario& scenario, const Catalog& catalog, const AnalyzeOptions& options);

// The same analysis a slice of samples at a time, so the page keeps answering while a large Monte
// Carlo runs (a million samples of 8 options × 16 workloads take seconds). However it is sliced,
// the result is analyze()'s bit for bit: the samples are drawn from the same generator in the same
// order, and analyze() is this run driven to the end in one slice. The sensitivity rows are done
// on construction (two evaluations per ranged input). Holds pointers into itself: not copyable.
class AnalysisRun {
 public:
  AnalysisRun(const Scenario& scenario, const Catalog& catalog, const AnalyzeOptions& options);
  // The same run on `resolved`, which must be resolve(scenario, catalog) (the page's base
  // evaluation has it already: resolving again would repeat every deadline search in one go).
  AnalysisRun(const Scenario& scenario, ResolvedScenario resolved, const Catalog& catalog, const AnalyzeOptions& options);
  AnalysisRun(const AnalysisRun&) = delete;
  AnalysisRun& operator=(const AnalysisRun&) = delete;

  // Simulates up to `samples` more; true once every sample is done.
  bool advance(size_t samples);
  size_t done() const { return next_; }
  size_t total() const { return total_; }
  size_t workload() const { return a_.workload; }
  // The analysis, once advance() has returned true (percentiles and histogram are computed here).
  Analysis finish();

 private:
  Analysis a_;
  ResolvedScenario work_;
  std::vector<InputBinding> bindings_;
  std::vector<InputSampler> draw_;
  Random rng_;
  Results results_;
  size_t total_ = 0, next_ = 0;
  // Per option and sample: cost per run, and all workloads' horizon cost (+inf when infeasible);
  // allocated for total_ samples, the first next_ written (finish() reads no more).
  std::vector<std::unique_ptr<double[]>> per_run_, horizon_;
  std::vector<uint32_t> cheapest_, cheapest_horizon_, feasible_, late_;
  std::vector<std::unique_ptr<double[]>> days_;  // per option and sample, with a deadline
  std::vector<double> difference_, breakevens_;
  uint32_t pays_off_ = 0, pair_samples_ = 0;
  // Leader minus runner-up and the challenger's break-even, NaN when either cannot run.
  double metric(const WorkloadResult& wr) const;
  double breakeven_of(const WorkloadResult& wr) const;
};

// The q-quantiles of `v` (reordered), each by linear interpolation between the two order
// statistics around position q × (size - 1), as the Monte Carlo percentiles are computed. NaNs
// must be removed first. Exposed for tests.
std::vector<double> sample_quantiles(std::vector<double>& v, std::initializer_list<double> qs);
// The same over the n values at v.
std::vector<double> sample_quantiles(double* v, size_t n, std::initializer_list<double> qs);


}  // namespace traincost
