#include "traincost/engine/thresholds.hpp"

#include <cmath>
#include <limits>

#include "traincost/scenario/fields.hpp"

namespace traincost {

double Threshold::change() const {
  if (!flips) return NAN;
  if (base == 0) return value == 0 ? 0 : std::numeric_limits<double>::infinity();
  return value / base - 1;
}

ThresholdSolution solve_threshold(const std::function<double(double)>& gap, double base, double probe, InputScale scale,
                                  double low, double high) {
  ThresholdSolution s;
  const auto t_of = [scale](double x) { return scale == InputScale::Reciprocal ? 1 / x : x; };
  const double g0 = gap(base), g1 = gap(probe);
  s.t0 = t_of(base);
  s.gap0 = g0;
  s.t1 = t_of(probe);
  s.gap1 = g1;
  if (!std::isfinite(g0) || !std::isfinite(g1) || g0 == g1) return s;  // the input does not move the gap
  s.at_least = (g1 - g0) / (probe - base) > 0;
  const auto inside = [&](double x) { return x >= low && x <= high; };

  const double t = affine_root(s.t0, g0, s.t1, g1);
  const double x = scale == InputScale::Reciprocal ? 1 / t : t;
  if (std::isfinite(x) && (scale == InputScale::Linear || t > 0) && std::fabs(gap(x)) <= kThresholdTolerance) {
    s.found = inside(x);
    s.value = x;
    return s;
  }

  // Not affine after all: bracket over the valid range (on the input's own scale) and bisect.
  double a = t_of(low), b = t_of(high);
  double ga = gap(low), gb = gap(high);
  if (!std::isfinite(ga) || !std::isfinite(gb) || (ga > 0) == (gb > 0)) return s;
  for (int i = 0; i < 200 && std::fabs(b - a) > kThresholdTolerance * std::fabs(a + b) / 2; ++i) {
    const double m = (a + b) / 2;
    const double gm = gap(scale == InputScale::Reciprocal ? 1 / m : m);
    if ((gm > 0) == (ga > 0)) {
      a = m;
      ga = gm;
    } else {
      b = m;
    }
  }
  const double mid = (a + b) / 2;
  s.found = true;
  s.bisected = true;
  s.value = scale == InputScale::Reciprocal ? 1 / mid : mid;
  return s;
}

namespace {

// One deciding input of a pair: the field, the double it is in the resolved numbers, and how a
// value written into the scenario maps onto that double (resolved = written × scale).
struct Lever {
  ThresholdInput input;
  const FieldSpec* field;
  std::string path;
  double PairInputs::*member = nullptr;  // nullptr: the workload's runs
  double written_scale = 1;
  InputScale scale = InputScale::Linear;
};

// The scenario path of a platform cost of option `o` on workload `w`: the workload's override
// when it sets the field, else the option's own.
std::string cost_path(const Workload& wl, size_t w, int o, const FieldSpec& f) {
  for (size_t k = 0; k < wl.overrides.size(); ++k)
    if (wl.overrides[k].option == o && f.get(wl.overrides[k].costs))
      return "workloads[" + std::to_string(w) + "].overrides[" + std::to_string(k) + "]." + f.key();
  return f.of_option(static_cast<size_t>(o));
}

std::vector<Lever> levers_of(const Scenario& s, const ResolvedScenario& r, size_t w, int o) {
  const size_t i = static_cast<size_t>(o);
  const PairInputs& p = r.workloads[w].options[i];
  const std::string option = "options[" + std::to_string(o) + "].";
  std::vector<Lever> levers;
  if (p.measured_tokens_per_sec_per_chip > 0) {
    levers.push_back({ThresholdInput::Throughput, &fields::measured_tokens_per_sec_per_chip,
                      option + fields::measured_tokens_per_sec_per_chip.input_name(), &PairInputs::measured_tokens_per_sec_per_chip,
                      1, InputScale::Reciprocal});
  } else {
    // A predicted MFU is effective (resolve() drops the scaling loss); one written into the
    // scenario would lose the option's scaling efficiency, if it names a reference size.
    double written = 1;
    if (!s.options[i].mfu_stated())
      written = scaling_efficiency(p.instances * p.chips_per_instance, s.options[i].scaling_reference_chips.value_or(0),
                                   p.scaling_per_doubling);
    levers.push_back({ThresholdInput::Throughput, &fields::mfu, option + fields::mfu.input_name(), &PairInputs::mfu, written,
                      InputScale::Reciprocal});
  }
  levers.push_back({ThresholdInput::Price, &fields::price_usd_per_hour, option + fields::price_usd_per_hour.input_name(),
                    &PairInputs::price_usd_per_hour});
  const Workload& wl = r.workloads[w];
  levers.push_back({ThresholdInput::PortingEffort, &fields::engineer_weeks, cost_path(wl, w, o, fields::engineer_weeks),
                    &PairInputs::engineer_weeks});
  levers.push_back({ThresholdInput::ConvergencePenalty, &fields::convergence_penalty,
                    cost_path(wl, w, o, fields::convergence_penalty), &PairInputs::convergence_penalty});
  levers.push_back({ThresholdInput::CompileTime, &fields::compile_hours_per_run, cost_path(wl, w, o, fields::compile_hours_per_run),
                    &PairInputs::compile_hours_per_run});
  return levers;
}

void record(Threshold& t, const ThresholdSolution& sol) {
  t.t0 = sol.t0;
  t.gap0 = sol.gap0;
  t.t1 = sol.t1;
  t.gap1 = sol.gap1;
  t.bisected = sol.bisected;
}

double effective_mfu(const OptionResult& r, const PairInputs& p) { return r.cluster_flops_per_sec / (p.peak_flops_per_chip * r.chips); }

}  // namespace

std::vector<Threshold> thresholds(const Scenario& s, const ResolvedScenario& r, size_t w, int first, int second) {
  std::vector<Threshold> out;
  const WorkloadInputs& wi = r.workloads[w];
  const double target = target_tokens(wi.target, wi.model);
  const size_t a = static_cast<size_t>(first), b = static_cast<size_t>(second);
  const OptionResult base_a = evaluate_pair(wi, wi.options[a], target), base_b = evaluate_pair(wi, wi.options[b], target);
  if (!base_a.feasible() || !base_b.feasible()) return out;
  // The gap is second's cost minus first's, as a share of second's base cost: positive while first
  // stays cheaper, and a tolerance on it is relative.
  const double unit = base_b.cost_per_run;

  for (const int o : {first, second}) {
    const size_t i = static_cast<size_t>(o);
    for (const Lever& lever : levers_of(s, r, w, o)) {
      PairInputs moved = wi.options[i];
      double& at = moved.*(lever.member);
      const double base = at;
      const OptionResult& other = o == first ? base_b : base_a;
      const auto cost_at = [&](double x) {
        at = x;
        return evaluate_pair(wi, moved, target).cost_per_run;
      };
      const auto gap = [&](double x) {
        const double c = cost_at(x);
        return (o == first ? other.cost_per_run - c : c - other.cost_per_run) / unit;
      };
      const Bounds& bounds = lever.field->bounds;
      double low = bounds.min * lever.written_scale, high = bounds.max * lever.written_scale;
      if (lever.input == ThresholdInput::Throughput) {
        // No chip runs above its peak: the valid range ends at an effective MFU of 1.
        const double mfu = effective_mfu(o == first ? base_a : base_b, wi.options[i]);
        if (mfu > 0 && std::isfinite(mfu)) high = std::min(high, base / mfu);
        low = std::max(low, std::nextafter(0.0, 1.0));
      }
      if (bounds.min_exclusive) low = std::nextafter(low, high);
      const ThresholdSolution sol = solve_threshold(gap, base, base > 0 ? 2 * base : 1, lever.scale, low, high);

      Threshold t;
      t.input = lever.input;
      t.option = o;
      t.path = lever.path;
      t.base = base / lever.written_scale;
      t.flips = sol.found;
      t.value = sol.found ? sol.value / lever.written_scale : 0;
      t.at_least = sol.at_least;  // the gap is first's lead whichever option moves
      record(t, sol);
      if (lever.input == ThresholdInput::Throughput) {
        const OptionResult now = evaluate_pair(wi, wi.options[i], target);
        t.base_mfu = effective_mfu(now, wi.options[i]);
        t.base_tokens_per_sec_per_chip = now.tokens_per_sec / now.chips;
        if (sol.found) {
          at = sol.value;
          const OptionResult then = evaluate_pair(wi, moved, target);
          t.mfu = effective_mfu(then, moved);
          t.tokens_per_sec_per_chip = then.tokens_per_sec / then.chips;
        }
      }
      out.push_back(t);
    }
  }

  // The runs: the break-even between the two, on the reciprocal scale (fixed cost per run).
  WorkloadInputs moved = wi;
  const auto gap = [&](double runs) {
    moved.runs = runs;
    return (evaluate_pair(moved, wi.options[b], target).cost_per_run - evaluate_pair(moved, wi.options[a], target).cost_per_run) / unit;
  };
  const double lowest_runs = fields::runs.bounds.min, most_runs = fields::runs.bounds.max;
  const ThresholdSolution sol = solve_threshold(gap, wi.runs, 2 * wi.runs, InputScale::Reciprocal, lowest_runs, most_runs);
  Threshold t;
  t.input = ThresholdInput::Runs;
  t.path = "workloads[" + std::to_string(w) + "].runs";
  t.base = wi.runs;
  t.flips = sol.found;
  t.value = sol.found ? sol.value : 0;
  t.at_least = sol.at_least;
  record(t, sol);
  out.push_back(t);
  return out;
}

int most_decisive(const std::vector<Threshold>& rows) {
  int best = -1, first_flip = -1;
  for (size_t k = 0; k < rows.size(); ++k) {
    if (!rows[k].flips) continue;
    if (first_flip < 0) first_flip = static_cast<int>(k);
    if (rows[k].base == 0) continue;
    if (best < 0 || std::fabs(rows[k].change()) < std::fabs(rows[static_cast<size_t>(best)].change())) best = static_cast<int>(k);
  }
  return best >= 0 ? best : first_flip;
}

}  // namespace traincost
