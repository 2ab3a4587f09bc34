#include "traincost/report.hpp"

#include <cmath>
#include <cstdio>

#include "traincost/budget.hpp"
#include "traincost/fields.hpp"
#include "traincost/format.hpp"
#include "traincost/present.hpp"
#include "traincost/verdict.hpp"

namespace traincost {

CostBreakdown breakdown(const OptionResult& r, double runs) {
  return {r.compute_cost,           r.compile_cost,     r.porting_cost / runs, r.validation_cost / runs, r.maintenance_cost / runs,
          r.re_porting_cost / runs, r.egress_cost_per_run, r.delay_cost_per_run};
}

const char* to_string(BreakevenKind kind) {
  switch (kind) {
    case BreakevenKind::FromFirstRun: return "from_first_run";
    case BreakevenKind::AtRuns: return "at_runs";
    case BreakevenKind::UntilRuns: return "until_runs";
    case BreakevenKind::Never: return "never";
  }
  return "never";
}

std::string workload_title(const Workload& w, size_t index) {
  return w.name.empty() ? "Workload " + std::to_string(index + 1) : w.name;
}

std::vector<std::string> constraint_lines(const ResolvedScenario& s, const Results& results, size_t w) {
  std::vector<std::string> lines;
  const WorkloadInputs& wi = s.workloads[w];
  const WorkloadResult& wr = results.workloads[w];
  for (size_t o = 0; o < wr.options.size(); ++o) {
    const OptionResult& r = wr.options[o];
    const std::string& label = s.options[o].label;
    const BudgetPlan b = plan_budget(wi, wi.options[o], r, wr.target_tokens);
    if (b.applied && b.tokens > 0) {
      std::string line = "Budget " + fmt::usd(b.budget_usd) + " per run on " + label + ": " + fmt::count(b.tokens) + " tokens in " +
                         fmt::hours(b.wall_clock_hours);
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

// A link target inside (…): only characters that cannot end or break it, percent-encoded otherwise.
std::string markdown_link_target(const std::string& link) {
  std::string out;
  for (unsigned char ch : link) {
    if (ch > 0x20 && ch < 0x7F && ch != '(' && ch != ')' && ch != '<' && ch != '>' && ch != '\\' && ch != '"' && ch != '`') {
      out += static_cast<char>(ch);
    } else {
      char buffer[4];
      std::snprintf(buffer, sizeof buffer, "%%%02X", ch);
      out += buffer;
    }
  }
  return out;
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
  j["breakdown_s"] = {{"compute", t.breakdown.compute},     {"tensor", t.breakdown.tensor},
                      {"pipeline_bubble", t.breakdown.bubble}, {"pipeline_p2p", t.breakdown.p2p},
                      {"data", t.breakdown.data},           {"other", t.breakdown.other}};
  j["memory_per_chip_bytes"] = t.memory_per_chip_bytes;
  j["error_band"] = {{"median", p.error_median}, {"p90", p.error_p90}, {"validated", p.validated}};
  return j;
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
  return {{"cluster_mtbf_hours", r.cluster_mtbf_hours},
          {"checkpoint_bytes", r.checkpoint_bytes},
          {"checkpoint_pause_hours", r.checkpoint_pause_hours},
          {"restart_hours", r.restart_hours},
          {"checkpoint_interval_hours", r.checkpoint_interval_hours},
          {"interruptions", r.interruptions},
          {"goodput_sensitivity", sensitivity}};
}

OrderedJson results_to_json(const Scenario& s, const ResolvedScenario& resolved, const Results& results) {
  OrderedJson j = OrderedJson::object();
  j["traincost_version"] = TRAINCOST_VERSION;
  j["catalog"] = builtin_catalog().version;
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
      oj["training_flops"] = r.training_flops;
      oj["tokens"] = r.tokens;
      oj["tokens_per_second"] = r.tokens_per_sec;
      oj["instances"] = resolved.workloads[w].options[o].instances;
      oj["chips"] = r.chips;
      oj["goodput"] = r.goodput;
      oj["wall_clock_hours"] = r.wall_clock_hours;
      oj["days_to_model"] = r.days_to_model;
      oj["chip_hours"] = r.chip_hours;
      oj["instance_hours"] = r.instance_hours;
      oj["price_usd_per_instance_hour"] = r.price_usd_per_hour;
      oj["hardware_cost_per_run_usd"] = r.hardware_cost_per_run;
      oj["one_time_cost_usd"] = r.one_time_cost;
      oj["maintenance_cost_usd"] = r.maintenance_cost;
      oj["re_porting_cost_usd"] = r.re_porting_cost;
      oj["delay_cost_per_run_usd"] = r.delay_cost_per_run;
      oj["fixed_cost_usd"] = r.fixed_cost;
      oj["per_run_cost_usd"] = r.per_run_cost;
      oj["cost_per_run_usd"] = r.cost_per_run;
      oj["cost_per_million_tokens_usd"] = r.cost_per_million_tokens;
      oj["horizon_cost_usd"] = r.horizon_cost;
      oj["annual_cost_usd"] = r.annual_cost;
      oj["breakdown_per_run_usd"] = {{"compute", b.compute},         {"compile", b.compile},       {"porting", b.porting},
                                     {"validation", b.validation},   {"maintenance", b.maintenance}, {"re_porting", b.re_porting},
                                     {"egress", b.egress},           {"delay", b.delay}};
      if (r.deadline.applied) oj["deadline"] = deadline_json(r.deadline);
      const BudgetPlan plan = plan_budget(resolved.workloads[w], resolved.workloads[w].options[o], r, wr.target_tokens);
      if (plan.applied) oj["budget"] = budget_json(plan);
      oj["memory"] = {{"fits", r.memory.fits},
                      {"possible", r.memory.possible},
                      {"min_instances", r.memory.min_instances},
                      {"bytes_per_chip", r.memory.bytes_per_chip},
                      {"usable_bytes_per_chip", r.memory.usable_bytes_per_chip}};
      oj["performance"] = performance_json(resolved.workloads[w].options[o].performance);
      oj["reliability"] = reliability_json(r, goodput_sensitivity(resolved.workloads[w], resolved.workloads[w].options[o],
                                                                  s.options[o], builtin_catalog(), resolved.options[o].family));
      oj["savings_vs_reference"] = r.savings_vs_reference;
      oj["wall_clock_ratio_vs_reference"] = r.wall_clock_ratio_vs_reference;
      oj["breakeven_vs_reference"] = breakeven_json(r.vs_reference);
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
    wj["comparison"] = cj;
    workloads.push_back(wj);
  }
  j["workloads"] = workloads;
  const Portfolio& p = results.portfolio;
  OrderedJson pj = OrderedJson::object();
  OrderedJson singles = OrderedJson::array();
  for (size_t o = 0; o < p.single_option_annual.size(); ++o)
    singles.push_back({{"label", resolved.options[o].label},
                       {"annual_cost_usd", p.single_option_annual[o]},
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

std::string report_text(const Scenario& s, const ResolvedScenario& resolved, const Results& results) {
  std::string out = "TrainCost " TRAINCOST_VERSION " (catalog " + builtin_catalog().version + ")";
  if (!s.name.empty()) out += "\n" + s.name;
  out += "\n";
  const size_t widths[] = {24, 11, 12, 14, 11, 11, 12, 0};
  for (size_t w = 0; w < results.workloads.size(); ++w) {
    const WorkloadResult& wr = results.workloads[w];
    const WorkloadInputs& wi = resolved.workloads[w];
    out += "\n" + workload_title(s.workloads[w], w) + ": " + fmt::count(wi.model.params) + " parameters, " +
           fmt::count(wr.target_tokens) + " tokens, " + fmt::number(wi.runs) + (wi.runs == 1 ? " run" : " runs") + " over " +
           fmt::number(wi.horizon_months) + " months\n";
    out += workload_verdict(resolved, results, w) + "\n\n";
    for (size_t c = 0; c < result_columns().size(); ++c) out += pad(result_columns()[c].short_header, widths[c]);
    out += "\n";
    for (size_t o = 0; o < wr.options.size(); ++o) {
      const std::vector<std::string> cells = result_cells(resolved.options[o].label, wr.options[o]);
      for (size_t c = 0; c < cells.size(); ++c) out += pad(cells[c], widths[c]);
      out += "\n";
    }
    const std::vector<std::string> lines = constraint_lines(resolved, results, w);
    if (!lines.empty()) out += "\n";
    for (const std::string& line : lines) out += line + "\n";
  }
  if (results.workloads.size() > 1) out += "\n" + portfolio_verdict(resolved, results) + "\n";
  // Names and labels are the user's text: no control character reaches the terminal.
  return escape_terminal_lines(out);
}

std::string report_markdown(const Scenario& s, const ResolvedScenario& resolved, const Results& results,
                            const std::string& link) {
  std::string out = "### " + (s.name.empty() ? std::string("TrainCost comparison") : escape_markdown(s.name)) + "\n\n";
  for (size_t w = 0; w < results.workloads.size(); ++w) {
    const WorkloadResult& wr = results.workloads[w];
    out += "**" + escape_markdown(workload_title(s.workloads[w], w)) + "**: " +
           escape_markdown(workload_verdict(resolved, results, w)) + "\n\n";
    std::string rule = "|";
    for (size_t c = 0; c < result_columns().size(); ++c) {
      out += std::string("| ") + result_columns()[c].header + " ";
      rule += c == 0 || c + 1 == result_columns().size() ? "---|" : "---:|";
    }
    out += "|\n" + rule + "\n";
    for (size_t o = 0; o < wr.options.size(); ++o) {
      for (const std::string& cell : result_cells(resolved.options[o].label, wr.options[o])) out += "| " + escape_markdown(cell) + " ";
      out += "|\n";
    }
    out += "\n";
    const std::vector<std::string> lines = constraint_lines(resolved, results, w);
    for (const std::string& line : lines) out += "- " + escape_markdown(line) + "\n";
    if (!lines.empty()) out += "\n";
  }
  if (results.workloads.size() > 1) out += escape_markdown(portfolio_verdict(resolved, results)) + "\n\n";
  out += "_Computed by TrainCost " TRAINCOST_VERSION " with catalog " + escape_markdown(builtin_catalog().version) + "._";
  if (!link.empty()) out += " [Open this scenario](" + markdown_link_target(link) + ")";
  out += "\n";
  return out;
}

std::string report_csv(const Scenario& s, const ResolvedScenario& resolved, const Results& results) {
  auto num = [](double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.10g", v);
    return std::string(buffer);
  };
  std::string out =
      "workload,option,instance,instances,feasible,tokens,training_flops,wall_clock_hours,days_to_model,chip_hours,"
      "hardware_cost_per_run_usd,one_time_cost_usd,re_porting_cost_usd,delay_cost_per_run_usd,cost_per_run_usd,"
      "cost_per_million_tokens_usd,annual_cost_usd,status\n";
  for (size_t w = 0; w < results.workloads.size(); ++w) {
    for (size_t o = 0; o < results.workloads[w].options.size(); ++o) {
      const OptionResult& r = results.workloads[w].options[o];
      // An option that cannot run the job has no time or cost: empty cells, and the status says why.
      auto figure = [&](double v) { return r.feasible() ? num(v) : std::string(); };
      out += escape_csv(workload_title(s.workloads[w], w)) + "," + escape_csv(resolved.options[o].label) + "," +
             escape_csv(resolved.options[o].instance) + "," + num(resolved.workloads[w].options[o].instances) + "," +
             (r.feasible() ? "true" : "false") + "," + num(r.tokens) + "," + num(r.training_flops) + "," + figure(r.wall_clock_hours) +
             "," + figure(r.days_to_model) + "," + figure(r.chip_hours) + "," + figure(r.hardware_cost_per_run) + "," +
             num(r.one_time_cost) + "," + num(r.re_porting_cost) + "," + figure(r.delay_cost_per_run) + "," + figure(r.cost_per_run) + "," +
             figure(r.cost_per_million_tokens) + "," + figure(r.annual_cost) + "," + escape_csv(status_text(r)) + "\n";
    }
  }
  return out;
}

}  // namespace traincost
