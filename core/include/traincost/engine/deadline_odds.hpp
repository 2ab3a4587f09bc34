#pragma once
// A deadline with odds: "we must have the model in 14 days, nine times out of ten". The point
// estimate sizes each option to the fewest instances whose *planned* run is done in time
// (deadline.hpp), which makes the deadline in about half the futures the ranges allow when the
// plan is near its median. With workloads[].deadline_confidence each option instead gets the
// fewest instances whose chance of being done in time, over the futures the analysis draws (the
// scenario's ranges and TrainCost's default ranges: ranges.hpp), reaches that probability.
//
// The chance at a size is the share of kDeadlineOddsSamples draws, from a fixed seed, in which
// the pair runs and is done within the deadline (what analyze() calls probability_on_time). Every
// size tried uses the same draws (common random numbers), so a larger cluster is never judged on
// luckier futures, and the sizing is the same bits natively and in WebAssembly.
#include <cstdint>
#include <memory>
#include <vector>

#include "traincost/base/random.hpp"
#include "traincost/data/catalog.hpp"
#include "traincost/engine/ranges.hpp"
#include "traincost/engine/resolved.hpp"
#include "traincost/scenario/scenario.hpp"

namespace traincost {

inline constexpr int kDeadlineOddsSamples = 1000;
inline constexpr uint64_t kDeadlineOddsSeed = 1;

// Resizes, in `resolved` (resolve()'s, sized for the point estimate), every option of every
// workload with a deadline_confidence: from its point-estimate size up, doubling until the chance
// reaches the target (or the option's instance limit), then bisection. An option whose plan
// misses the deadline at every size keeps its point sizing. When no size reaches the target, the
// size with the highest chance (the fewest such), with `confidence_met` false.
void size_for_deadline_odds(const Scenario& scenario, const Catalog& catalog, ResolvedScenario& resolved);

// The share of the fixed draws in which option `option` of workload `workload`, as it stands in
// `resolved`, runs and is done within the workload's deadline. For tests and the sizing above.
double probability_on_time(const Scenario& scenario, const Catalog& catalog, const ResolvedScenario& resolved, size_t workload,
                           size_t option);

// The draws of probability_on_time() a batch at a time (the page's base evaluation yields between
// batches): the same draws in the same order, so the chance is the same bits however they are
// batched. Keeps its own copy of `resolved` as it stands (the draws move its doubles); `scenario`
// and `catalog` must outlive it, and it must not move (the bindings point into the copy).
class OnTimeDraws {
 public:
  OnTimeDraws(const Scenario& scenario, const Catalog& catalog, const ResolvedScenario& resolved, size_t workload, size_t option);
  OnTimeDraws(const OnTimeDraws&) = delete;
  OnTimeDraws& operator=(const OnTimeDraws&) = delete;

  // Up to `count` more draws; true once all kDeadlineOddsSamples are drawn.
  bool draw(int count);
  // The share on time, once draw() has returned true.
  double probability() const { return static_cast<double>(on_time_) / kDeadlineOddsSamples; }

 private:
  ResolvedScenario work_;
  size_t w_, o_;
  std::vector<InputBinding> bindings_;
  std::vector<InputSampler> samplers_;
  Random rng_{kDeadlineOddsSeed};
  int drawn_ = 0, on_time_ = 0;
};

// Draws made by OnTimeDraws in this process, all threads together: how tests check structurally
// (not by timing) that a step of DeadlineOddsRun is bounded work.
size_t deadline_odds_draws();

// Draws of a chance of being on time one step of DeadlineOddsRun makes at most: a tenth of a
// size's draws, about the work of one layout search on a mixture of experts (measured in
// tests/core/evaluation_run_test.cpp, EvaluationRun.ConfidenceSearchCost).
inline constexpr int kDeadlineOddsDrawsPerStep = 100;

// size_for_deadline_odds() a bounded step at a time; size_for_deadline_odds() is this run driven to
// completion. A step puts one size in place (at most one resolve_pair()) or makes up to
// kDeadlineOddsDrawsPerStep draws of its chance; step() says whether every pair is sized.
// `scenario`, `catalog` and `resolved` must outlive the run, which must not move.
class DeadlineOddsRun {
 public:
  DeadlineOddsRun(const Scenario& scenario, const Catalog& catalog, ResolvedScenario& resolved);
  DeadlineOddsRun(const DeadlineOddsRun&) = delete;
  DeadlineOddsRun& operator=(const DeadlineOddsRun&) = delete;

  bool step();
  // Pairs sized so far, and all the pairs to size (every option of each workload with a
  // deadline_confidence), for progress.
  size_t done() const { return pairs_done_; }
  static size_t total(const Scenario& scenario);

 private:
  PairInputs& chosen() { return r_->workloads[w_].options[o_]; }
  bool begin_pair();           // the next pair to size, its first size due; false when none is left
  void try_size(double n);     // the pair at n instances put in place, its draws started
  void judge(double p);        // the chance at the size tried: the next size to try, or the pair's end
  void finish_pair(bool found);

  const Scenario* s_;
  const Catalog* catalog_;
  ResolvedScenario* r_;
  size_t w_ = 0, o_ = 0;  // the pair being sized
  bool begun_ = false;    // whether (w_, o_) has been begun (the next pair is then the one after it)
  size_t pairs_done_ = 0;
  bool finished_ = false;
  std::unique_ptr<OnTimeDraws> draws_;  // the chance at the size tried, being drawn

  // The search of the pair in progress (size_for_deadline_odds() in deadline_odds.cpp).
  DeadlineSizing sizing_;
  PairInputs point_;              // the pair as the point estimate sized it
  bool missing_ = false;          // the plan misses at every size: only its chance is drawn
  bool bisecting_ = false;
  double short_of_ = 0, n_ = 0;   // the last size short of the target, and the size reaching it (or to double from)
  double trying_ = 0;             // the size whose chance is being drawn
  double next_size_ = 0;          // the size to put in place at the next step (0: none)
  PairInputs reached_;            // the pair at n_ once it reaches the target
  double reached_p_ = 0;
  struct Best {
    double n = 0, p = -1;
    PairInputs pair;
  } best_;                        // the size with the highest chance (the fewest such)
};

}  // namespace traincost
