#include "traincost/output/report.hpp"

#include "traincost/engine/deadline_odds.hpp"

#include <cmath>
#include <cstdio>
#include <iterator>
#include <optional>
#include <utility>

#include "traincost/engine/budget.hpp"
#include "traincost/engine/cost_parts.hpp"
#include "traincost/engine/reliability.hpp"
#include "traincost/model/fine_tune.hpp"
#include "traincost/scenario/fields.hpp"
#include "traincost/base/format.hpp"
#include "traincost/output/pilot_results_report.hpp"
#include "traincost/output/present.hpp"
#include "traincost/output/verdict.hpp"

namespace traincost {

const char* to_string(BreakevenKind kind) {
  switch (kind) {
    case BreakevenKind::FromFirstRun: return "from_first_run";
    case BreakevenKind::AtRuns: return "at_runs";
    case BreakevenKind::UntilRuns: return "until_runs";
    case BreakevenKind::Never: return "never";
  }
  return "never";
}

OrderedJson percentiles_json(const Percentiles& p) {
  auto figure = [](double v) { return std::isfinite(v) ? OrderedJson(v) : OrderedJson(nullptr); };
  return {{"p5", figure(p.p5)}, {"p50", figure(p.p50)}, {"p95", figure(p.p95)}};
}

std::vector<std::string> odds_lines(const ResolvedScenario& s, const Results& results, const QuickOdds& odds, size_t w) {
  std::vector<std::string> lines;
  if (!odds.computed) {
    if (!odds.skipped.empty()) lines.push_back("No quick look at the odds: " + odds.skipped + ".");
    return lines;
  }
  const WorkloadOdds& wo = odds.workloads[w];
  std::string look = "How sure (" + fmt::rounded(odds.samples) + " simulated futures, seed " + std::to_string(odds.seed) +
                     "; run traincost analyze for more):";
  // A future in which an option misses the deadline (or cannot run the job) has no cost for it: its
  // percentiles end where those futures begin, and the sentence says so instead of printing a gap.
  const std::optional<double> deadline = s.workloads[w].deadline_days;
  const std::string in_time = deadline ? "makes the " + fmt::number(*deadline) + "-day deadline" : "can run it";
  for (size_t o = 0; o < wo.options.size(); ++o) {
    const OptionOdds& x = wo.options[o];
    const Percentiles& c = x.cost_per_run;
    look += std::string(o ? ";" : "") + " " + s.options[o].label;
    if (!(x.probability_feasible > 0)) {
      look += deadline ? " misses the " + fmt::number(*deadline) + "-day deadline (or cannot run) in every future" : " can run it in none";
      continue;
    }
    if (std::isfinite(c.p50))
      look += " median " + fmt::usd(c.p50) + " per run, 90% range " + fmt::usd(c.p5) + " to " +
              (std::isfinite(c.p95) ? fmt::usd(c.p95) : std::string("none (in its costliest 5% it ") + (deadline ? "misses the deadline)" : "cannot run the job)"));
    else
      look += " from " + fmt::usd(c.p5) + " per run in its best futures but no median (it " +
              (deadline ? "misses the deadline" : "cannot run the job") + " in most)";
    // With a deadline both sides are said, each time: on time in Y% of futures, late (or unable
    // to run) in the rest.
    if (deadline)
      look += ", on time for the " + fmt::number(*deadline) + "-day deadline in " + fmt::percent(x.probability_feasible) +
              " of futures (misses it in " + fmt::percent(1 - x.probability_feasible) + ")";
    else if (x.probability_feasible < 1)
      look += ", " + in_time + " in " + fmt::percent(x.probability_feasible);
    look += ", cheapest in " + fmt::percent(x.probability_cheapest);
  }
  lines.push_back(look + ".");
  // Options whose point estimates sit on the same side of their medians, pulled by the same input,
  // share one sentence (three sentences differing only in their figures read as a stutter).
  std::vector<bool> told(wo.options.size(), false);
  for (size_t o = 0; o < wo.options.size(); ++o) {
    const OptionOdds& x = wo.options[o];
    if (told[o] || !far_from_median(x)) continue;
    const auto off_of = [](const OptionOdds& y) { return y.point / y.cost_per_run.p50 - 1; };  // "32% below": point = 0.68 × median
    std::vector<size_t> group{o};
    for (size_t other = o + 1; other < wo.options.size(); ++other) {
      const OptionOdds& y = wo.options[other];
      if (far_from_median(y) && !y.pulled_by.empty() && y.pulled_by == x.pulled_by && (off_of(y) < 0) == (off_of(x) < 0)) group.push_back(other);
    }
    const bool below = off_of(x) < 0;
    const auto where = [&](size_t i) {
      const OptionOdds& y = wo.options[i];
      return fmt::usd(y.point) + ", " + fmt::percent(std::fabs(off_of(y))) + (below ? " below " : " above ") + fmt::usd(y.cost_per_run.p50);
    };
    const auto pull = [](const OptionOdds& y) { return (y.pulled_by_usd > 0 ? "+" : "") + fmt::usd(y.pulled_by_usd); };
    std::string line;
    if (group.size() == 1) {
      line = s.options[o].label + "'s point estimate (" + fmt::usd(x.point) + ") is " + fmt::percent(std::fabs(off_of(x))) +
             (below ? " below" : " above") + " the median of its futures (" + fmt::usd(x.cost_per_run.p50) + ")";
      if (!x.pulled_by.empty()) line += ", pulled there mostly by the range of " + x.pulled_by + " (" + pull(x) + " per run at that input's own median)";
    } else {
      std::string each, pulls;
      for (size_t k = 0; k < group.size(); ++k) {
        told[group[k]] = true;
        each += (k ? "; " : "") + s.options[group[k]].label + " " + where(group[k]);
        pulls += (k == 0 ? "" : k + 1 == group.size() ? " and " : ", ") + pull(wo.options[group[k]]);
      }
      line = "The point estimates sit" + std::string(below ? " below" : " above") + " the medians of their futures (" + each +
             "), pulled there mostly by the range of " + x.pulled_by + " (" + pulls + " per run at that input's own median)";
    }
    lines.push_back(line + ".");
  }
  // The verdict follows the point estimate; say so when most futures favour another option.
  std::vector<double> cheapest;
  for (const OptionOdds& x : wo.options) cheapest.push_back(x.probability_cheapest);
  if (std::string line = less_likely_verdict(s, results.workloads[w].comparison.cheapest, cheapest); !line.empty())
    lines.push_back(std::move(line));
  return lines;
}

std::vector<std::string> constraint_lines(const ResolvedScenario& s, const Results& results, size_t w) {
  std::vector<std::string> lines;
  const WorkloadInputs& wi = s.workloads[w];
  const WorkloadResult& wr = results.workloads[w];
  for (size_t o = 0; o < wr.options.size(); ++o) {
    const OptionResult& r = wr.options[o];
    const std::string& label = s.options[o].label;
    // Sized for a chance of being on time (workloads[].deadline_confidence): the size, the chance
    // it has, and the plan's own size beside it.
    if (const DeadlineSizing& d = r.deadline; d.applied && d.confidence > 0) {
      const std::string deadline = "the " + fmt::number(d.deadline_days) + "-day deadline";
      const std::string futures = " of " + fmt::rounded(kDeadlineOddsSamples) + " drawn futures";
      std::string line = label + ": ";
      if (!d.met)
        line += "misses " + deadline + " even as planned; on time in " + fmt::percent(d.probability_on_time) + futures;
      else if (d.confidence_met)
        line += fmt::counted(d.instances, "instance", "instances") + ", the fewest on time for " + deadline + " in at least " +
                fmt::percent(d.confidence) + futures + " (" + fmt::percent(d.probability_on_time) + ")";
      else
        line += "on time for " + deadline + " in only " + fmt::percent(d.probability_on_time) + futures + " at best (on " +
                fmt::counted(d.instances, "instance", "instances") + ", up to " + fmt::number(d.limit) +
                (d.capacity_limited ? " by options[" + std::to_string(o) + "].max_instances" : "") + "): workloads[" + std::to_string(w) +
                "].deadline_confidence " + fmt::percent(d.confidence) + " is not reached";
      if (d.met) line += "; the plan alone needs " + fmt::counted(d.point_instances, "instance", "instances");
      lines.push_back(line + ".");
    }
    const BudgetPlan b = plan_budget(wi, wi.options[o], r, wr.target_tokens);
    if (b.applied && b.tokens > 0) {
      std::string line = "Budget " + fmt::usd(b.budget_usd) + " per run on " + label + ": " + fmt::count(b.tokens) + " tokens in " +
                         fmt::hours(b.wall_clock_hours);
      // The budget buys more time than the deadline allows: say so, and what fits within it (the
      // tokens scale with the hours at the same cluster and throughput).
      if (wi.deadline_days && b.wall_clock_hours > *wi.deadline_days * 24)
        line += ", longer than the " + fmt::number(*wi.deadline_days) + "-day deadline (within it: " +
                fmt::count(b.tokens * *wi.deadline_days * 24 / b.wall_clock_hours) + " tokens)";
      if (b.has_law)
        line += ", loss " + fmt::number(b.loss, 4) + " with " + fmt::count(wi.model.active()) + " parameters; compute-optimal for the same compute: " +
                fmt::count(b.optimal_params) + " parameters on " + fmt::count(b.optimal_tokens) + " tokens, loss " + fmt::number(b.optimal_loss, 4);
      lines.push_back(line + ".");
    }
    if (!r.feasible() && r.infeasible != Infeasible::Deadline) continue;
    std::string costs;
    if (r.delay_cost_per_run > 0)
      costs += "delay " + fmt::usd(r.delay_cost_per_run) + " per run (" + fmt::days(r.days_to_model) + " at " +
               fmt::usd(wi.usd_per_day_of_delay.value_or(0)) + " a day)";
    if (r.re_porting_cost > 0)
      costs += std::string(costs.empty() ? "" : "; ") + "expected re-porting " + fmt::usd(r.re_porting_cost) + " over " +
               fmt::number(wi.horizon_months) + " months";
    if (!costs.empty()) lines.push_back(label + ": " + costs + ".");
  }
  for (const Problem& p : constraint_problems(s, results, w)) lines.push_back("Note: " + to_string(p) + ".");
  return lines;
}

namespace {

OrderedJson breakeven_json(const Breakeven& b) {
  OrderedJson j = OrderedJson::object();
  j["kind"] = to_string(b.kind);
  if (b.kind == BreakevenKind::AtRuns || b.kind == BreakevenKind::UntilRuns) j["runs"] = b.runs;
  else j["runs"] = nullptr;
  return j;
}

std::string pad(const std::string& s, size_t width) {
  // Width in characters, counting UTF-8 continuation bytes as nothing.
  size_t visible = 0;
  for (unsigned char ch : s) visible += (ch & 0xC0) != 0x80;
  return visible >= width ? s + " " : s + std::string(width - visible, ' ');
}

}  // namespace

OrderedJson layout_json(const Layout& l) {
  return {{"tensor", l.tensor},
          {"pipeline", l.pipeline},
          {"data", l.data},
          {"context", l.context},
          {"expert", l.expert},
          {"micro_batch", l.micro_batch},
          {"interleave", l.interleave},
          {"recompute", word_of(kRecomputeWords, l.recompute)},
          {"sequence_parallel", l.sequence_parallel},
          {"zero", l.zero}};
}

OrderedJson performance_json(const PairPerformance& p) {
  OrderedJson j = OrderedJson::object();
  j["source"] = word_of(kThroughputSourceWords, p.source);
  j["layout_found"] = p.layout_found;
  j["assumed_architecture"] = p.assumed_architecture;
  j["global_batch_sequences"] = p.global_batch_sequences;
  j["batch_tokens"] = p.batch_tokens;
  j["batch_default"] = p.batch_default;
  if (!p.layout_found) {
    j["least_memory_layout"] = layout_json(p.least_memory_layout);
    j["least_memory_per_chip_bytes"] = p.least_memory_bytes;
    return j;
  }
  const StepTime& t = p.time;
  j["mfu"] = p.mfu;
  j["hfu"] = p.hfu;
  j["step_time_s"] = t.step_seconds;
  j["tokens_per_sec_per_chip"] = t.tokens_per_sec_per_chip;
  j["micro_batches"] = t.micro_batches;
  j["trained_batch_sequences"] = t.batch_sequences;
  j["layout"] = layout_json(p.layout);
  OrderedJson step_parts = OrderedJson::object();
  for (const StepPart& part : kStepParts) step_parts[part.key] = t.breakdown.*part.member;
  j["breakdown_s"] = step_parts;
  j["memory_per_chip_bytes"] = t.memory_per_chip_bytes;
  j["error_band"] = {{"median", p.error_median}, {"p90", p.error_p90}, {"validated", p.validated}};
  if (p.fine_tune_derived) j["error_band"]["derived_fine_tune"] = true;  // doubled: no LoRA step was measured
  return j;
}

OrderedJson threshold_json(const ResolvedScenario& r, const Threshold& t) {
  const auto number = [](double v) { return std::isfinite(v) ? OrderedJson(v) : OrderedJson(); };
  OrderedJson j = OrderedJson::object();
  j["option"] = t.option >= 0 ? OrderedJson(r.options[static_cast<size_t>(t.option)].label) : OrderedJson();
  j["option_index"] = t.option;
  j["input"] = t.path;
  j["quantity"] = word_of(kThresholdInputWords, t.input);
  j["base"] = t.base;
  j["value"] = t.flips ? OrderedJson(t.value) : OrderedJson();
  j["direction"] = t.flips ? OrderedJson(t.at_least ? "at least" : "at most") : OrderedJson();
  j["change"] = number(t.change());
  if (t.input == ThresholdInput::Throughput) {
    j["mfu"] = {{"value", t.flips ? number(t.mfu) : OrderedJson()}, {"base", number(t.base_mfu)}};
    j["tokens_per_sec_per_chip"] = {{"value", t.flips ? number(t.tokens_per_sec_per_chip) : OrderedJson()},
                                    {"base", number(t.base_tokens_per_sec_per_chip)}};
  }
  j["condition"] = threshold_condition(r, t);
  return j;
}

std::vector<Threshold> leading_thresholds(const Scenario& s, const ResolvedScenario& r, const Results& results, size_t w) {
  const Comparison& c = results.workloads[w].comparison;
  if (c.cheapest < 0 || c.runner_up < 0) return {};
  return thresholds(s, r, w, c.cheapest, c.runner_up);
}

OrderedJson deadline_json(const DeadlineSizing& d) {
  return {{"days", d.deadline_days},
          {"met", d.met},
          {"instances", d.instances},
          {"configured_instances", d.configured_instances},
          {"fastest_instances", d.fastest_instances},
          {"fastest_days", std::isfinite(d.fastest_days) ? OrderedJson(d.fastest_days) : OrderedJson()},
          {"limit", d.limit},
          {"capacity_limited", d.capacity_limited},
          {"sizes_tried", d.sizes_tried}};
}

// Sized for an on-time probability: said only then, so the point estimate's JSON is as before.
void add_confidence_json(OrderedJson& j, const DeadlineSizing& d) {
  if (!(d.confidence > 0)) return;
  j["confidence"] = d.confidence;
  j["confidence_met"] = d.confidence_met;
  j["probability_on_time"] = d.probability_on_time;
  j["point_instances"] = d.point_instances;
}

OrderedJson budget_json(const BudgetPlan& b) {
  OrderedJson j = {{"usd", b.budget_usd},
                   {"usd_per_token", b.usd_per_token},
                   {"fixed_per_run_usd", b.fixed_per_run},
                   {"tokens", b.tokens},
                   {"covers_one_step", b.covers_one_step},
                   {"wall_clock_hours", b.wall_clock_hours}};
  if (b.has_law)
    j["scaling_law"] = {{"loss", b.loss},
                        {"compute_flops", b.compute},
                        {"optimal_params", b.optimal_params},
                        {"optimal_tokens", b.optimal_tokens},
                        {"optimal_loss", b.optimal_loss}};
  return j;
}

OrderedJson optional_json(const std::optional<double>& v) { return v ? OrderedJson(*v) : OrderedJson(); }

OrderedJson reliability_json(const OptionResult& r, const std::vector<GoodputSwing>& swings) {
  OrderedJson sensitivity = OrderedJson::array();
  for (const GoodputSwing& swing : swings)
    sensitivity.push_back({{"input", swing.field->input_name()},
                           {"low", swing.low},
                           {"high", swing.high},
                           {"goodput_at_low", swing.goodput_at_low},
                           {"goodput_at_high", swing.goodput_at_high}});
  OrderedJson j = {{"cluster_mtbf_hours", r.cluster_mtbf_hours},
                   {"checkpoint_bytes", r.checkpoint_bytes},
                   {"checkpoint_pause_hours", r.checkpoint_pause_hours},
                   {"restart_hours", r.restart_hours},
                   {"checkpoint_interval_hours", r.checkpoint_interval_hours},
                   {"interruptions", r.interruptions}};
  // Spot reclaims, only where there are any (capacity the job holds reads as before).
  if (r.reclaims_per_hour > 0)
    j["spot"] = {{"reclaims_per_hour", r.reclaims_per_hour},
                 {"restart_hours", r.reclaim_restart_hours},
                 {"reclaims", r.reclaims},
                 {"wait_hours", r.reclaim_wait_hours}};
  j["goodput_sensitivity"] = sensitivity;
  return j;
}

OrderedJson results_to_json(const Scenario& s, const ResolvedScenario& resolved, const Results& results, const QuickOdds& odds) {
  OrderedJson j = OrderedJson::object();
  j["traincost_version"] = TRAINCOST_VERSION;
  j["catalog"] = resolved.catalog->version;
  OrderedJson workloads = OrderedJson::array();
  for (size_t w = 0; w < results.workloads.size(); ++w) {
    const WorkloadResult& wr = results.workloads[w];
    const double runs = resolved.workloads[w].runs;
    OrderedJson wj = OrderedJson::object();
    wj["name"] = workload_title(s.workloads[w], w);
    wj["target_tokens"] = wr.target_tokens;
    wj["runs"] = runs;
    wj["deadline_days"] = optional_json(s.workloads[w].deadline_days);
    wj["budget_usd"] = optional_json(s.workloads[w].budget_usd);
    wj["usd_per_day_of_delay"] = optional_json(s.workloads[w].usd_per_day_of_delay);
    // The fine-tuning mode's figures, present only when the workload is not a packed full
    // fine-tune (so results of other scenarios read as before). All derived (fine_tune.hpp).
    if (const Workload& wl = s.workloads[w]; wl.fine_tune.adapters() || !wl.fine_tune.packed) {
      const AdapterParams a = adapter_params(wl.model, wl.fine_tune);
      wj["fine_tune"] = {{"mode", to_string(wl.fine_tune.mode)},
                         {"trainable_params", trained_params(wl)},
                         {"trainable_params_from", !wl.fine_tune.adapters() ? "all parameters"
                                                   : a.from_share ? "trainable_share"
                                                   : a.assumed_architecture ? "architecture assumed from params"
                                                                            : "architecture"},
                         {"trainable_state_bytes_per_param", wl.memory.bytes_per_param},
                         {"frozen_bytes_per_param", frozen_base_bytes(wl.model, wl.fine_tune.mode) / wl.model.params},
                         {"flops_per_token", training_flops_per_token(wl, wl.recompute)},
                         {"packed", wl.fine_tune.packed},
                         {"fill", wl.fine_tune.padding_fill()},
                         {"derived", true}};
    }
    wj["verdict"] = workload_verdict(resolved, results, w);
    OrderedJson problems = OrderedJson::array();
    for (const Problem& p : constraint_problems(resolved, results, w)) problems.push_back({{"path", p.path}, {"message", p.message}});
    wj["problems"] = problems;
    OrderedJson options = OrderedJson::array();
    for (size_t o = 0; o < wr.options.size(); ++o) {
      const OptionResult& r = wr.options[o];
      const CostBreakdown b = breakdown(r, runs);
      OrderedJson oj = OrderedJson::object();
      oj["label"] = resolved.options[o].label;
      oj["instance"] = resolved.options[o].instance;
      oj["feasible"] = r.feasible();
      if (!r.feasible()) oj["issue"] = infeasibility_reason(r);
      // An option that cannot run the job has no time or cost: those figures are null (the
      // formulas' values would mislead, and can be negative or infinite: issue row 3). So are
      // the comparisons with the reference when either side cannot run it.
      const bool shown = r.feasible();
      const bool vs_reference = shown && wr.options[static_cast<size_t>(resolved.reference)].feasible();
      auto figure = [](bool show, double v) { return show && std::isfinite(v) ? OrderedJson(v) : OrderedJson(nullptr); };
      oj["training_flops"] = figure(true, r.training_flops);
      oj["tokens"] = figure(true, r.tokens);
      oj["tokens_per_second"] = figure(true, r.tokens_per_sec);
      oj["instances"] = resolved.workloads[w].options[o].instances;
      // A pilot's loss curves compared: the measured convergence, or why the curves cannot tell.
      if (const auto& c = resolved.options[o].convergence) oj["convergence"] = convergence_to_json(*c);
      oj["chips"] = r.chips;
      oj["goodput"] = figure(r.goodput > 0 && r.goodput <= 1, r.goodput);
      oj["wall_clock_hours"] = figure(shown, r.wall_clock_hours);
      oj["days_to_model"] = figure(shown, r.days_to_model);
      oj["chip_hours"] = figure(shown, r.chip_hours);
      oj["instance_hours"] = figure(shown, r.instance_hours);
      oj["price_usd_per_instance_hour"] = r.price_usd_per_hour;
      oj["hardware_cost_per_run_usd"] = figure(shown, r.hardware_cost_per_run);
      oj["one_time_cost_usd"] = figure(shown, r.one_time_cost);
      oj["maintenance_cost_usd"] = figure(shown, r.maintenance_cost);
      oj["re_porting_cost_usd"] = figure(shown, r.re_porting_cost);
      oj["delay_cost_per_run_usd"] = figure(shown, r.delay_cost_per_run);
      oj["fixed_cost_usd"] = figure(shown, r.fixed_cost);
      oj["per_run_cost_usd"] = figure(shown, r.per_run_cost);
      oj["cost_per_run_usd"] = figure(shown, r.cost_per_run);
      oj["compute_cost_per_million_tokens_usd"] = figure(shown, r.compute_cost_per_million_tokens);  // compute only
      oj["cost_per_million_tokens_usd"] = figure(shown, r.cost_per_million_tokens);                  // all-in
      oj["horizon_cost_usd"] = figure(shown, r.horizon_cost);
      oj["annual_cost_usd"] = figure(shown, r.annual_cost);
      OrderedJson parts = OrderedJson::object();
      for (size_t i = 0; i < kCostPartCount; ++i) parts[kCostParts[i].key] = figure(shown, b[i]);
      oj["breakdown_per_run_usd"] = parts;
      if (const Chip* chip = resolved.options[o].chip; chip && chip->software) {
        const SoftwareLifecycle& life = *chip->software;
        const Source* source = resolved.catalog->find_source(life.source);
        oj["software"] = {{"family", life.family}, {"stack", life.stack}, {"status", to_string(life.status)},
                          {"notice", software_notice(resolved.options[o], *resolved.catalog)},
                          {"source", life.source}, {"url", source ? source->url : ""}, {"as_of", life.as_of}};
      }
      if (r.deadline.applied) {
        oj["deadline"] = deadline_json(r.deadline);
        add_confidence_json(oj["deadline"], r.deadline);
      }
      const BudgetPlan plan = plan_budget(resolved.workloads[w], resolved.workloads[w].options[o], r, wr.target_tokens);
      if (plan.applied) oj["budget"] = budget_json(plan);
      oj["memory"] = {{"fits", r.memory.fits},
                      {"possible", r.memory.possible},
                      {"min_instances", r.memory.min_instances},
                      {"bytes_per_chip", r.memory.bytes_per_chip},
                      {"usable_bytes_per_chip", r.memory.usable_bytes_per_chip}};
      oj["performance"] = performance_json(resolved.workloads[w].options[o].performance);
      oj["reliability"] = reliability_json(r, goodput_sensitivity(resolved.workloads[w], resolved.workloads[w].options[o],
                                                                  s.options[o], *resolved.catalog, resolved.options[o].family));
      if (!shown) oj["reliability"]["interruptions"] = nullptr;
      if (!shown && oj["reliability"].contains("spot")) oj["reliability"]["spot"]["reclaims"] = nullptr;
      oj["savings_vs_reference"] = figure(vs_reference, r.savings_vs_reference);
      oj["wall_clock_ratio_vs_reference"] = figure(vs_reference, r.wall_clock_ratio_vs_reference);
      oj["breakeven_vs_reference"] = vs_reference ? breakeven_json(r.vs_reference) : OrderedJson(nullptr);
      // The planned figures as published runs realized them (present.hpp): null when not shown.
      const AsRealized real = as_realized(s.workloads[w], r, resolved.workloads[w].options[o], *resolved.catalog);
      auto three = [](const double (&v)[3]) { return OrderedJson{{"low", v[0]}, {"median", v[1]}, {"high", v[2]}}; };
      oj["as_published_runs_realized"] =
          real.shown ? OrderedJson{{"interval", 0.8}, {"runs", resolved.catalog->whole_run.runs}, {"chip_hours", three(real.chip_hours)},
                                   {"wall_clock_hours", three(real.wall_clock_hours)}, {"hardware_cost_per_run_usd", three(real.hardware_cost)}}
                     : OrderedJson(nullptr);
      options.push_back(oj);
    }
    wj["options"] = options;
    const Comparison& c = wr.comparison;
    OrderedJson cj = OrderedJson::object();
    cj["cheapest"] = c.cheapest >= 0 ? OrderedJson(resolved.options[static_cast<size_t>(c.cheapest)].label) : OrderedJson();
    cj["cheapest_index"] = c.cheapest;
    cj["runner_up"] = c.runner_up >= 0 ? OrderedJson(resolved.options[static_cast<size_t>(c.runner_up)].label) : OrderedJson();
    cj["runner_up_index"] = c.runner_up;
    cj["savings"] = c.savings;
    cj["wall_clock_ratio"] = c.wall_clock_ratio;
    cj["breakeven"] = to_string(c.breakeven.kind);
    cj["breakeven_runs"] = (c.breakeven.kind == BreakevenKind::AtRuns || c.breakeven.kind == BreakevenKind::UntilRuns)
                               ? OrderedJson(c.breakeven.runs)
                               : OrderedJson();
    const std::vector<Threshold> rows = leading_thresholds(s, resolved, results, w);
    OrderedJson tj = OrderedJson::array();
    for (const Threshold& t : rows) tj.push_back(threshold_json(resolved, t));
    cj["thresholds"] = tj;
    cj["decisive_threshold"] = most_decisive(rows);
    const std::string holds = holds_while(resolved, rows);
    cj["holds_while"] = holds.empty() ? OrderedJson() : OrderedJson(holds);
    wj["comparison"] = cj;
    if (odds.computed) {
      OrderedJson oj = OrderedJson::array();
      for (const OptionOdds& x : odds.workloads[w].options)
        oj.push_back({{"cost_per_run_usd", percentiles_json(x.cost_per_run)},
                      {"probability_cheapest", x.probability_cheapest},
                      {"probability_feasible", x.probability_feasible},
                      {"far_from_median", far_from_median(x)},
                      {"pulled_by", x.pulled_by.empty() ? OrderedJson() : OrderedJson(x.pulled_by)},
                      {"pulled_by_usd", x.pulled_by.empty() ? OrderedJson() : OrderedJson(x.pulled_by_usd)}});
      wj["odds"] = {{"samples", odds.samples}, {"seed", odds.seed}, {"options", oj}, {"sentences", odds_lines(resolved, results, odds, w)}};
    } else if (!odds.skipped.empty()) {
      wj["odds"] = {{"skipped", odds.skipped}};
    }
    workloads.push_back(wj);
  }
  j["workloads"] = workloads;
  const Portfolio& p = results.portfolio;
  OrderedJson pj = OrderedJson::object();
  OrderedJson singles = OrderedJson::array();
  for (size_t o = 0; o < p.single_option_annual.size(); ++o)
    singles.push_back({{"label", resolved.options[o].label},
                       {"annual_cost_usd", p.single_option_feasible[o] && std::isfinite(p.single_option_annual[o])
                                               ? OrderedJson(p.single_option_annual[o])
                                               : OrderedJson(nullptr)},
                       {"feasible", static_cast<bool>(p.single_option_feasible[o])}});
  pj["single_option"] = singles;
  pj["best_per_workload"] = p.best_per_workload;
  pj["best_mix_annual_usd"] = p.best_mix_annual;
  pj["best_single"] = p.best_single;
  pj["savings_vs_best_single"] = p.savings_vs_best_single;
  pj["verdict"] = portfolio_verdict(resolved, results);
  j["portfolio"] = pj;
  return j;
}

std::string report_text(const Scenario& s, const ResolvedScenario& resolved, const Results& results, const QuickOdds& odds) {
  std::string out = "TrainCost " TRAINCOST_VERSION " (catalog " + resolved.catalog->version + ")";
  if (!s.name.empty()) out += "\n" + s.name;
  out += "\n";
  const size_t widths[] = {24, 11, 12, 14, 16, 11, 13, 15, 0};
  static_assert(std::size(widths) == column_index(ResultCol::Count), "a width per column");
  for (size_t w = 0; w < results.workloads.size(); ++w) {
    const WorkloadResult& wr = results.workloads[w];
    const WorkloadInputs& wi = resolved.workloads[w];
    out += "\n" + workload_title(s.workloads[w], w) + ": " + fmt::count(wi.model.params) + " parameters, " +
           fmt::count(wr.target_tokens) + " tokens, " + fmt::number(wi.runs) + (wi.runs == 1 ? " run" : " runs") + " over " +
           fmt::number(wi.horizon_months) + " months\n";
    out += workload_verdict(resolved, results, w) + "\n";
    const std::string holds = holds_while(resolved, leading_thresholds(s, resolved, results, w));
    if (!holds.empty()) out += holds + "\n";
    out += "\n";
    for (size_t c = 0; c < result_columns().size(); ++c) out += pad(result_columns()[c].short_header, widths[c]);
    out += "\n";
    for (size_t o = 0; o < wr.options.size(); ++o) {
      const std::vector<std::string> cells =
          result_cells(resolved.options[o].label, wr.options[o], estimate_flags(s, resolved, w, o, *resolved.catalog));
      for (size_t c = 0; c < cells.size(); ++c) out += pad(cells[c], widths[c]);
      out += "\n";
    }
    const std::vector<std::string> sure = odds_lines(resolved, results, odds, w);
    if (!sure.empty()) out += "\n";
    for (const std::string& line : sure) out += line + "\n";
    const std::vector<std::string> lines = constraint_lines(resolved, results, w);
    if (!lines.empty()) out += "\n";
    for (const std::string& line : lines) out += line + "\n";
    const std::string note = estimate_footnote(s, resolved, w, *resolved.catalog);
    if (!note.empty()) out += note + "\n";
    const std::string realized = as_realized_line(s, resolved, results, w);
    if (!realized.empty()) out += realized + "\n";
  }
  if (results.workloads.size() > 1) out += "\n" + portfolio_verdict(resolved, results) + "\n";
  // Names and labels are the user's text: no control character reaches the terminal.
  return escape_terminal_text(out);
}

std::string report_markdown(const Scenario& s, const ResolvedScenario& resolved, const Results& results,
                            const std::string& link, const QuickOdds& odds) {
  std::string out = "### " + (s.name.empty() ? std::string("TrainCost comparison") : escape_markdown(s.name)) + "\n\n";
  for (size_t w = 0; w < results.workloads.size(); ++w) {
    const WorkloadResult& wr = results.workloads[w];
    out += "**" + escape_markdown(workload_title(s.workloads[w], w)) + "**: " +
           escape_markdown(workload_verdict(resolved, results, w)) + "\n\n";
    const std::string holds = holds_while(resolved, leading_thresholds(s, resolved, results, w));
    if (!holds.empty()) out += "_" + escape_markdown(holds) + "_\n\n";
    std::string rule = "|";
    for (size_t c = 0; c < result_columns().size(); ++c) {
      out += std::string("| ") + result_columns()[c].header + " ";
      rule += c == 0 || c + 1 == result_columns().size() ? "---|" : "---:|";
    }
    out += "|\n" + rule + "\n";
    for (size_t o = 0; o < wr.options.size(); ++o) {
      for (const std::string& cell : result_cells(resolved.options[o].label, wr.options[o], estimate_flags(s, resolved, w, o, *resolved.catalog)))
        out += "| " + escape_markdown(cell) + " ";
      out += "|\n";
    }
    const std::string note = estimate_footnote(s, resolved, w, *resolved.catalog);
    if (!note.empty()) out += "\n" + escape_markdown(note) + "\n";
    const std::string realized = as_realized_line(s, resolved, results, w);
    if (!realized.empty()) out += "\n" + escape_markdown(realized) + "\n";
    out += "\n";
    for (const std::string& line : odds_lines(resolved, results, odds, w)) out += escape_markdown(line) + "\n\n";
    const std::vector<std::string> lines = constraint_lines(resolved, results, w);
    for (const std::string& line : lines) out += "- " + escape_markdown(line) + "\n";
    if (!lines.empty()) out += "\n";
  }
  if (results.workloads.size() > 1) out += escape_markdown(portfolio_verdict(resolved, results)) + "\n\n";
  out += "_Computed by TrainCost " TRAINCOST_VERSION " with catalog " + escape_markdown(resolved.catalog->version) + "._";
  if (!link.empty()) out += " [Open this scenario](" + markdown_url(link) + ")";
  out += "\n";
  return out;
}

std::string report_csv(const Scenario& s, const ResolvedScenario& resolved, const Results& results, const QuickOdds& odds) {
  auto num = [](double v) { return fmt::printf_c("%.10g", v); };
  std::string out =
      "workload,option,instance,instances,feasible,tokens,training_flops,wall_clock_hours,days_to_model,chip_hours,"
      "hardware_cost_per_run_usd,one_time_cost_usd,re_porting_cost_usd,delay_cost_per_run_usd,cost_per_run_usd,"
      // The two prices of a token: compute only (hardware), then all-in (fully loaded).
      "compute_cost_per_million_tokens_usd,cost_per_million_tokens_usd,annual_cost_usd,status,rests_on_estimates,"
      // The quick look at the odds (odds.hpp): empty cells when it was not taken.
      "median_cost_per_run_usd,p5_cost_per_run_usd,p95_cost_per_run_usd,probability_cheapest\n";
  for (size_t w = 0; w < results.workloads.size(); ++w) {
    for (size_t o = 0; o < results.workloads[w].options.size(); ++o) {
      const OptionResult& r = results.workloads[w].options[o];
      // An option that cannot run the job has no time or cost: empty cells, and the status says why.
      auto figure = [&](double v) { return r.feasible() ? num(v) : std::string(); };
      out += escape_csv(workload_title(s.workloads[w], w)) + "," + escape_csv(resolved.options[o].label) + "," +
             escape_csv(resolved.options[o].instance) + "," + num(resolved.workloads[w].options[o].instances) + "," +
             (r.feasible() ? "true" : "false") + "," + num(r.tokens) + "," + num(r.training_flops) + "," + figure(r.wall_clock_hours) +
             "," + figure(r.days_to_model) + "," + figure(r.chip_hours) + "," + figure(r.hardware_cost_per_run) + "," +
             figure(r.one_time_cost) + "," + figure(r.re_porting_cost) + "," + figure(r.delay_cost_per_run) + "," + figure(r.cost_per_run) + "," +
             figure(r.compute_cost_per_million_tokens) + "," + figure(r.cost_per_million_tokens) + "," + figure(r.annual_cost) + "," + escape_csv(status_text(r)) + ",";
      std::string reasons;
      for (const std::string& reason : estimate_flags(s, resolved, w, o, *resolved.catalog).reasons)
        reasons += (reasons.empty() ? "" : "; ") + reason;
      out += escape_csv(reasons);
      if (odds.computed) {
        const OptionOdds& x = odds.workloads[w].options[o];
        auto sampled = [&](double v) { return x.probability_feasible > 0 && std::isfinite(v) ? num(v) : std::string(); };
        out += "," + sampled(x.cost_per_run.p50) + "," + sampled(x.cost_per_run.p5) + "," + sampled(x.cost_per_run.p95) + "," +
               num(x.probability_cheapest) + "\n";
      } else {
        out += ",,,,\n";
      }
    }
  }
  return out;
}

}  // namespace traincost
