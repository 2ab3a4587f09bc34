#include "traincost/engine/uncertainty.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <memory>

#include "traincost/engine/reliability.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/engine/resolve_pair.hpp"
#include "traincost/scenario/fields.hpp"
#include "traincost/base/format.hpp"
#include "traincost/base/random.hpp"
#include "traincost/evidence/whole_run.hpp"
#include "traincost/scenario/labels.hpp"

namespace traincost {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

namespace {

// out[i] = the value at position ranks[i] of v sorted ascending (ranks ascending, each below
// v.size()); reorders v. NaNs must be removed first.
//
// A Monte Carlo analysis asks for some 30 of these over vectors of up to a million samples; one
// nth_element per rank was a fifth of its time. Instead, a regular sample of v (every 32nd value)
// brackets each rank between two of its values; a pass over v counts what lies below the bracket
// and keeps what lies inside (a few percent of v), and only that is ordered. The result is exact
// (an order statistic is one value, however it is found), so the figures are those nth_element
// gave. A bracket that misses its rank, which many equal values can cause, falls back to
// nth_element over all of v.
void order_statistics(double* const v, const size_t n, const std::vector<size_t>& ranks, std::vector<double>& out) {
  out.assign(ranks.size(), NAN);
  if (n <= 4096) {
    std::sort(v, v + n);
    for (size_t i = 0; i < ranks.size(); ++i) out[i] = v[ranks[i]];
    return;
  }
  const size_t step = 32, m = n / step;
  std::vector<double> sample(m);
  for (size_t j = 0; j < m; ++j) sample[j] = v[j * step];
  std::sort(sample.begin(), sample.end());

  // Every value is written before it is read: no zeroing (800 KB for 100,000 samples, per call).
  const std::unique_ptr<double[]> inside(new double[n]);
  size_t i = 0;
  while (i < ranks.size()) {
    // A bracket: the rank's place in the sample, give or take four standard deviations (as sample
    // indices, possibly outside the sample), widened over the next ranks whose places overlap.
    auto place = [&](size_t rank, int side) {
      const double p = static_cast<double>(rank) / static_cast<double>(n);
      const double margin = 4 * std::sqrt(static_cast<double>(m) * p * (1 - p)) + 8;
      const double expected = p * static_cast<double>(m);
      return static_cast<long>(side < 0 ? std::floor(expected - margin) : std::ceil(expected + margin));
    };
    const long lo_index = place(ranks[i], -1);
    long hi_index = place(ranks[i], +1);
    size_t last = i + 1;  // ranks [i, last) share this bracket
    while (last < ranks.size() && place(ranks[last], -1) <= hi_index) hi_index = std::max(hi_index, place(ranks[last++], +1));
    const double lo = lo_index >= 0 ? sample[static_cast<size_t>(lo_index)] : -kInf;
    const double hi = hi_index < static_cast<long>(m) ? sample[static_cast<size_t>(hi_index)] : kInf;

    // One pass without branches (whether a value lies below the middle bracket is a coin toss,
    // which a branch predictor loses half the time): every value is written, and kept by
    // counting it only when it lies inside.
    size_t below = 0, count = 0;
    for (const double* x = v; x != v + n; ++x) {
      inside[count] = *x;
      count += static_cast<size_t>((*x >= lo) & (*x <= hi));
      below += static_cast<size_t>(*x < lo);
    }
    for (; i < last; ++i) {
      if (ranks[i] >= below && ranks[i] - below < count) {
        double* const at = inside.get() + (ranks[i] - below);
        std::nth_element(inside.get(), at, inside.get() + count);
        out[i] = *at;
      } else {
        double* const at = v + ranks[i];
        std::nth_element(v, at, v + n);
        out[i] = *at;
      }
    }
  }
}

}  // namespace

std::vector<double> sample_quantiles(std::vector<double>& v, std::initializer_list<double> qs) {
  return sample_quantiles(v.data(), v.size(), qs);
}

std::vector<double> sample_quantiles(double* const v, const size_t n, std::initializer_list<double> qs) {
  std::vector<double> result(qs.size(), NAN);
  if (n == 0) return result;
  std::vector<size_t> ranks;
  for (const double q : qs) {
    const size_t k = static_cast<size_t>(q * static_cast<double>(n - 1));
    ranks.push_back(k);
    if (k + 1 < n) ranks.push_back(k + 1);
  }
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  std::vector<double> stats;
  order_statistics(v, n, ranks, stats);
  auto stat = [&](size_t rank) { return stats[static_cast<size_t>(std::lower_bound(ranks.begin(), ranks.end(), rank) - ranks.begin())]; };
  size_t i = 0;
  for (const double q : qs) {
    const double pos = q * static_cast<double>(n - 1);
    const size_t k = static_cast<size_t>(pos);
    const double frac = pos - static_cast<double>(k);
    const double a = stat(k);
    double value = a;
    if (frac != 0 && k + 1 < n) {
      const double b = stat(k + 1);
      value = (a == b || std::isinf(b)) ? (b == a ? a : b) : a + frac * (b - a);
    }
    result[i++] = value;
  }
  return result;
}

namespace {

Percentiles percentiles(double* v, size_t n) {
  const std::vector<double> q = sample_quantiles(v, n, {0.05, 0.50, 0.95});
  return {q[0], q[1], q[2]};
}
Percentiles percentiles(std::vector<double>& v) { return percentiles(v.data(), v.size()); }

}  // namespace

double AnalysisRun::metric(const WorkloadResult& wr) const {
  if (a_.leader < 0 || a_.runner_up < 0) return NAN;
  const OptionResult& leader = wr.options[static_cast<size_t>(a_.leader)];
  const OptionResult& runner_up = wr.options[static_cast<size_t>(a_.runner_up)];
  if (!leader.feasible() || !runner_up.feasible()) return NAN;
  return runner_up.cost_per_run - leader.cost_per_run;
}

double AnalysisRun::breakeven_of(const WorkloadResult& wr) const {
  if (a_.leader < 0 || a_.runner_up < 0) return NAN;
  // The challenger (the one with the larger fixed cost) against the other of the pair.
  const size_t C = static_cast<size_t>(a_.challenger);
  const size_t I = a_.challenger == a_.leader ? static_cast<size_t>(a_.runner_up) : static_cast<size_t>(a_.leader);
  const OptionResult& c = wr.options[C];
  const OptionResult& other = wr.options[I];
  if (!c.feasible() || !other.feasible()) return NAN;
  return payback_runs(breakeven(c.fixed_cost, c.per_run_cost, other.fixed_cost, other.per_run_cost));
}

AnalysisRun::AnalysisRun(const Scenario& s, const Catalog& catalog, const AnalyzeOptions& options)
    : AnalysisRun(s, resolve(s, catalog), catalog, options) {}

AnalysisRun::AnalysisRun(const Scenario& s, ResolvedScenario resolved, const Catalog& catalog, const AnalyzeOptions& options)
    : work_(std::move(resolved)), rng_(options.seed) {
  a_.workload = std::min(options.workload, work_.workloads.size() - 1);
  const size_t w = a_.workload;
  a_.inputs = ranged_inputs(s, work_, catalog);
  const Results base_results = evaluate(work_);
  const WorkloadResult& bw = base_results.workloads[w];
  a_.leader = bw.comparison.cheapest;
  a_.runner_up = bw.comparison.runner_up;
  const bool has_pair = a_.leader >= 0 && a_.runner_up >= 0;
  if (has_pair) {
    const size_t L = static_cast<size_t>(a_.leader), R = static_cast<size_t>(a_.runner_up);
    a_.challenger = bw.options[L].fixed_cost >= bw.options[R].fixed_cost ? a_.leader : a_.runner_up;
    a_.challenger_one_time_usd = bw.options[static_cast<size_t>(a_.challenger)].fixed_cost;
  }
  a_.base_metric = metric(bw);
  a_.base_breakeven = breakeven_of(bw);

  // Bound after work_ has its final address: the bindings point into it.
  for (const RangedInput& in : a_.inputs) bindings_.emplace_back(work_, in.ref, s);

  if (options.sensitivity && has_pair) {
    for (size_t k = 0; k < a_.inputs.size(); ++k) {
      const RangedInput& in = a_.inputs[k];
      SensitivityRow row;
      row.input = in.path;
      row.label = in.label;
      row.base_value = in.value;
      row.low_value = in.low;
      row.high_value = in.high;
      row.default_range = in.default_range;
      bindings_[k].set(in.low);
      evaluate_options(work_, results_);
      row.metric_at_low = metric(results_.workloads[w]);
      row.breakeven_at_low = breakeven_of(results_.workloads[w]);
      bindings_[k].set(in.high);
      evaluate_options(work_, results_);
      row.metric_at_high = metric(results_.workloads[w]);
      row.breakeven_at_high = breakeven_of(results_.workloads[w]);
      bindings_[k].restore();
      row.swing = std::fabs(row.metric_at_high - row.metric_at_low);
      a_.sensitivity.push_back(row);
    }
    // Largest swing first; rows whose metric is undefined at an end go last. stable_sort keeps
    // the input order among equals, so the table is the same on every platform.
    std::stable_sort(a_.sensitivity.begin(), a_.sensitivity.end(), [](const SensitivityRow& x, const SensitivityRow& y) {
      const double sx = std::isnan(x.swing) ? -1 : x.swing, sy = std::isnan(y.swing) ? -1 : y.swing;
      return sx > sy;
    });
  }

  if (!options.monte_carlo) return;
  total_ = static_cast<size_t>(std::max(options.samples, 1));
  const size_t n_options = work_.options.size();
  a_.monte_carlo.samples = static_cast<int>(total_);
  a_.monte_carlo.seed = options.seed;
  // Every sample's value is written before it is read: no zeroing (and no copying a zeroed
  // prototype into place, as assign() did: 3.2 MB for two options and 100,000 samples).
  auto samples_per_option = [&] {
    std::vector<std::unique_ptr<double[]>> v(n_options);
    for (auto& each : v) each.reset(new double[total_]);
    return v;
  };
  per_run_ = samples_per_option();
  horizon_ = samples_per_option();
  cheapest_.assign(n_options, 0);
  cheapest_horizon_.assign(n_options, 0);
  feasible_.assign(n_options, 0);
  late_.assign(n_options, 0);
  if (work_.workloads[a_.workload].deadline_days) days_ = samples_per_option();
  difference_.reserve(total_);
  breakevens_.reserve(total_);
  for (const RangedInput& in : a_.inputs) draw_.emplace_back(in);
}

bool AnalysisRun::advance(size_t samples) {
  const size_t w = a_.workload;
  const size_t n_options = work_.options.size();
  MonteCarlo& mc = a_.monte_carlo;
  const size_t end = next_ + std::min(samples, total_ - next_);
  for (size_t i = next_; i < end; ++i) {
    for (size_t k = 0; k < bindings_.size(); ++k) bindings_[k].set(draw_[k](rng_.uniform()));
    evaluate_options(work_, results_);
    const WorkloadResult& wr = results_.workloads[w];
    int best = -1, best_horizon = -1;
    for (size_t o = 0; o < n_options; ++o) {
      const bool ok = wr.options[o].feasible();
      feasible_[o] += ok;
      if (!days_.empty()) {
        // With a deadline a feasible option is on time; one that runs late still has its days.
        const Infeasible why = wr.options[o].infeasible;
        late_[o] += why == Infeasible::Deadline;
        days_[o][i] = why == Infeasible::No || why == Infeasible::Deadline ? wr.options[o].days_to_model : kInf;
      }
      per_run_[o][i] = ok ? wr.options[o].cost_per_run : kInf;
      double total = 0;
      for (const WorkloadResult& each : results_.workloads)
        total += each.options[o].feasible() ? each.options[o].horizon_cost : kInf;
      horizon_[o][i] = total;
      if (ok && (best < 0 || per_run_[o][i] < per_run_[static_cast<size_t>(best)][i])) best = static_cast<int>(o);
      if (std::isfinite(total) && (best_horizon < 0 || total < horizon_[static_cast<size_t>(best_horizon)][i]))
        best_horizon = static_cast<int>(o);
    }
    if (best < 0) ++mc.infeasible_samples;
    else ++cheapest_[static_cast<size_t>(best)];
    if (best_horizon >= 0) ++cheapest_horizon_[static_cast<size_t>(best_horizon)];
    const double d = metric(wr);
    if (!std::isnan(d)) difference_.push_back(d);
    const double be = breakeven_of(wr);
    if (!std::isnan(be)) {
      breakevens_.push_back(be);
      ++pair_samples_;
      pays_off_ += be <= work_.workloads[w].runs;
    }
  }
  next_ = end;
  return next_ == total_;
}

Analysis AnalysisRun::finish() {
  if (total_ == 0) return a_;  // no Monte Carlo asked for
  MonteCarlo& mc = a_.monte_carlo;
  const double inv = 1.0 / static_cast<double>(total_);
  for (size_t o = 0; o < per_run_.size(); ++o) {
    OptionStats st;
    st.probability_cheapest = cheapest_[o] * inv;
    st.probability_cheapest_horizon = cheapest_horizon_[o] * inv;
    st.probability_feasible = feasible_[o] * inv;
    st.cost_per_run = percentiles(per_run_[o].get(), next_);
    st.horizon_cost = percentiles(horizon_[o].get(), next_);
    if (!days_.empty()) {
      st.deadline_days = *work_.workloads[a_.workload].deadline_days;
      st.probability_on_time = st.probability_feasible;
      st.probability_late = late_[o] * inv;
      st.days_to_model = percentiles(days_[o].get(), next_);
    }
    mc.options.push_back(st);
  }
  mc.breakeven_runs = percentiles(breakevens_);
  mc.probability_pays_off = pair_samples_ ? static_cast<double>(pays_off_) / pair_samples_ : 0;

  // Histogram of the difference over its central 99%, 40 bins; the tails land in the end bins.
  if (!difference_.empty()) {
    // Reordered in place: the bins below count the values, whatever their order.
    const std::vector<double> ends = sample_quantiles(difference_, {0.005, 0.995});
    double lo = ends[0], hi = ends[1];
    if (!(hi > lo)) {
      lo -= 1;
      hi += 1;
    }
    mc.difference.min = lo;
    mc.difference.max = hi;
    mc.difference.counts.assign(40, 0);
    for (double d : difference_) {
      const double x = (d - lo) / (hi - lo) * 40;
      // NaN (inf / inf when the spread overflows) fails both tests and lands in bin 0; std::clamp
      // would pass it through, and lround(NaN) is no index.
      const long bin = std::lround(std::floor(x > 39.0 ? 39.0 : x > 0.0 ? x : 0.0));
      ++mc.difference.counts[static_cast<size_t>(bin)];
    }
  }
  return a_;
}

Analysis analyze(const Scenario& s, const Catalog& catalog, const AnalyzeOptions& options) {
  AnalysisRun run(s, catalog, options);
  run.advance(run.total());
  return run.finish();
}

}  // namespace traincost
