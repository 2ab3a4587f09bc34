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

}  // namespace

std::vector<ExplainStep> explain_pair(const WorkloadInputs& w, const PairInputs& p, const OptionResult& r,
                                      double target_tokens) {
  std::vector<ExplainStep> steps;
  const Model& m = w.model;
  // Work
  switch (w.target.kind) {
    case TargetKind::Tokens: steps.push_back({"Target tokens", "D0 = tokens", g(w.target.tokens), "= " + g(target_tokens)}); break;
    case TargetKind::Steps:
      steps.push_back({"Target tokens", "D0 = steps × tokens per step", g(w.target.steps) + " × " + g(w.target.tokens_per_step),
                       "= " + g(target_tokens)});
      break;
    case TargetKind::Loss: {
      const ScalingLaw law = scaling_law_constants(w.target.law, w.target.custom_law);
      steps.push_back({"Target tokens (scaling law " + std::string(to_string(w.target.law)) + ")",
                       "D0 = (B / (L − E − A / N^α))^(1/β)",
                       "(" + g(law.B) + " / (" + g(w.target.loss) + " − " + g(law.E) + " − " + g(law.A) + " / " +
                           g(m.active()) + "^" + g(law.alpha) + "))^(1/" + g(law.beta) + ")",
                       "= " + g(target_tokens)});
      break;
    }
  }
  steps.push_back({"Training tokens", "D = D0 × (1 + convergence penalty)", g(target_tokens) + " × (1 + " + g(p.convergence_penalty) + ")",
                   "= " + g(r.tokens)});
  std::string per_token = "6 × " + g(m.active());
  std::string per_token_formula = "6·N";
  if (m.has_architecture()) {
    per_token += " + 12 × " + std::to_string(m.layers) + " × " + std::to_string(m.hidden) + " × " + std::to_string(m.seq_len);
    per_token_formula += " + 12·l·h·s";
  }
  if (w.recompute) {
    per_token = "(" + per_token + ") × 4/3";
    per_token_formula = "(" + per_token_formula + ") × 4/3 (full recomputation)";
  }
  steps.push_back({"FLOPs per token", "f = " + per_token_formula, per_token, "= " + g(r.flops_per_token)});
  steps.push_back({"Training FLOPs", "C = f × D", g(r.flops_per_token) + " × " + g(r.tokens), "= " + g(r.training_flops) + " FLOP"});

  // Speed
  const std::string chips = g(p.instances) + " × " + g(p.chips_per_instance);
  steps.push_back({"Chips", "n = instances × chips per instance", chips, "= " + g(r.chips)});
  if (p.scaling_reference_chips > 0)
    steps.push_back({"Scaling efficiency", "e = per_doubling^log2(n / reference)",
                     g(p.scaling_per_doubling) + "^log2(" + g(r.chips) + " / " + g(p.scaling_reference_chips) + ")",
                     "= " + g(r.scaling_efficiency)});
  if (p.measured_tokens_per_sec_per_chip > 0) {
    steps.push_back({"Throughput (measured)", "X = measured tokens/s per chip × n × e",
                     g(p.measured_tokens_per_sec_per_chip) + " × " + g(r.chips) + " × " + g(r.scaling_efficiency),
                     "= " + g(r.tokens_per_sec) + " tokens/s"});
  } else {
    steps.push_back({"Achieved FLOP/s", "F = MFU × peak × n × e",
                     g(p.mfu) + " × " + g(p.peak_flops_per_chip) + " × " + g(r.chips) + " × " + g(r.scaling_efficiency),
                     "= " + g(r.cluster_flops_per_sec) + " FLOP/s (" + g(r.tokens_per_sec) + " tokens/s)"});
  }
  steps.push_back({"Compute time", "T = C / F / 3600", g(r.training_flops) + " / " + g(r.cluster_flops_per_sec) + " / 3600",
                   "= " + g(r.compute_hours) + " h"});
  const double mtbf = p.mtbf_hours_per_instance / p.instances;
  const double write_h = p.checkpoint_write_minutes / 60, restart_h = p.restart_minutes / 60;
  steps.push_back({"Cluster MTBF", "M = MTBF per instance / instances", g(p.mtbf_hours_per_instance) + " / " + g(p.instances),
                   "= " + g(mtbf) + " h"});
  if (p.checkpoint_interval_hours <= 0)
    steps.push_back({"Checkpoint interval (Young/Daly)", "τ = √(2δM)·(1 + √(δ/2M)/3 + (δ/2M)/9) − δ",
                     "δ = " + g(write_h) + " h, M = " + g(mtbf) + " h", "= " + g(r.checkpoint_interval_hours) + " h"});
  steps.push_back({"Goodput", "g = τ/(τ+δ) × (1 − ((τ+δ)/2 + R)/M)",
                   g(r.checkpoint_interval_hours) + "/(" + g(r.checkpoint_interval_hours) + "+" + g(write_h) + ") × (1 − ((" +
                       g(r.checkpoint_interval_hours) + "+" + g(write_h) + ")/2 + " + g(restart_h) + ")/" + g(mtbf) + ")",
                   "= " + g(r.goodput)});
  steps.push_back({"Wall clock", "W = T / g + compile", g(r.compute_hours) + " / " + g(r.goodput) + " + " + g(p.compile_hours_per_run),
                   "= " + g(r.wall_clock_hours) + " h (" + fmt::hours(r.wall_clock_hours) + ")"});
  steps.push_back({"Chip-hours", "W × n", g(r.wall_clock_hours) + " × " + g(r.chips), "= " + g(r.chip_hours)});

  // Money
  steps.push_back({"Price", "P = price × (1 − discount)", g(p.price_usd_per_hour) + " × (1 − " + g(p.discount) + ")",
                   "= $" + g(r.price_usd_per_hour) + " per instance-hour"});
  steps.push_back({"Hardware per run", "H = W × instances × P", g(r.wall_clock_hours) + " × " + g(p.instances) + " × " + g(r.price_usd_per_hour),
                   "= " + fmt::usd_exact(r.hardware_cost_per_run)});
  steps.push_back({"One-time", "O = weeks × $/week + validation runs × fraction × compute cost",
                   g(p.engineer_weeks) + " × " + g(p.usd_per_engineer_week) + " + " + g(p.validation_runs) + " × " +
                       g(p.validation_run_fraction) + " × " + g(r.compute_cost),
                   "= " + fmt::usd_exact(r.one_time_cost)});
  steps.push_back({"Maintenance over the horizon", "Mt = $/year × months / 12",
                   g(p.maintenance_usd_per_year) + " × " + g(w.horizon_months) + " / 12", "= " + fmt::usd_exact(r.maintenance_cost)});
  steps.push_back({"Egress per run", "E = TB × $/TB", g(p.egress_tb_per_run) + " × " + g(p.egress_usd_per_tb),
                   "= " + fmt::usd_exact(r.egress_cost_per_run)});
  steps.push_back({"Fully loaded per run", "= H + E + (O + Mt) / runs",
                   g(r.hardware_cost_per_run) + " + " + g(r.egress_cost_per_run) + " + (" + g(r.one_time_cost) + " + " +
                       g(r.maintenance_cost) + ") / " + g(w.runs),
                   "= " + fmt::usd_exact(r.cost_per_run)});
  steps.push_back({"Per million tokens", "= cost per run / (D0 / 1e6)", g(r.cost_per_run) + " / (" + g(target_tokens) + " / 1e6)",
                   "= $" + g(r.cost_per_million_tokens)});

  // Memory
  steps.push_back({"Memory per chip", "state / n + activations",
                   g(r.memory.state_bytes) + " / " + g(r.chips) + " + " + g(r.memory.activation_bytes_per_chip),
                   "= " + g(r.memory.bytes_per_chip / 1e9) + " GB of " + g(r.memory.usable_bytes_per_chip / 1e9) + " GB usable" +
                       (r.memory.fits ? " (fits)" : " (does not fit)")});
  if (r.memory.possible)
    steps.push_back({"Fewest chips that hold it", "⌈state / (usable − activations)⌉",
                     "⌈" + g(r.memory.state_bytes) + " / (" + g(r.memory.usable_bytes_per_chip) + " − " +
                         g(r.memory.activation_bytes_per_chip) + ")⌉",
                     "= " + g(r.memory.min_chips) + " chips (" + g(r.memory.min_instances) + " instances)"});
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
