#include "traincost/engine/evaluate.hpp"

#include <cmath>
#include <limits>
#include <utility>

#include "traincost/engine/cost_parts.hpp"
#include "traincost/engine/reliability.hpp"
#include "traincost/model/fine_tune.hpp"
#include "traincost/model/formulas.hpp"
#include "traincost/scenario/fields.hpp"

namespace traincost {
namespace {

MemoryFit memory_fit(const PairPerformance& perf) {
  MemoryFit m;
  m.usable_bytes_per_chip = perf.usable_bytes_per_chip;
  m.fits = perf.layout_found;
  if (perf.layout_found) {
    m.state_bytes = perf.time.state_bytes;
    m.activation_bytes_per_chip = perf.time.activation_bytes;
    m.bytes_per_chip = perf.time.memory_per_chip_bytes;
  } else {
    m.bytes_per_chip = perf.least_memory_bytes;
  }
  m.min_instances = perf.min_instances;
  m.possible = perf.layout_found || perf.min_instances > 0;
  return m;
}

// Finite and not negative: NaN fails both comparisons, +infinity the second.
bool valid_figure(double v) { return v >= 0 && v <= std::numeric_limits<double>::max(); }

// The rule of numeric safety (docs/input-output.md): an option is feasible only when every time,
// work and cost figure is finite and not negative and its goodput a fraction in (0, 1].
// The figures are read in place through a table of members known at compile time (a braced
// list of values was copied to the stack first, for every pair of every Monte Carlo sample).
constexpr double OptionResult::*kCheckedFigures[] = {
    &OptionResult::tokens, &OptionResult::training_flops, &OptionResult::cluster_flops_per_sec, &OptionResult::tokens_per_sec,
    &OptionResult::compute_hours, &OptionResult::training_hours, &OptionResult::wall_clock_hours, &OptionResult::chip_hours,
    &OptionResult::instance_hours, &OptionResult::price_usd_per_hour, &OptionResult::hardware_cost_per_run,
    &OptionResult::one_time_cost, &OptionResult::days_to_model, &OptionResult::fixed_cost, &OptionResult::per_run_cost,
    &OptionResult::cost_per_run, &OptionResult::cost_per_million_tokens, &OptionResult::compute_cost_per_million_tokens,
    &OptionResult::horizon_cost, &OptionResult::annual_cost};

template <size_t... I, size_t... P>
bool figures_valid(const OptionResult& r, std::index_sequence<I...>, std::index_sequence<P...>) {
  const bool goodput_valid = r.goodput > 0 && r.goodput <= 1;
  return goodput_valid && (valid_figure(r.*kCheckedFigures[I]) && ...) && (valid_figure(r.*kCostParts[P].member) && ...);
}
bool figures_valid(const OptionResult& r) {
  return figures_valid(r, std::make_index_sequence<std::size(kCheckedFigures)>{}, std::make_index_sequence<kCostPartCount>{});
}

// Each part of the cost with its formula, in the table's order (cost_parts.hpp; a part may read
// the ones above it). Unrolled over the table at compile time, so that each part's function is
// called directly and inlined, and only its amount is computed (a loop calls each through a
// pointer and fills in its arguments for explain).
template <size_t... I>
void fill_parts(const PartContext& context, OptionResult& r, std::index_sequence<I...>) {
  ((r.*kCostParts[I].member = kCostParts[I].work(context).amount), ...);
}

// sum_of_parts() (cost_parts.hpp) for one recurrence known at compile time: the same additions in
// the same order, without a loop over the table that tests each part's recurrence at run time.
template <Recurrence R, size_t... I>
double sum_parts(const OptionResult& r, std::index_sequence<I...>) {
  double sum = 0;
  ((kCostParts[I].recurrence == R ? sum += r.*kCostParts[I].member : sum), ...);
  return sum;
}

// Sets every field of `r` for one pair. evaluate_options() fills its results in place with it:
// returning the ~450-byte result by value and copying it into place was a tenth of the Monte
// Carlo loop's time in WebAssembly. Nor is `r` reset as a whole first (a 450-byte memset per pair
// of every sample): every field is written below, and those written only on some paths are reset
// here. Evaluation.ReusedResultsHoldNothingOfTheScenarioBefore checks no field keeps a value.
void fill_pair(const WorkloadInputs& w, const PairInputs& p, double target_tokens, GoodputMemo& goodput_memo, OptionResult& r) {
  r.reclaims = 0;
  r.reclaim_wait_hours = 0;
  r.infeasible = Infeasible::No;
  r.savings_vs_reference = 0;  // compare_options() sets these three
  r.wall_clock_ratio_vs_reference = 1;
  r.vs_reference = Breakeven{};
  // Work: the target's tokens, plus what this platform needs to reach the same quality.
  // Unpacked sequences are padded: only `fill` of the tokens trained are data (fine_tune.fill).
  r.tokens = penalized_tokens(target_tokens, p.convergence_penalty);
  if (!w.fine_tune.packed) r.tokens = padded_tokens(r.tokens, w.fine_tune.padding_fill());
  // A frozen base (LoRA, QLoRA) does 4·N + 6·N_adapter per token rather than 6·N (fine_tune.hpp).
  r.flops_per_token = training_flops_per_token(w, w.recompute);
  r.training_flops = training_flops(r.flops_per_token, r.tokens);

  // Speed: measured tokens/s when the user has a trial run, else MFU × peak.
  r.chips = chips(p.instances, p.chips_per_instance);
  r.scaling_efficiency = scaling_efficiency(r.chips, p.scaling_reference_chips, p.scaling_per_doubling);
  if (p.measured_tokens_per_sec_per_chip > 0) {
    r.tokens_per_sec = measured_tokens_per_sec(p.measured_tokens_per_sec_per_chip, r.chips, r.scaling_efficiency);
    r.cluster_flops_per_sec = r.tokens_per_sec * r.flops_per_token;
  } else {
    r.cluster_flops_per_sec = achieved_flops(p.mfu, p.peak_flops_per_chip, r.chips, r.scaling_efficiency);
    r.tokens_per_sec = r.cluster_flops_per_sec / r.flops_per_token;
  }
  r.compute_hours = compute_hours(r.training_flops, r.cluster_flops_per_sec);

  // Goodput: checkpoints pause the cluster, failures lose work and a restart.
  const GoodputTerms& g = goodput_memo.terms(w, p);
  r.cluster_mtbf_hours = g.cluster_mtbf_hours;
  r.checkpoint_bytes = g.checkpoint_bytes;
  r.checkpoint_pause_hours = g.checkpoint_pause_hours;
  r.restart_hours = g.restart_hours;
  r.checkpoint_interval_hours = g.checkpoint_interval_hours;
  r.goodput = g.goodput;
  // The whole run as realized: the planned time × the workload's whole-run factor, except where
  // the MFU is a published run's realized one, which includes it already.
  r.whole_run_factor = p.mfu_run ? 1.0 : w.whole_run_factor.value_or(1);
  r.training_hours = r.compute_hours / r.goodput * r.whole_run_factor;
  r.interruptions = expected_interruptions(r.training_hours, r.cluster_mtbf_hours);
  r.reclaims_per_hour = g.reclaims_per_hour;
  r.reclaim_restart_hours = g.reclaim_restart_hours;
  if (g.reclaims_per_hour > 0) {
    // Reclaimed capacity is neither running nor billed while the job waits for it to come back.
    r.reclaim_wait_hours = r.training_hours * g.reclaim_wait_share;
    r.reclaims = expected_interruptions(r.training_hours - r.reclaim_wait_hours, 1 / g.reclaims_per_hour);
  }
  r.wall_clock_hours = realized_wall_clock_hours(r.compute_hours, r.goodput, p.compile_hours_per_run, r.whole_run_factor);
  r.days_to_model = days_to_model(p.wait_days, r.wall_clock_hours);
  r.chip_hours = chip_hours(r.wall_clock_hours, r.chips);
  r.instance_hours = chip_hours(r.wall_clock_hours, p.instances);

  // Money.
  r.price_usd_per_hour = discounted_price(p.price_usd_per_hour, p.discount);
  const PartContext context{w, p, r};
  fill_parts(context, r, std::make_index_sequence<kCostPartCount>{});
  r.hardware_cost_per_run = r.compute_cost + r.compile_cost;
  r.one_time_cost = r.porting_cost + r.validation_cost;
  r.fixed_cost = sum_parts<Recurrence::Fixed>(r, std::make_index_sequence<kCostPartCount>{});
  r.per_run_cost = sum_parts<Recurrence::PerRun>(r, std::make_index_sequence<kCostPartCount>{});
  r.cost_per_run = cost_per_run(r.per_run_cost, r.fixed_cost, w.runs);
  r.cost_per_million_tokens = cost_per_million_tokens(r.cost_per_run, target_tokens);
  r.compute_cost_per_million_tokens = cost_per_million_tokens(r.hardware_cost_per_run, target_tokens);
  r.horizon_cost = r.cost_per_run * w.runs;
  r.annual_cost = r.horizon_cost * 12 / w.horizon_months;

  r.memory = memory_fit(p.performance);
  r.deadline = p.deadline;
  // A target outside what a token target may ask (a sampled loss or step count resolving to 0.2
  // or 1e20 tokens) is not a job TrainCost models; validate() refuses such a scenario, and here
  // it catches the Monte Carlo's samples (issue row 7).
  if (!(target_tokens >= fields::tokens.bounds.min && target_tokens <= fields::tokens.bounds.max)) r.infeasible = Infeasible::Target;
  else if (!p.performance.batch_divisible) r.infeasible = Infeasible::Layout;
  else if (!r.memory.fits) r.infeasible = Infeasible::Memory;
  else if (!(r.goodput > 0.01)) r.infeasible = Infeasible::Goodput;
  else if (w.deadline_days && !(r.days_to_model <= *w.deadline_days)) r.infeasible = Infeasible::Deadline;
  // Every figure of an option that can run the job is a valid one: finite and not negative. A
  // finite but astronomical target can overflow the FLOPs and make the cost infinite or NaN (0
  // validation runs × infinity); such an option must not take part in comparisons, where NaN
  // would win every "cheaper than" test.
  else if (!figures_valid(r)) r.infeasible = Infeasible::Target;
}

}  // namespace

OptionResult evaluate_pair(const WorkloadInputs& w, const PairInputs& p, double target_tokens) {
  OptionResult r;
  GoodputMemo goodput;
  fill_pair(w, p, target_tokens, goodput, r);
  return r;
}

void prepare_results(const ResolvedScenario& s, Results& out) {
  const size_t n_options = s.options.size();
  out.workloads.resize(s.workloads.size());
  out.goodput_memos.resize(s.workloads.size() * n_options);
  for (size_t w = 0; w < s.workloads.size(); ++w) {
    const WorkloadInputs& wi = s.workloads[w];
    WorkloadResult& wr = out.workloads[w];
    wr.target_tokens = target_tokens(wi.target, wi.model);
    wr.options.resize(n_options);
  }
}

void evaluate_one(const ResolvedScenario& s, size_t w, size_t o, Results& out) {
  const WorkloadInputs& wi = s.workloads[w];
  WorkloadResult& wr = out.workloads[w];
  fill_pair(wi, wi.options[o], wr.target_tokens, out.goodput_memos[w * s.options.size() + o], wr.options[o]);
}

void evaluate_options(const ResolvedScenario& s, Results& out) {
  const size_t n_options = s.options.size();
  prepare_results(s, out);
  for (size_t w = 0; w < s.workloads.size(); ++w)
    for (size_t o = 0; o < n_options; ++o) evaluate_one(s, w, o, out);
}

void evaluate(const ResolvedScenario& s, Results& out) {
  evaluate_options(s, out);
  compare_options(s, out);
}

void compare_options(const ResolvedScenario& s, Results& out) {
  const size_t n_options = s.options.size();
  for (size_t w = 0; w < s.workloads.size(); ++w) {
    WorkloadResult& wr = out.workloads[w];

    // The two feasible options with the lowest fully loaded cost per run.
    Comparison& c = wr.comparison;
    c = Comparison{};
    for (size_t o = 0; o < n_options; ++o) {
      if (!wr.options[o].feasible()) continue;
      const int i = static_cast<int>(o);
      if (c.cheapest < 0 || wr.options[o].cost_per_run < wr.options[static_cast<size_t>(c.cheapest)].cost_per_run) {
        c.runner_up = c.cheapest;
        c.cheapest = i;
      } else if (c.runner_up < 0 || wr.options[o].cost_per_run < wr.options[static_cast<size_t>(c.runner_up)].cost_per_run) {
        c.runner_up = i;
      }
    }
    if (c.cheapest >= 0 && c.runner_up >= 0) {
      const OptionResult& a = wr.options[static_cast<size_t>(c.cheapest)];
      const OptionResult& b = wr.options[static_cast<size_t>(c.runner_up)];
      c.savings = (b.cost_per_run - a.cost_per_run) / b.cost_per_run;
      c.wall_clock_ratio = a.wall_clock_hours / b.wall_clock_hours;
      c.breakeven = breakeven(a.fixed_cost, a.per_run_cost, b.fixed_cost, b.per_run_cost);
    }

    const OptionResult& ref = wr.options[static_cast<size_t>(s.reference)];
    for (OptionResult& r : wr.options) {
      r.savings_vs_reference = (ref.cost_per_run - r.cost_per_run) / ref.cost_per_run;
      r.wall_clock_ratio_vs_reference = r.wall_clock_hours / ref.wall_clock_hours;
      r.vs_reference = breakeven(r.fixed_cost, r.per_run_cost, ref.fixed_cost, ref.per_run_cost);
    }
  }

  // Portfolio: every workload on one option, against the best option per workload.
  Portfolio& p = out.portfolio;
  p.single_option_annual.assign(n_options, 0.0);
  p.single_option_feasible.assign(n_options, true);
  p.best_per_workload.assign(s.workloads.size(), -1);
  p.best_mix_annual = 0;
  p.best_single = -1;
  p.savings_vs_best_single = 0;
  bool mix_feasible = true;
  for (size_t w = 0; w < out.workloads.size(); ++w) {
    const WorkloadResult& wr = out.workloads[w];
    for (size_t o = 0; o < n_options; ++o) {
      p.single_option_annual[o] += wr.options[o].annual_cost;
      if (!wr.options[o].feasible()) p.single_option_feasible[o] = false;
    }
    p.best_per_workload[w] = wr.comparison.cheapest;
    if (wr.comparison.cheapest < 0) mix_feasible = false;
    else p.best_mix_annual += wr.options[static_cast<size_t>(wr.comparison.cheapest)].annual_cost;
  }
  for (size_t o = 0; o < n_options; ++o)
    if (p.single_option_feasible[o] &&
        (p.best_single < 0 || p.single_option_annual[o] < p.single_option_annual[static_cast<size_t>(p.best_single)]))
      p.best_single = static_cast<int>(o);
  if (!mix_feasible) p.best_mix_annual = NAN;
  if (p.best_single >= 0 && mix_feasible) {
    const double single = p.single_option_annual[static_cast<size_t>(p.best_single)];
    p.savings_vs_best_single = (single - p.best_mix_annual) / single;
  }
}

Results evaluate(const ResolvedScenario& scenario) {
  Results r;
  evaluate(scenario, r);
  return r;
}

}  // namespace traincost
