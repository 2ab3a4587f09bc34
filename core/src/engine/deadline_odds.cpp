#include "traincost/engine/deadline_odds.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <vector>

#include "traincost/base/random.hpp"
#include "traincost/engine/deadline.hpp"
#include "traincost/engine/evaluate.hpp"
#include "traincost/engine/ranges.hpp"
#include "traincost/engine/resolve_pair.hpp"
#include "traincost/model/formulas.hpp"

namespace traincost {

namespace {

std::atomic<size_t> drawn_total{0};

double tokens_of(const WorkloadInputs& w) { return target_tokens(w.target, w.model); }

}  // namespace

size_t deadline_odds_draws() { return drawn_total.load(std::memory_order_relaxed); }

// The inputs are ranged and bound with the pair as it stands (a predicted MFU's range is around
// the MFU at this size), in a copy the draws may move.
OnTimeDraws::OnTimeDraws(const Scenario& s, const Catalog& catalog, const ResolvedScenario& resolved, size_t w, size_t o)
    : work_(resolved), w_(w), o_(o) {
  for (const RangedInput& in : ranged_inputs(s, work_, catalog)) {
    bindings_.emplace_back(work_, in.ref, s);
    samplers_.emplace_back(in);
  }
}

bool OnTimeDraws::draw(int count) {
  const WorkloadInputs& wl = work_.workloads[w_];
  const PairInputs& pair = wl.options[o_];
  for (int i = 0; i < count && drawn_ < kDeadlineOddsSamples; ++i, ++drawn_) {
    for (size_t k = 0; k < bindings_.size(); ++k) bindings_[k].set(samplers_[k](rng_.uniform()));
    // With a deadline, an option that runs is on time: a late one is Infeasible::Deadline.
    on_time_ += evaluate_pair(wl, pair, tokens_of(wl)).feasible();
    drawn_total.fetch_add(1, std::memory_order_relaxed);
  }
  return drawn_ == kDeadlineOddsSamples;
}

double probability_on_time(const Scenario& s, const Catalog& catalog, const ResolvedScenario& resolved, size_t w, size_t o) {
  OnTimeDraws draws(s, catalog, resolved, w, o);
  while (!draws.draw(kDeadlineOddsSamples)) {
  }
  return draws.probability();
}

DeadlineOddsRun::DeadlineOddsRun(const Scenario& s, const Catalog& catalog, ResolvedScenario& r)
    : s_(&s), catalog_(&catalog), r_(&r) {}

size_t DeadlineOddsRun::total(const Scenario& s) {
  size_t pairs = 0;
  for (const Workload& w : s.workloads)
    if (w.deadline_days && w.deadline_confidence) pairs += s.options.size();
  return pairs;
}

bool DeadlineOddsRun::step() {
  if (finished_) return true;
  if (draws_) {  // the chance at the size tried, a batch of draws a step
    if (!draws_->draw(kDeadlineOddsDrawsPerStep)) return false;
    const double p = draws_->probability();
    draws_.reset();
    judge(p);
    return false;
  }
  if (next_size_ > 0) {  // one size put in place a step: a resolve_pair() is a layout search
    const double n = next_size_;
    next_size_ = 0;
    try_size(n);
    return false;
  }
  if (!begin_pair()) finished_ = true;
  return finished_;
}

// Workload by workload, option by option, as the pairs later in the order are drawn with the
// earlier ones resized (their ranged inputs are bound to the pairs as they stand).
bool DeadlineOddsRun::begin_pair() {
  const Scenario& s = *s_;
  if (begun_) ++o_;
  begun_ = true;
  for (; w_ < s.workloads.size(); ++w_, o_ = 0) {
    const Workload& given = s.workloads[w_];
    if (given.deadline_days && given.deadline_confidence && o_ < s.options.size()) break;
  }
  if (w_ >= s.workloads.size()) return false;
  sizing_ = chosen().deadline;
  sizing_.confidence = *s.workloads[w_].deadline_confidence;
  sizing_.point_instances = sizing_.instances;
  missing_ = !sizing_.met;
  if (missing_) {  // the plan misses at every size: the odds cannot be better
    draws_ = std::make_unique<OnTimeDraws>(s, *catalog_, *r_, w_, o_);
    return true;
  }
  // Doubling from the point estimate's size until the chance is reached, then bisection over
  // (last short of it, first reaching it]: the chance grows with the cluster as the run shortens.
  point_ = chosen();
  best_ = Best{};
  bisecting_ = false;
  short_of_ = 0;
  n_ = point_.instances;
  next_size_ = n_;
  return true;
}

// The pair at n instances, put in place so the inputs bind to it; a size whose batch does not
// spread over the cluster has no chance (-1), with no draws.
void DeadlineOddsRun::try_size(double n) {
  WorkloadInputs& wl = r_->workloads[w_];
  PairInputs trial = n == point_.instances ? point_ : resolve_pair(wl, s_->options[o_], o_, n, *catalog_, MinInstances::Skip);
  const bool spreads = evaluate_pair(wl, trial, tokens_of(wl)).infeasible != Infeasible::Layout;
  chosen() = std::move(trial);
  trying_ = n;
  if (spreads) draws_ = std::make_unique<OnTimeDraws>(*s_, *catalog_, *r_, w_, o_);
  else judge(-1);
}

void DeadlineOddsRun::judge(double p) {
  if (missing_) {
    sizing_.probability_on_time = p;
    chosen().deadline = sizing_;
    ++pairs_done_;
    return;
  }
  const double target = sizing_.confidence;
  ++sizing_.sizes_tried;
  if (p > best_.p || (p == best_.p && trying_ < best_.n)) best_ = {trying_, p, chosen()};
  if (!bisecting_) {
    if (p >= target) {
      reached_ = chosen();
      reached_p_ = p;
      if (short_of_ == 0) return finish_pair(true);
      bisecting_ = true;
    } else if (p < 0 || n_ >= sizing_.limit) {
      return finish_pair(false);
    } else {
      short_of_ = n_;
      n_ = std::min(2 * n_, sizing_.limit);
      next_size_ = n_;
      return;
    }
  } else if (p >= target) {
    n_ = trying_;
    reached_ = chosen();
    reached_p_ = p;
  } else {
    short_of_ = trying_;
  }
  if (n_ - short_of_ > 1) next_size_ = std::floor((short_of_ + n_) / 2);
  else finish_pair(true);
}

void DeadlineOddsRun::finish_pair(bool found) {
  if (found) {
    chosen() = reached_;
    sizing_.instances = n_;
    sizing_.probability_on_time = reached_p_;
    sizing_.confidence_met = true;
  } else {
    chosen() = best_.pair;
    sizing_.instances = best_.n;
    sizing_.probability_on_time = std::max(best_.p, 0.0);
  }
  chosen().deadline = sizing_;
  ++pairs_done_;
}

void size_for_deadline_odds(const Scenario& s, const Catalog& catalog, ResolvedScenario& r) {
  DeadlineOddsRun run(s, catalog, r);
  while (!run.step()) {
  }
}

}  // namespace traincost
