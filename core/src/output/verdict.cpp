#include "traincost/output/verdict.hpp"

#include <cmath>

#include "traincost/engine/budget.hpp"
#include "traincost/base/format.hpp"
#include "traincost/model/formulas.hpp"

namespace traincost {

double first_run_after(double crossing) { return std::floor(crossing) + 1; }

std::string infeasibility_reason(const OptionResult& r) {
  switch (r.infeasible) {
    case Infeasible::No: return {};
    case Infeasible::Target: return "the target cannot be reached";
    case Infeasible::Goodput:
      // At or below zero the formula's goodput is no fraction to show ("goodput -214%").
      return r.goodput > 0 ? "it fails more often than it can checkpoint (goodput " + fmt::percent(r.goodput) + ")"
                           : "it fails more often than it can checkpoint (failures would undo all its progress)";
    case Infeasible::Memory:
      if (!r.memory.possible)
        return "no layout fits in memory, even on 64 times the instances (at best " + fmt::bytes(r.memory.bytes_per_chip) + " per chip of " +
               fmt::bytes(r.memory.usable_bytes_per_chip) + " usable)";
      return "no layout fits in memory (at best " + fmt::bytes(r.memory.bytes_per_chip) + " per chip of " +
             fmt::bytes(r.memory.usable_bytes_per_chip) + " usable); it needs at least " + fmt::counted(r.memory.min_instances, "instance", "instances");
    case Infeasible::Layout:
      return "its global batch has fewer sequences than the cluster can spread (raise global_batch_tokens or use fewer instances)";
    case Infeasible::Deadline: {
      const DeadlineSizing& d = r.deadline;
      const std::string within = "it is not done within the " + fmt::number(d.deadline_days) + "-day deadline: ";
      // Sized to make it, but a sample of the analysis ran slower.
      if (d.met) return within + fmt::days(r.days_to_model) + " on " + fmt::counted(d.instances, "instance", "instances");
      return within + "at best " + fmt::days(r.days_to_model) + ", on " + fmt::counted(d.instances, "instance", "instances") +
             (d.capacity_limited ? " (its max_instances is " + fmt::number(d.limit) + ")" : "");
    }
  }
  return {};
}

namespace {

// The field that sets a workload's batch: the batch itself, or a steps target's tokens per step.
std::string given_batch_field(const Workload& w) {
  return !w.global_batch_tokens && w.target.kind == TargetKind::Steps ? "target.tokens_per_step" : "global_batch_tokens";
}

}  // namespace

std::vector<Problem> constraint_problems(const ResolvedScenario& s, const Results& results, size_t w) {
  std::vector<Problem> problems;
  const WorkloadInputs& wi = s.workloads[w];
  const WorkloadResult& wr = results.workloads[w];
  const std::string path = "workloads[" + std::to_string(w) + "].";

  // Parameters that disagree with the architecture: one of the two is wrong, and the step time
  // (from the architecture) and the FLOPs (from the parameters) then describe different models.
  // (A mixture of experts given by its active parameters but not its expert count has no
  // countable feed-forward: nothing to compare.)
  const Model& m = wi.model;
  const bool moe_uncounted = m.experts == 0 && m.active() < m.params;
  // The fields the count rests on, as the scenario gives them (the others take their defaults).
  std::string given = path + "model.layers, model.hidden";
  for (const auto& [value, field] : {std::pair{m.kv_heads, "kv_heads"}, {m.ffn_hidden, "ffn_hidden"}, {m.vocab, "vocab"}, {m.experts, "experts"}})
    if (value > 0) given += std::string(", model.") + field;
  if (m.has_architecture() && m.params > 0 && !moe_uncounted) {
    const double counted = architecture_params(m);
    if (counted > 0 && std::fabs(m.params - counted) > kParamsMismatch * counted)
      problems.push_back({path + "model.params", "is " + fmt::count(m.params) + " but the architecture (" + given + ") has " + fmt::count(counted) +
                                                     " parameters: correct one of them"});
  }
  // The same for a mixture of experts' active parameters, which set the FLOPs and so the time and
  // cost: a token passes through experts_per_token of the experts.
  if (m.has_architecture() && m.experts > 1 && m.experts_per_token > 0 && m.active_params) {
    const double counted = architecture_active_params(m);
    if (counted > 0 && std::fabs(*m.active_params - counted) > kParamsMismatch * counted)
      problems.push_back({path + "model.active_params", "is " + fmt::count(*m.active_params) + " but the architecture (" + given +
                                                            ", model.experts_per_token) has " + fmt::count(counted) +
                                                            " active parameters: correct one of them"});
  }
  for (size_t o = 0; o < wr.options.size(); ++o) {
    const OptionResult& r = wr.options[o];
    const std::string& label = s.options[o].label;
    if (r.infeasible == Infeasible::Deadline && !r.deadline.met)
      problems.push_back({path + "deadline_days", "is shorter than the fastest possible run on " + label + ": " + fmt::days(r.days_to_model) +
                                                      " on " + fmt::counted(r.deadline.instances, "instance", "instances") +
                                                      (r.deadline.capacity_limited ? " (options[" + std::to_string(o) + "].max_instances)" : "")});
    const PairInputs& pair = wi.options[o];
    const std::string option = "options[" + std::to_string(o) + "]";
    // The size chosen for an option that gives none.
    if (pair.default_size.applied) {
      const DeadlineSizing& d = pair.default_size;
      problems.push_back({option + ".instances", "not given: " + label + " is sized to " + fmt::number(d.instances) +
                                                     (d.instances == 1 ? " instance" : " instances") +
                                                     (d.met ? ", the fewest that train this workload within " + fmt::number(d.deadline_days) + " days"
                                                            : ", the fastest size up to " + fmt::number(d.limit) + " (none trains this workload within " +
                                                                  fmt::number(d.deadline_days) + " days)") +
                                                     "; set it to choose the size"});
    }
    // A step that leaves most of the cluster's time idle: too few sequences for the pipeline, or
    // too little compute to hide the gradient exchange behind.
    const PairPerformance& perf = pair.performance;
    // Whatever the throughput's source: an MFU or a measurement given for this cluster assumes a
    // step this batch cannot fill, and the warning says so.
    if (r.feasible() && perf.layout_found && perf.time.step_seconds > 0) {
      const StepBreakdown& b = perf.time.breakdown;
      const double idle = (b.bubble + b.data) / perf.time.step_seconds;
      if (idle > kIdleShare) {
        const std::string batch = given_batch_field(wi);
        problems.push_back({path + batch, fmt::percent(idle) + " of each step on " + label + " is idle (pipeline bubble " +
                                              fmt::percent(b.bubble / perf.time.step_seconds) + ", waiting on the data-parallel exchange " +
                                              fmt::percent(b.data / perf.time.step_seconds) + ", with " + fmt::number(perf.time.batch_sequences) +
                                              " sequences a step over " + fmt::number(perf.layout.data) + " data-parallel replicas): raise " +
                                              path + batch + " or lower " + option + ".instances" +
                                              (perf.source == ThroughputSource::Predicted
                                                   ? std::string()
                                                   : "; the costs use " + std::string(description_of(kThroughputSourceWords, perf.source)) +
                                                         ", which such a step is unlikely to reach")});
      }
    }
    const BudgetPlan b = plan_budget(wi, wi.options[o], r, wr.target_tokens);
    if (b.applied && !b.covers_one_step)
      problems.push_back({path + "budget_usd", "buys less than one step (" + fmt::count(b.batch_tokens) + " tokens) on " + label +
                                                   (b.tokens > 0 ? ": " + fmt::count(b.tokens) + " tokens"
                                                                 : ": its costs that do not grow with the run are " + fmt::usd(b.fixed_per_run) + " per run")});
  }
  return problems;
}

std::string software_notice(const OptionInfo& option, const Catalog& catalog) {
  if (!option.chip || !option.chip->software || option.chip->software->status == StackStatus::Supported) return "";
  const SoftwareLifecycle& life = *option.chip->software;
  const Source* source = catalog.find_source(life.source);
  return life.family + "'s training stack (" + life.stack + ") is " + description_of(kStackStatusWords, life.status) +
         (life.since.empty() ? "" : " since " + life.since) + (life.announced.empty() ? "" : " (announced " + life.announced + ")") +
         "; its successor is " + life.successor + ". Source: " + (source ? source->url : life.source) + ", as of " + life.as_of + ".";
}

std::string software_headline(const SoftwareLifecycle& life, const Catalog& catalog) {
  const Source* source = catalog.find_source(life.source);
  const std::string url = source ? source->url : "";
  const size_t host_start = url.find("://") == std::string::npos ? 0 : url.find("://") + 3;
  const std::string site = url.substr(host_start, url.find('/', host_start) - host_start);
  return life.family + "'s training stack is " + description_of(kStackStatusWords, life.status) +
         (life.since.empty() ? "" : " since " + life.since) + "; its successor is " + life.successor + " (" +
         (site.empty() ? life.source : site) + ", as of " + life.as_of + ").";
}

std::string workload_verdict(const ResolvedScenario& s, const Results& results, size_t w) {
  const WorkloadResult& wr = results.workloads[w];
  const Comparison& c = wr.comparison;
  const WorkloadInputs& wi = s.workloads[w];
  const double runs = wi.runs;
  auto name = [&](int i) { return s.options[static_cast<size_t>(i)].label; };
  // With a deadline every option runs at its own size, which the sentence names where it first
  // mentions the option (unless its automatic label already does: "H100 x37 (p5)").
  auto label = [&](int i) {
    const bool says_size = !wi.deadline_days || s.options[static_cast<size_t>(i)].label_counts_instances;
    return says_size ? name(i) : name(i) + " on " + fmt::counted(wr.options[static_cast<size_t>(i)].deadline.instances, "instance", "instances");
  };
  std::string text = wi.deadline_days ? "To have the model within " + fmt::number(*wi.deadline_days) + " days: " : "";

  if (c.cheapest < 0) {
    text += wi.deadline_days ? "no option is done in time." : "No option can run this job.";
  } else if (c.runner_up < 0) {
    text += label(c.cheapest) + " is the only option that can run this job, at " +
            fmt::usd(wr.options[static_cast<size_t>(c.cheapest)].cost_per_run) + " per run.";
  } else {
    const std::string b = name(c.runner_up);
    // Savings that round to 0% are no savings: say the two cost the same rather than "0% cheaper".
    // Nor are savings that round to 100% free: "more than 99%" ($51 against $85k is 99.94%).
    const bool same = fmt::percent(c.savings) == "0%";
    const std::string savings = fmt::percent(c.savings) == "100%" && c.savings < 1 ? "more than 99%" : fmt::percent(c.savings);
    text += same ? label(c.cheapest) + " and " + label(c.runner_up) + " cost the same per run (within 0.5%) at " + fmt::counted(runs, "run", "runs")
                 : label(c.cheapest) + " is " + savings + " cheaper per run than " + label(c.runner_up) + " at " +
                       fmt::counted(runs, "run", "runs");
    switch (c.breakeven.kind) {
      case BreakevenKind::FromFirstRun: text += ", and cheaper from the first run."; break;
      case BreakevenKind::AtRuns:
        text += "; it wins once the recipe runs " + fmt::number(first_run_after(c.breakeven.runs)) + "+ times, below that " + b + " wins.";
        break;
      case BreakevenKind::UntilRuns:
        text += ", but from " + fmt::number(first_run_after(c.breakeven.runs)) + " runs on " + b +
                " wins (its one-time costs are spread thinner).";
        break;
      case BreakevenKind::Never: text += "."; break;
    }
    // Cheaper is not the whole answer when it is much slower: slower to have the model, the wait
    // for capacity (wait_days) included, as the cost of delay below counts it. (On the run time
    // alone, an option that waits five days and runs five read as twice as fast as one that runs ten.)
    const size_t fast = static_cast<size_t>(c.runner_up), cheap = static_cast<size_t>(c.cheapest);
    const double slower = wr.options[cheap].days_to_model / wr.options[fast].days_to_model;
    const bool waits = wi.options[cheap].wait_days > 0 || wi.options[fast].wait_days > 0;
    if (slower >= 1.5)
      text += " It takes " + fmt::ratio(slower) + " as long per run (" + fmt::hours(wr.options[cheap].days_to_model * 24) + " against " +
              fmt::hours(wr.options[fast].days_to_model * 24) + (waits ? ", the wait for capacity included" : "") + ").";
    // The cost of delay is part of the costs compared: say how much of each it is.
    const double per_day = wi.usd_per_day_of_delay.value_or(0);
    if (per_day > 0)
      text += " That counts the delay at " + fmt::usd(per_day) + " a day: " +
              fmt::usd(wr.options[static_cast<size_t>(c.cheapest)].delay_cost_per_run) + " per run for " + name(c.cheapest) + ", " +
              fmt::usd(wr.options[static_cast<size_t>(c.runner_up)].delay_cost_per_run) + " for " + b + ".";
  }
  for (size_t o = 0; o < wr.options.size(); ++o)
    if (!wr.options[o].feasible())
      text += " " + name(static_cast<int>(o)) + " cannot run it: " + infeasibility_reason(wr.options[o]) + ".";
  // A port to a chip whose training stack has no future is a risk the costs do not show. The
  // verdict is a headline: it says so once per stack, naming every option on it and the source's
  // site; the full notice with its address is in explain and the JSON option.
  auto stack_of = [&](size_t o) { return s.options[o].chip && s.options[o].chip->software ? &*s.options[o].chip->software : nullptr; };
  for (size_t o = 0; o < s.options.size(); ++o) {
    const SoftwareLifecycle* life = stack_of(o);
    if (!life || life->status == StackStatus::Supported || !s.catalog) continue;
    bool told = false;
    for (size_t earlier = 0; earlier < o; ++earlier) told = told || (stack_of(earlier) && stack_of(earlier)->family == life->family);
    if (told) continue;
    std::string on_it = name(static_cast<int>(o));
    for (size_t later = o + 1; later < s.options.size(); ++later)
      if (stack_of(later) && stack_of(later)->family == life->family) on_it += ", " + name(static_cast<int>(later));
    text += " " + on_it + ": " + software_headline(*life, *s.catalog);
  }
  return text;
}

std::string threshold_condition(const ResolvedScenario& s, const Threshold& t) {
  const std::string who = t.option >= 0 ? s.options[static_cast<size_t>(t.option)].label : std::string();
  if (!t.flips) {
    if (t.input == ThresholdInput::Runs) return "no number of runs changes it";
    return std::string("no ") + description_of(kThresholdInputWords, t.input) + " of " + who + " changes it";
  }
  const char* bound = t.at_least ? "at least " : "at most ";
  switch (t.input) {
    case ThresholdInput::Throughput:
      return who + (t.at_least ? " reaches at least " : " stays at or below ") + fmt::rounded(t.tokens_per_sec_per_chip) +
             " tokens/s per chip (MFU " + fmt::number(t.mfu, 2) + ")";
    case ThresholdInput::Price: {
      const double change = t.change();
      return who + " costs " + bound + fmt::usd(t.value) + " per instance-hour (" + fmt::percent(std::fabs(change)) +
             (change < 0 ? " less)" : " more)");
    }
    case ThresholdInput::PortingEffort: return "porting to " + who + " takes " + bound + fmt::number(t.value, 3) + " engineer-weeks";
    case ThresholdInput::ConvergencePenalty: return who + " needs " + bound + fmt::percent(t.value) + " more tokens to converge";
    case ThresholdInput::CompileTime: return who + " compiles in " + bound + fmt::hours(t.value) + " per run";
    case ThresholdInput::Runs:
      return std::string("the recipe runs ") + (t.at_least ? "more than " : "fewer than ") + fmt::number(t.value, 3) + " times";
  }
  return {};
}

std::string less_likely_verdict(const ResolvedScenario& s, int point_leader, const std::vector<double>& probability_cheapest) {
  if (point_leader < 0 || probability_cheapest.empty()) return {};
  size_t likeliest = 0;
  for (size_t o = 1; o < probability_cheapest.size(); ++o)
    if (probability_cheapest[o] > probability_cheapest[likeliest]) likeliest = o;
  const size_t leader = static_cast<size_t>(point_leader);
  // A tie is no "more futures" (the first of equals would be named).
  if (leader >= probability_cheapest.size() || !(probability_cheapest[likeliest] > probability_cheapest[leader])) return {};
  return s.options[likeliest].label + " is the cheapest in more futures (" + fmt::percent(probability_cheapest[likeliest]) + ") than " +
         s.options[leader].label + " (" + fmt::percent(probability_cheapest[leader]) +
         "), which the point estimates favour: the verdict is the less likely outcome.";
}

std::string holds_while(const ResolvedScenario& s, const std::vector<Threshold>& thresholds) {
  const int k = most_decisive(thresholds);
  if (k < 0) return {};
  return "Holds while " + threshold_condition(s, thresholds[static_cast<size_t>(k)]) + ".";
}

namespace {

// A threshold input's value in the units threshold_condition words it in. Throughput shows the
// effective rate evaluate() uses (tokens/s per chip and MFU), not the field written.
std::string threshold_value_text(const Threshold& t, double value, double tokens_per_sec_per_chip, double mfu) {
  switch (t.input) {
    case ThresholdInput::Throughput:
      return fmt::rounded(tokens_per_sec_per_chip) + " tokens/s per chip (MFU " + fmt::number(mfu, 2) + ")";
    case ThresholdInput::Price: return fmt::usd(value) + " per instance-hour";
    case ThresholdInput::PortingEffort: return fmt::number(value, 3) + " engineer-weeks";
    case ThresholdInput::ConvergencePenalty: return fmt::percent(value) + " more tokens";
    case ThresholdInput::CompileTime: return fmt::hours(value) + " per run";
    case ThresholdInput::Runs: return fmt::number(value, 3) + (value == 1 ? " run" : " runs");
  }
  return {};
}

}  // namespace

ThresholdRow threshold_row(const ResolvedScenario& s, const Threshold& t) {
  ThresholdRow row;
  row.option = t.option >= 0 ? s.options[static_cast<size_t>(t.option)].label : std::string("both");
  row.input = description_of(kThresholdInputWords, t.input);
  row.base = threshold_value_text(t, t.base, t.base_tokens_per_sec_per_chip, t.base_mfu);
  if (!t.flips) {
    row.value = "no value flips it";
    return row;
  }
  row.value = threshold_value_text(t, t.value, t.tokens_per_sec_per_chip, t.mfu);
  row.direction = t.at_least ? "at least" : "at most";
  const double change = t.change();
  // A minus sign, not a hyphen, as the page's other signed figures.
  if (std::isfinite(change)) row.change = (change < 0 ? "−" : "+") + fmt::percent(std::fabs(change));
  return row;
}

std::string portfolio_verdict(const ResolvedScenario& s, const Results& results) {
  const Portfolio& p = results.portfolio;
  const size_t n = results.workloads.size();
  if (std::isnan(p.best_mix_annual)) return "At least one workload has no option that can run it.";
  std::string text = "Across " + std::to_string(n) + (n == 1 ? " workload" : " workloads") +
                     ", picking the cheapest option per workload costs " + fmt::usd(p.best_mix_annual) + " a year";
  if (p.best_single >= 0) {
    const std::string single = s.options[static_cast<size_t>(p.best_single)].label;
    if (p.savings_vs_best_single > 0.0005)
      text += ", " + fmt::percent(p.savings_vs_best_single) + " less than running everything on " + single + ".";
    else
      text += ": running everything on " + single + " is as cheap.";
  } else {
    text += "; no single option can run every workload.";
  }
  return text;
}

}  // namespace traincost
