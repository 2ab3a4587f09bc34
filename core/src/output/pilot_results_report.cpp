#include "traincost/output/pilot_results_report.hpp"

#include "traincost/base/format.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/evidence/pilot_scaling.hpp"
#include "traincost/output/verdict.hpp"
#include "traincost/scenario/labels.hpp"

namespace traincost {

namespace {

struct Verdicts {
  std::string before, after;
  std::string cheapest_before, cheapest_after;
};

Verdicts verdicts(const Scenario& before, const Scenario& after, const Catalog& catalog, const PilotResults& x) {
  Verdicts v;
  const ResolvedScenario rb = resolve(before, catalog), ra = resolve(after, catalog);
  v.before = workload_verdict(rb, evaluate(rb), x.workload);
  v.after = workload_verdict(ra, evaluate(ra), x.workload);
  if (x.cheapest_before >= 0) v.cheapest_before = rb.options[static_cast<size_t>(x.cheapest_before)].label;
  if (x.cheapest_after >= 0) v.cheapest_after = ra.options[static_cast<size_t>(x.cheapest_after)].label;
  return v;
}

std::string carried_text(const PilotFit& f, double planned_chips) {
  if (f.same_size) return "measured on the planned cluster: used as it is";
  if (f.by_rule)
    return "the step-time model cannot lay out the pilot's cluster: carried to " + fmt::number(planned_chips) +
           " chips by the option's scaling per doubling";
  return "carried to " + fmt::number(planned_chips) + " chips by the step-time model: it predicts " + fmt::rounded(f.predicted_at_pilot) +
         " tokens/s per chip at the pilot and " + fmt::rounded(f.predicted_at_plan) + " on the planned cluster; the pilot ran at " +
         fmt::number(f.ratio, 3) + "× its prediction, so the plan uses " + fmt::number(f.ratio, 3) + " × " +
         fmt::rounded(f.predicted_at_plan) + " (scaling error on published measurements: median " + fmt::percent(kPilotScalingMedianError) +
         ", worst " + fmt::percent(kPilotScalingWorstError) + " over " + std::to_string(kPilotScalingPairs) + " pairs)";
}

}  // namespace

OrderedJson convergence_to_json(const ConvergenceEstimate& c) {
  OrderedJson j = OrderedJson::object();
  j["state"] = word_of(kConvergenceStateWords, c.state);
  if (!c.measured()) j["reason"] = c.reason;
  if (c.measured()) {
    j["ratio"] = c.ratio;
    j["low"] = c.low;
    j["high"] = c.high;
    j["penalty"] = penalty_of_ratio(c.ratio);
    j["penalty_low"] = penalty_of_ratio(c.low);
    j["penalty_high"] = penalty_of_ratio(c.high);
    j["target_loss"] = c.target_loss;
    j["reference_tokens"] = c.reference_tokens;
    j["candidate_tokens"] = c.candidate_tokens;
    j["resamples"] = c.resamples;
    j["failed_resamples"] = c.failed_resamples;
    j["seed"] = c.seed;
  }
  auto fit = [](const LossCurveFit& f) {
    OrderedJson o = {{"points", f.points}, {"fitted", f.ok}};
    if (f.ok) {
      o["E"] = f.E;
      o["A"] = f.A;
      o["alpha"] = f.alpha;
      o["tokens_scale"] = f.scale;
      o["residual_sd"] = f.residual_sd;
    }
    OrderedJson spikes = OrderedJson::array();
    for (const LossPoint& p : f.spikes) spikes.push_back(OrderedJson::array({p.tokens, p.loss}));
    o["spikes_left_out"] = spikes;
    return o;
  };
  if (c.state != ConvergenceState::NoCurves) {
    j["candidate_fit"] = fit(c.candidate);
    j["reference_fit"] = fit(c.reference);
  }
  return j;
}

std::string convergence_text(const ConvergenceEstimate& c) {
  if (!c.measured()) return "";
  std::string spikes;
  for (const LossCurveFit* f : {&c.candidate, &c.reference})
    for (const LossPoint& p : f->spikes) spikes += (spikes.empty() ? "" : ", ") + fmt::rounded(p.tokens);
  return "  Loss curves: the candidate needs " + fmt::number(c.ratio, 3) + "× the reference's tokens to reach its final loss of " +
         fmt::number(c.target_loss, 4) + " (90% interval " + fmt::number(c.low, 3) + " to " + fmt::number(c.high, 3) +
         "; L = E + A·D^-α fitted to " + std::to_string(c.candidate.points) + " and " + std::to_string(c.reference.points) + " points" +
         (spikes.empty() ? "" : ", spikes left out at " + spikes + " tokens") + "; " + std::to_string(c.resamples) +
         " residual-bootstrap resamples, seed " + std::to_string(c.seed) + "). The option's convergence penalty is now " +
         fmt::percent(penalty_of_ratio(c.ratio)) + " (" + fmt::percent(penalty_of_ratio(c.low)) + " to " +
         fmt::percent(penalty_of_ratio(c.high)) + "), in place of the scenario's.\n";
}

OrderedJson pilot_results_to_json(const Scenario& before, const Scenario& after, const Catalog& catalog, const PilotResults& x) {
  OrderedJson j = OrderedJson::object();
  j["ok"] = x.ok;
  if (!x.ok) {
    j["reason"] = x.reason;
    return j;
  }
  const Verdicts v = verdicts(before, after, catalog, x);
  const PilotFit& f = x.fit;
  j["workload"] = x.workload;
  j["option"] = x.option;
  j["incumbent"] = x.incumbent;
  j["measured"] = {{"from", f.from},
                   {"chips", f.chips},
                   {"tokens_per_sec_per_chip", f.measured_tokens_per_sec_per_chip},
                   {"mfu", x.measured_mfu}};
  j["carried"] = {{"same_size", f.same_size},
                  {"by_rule", f.by_rule},
                  {"predicted_at_pilot", f.predicted_at_pilot},
                  {"predicted_at_plan", f.predicted_at_plan},
                  {"ratio", f.ratio},
                  {"tokens_per_sec_per_chip", f.tokens_per_sec_per_chip},
                  {"mfu", x.planned_mfu},
                  {"scaling_error_median", f.same_size ? 0.0 : kPilotScalingMedianError},
                  {"scaling_error_worst", f.same_size ? 0.0 : kPilotScalingWorstError}};
  const PilotMarks& m = x.plan.marks;
  OrderedJson marks = OrderedJson::array();
  OrderedJson throughput = {{"mark", "throughput"}, {"has_mark", x.throughput_has_mark}, {"measured_tokens_per_sec_per_chip", f.measured_tokens_per_sec_per_chip},
                            {"measured_mfu", x.measured_mfu}};
  if (x.throughput_has_mark) {
    throughput["pilot_tokens_per_sec_per_chip"] = m.pilot_tokens_per_sec_per_chip;
    throughput["pilot_mfu"] = m.pilot_mfu;
    throughput["planned_tokens_per_sec_per_chip"] = m.throughput.tokens_per_sec_per_chip;
    throughput["at_least"] = m.throughput.at_least;
    throughput["passed"] = x.throughput_passed;
  }
  marks.push_back(throughput);
  OrderedJson compile = {{"mark", "compile_hours_per_run"}, {"measured", x.compile_measured}, {"has_mark", x.compile_has_mark}};
  if (x.compile_measured) compile["measured_hours"] = x.compile_hours;
  if (x.compile_has_mark) compile["mark_hours"] = m.compile.value;
  if (x.compile_measured && x.compile_has_mark) compile["passed"] = x.compile_passed;
  marks.push_back(compile);
  const bool penalty_measured = x.convergence && x.convergence->measured();
  OrderedJson penalty = {{"mark", "convergence_penalty"}, {"measured", penalty_measured}, {"has_mark", x.penalty_has_mark}};
  if (penalty_measured) penalty["measured_penalty"] = x.measured_penalty;
  if (x.penalty_has_mark) {
    penalty["mark_penalty"] = m.penalty.value;
    penalty["at_least"] = m.penalty.at_least;
  }
  if (penalty_measured && x.penalty_has_mark) penalty["passed"] = x.penalty_passed;
  marks.push_back(penalty);
  j["pass_marks"] = marks;
  if (x.convergence) j["convergence"] = convergence_to_json(*x.convergence);
  j["before"] = {{"cheapest", x.cheapest_before}, {"label", v.cheapest_before}, {"verdict", v.before}};
  j["after"] = {{"cheapest", x.cheapest_after}, {"label", v.cheapest_after}, {"verdict", v.after}};
  j["verdict_changed"] = x.cheapest_before != x.cheapest_after;
  return j;
}

std::string pilot_results_text(const Scenario& before, const Scenario& after, const Catalog& catalog, const PilotResults& x) {
  if (!x.ok) return "No pilot results: " + x.reason + ".\n";
  const Verdicts v = verdicts(before, after, catalog, x);
  const ResolvedScenario ra = resolve(after, catalog);
  const PairInputs& p = ra.workloads[x.workload].options[static_cast<size_t>(x.option)];
  const double planned_chips = p.instances * p.chips_per_instance;
  const PilotFit& f = x.fit;
  const PilotMarks& m = x.plan.marks;
  std::string out;
  out += "Pilot of " + ra.options[static_cast<size_t>(x.option)].label + " on " + fmt::number(f.chips) + " chips (" + f.from + "): " +
         fmt::rounded(f.measured_tokens_per_sec_per_chip) + " tokens/s per chip, MFU " + fmt::number(x.measured_mfu, 3) + ".\n";
  out += "On the planned " + fmt::number(planned_chips) + " chips: " + fmt::rounded(f.tokens_per_sec_per_chip) + " tokens/s per chip, MFU " +
         fmt::number(x.planned_mfu, 3) + "; " + carried_text(f, planned_chips) + ".\n\n";
  out += "Pass marks (the plan before the pilot, against " + ra.options[static_cast<size_t>(x.incumbent)].label + "):\n";
  if (x.throughput_has_mark)
    out += std::string("  throughput: ") + (x.throughput_passed ? "PASSED" : "FAILED") + ": measured " +
           fmt::rounded(f.measured_tokens_per_sec_per_chip) + " tokens/s per chip (MFU " + fmt::number(x.measured_mfu, 3) + "), mark " +
           (m.throughput.at_least ? "at least " : "at most ") + fmt::rounded(m.pilot_tokens_per_sec_per_chip) + " (MFU " +
           fmt::number(m.pilot_mfu, 3) + ") on the pilot's cluster, " + fmt::rounded(m.throughput.tokens_per_sec_per_chip) +
           " on the planned one\n";
  else
    out += "  throughput: no mark: no throughput alone changes which option is cheaper\n";
  if (!x.compile_measured) out += "  compile time: not measured\n";
  else if (!x.compile_has_mark) out += "  compile time: " + fmt::hours(x.compile_hours) + " measured; no compile time alone changes the answer\n";
  else
    out += std::string("  compile time: ") + (x.compile_passed ? "PASSED" : "FAILED") + ": measured " + fmt::hours(x.compile_hours) +
           ", mark " + (m.compile.at_least ? "at least " : "at most ") + fmt::hours(m.compile.value) + " per run\n";
  if (!x.convergence)
    out += "  convergence penalty: not measured (give the candidate's loss curve and a reference curve: --log and --reference-log)\n";
  else if (!x.convergence->measured())
    out += "  convergence penalty: not measured: " + x.convergence->reason + "\n";
  else if (!x.penalty_has_mark)
    out += "  convergence penalty: " + fmt::percent(x.measured_penalty) + " measured; no convergence penalty alone changes the answer\n";
  else
    out += std::string("  convergence penalty: ") + (x.penalty_passed ? "PASSED" : "FAILED") + ": measured " + fmt::percent(x.measured_penalty) +
           ", mark " + (m.penalty.at_least ? "at least " : "at most ") + fmt::percent(m.penalty.value) + "\n";
  if (x.convergence) out += convergence_text(*x.convergence);
  out += "\n";
  out += "Before the pilot: " + v.before + "\n";
  out += "After the pilot:  " + v.after + "\n";
  out += x.cheapest_before == x.cheapest_after ? "The choice stands: " + v.cheapest_after + ".\n"
                                               : "The choice changes: " + v.cheapest_before + " -> " + v.cheapest_after + ".\n";
  return out;
}

}  // namespace traincost
