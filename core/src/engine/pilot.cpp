#include "traincost/engine/pilot.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "traincost/engine/resolve.hpp"
#include "traincost/engine/resolve_pair.hpp"
#include "traincost/scenario/fields.hpp"

namespace traincost {

PilotValue value_of_learning(const LearningModel& m, const std::vector<double>& g, double pilot_cost) {
  PilotValue v;
  v.incumbent_usd = m.incumbent;
  v.expected_porting_usd = m.porting;
  if (g.empty()) return v;
  const double n = static_cast<double>(g.size());
  double candidate = 0;
  for (const double x : g) candidate += m.a + m.b * x;
  v.candidate_usd = candidate / n;
  const bool now_candidate = v.candidate_usd < m.incumbent;
  v.decide_now = now_candidate ? 0 : 1;

  // Regret form: in each sample, what the choice made now costs beyond the best choice knowing g.
  // It is exactly 0 in samples where the choice stands, so a pilot that cannot change the decision
  // is worth exactly 0, and the mean never exceeds the largest single saving.
  double sum = 0, sum_squares = 0, after = 0, net = 0;
  uint32_t changes = 0, passes = 0;
  for (const double x : g) {
    const double e = m.a + m.b * x;  // the candidate's expected cost, knowing g
    const double best = std::min(e, m.incumbent);
    const double regret = (now_candidate ? e : m.incumbent) - best;
    sum += regret;
    sum_squares += regret * regret;
    v.max_saving_usd = std::max(v.max_saving_usd, regret);
    after += best;
    changes += regret > 0;
    // After a pilot the porting is spent: the candidate is chosen when its cost without it is lower.
    const bool pass = e - m.porting < m.incumbent;
    passes += pass;
    // Piloting against deciding now: when the candidate was chosen anyway, a failed pilot saves
    // running it; when the incumbent was, a passed pilot saves the difference and a failed one
    // loses the porting.
    net += now_candidate ? std::max(0.0, e - m.porting - m.incumbent) : std::max(m.incumbent - e, -m.porting);
  }
  v.value_usd = sum / n;
  const double variance = std::max(0.0, sum_squares / n - v.value_usd * v.value_usd);
  v.standard_error_usd = std::sqrt(variance / n);
  v.after_pilot_usd = after / n;
  v.probability_changes = changes / n;
  v.probability_passes = passes / n;
  v.net_value_usd = net / n - pilot_cost;
  return v;
}

// The Monte Carlo behind value_of_learning: the analysis's ranged inputs sampled with its
// bindings and generator (the same draws, in the same order, as analyze() with this seed), and in
// each sample the candidate's horizon cost at two values of g, giving that sample's a + b × g.
// Heap-held by PilotPlanRun: its bindings point into `work`.
struct PilotPlanRun::Sampler {
  std::vector<RangedInput> inputs;
  ResolvedScenario work;
  std::vector<InputBinding> bindings;
  std::vector<InputSampler> draw;
  size_t w = 0;
  int c = -1, i = -1;
  double pilot_cost = 0;
  bool measured = false;
  double PairInputs::*rate = nullptr;
  std::vector<std::string> revealed_ranged;
  double rate0 = 0, penalty0 = 0, g0 = 0;
  size_t n = 0, next = 0;
  std::vector<double> a, b, incumbent, g;
  double porting = 0;
  uint32_t skipped = 0;
  uint64_t seed = 0;
  Random rng;

  Sampler(const Scenario& s, const ResolvedScenario& base, const Catalog& catalog, size_t w_, int c_, int i_, double pilot_cost_,
          int samples, uint64_t seed_)
      : inputs(ranged_inputs(s, base, catalog)), work(base), w(w_), c(c_), i(i_), pilot_cost(pilot_cost_), seed(seed_), rng(seed_) {
    for (const RangedInput& in : inputs) {
      bindings.emplace_back(work, in.ref, s);
      draw.emplace_back(in);
    }
    PairInputs& candidate = work.workloads[w].options[static_cast<size_t>(c)];
    measured = candidate.measured_tokens_per_sec_per_chip > 0;
    rate = measured ? &PairInputs::measured_tokens_per_sec_per_chip : &PairInputs::mfu;
    const std::string revealed[] = {(measured ? fields::measured_tokens_per_sec_per_chip : fields::mfu).of_option(static_cast<size_t>(c)),
                                    fields::convergence_penalty.of_option(static_cast<size_t>(c))};
    for (const RangedInput& in : inputs)
      if (in.path == revealed[0] || in.path == revealed[1]) revealed_ranged.push_back(in.path);
    rate0 = candidate.*rate;
    penalty0 = candidate.convergence_penalty;
    g0 = (1 + penalty0) / rate0;
    n = static_cast<size_t>(std::max(samples, 1));
    a.reserve(n);
    b.reserve(n);
    incumbent.reserve(n);
    g.reserve(n);
  }

  // Simulates up to `count` more samples; true once all are done.
  bool advance(size_t count) {
    PairInputs& candidate = work.workloads[w].options[static_cast<size_t>(c)];
    const size_t stop = next + std::min(count, n - next);
    for (; next < stop; ++next) {
      for (size_t k = 0; k < inputs.size(); ++k) bindings[k].set(draw[k](rng.uniform()));
      const WorkloadInputs& wi = work.workloads[w];
      const double target = target_tokens(wi.target, wi.model);
      const double rate_j = candidate.*rate, penalty_j = candidate.convergence_penalty;
      const OptionResult other = evaluate_pair(wi, wi.options[static_cast<size_t>(i)], target);
      // The candidate at g0 and at g0 / 2 (twice the rate), everything else as sampled. The cost is
      // affine in g (hours and days of delay are proportional to it); the second point is the faster
      // one because a cluster sized to meet a deadline at g0 misses it at any slower rate.
      candidate.*rate = rate0;
      candidate.convergence_penalty = penalty0;
      const OptionResult at_g0 = evaluate_pair(wi, candidate, target);
      candidate.*rate = rate0 * 2;
      const OptionResult at_g1 = evaluate_pair(wi, candidate, target);
      candidate.*rate = rate_j;  // an input without a range is set by no binding: put back what was sampled
      candidate.convergence_penalty = penalty_j;
      if (!other.feasible() || !at_g0.feasible() || !at_g1.feasible()) {
        ++skipped;
        continue;
      }
      const double slope = (at_g0.horizon_cost - at_g1.horizon_cost) / (g0 / 2);  // over g0 − g0 / 2
      b.push_back(slope);
      a.push_back(at_g0.horizon_cost - slope * g0);
      incumbent.push_back(other.horizon_cost);
      g.push_back((1 + penalty_j) / rate_j);
      porting += at_g0.porting_cost;
    }
    return next >= n;
  }

  PilotValue finish() const {
    LearningModel model;
    const double kept = static_cast<double>(g.size());
    for (size_t j = 0; j < g.size(); ++j) {
      model.a += a[j] / kept;
      model.b += b[j] / kept;
      model.incumbent += incumbent[j] / kept;
    }
    model.porting = g.empty() ? 0 : porting / kept;
    PilotValue v = value_of_learning(model, g, pilot_cost);
    v.samples = static_cast<int>(n);
    v.seed = seed;
    v.revealed = revealed_ranged;
    v.skipped_samples = skipped;
    v.decide_now = v.decide_now == 0 ? c : v.decide_now == 1 ? i : -1;
    // Perfect information: each sample's own costs, the choice made now held against the best.
    double perfect = 0;
    for (size_t j = 0; j < g.size(); ++j) {
      const double own = a[j] + b[j] * g[j];
      perfect += (v.decide_now == c ? own : incumbent[j]) - std::min(own, incumbent[j]);
    }
    v.perfect_information_usd = g.empty() ? 0 : perfect / kept;
    return v;
  }
};

namespace {

// Whether `instances` of the candidate hold the job (memory and batch), by the step-time model's
// layout search, and the model's tokens/s per chip there (0 when they do not).
struct PilotFitCheck {
  bool fits = false;
  double predicted_tokens_per_sec_per_chip = 0;
};
PilotFitCheck pilot_fits(const Scenario& s, const Catalog& catalog, size_t w, int c, int instances) {
  Scenario smaller = s;
  smaller.options[static_cast<size_t>(c)].instances = instances;
  smaller.options[static_cast<size_t>(c)].instances_default = false;
  const ResolvedScenario resolved = resolve(smaller, catalog);  // held: the layout below points into it
  const PairPerformance& perf = resolved.workloads[w].options[static_cast<size_t>(c)].performance;
  PilotFitCheck check;
  check.fits = perf.layout_found && perf.batch_divisible;
  if (check.fits) check.predicted_tokens_per_sec_per_chip = perf.time.tokens_per_sec_per_chip;
  return check;
}

}  // namespace

PilotPlanRun::PilotPlanRun(const Scenario& s, const ResolvedScenario& base, const Catalog& catalog, const PilotOptions& o) {
  PilotPlan& plan = plan_;
  const size_t w = std::min(o.workload, base.workloads.size() - 1);
  plan.workload = w;
  const Results results = evaluate(base);
  const Comparison& cmp = results.workloads[w].comparison;
  const std::vector<OptionResult>& options = results.workloads[w].options;

  // The candidate: asked for, else of the leading two the one with the larger fixed cost (as the
  // analysis's challenger); the incumbent: asked for, else the leader, or the runner-up when the
  // candidate leads.
  int c = o.candidate, i = o.incumbent;
  if (c < 0 && cmp.cheapest >= 0 && cmp.runner_up >= 0)
    c = options[static_cast<size_t>(cmp.cheapest)].fixed_cost >= options[static_cast<size_t>(cmp.runner_up)].fixed_cost ? cmp.cheapest
                                                                                                                        : cmp.runner_up;
  if (i < 0) i = c == cmp.cheapest ? cmp.runner_up : cmp.cheapest;
  plan.candidate = c;
  plan.incumbent = i;
  if (c < 0 || i < 0 || c == i) {
    plan.reason = "a pilot needs two options that can run this workload";
    return;
  }
  const OptionResult& rc = options[static_cast<size_t>(c)];
  plan.candidate_leads = rc.cost_per_run < options[static_cast<size_t>(i)].cost_per_run;
  const OptionInfo& info = base.options[static_cast<size_t>(c)];
  for (const int k : {c, i})
    if (!options[static_cast<size_t>(k)].feasible()) {
      plan.reason = base.options[static_cast<size_t>(k)].label + " cannot run this workload";
      return;
    }

  // What to run.
  const PairInputs& p = base.workloads[w].options[static_cast<size_t>(c)];
  PilotRun& run = plan.run;
  run.planned_instances = static_cast<int>(p.instances);
  run.instances = o.instances > 0 ? o.instances : run.planned_instances;
  if (run.instances > run.planned_instances) {
    plan.reason = "the pilot cluster is larger than the planned one (" + std::to_string(run.planned_instances) + " instances)";
    return;
  }
  PilotFitCheck check;
  if (run.instances < run.planned_instances) {
    check = pilot_fits(s, catalog, w, c, run.instances);
    if (!check.fits) {
      plan.reason = "a pilot on " + std::to_string(run.instances) + (run.instances == 1 ? " instance of " : " instances of ") + info.label +
                    " cannot hold the job";
      return;
    }
  }
  run.planned_chips = rc.chips;
  run.chips = chips(run.instances, p.chips_per_instance);
  run.fraction = o.fraction > 0 ? o.fraction : p.validation_run_fraction > 0 ? std::max(kMinPilotFraction, p.validation_run_fraction) : kDefaultPilotFraction;
  run.tokens = run.fraction * rc.tokens;
  run.steps = run.tokens / batch_tokens_of(base.workloads[w], p);
  run.per_doubling = p.scaling_per_doubling;
  run.efficiency = scaling_efficiency(run.planned_chips, run.chips, p.scaling_per_doubling);
  // A throughput the step-time model carries (predicted, or a pilot's measurement) goes from the
  // pilot's size to the planned one as the model's own prediction does (resolve_pair.hpp's
  // PilotFit), so a pilot that meets the mark flips the verdict exactly where the threshold says.
  const PairPerformance& perf = p.performance;
  const bool by_model = perf.source == ThroughputSource::Predicted || (perf.source == ThroughputSource::Pilot && !perf.pilot.by_rule);
  if (by_model && run.chips < run.planned_chips && check.predicted_tokens_per_sec_per_chip > 0 && perf.time.tokens_per_sec_per_chip > 0) {
    run.by_model = true;
    run.efficiency = perf.time.tokens_per_sec_per_chip / check.predicted_tokens_per_sec_per_chip;
  }
  run.run_compute_usd = rc.compute_cost;
  run.hours = run.fraction * rc.training_hours * run.efficiency * (run.planned_chips / run.chips) + p.compile_hours_per_run;
  run.engineer_weeks = p.engineer_weeks;
  run.porting_usd = rc.porting_cost;
  run.compute_usd = pilot_compute_cost(run.fraction, rc.compute_cost, run.efficiency);
  run.compile_usd = instance_cost(p.compile_hours_per_run, run.instances, rc.price_usd_per_hour);
  run.cost_usd = run.porting_usd + run.compute_usd + run.compile_usd;

  // The pass marks: where the candidate is cheaper than the incumbent.
  plan.thresholds = thresholds(s, base, w, c, i);
  PilotMarks& marks = plan.marks;
  for (const Threshold& t : plan.thresholds) {
    if (t.option != c) continue;
    if (t.input == ThresholdInput::Throughput) marks.throughput = t;
    if (t.input == ThresholdInput::ConvergencePenalty) marks.penalty = t;
    if (t.input == ThresholdInput::CompileTime) marks.compile = t;
  }
  const Threshold& x = marks.throughput;
  marks.base_pilot_tokens_per_sec_per_chip = x.base_tokens_per_sec_per_chip / run.efficiency;
  marks.base_adjusted_rate = marks.base_pilot_tokens_per_sec_per_chip / (1 + p.convergence_penalty);
  if (x.flips) {
    marks.pilot_tokens_per_sec_per_chip = run.by_model ? x.tokens_per_sec_per_chip / run.efficiency
                                                       : pass_mark_at_pilot_scale(x.tokens_per_sec_per_chip, run.planned_chips, run.chips,
                                                                                  p.scaling_per_doubling);
    marks.pilot_mfu = run.by_model ? x.mfu / run.efficiency : pass_mark_at_pilot_scale(x.mfu, run.planned_chips, run.chips, p.scaling_per_doubling);
    marks.adjusted_rate = marks.pilot_tokens_per_sec_per_chip / (1 + p.convergence_penalty);
  }
  const WorkloadInputs& wi = base.workloads[w];
  marks.law = wi.target.kind == TargetKind::Loss ? wi.target.law : ScalingLawKind::Hoffmann2022;
  // Against the incumbent's own convergence: the candidate may need (1 + p*) / (1 + p_incumbent) times
  // its tokens to reach the same loss.
  const double incumbent_penalty = base.workloads[w].options[static_cast<size_t>(i)].convergence_penalty;
  marks.base_tokens_factor = (1 + p.convergence_penalty) / (1 + incumbent_penalty);
  if (marks.penalty.flips) {
    marks.tokens_factor = (1 + marks.penalty.value) / (1 + incumbent_penalty);
    const ScalingLaw law = scaling_law_constants(marks.law, wi.target.custom_law);
    marks.loss_gap = loss_gap_for_penalty(law.B, law.beta, run.tokens, marks.tokens_factor - 1);
  }

  // Is it worth running? Sampled by advance().
  sampler_ = std::make_unique<Sampler>(s, base, catalog, w, c, i, run.compute_usd + run.compile_usd, o.samples, o.seed);
}

PilotPlanRun::~PilotPlanRun() = default;

bool PilotPlanRun::advance(size_t samples) { return !sampler_ || sampler_->advance(samples); }
size_t PilotPlanRun::done() const { return sampler_ ? sampler_->next : 0; }
size_t PilotPlanRun::total() const { return sampler_ ? sampler_->n : 0; }

PilotPlan PilotPlanRun::finish() {
  PilotPlan plan = plan_;
  if (!sampler_) return plan;
  plan.value = sampler_->finish();
  if (plan.value.decide_now < 0) {
    plan.reason = "in no sample of the ranges could both options run the workload";
    return plan;
  }
  plan.worth_running = plan.value.net_value_usd > 0;
  plan.ok = true;
  return plan;
}

PilotPlan plan_pilot(const Scenario& s, const ResolvedScenario& base, const Catalog& catalog, const PilotOptions& o) {
  PilotPlanRun run(s, base, catalog, o);
  run.advance(std::numeric_limits<size_t>::max());
  return run.finish();
}

}  // namespace traincost

namespace traincost {

PilotResults pilot_results(const Scenario& before, const Scenario& after, const Catalog& catalog, int option, size_t workload) {
  PilotResults out;
  out.workload = workload;
  out.option = option;
  const size_t o = static_cast<size_t>(option);
  if (!after.options[o].pilot || !after.options[o].pilot->has_rate()) {
    out.reason = "the pilot block of option " + std::to_string(option) + " has no throughput";
    return out;
  }
  const ResolvedScenario rb = resolve(before, catalog);
  const ResolvedScenario ra = resolve(after, catalog);
  const Results results_before = evaluate(rb), results_after = evaluate(ra);
  out.cheapest_before = results_before.workloads[workload].comparison.cheapest;
  out.cheapest_after = results_after.workloads[workload].comparison.cheapest;
  const PairInputs& pa = ra.workloads[workload].options[o];
  out.fit = pa.performance.pilot;
  const Model& model = ra.workloads[workload].model;
  if (pa.peak_flops_per_chip > 0) {
    Model at_pilot = model;
    if (after.options[o].pilot->seq_len && model.has_architecture()) at_pilot.seq_len = *after.options[o].pilot->seq_len;
    out.measured_mfu = utilization(out.fit.measured_tokens_per_sec_per_chip, flops_per_token(at_pilot, false), pa.peak_flops_per_chip);
    out.planned_mfu = pa.mfu;
  }

  // The plan before the pilot, on the pilot's cluster (its pass marks), against the other leader.
  PilotOptions po;
  po.workload = workload;
  po.candidate = option;
  po.samples = 200;  // only the marks are used: the value of the pilot is spent
  const double planned = rb.workloads[workload].options[o].instances;
  po.instances = static_cast<int>(std::min(planned, out.fit.chips / std::max(1.0, pa.chips_per_instance)));
  out.plan = plan_pilot(before, rb, catalog, po);
  out.incumbent = out.plan.incumbent;
  if (out.plan.incumbent < 0) {
    out.reason = out.plan.reason;
    return out;
  }
  // Throughput: the measurement carried to the planned cluster against the threshold there (the
  // pass mark at the pilot's size is the same line, drawn where the pilot measures).
  const Threshold& x = out.plan.marks.throughput;
  out.throughput_has_mark = x.flips;
  const double carried = out.fit.tokens_per_sec_per_chip;
  if (x.flips) out.throughput_passed = x.at_least ? carried >= x.tokens_per_sec_per_chip : carried <= x.tokens_per_sec_per_chip;
  // Compilation: the pilot's against the compile-time threshold.
  const PilotMeasurement& m = *after.options[o].pilot;
  out.compile_measured = m.compile_minutes.has_value();
  out.compile_hours = m.compile_minutes.value_or(0) / 60;
  const Threshold& c = out.plan.marks.compile;
  out.compile_has_mark = c.flips;
  if (out.compile_measured && c.flips) out.compile_passed = c.at_least ? out.compile_hours >= c.value : out.compile_hours <= c.value;
  // Convergence: the penalty the loss curves measured (resolve_option's) against its mark.
  out.convergence = ra.options[o].convergence;
  const Threshold& pen = out.plan.marks.penalty;
  out.penalty_has_mark = pen.flips;
  if (out.convergence && out.convergence->measured()) {
    out.measured_penalty = penalty_of_ratio(out.convergence->ratio);
    if (pen.flips) out.penalty_passed = pen.at_least ? out.measured_penalty >= pen.value : out.measured_penalty <= pen.value;
  }
  out.ok = true;
  return out;
}

}  // namespace traincost
