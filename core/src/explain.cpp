#include "traincost/explain.hpp"

#include <cstdio>

#include "traincost/format.hpp"
#include "traincost/report.hpp"
#include "traincost/scenario_json.hpp"
#include "traincost/verdict.hpp"

namespace traincost {
namespace {

// Four significant digits: enough to redo the arithmetic, short enough to read.
std::string g(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4g", v);
  return buffer;
}

enum class Shown { Number, Flop, Hours, Usd, Chips };

std::string shown(double v, Shown how) {
  switch (how) {
    case Shown::Number: return "= " + g(v);
    case Shown::Flop: return "= " + g(v) + " FLOP";
    case Shown::Hours: return "= " + g(v) + " h (" + fmt::hours(v) + ")";
    case Shown::Usd: return "= " + fmt::usd_exact(v);
    case Shown::Chips: return "= " + g(v) + " chips";
  }
  return "= " + g(v);
}

// The names in a Formula's argument list ("E, A, B") and its {placeholders}, compared at compile
// time: every placeholder must name an argument and every argument must appear.
constexpr bool same_name(const char* a, size_t a_len, const char* b, size_t b_len) {
  if (a_len != b_len) return false;
  for (size_t i = 0; i < a_len; ++i)
    if (a[i] != b[i]) return false;
  return true;
}
constexpr size_t argument_count(const char* args) {
  size_t n = *args ? 1 : 0;
  for (; *args; ++args) n += *args == ',';
  return n;
}
// Index of `name` in the argument list, or the argument count when it is not there.
constexpr size_t argument_index(const char* args, const char* name, size_t len) {
  size_t index = 0;
  const char* start = args;
  for (const char* s = args;; ++s) {
    if (*s == ',' || !*s) {
      if (same_name(start, static_cast<size_t>(s - start), name, len)) return index;
      if (!*s) return argument_count(args);
      ++index;
      start = s + 2;  // ", "
      ++s;
    }
  }
}
constexpr bool placeholders_match(const Formula& f) {
  size_t used = 0;  // bit i: argument i appears
  for (const char* s = f.expression; *s; ++s) {
    if (*s != '{') continue;
    const char* name = s + 1;
    while (*s && *s != '}') ++s;
    if (!*s) return false;
    const size_t index = argument_index(f.arguments, name, static_cast<size_t>(s - name));
    if (index >= argument_count(f.arguments)) return false;
    used |= size_t{1} << index;
  }
  return used + 1 == size_t{1} << argument_count(f.arguments);
}

// The expression with each {placeholder} replaced by its name ("{W} × {n}" -> "W × n") or, given
// the arguments' values, by its value.
std::string fill(const Formula& f, const std::vector<std::string>* values) {
  std::string out;
  for (const char* s = f.expression; *s; ++s) {
    if (*s != '{') {
      out += *s;
      continue;
    }
    const char* name = s + 1;
    while (*s != '}') ++s;
    const size_t len = static_cast<size_t>(s - name);
    out += values ? (*values)[argument_index(f.arguments, name, len)] : std::string(name, len);
  }
  return out;
}

template <typename T> struct Same { using type = T; };

// Calls the formula's function with `args`, records the step with the formula's text and the
// arguments' values in place of its placeholders, and returns the result: the explanation shows
// what the code computes.
template <const Formula& F, typename... A>
double step(std::vector<ExplainStep>& steps, Shown how, double (*fn)(A...), typename Same<A>::type... args) {
  static_assert(argument_count(F.arguments) == sizeof...(A), "the formula names one argument per parameter");
  static_assert(placeholders_match(F), "every placeholder names an argument, and every argument is used");
  const double result = fn(args...);
  const std::vector<std::string> values = {g(static_cast<double>(args))...};
  steps.push_back({F.quantity, std::string(F.symbol) + " = " + fill(F, nullptr), fill(F, &values), shown(result, how)});
  return result;
}

}  // namespace

std::vector<ExplainStep> explain_pair(const WorkloadInputs& w, const PairInputs& p, const OptionResult& r,
                                      double target_tokens) {
  std::vector<ExplainStep> steps;
  const Model& m = w.model;
  // Work
  switch (w.target.kind) {
    case TargetKind::Tokens: steps.push_back({"Target tokens", "D0 = tokens", g(w.target.tokens), "= " + g(target_tokens)}); break;
    case TargetKind::Steps: step<kStepsToTokens>(steps, Shown::Number, steps_to_tokens, w.target.steps, w.target.tokens_per_step); break;
    case TargetKind::Loss: {
      const ScalingLaw law = scaling_law_constants(w.target.law, w.target.custom_law);
      step<kTokensForLoss>(steps, Shown::Number, scaling_law_tokens, law.E, law.A, law.B, law.alpha, law.beta, m.active(), w.target.loss);
      steps.back().quantity += std::string(" under ") + to_string(w.target.law);
      break;
    }
  }
  step<kPenalizedTokens>(steps, Shown::Number, penalized_tokens, target_tokens, p.convergence_penalty);
  double per_token = step<kDenseFlops>(steps, Shown::Number, dense_flops_per_token, m.active());
  if (m.has_architecture()) {
    const double attention = step<kAttentionFlops>(steps, Shown::Number, attention_flops_per_token, m.layers, m.hidden, m.seq_len);
    per_token += attention;
    steps.push_back({"FLOPs per token", "f = 6·N + fa", g(per_token - attention) + " + " + g(attention), "= " + g(per_token)});
  }
  if (w.recompute) step<kRecomputedFlops>(steps, Shown::Number, recomputed_flops, per_token);
  step<kTrainingFlops>(steps, Shown::Flop, training_flops, r.flops_per_token, r.tokens);

  // Speed
  step<kChips>(steps, Shown::Number, chips, p.instances, p.chips_per_instance);
  if (p.scaling_reference_chips > 0)
    step<kScalingEfficiency>(steps, Shown::Number, scaling_efficiency, r.chips, p.scaling_reference_chips, p.scaling_per_doubling);
  if (p.measured_tokens_per_sec_per_chip > 0) {
    step<kMeasuredThroughput>(steps, Shown::Number, measured_tokens_per_sec, p.measured_tokens_per_sec_per_chip, r.chips,
                              r.scaling_efficiency);
    steps.back().result += " tokens/s";
  } else {
    step<kAchievedFlops>(steps, Shown::Number, achieved_flops, p.mfu, p.peak_flops_per_chip, r.chips, r.scaling_efficiency);
    steps.back().result += " FLOP/s (" + g(r.tokens_per_sec) + " tokens/s)";
  }
  step<kComputeHours>(steps, Shown::Hours, compute_hours, r.training_flops, r.cluster_flops_per_sec);
  const double mtbf = step<kClusterMtbf>(steps, Shown::Number, cluster_mtbf, p.mtbf_hours_per_instance, p.instances);
  steps.back().result += " h";
  const double write_h = p.checkpoint_write_minutes / 60, restart_h = p.restart_minutes / 60;
  if (p.checkpoint_interval_hours <= 0) {
    step<kCheckpointInterval>(steps, Shown::Number, optimal_checkpoint_interval, write_h, mtbf);
    steps.back().result += " h";
  }
  step<kGoodput>(steps, Shown::Number, goodput, r.checkpoint_interval_hours, write_h, restart_h, mtbf);
  step<kWallClock>(steps, Shown::Hours, wall_clock_hours, r.compute_hours, r.goodput, p.compile_hours_per_run);
  step<kChipHours>(steps, Shown::Number, chip_hours, r.wall_clock_hours, r.chips);

  // Money
  step<kDiscountedPrice>(steps, Shown::Usd, discounted_price, p.price_usd_per_hour, p.discount);
  steps.back().result = "= $" + g(r.price_usd_per_hour) + " per instance-hour";
  step<kTrainingCost>(steps, Shown::Usd, instance_cost, r.training_hours, p.instances, r.price_usd_per_hour);
  if (p.compile_hours_per_run > 0) step<kCompileCost>(steps, Shown::Usd, instance_cost, p.compile_hours_per_run, p.instances, r.price_usd_per_hour);
  step<kPortingCost>(steps, Shown::Usd, porting_cost, p.engineer_weeks, p.usd_per_engineer_week);
  step<kValidationCost>(steps, Shown::Usd, validation_cost, p.validation_runs, p.validation_run_fraction, r.compute_cost);
  step<kMaintenanceCost>(steps, Shown::Usd, maintenance_cost, p.maintenance_usd_per_year, w.horizon_months);
  step<kEgressCost>(steps, Shown::Usd, egress_cost, p.egress_tb_per_run, p.egress_usd_per_tb);
  step<kCostPerRun>(steps, Shown::Usd, cost_per_run, r.per_run_cost, r.fixed_cost, w.runs);
  steps.back().formula = "total = (Hc + Hk + E) + (Op + Ov + Mt) / runs";
  step<kCostPerMillionTokens>(steps, Shown::Number, cost_per_million_tokens, r.cost_per_run, target_tokens);
  steps.back().result = "= $" + g(r.cost_per_million_tokens);

  // Memory
  step<kBytesPerChip>(steps, Shown::Number, bytes_per_chip, r.memory.state_bytes, r.chips, r.memory.activation_bytes_per_chip);
  steps.back().result = "= " + g(r.memory.bytes_per_chip / 1e9) + " GB of " + g(r.memory.usable_bytes_per_chip / 1e9) +
                        " GB usable" + (r.memory.fits ? " (fits)" : " (does not fit)");
  if (r.memory.possible) {
    step<kMinChips>(steps, Shown::Chips, min_chips_for_memory, r.memory.state_bytes, r.memory.activation_bytes_per_chip,
                    r.memory.usable_bytes_per_chip);
    steps.back().result += " (" + g(r.memory.min_instances) + (r.memory.min_instances == 1 ? " instance)" : " instances)");
  }
  return steps;
}

std::string explain_text(const Scenario& scenario, const ResolvedScenario& s, const Results& results) {
  std::string out;
  for (size_t w = 0; w < results.workloads.size(); ++w) {
    const WorkloadResult& wr = results.workloads[w];
    out += workload_title(scenario.workloads[w], w) + "\n";
    for (size_t o = 0; o < wr.options.size(); ++o) {
      out += "\n  " + s.options[o].label + " (" + s.options[o].instance + ")\n";
      for (const ExplainStep& step : explain_pair(s.workloads[w], s.workloads[w].options[o], wr.options[o], wr.target_tokens)) {
        out += "    " + step.quantity + ": " + step.formula + "\n";
        out += "        " + step.substituted + " " + step.result + "\n";
      }
    }
    out += "\n  Verdict: " + workload_verdict(s, results, w) + "\n\n";
  }
  return out;
}

}  // namespace traincost
