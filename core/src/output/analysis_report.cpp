#include "traincost/output/analysis_report.hpp"

#include <cmath>

#include "traincost/base/format.hpp"
#include "traincost/output/present.hpp"
#include "traincost/output/report.hpp"
#include "traincost/output/verdict.hpp"

namespace traincost {

namespace {

OrderedJson runs_json(double runs) {
  if (std::isnan(runs)) return nullptr;
  if (std::isinf(runs)) return "never";
  return runs;
}
OrderedJson number_json(double v) { return std::isfinite(v) ? OrderedJson(v) : OrderedJson(nullptr); }
OrderedJson runs_percentiles_json(const Percentiles& p) {
  return {{"p5", runs_json(p.p5)}, {"p50", runs_json(p.p50)}, {"p95", runs_json(p.p95)}};
}

std::string runs_text(double runs) {
  // No break-even: one of the pair cannot run the job at that end of the range.
  if (std::isnan(runs)) return "none (one of the pair cannot run)";
  if (std::isinf(runs)) return "never";
  // "%.1f" of 1e200 has 200 digits, and a 32-byte buffer cut them (issue row 7).
  if (std::fabs(runs) >= 1e9) return fmt::number(runs, 3);
  return fmt::printf_c("%.1f", runs);
}

std::string label_of(const ResolvedScenario& r, int i) { return i >= 0 ? r.options[static_cast<size_t>(i)].label : "none"; }

// The lead of the leader at one end of a range; none where either of the pair cannot run there.
std::string lead_text(double lead) { return std::isnan(lead) ? "none (one of the pair cannot run)" : fmt::usd(lead); }

std::string deadline_words(double days) { return "the " + fmt::number(days, 3) + "-day deadline"; }

}  // namespace

std::string percentile_text(double value, const OptionStats& st, bool usd) {
  if (std::isfinite(value)) return usd ? fmt::usd(value) : fmt::days(value);
  // The percentile falls among samples where the option cannot run the job: say how often, and
  // why where a deadline is the reason.
  const double not_run = 1 - st.probability_feasible;
  std::string why = "not run in " + fmt::percent(not_run) + " of futures";
  if (st.deadline_days > 0 && st.probability_late > 0)
    why += st.probability_late >= not_run ? " (misses " + deadline_words(st.deadline_days) + ")"
                                          : " (misses " + deadline_words(st.deadline_days) + " in " + fmt::percent(st.probability_late) + ")";
  return why;
}

std::string range_text(double low, double high, const OptionStats& st, bool usd) {
  // Samples where the option cannot run sort last (+inf): a missing low end means a missing high one.
  if (std::isfinite(high)) return percentile_text(low, st, usd) + "–" + percentile_text(high, st, usd);
  if (std::isfinite(low)) return "from " + percentile_text(low, st, usd) + "; " + percentile_text(NAN, st, usd);
  return percentile_text(NAN, st, usd);
}

std::string median_range_text(const Percentiles& c, const OptionStats& st) {
  if (std::isfinite(c.p50)) return "median " + fmt::usd(c.p50) + ", 90% range " + range_text(c.p5, c.p95, st);
  if (std::isfinite(c.p5)) return "from " + fmt::usd(c.p5) + " in its best futures, but no median: " + percentile_text(NAN, st);
  return percentile_text(NAN, st);
}

std::string percentiles_text(const Percentiles& p, const OptionStats& st, bool usd) {
  // Samples where the option cannot run sort last (+inf), so the missing percentiles are the
  // upper ones: "P5 $369k; P50 and P95 none: not run in 66% of futures (…)".
  const std::pair<const char*, double> each[] = {{"P5", p.p5}, {"P50", p.p50}, {"P95", p.p95}};
  std::string shown, missing;
  for (const auto& [name, v] : each) {
    if (std::isfinite(v)) shown += (shown.empty() ? "" : ", ") + std::string(name) + " " + (usd ? fmt::usd(v) : fmt::days(v));
    else missing += (missing.empty() ? "" : " and ") + std::string(name);
  }
  if (missing.empty()) return shown;
  return shown + (shown.empty() ? "" : "; ") + missing + " none: " + percentile_text(NAN, st, usd);
}

std::string on_time_text(const OptionStats& st) {
  if (!(st.deadline_days > 0)) return {};
  std::string out = "on time for " + deadline_words(st.deadline_days) + " in " + fmt::percent(st.probability_on_time) + " of futures";
  const double missed = 1 - st.probability_on_time;
  if (missed > 0) out += " (misses it in " + fmt::percent(missed) + ")";
  return out;
}

OrderedJson analysis_to_json(const Scenario&, const ResolvedScenario& r, const Analysis& a) {
  OrderedJson j = OrderedJson::object();
  j["workload"] = a.workload;
  j["leader"] = label_of(r, a.leader);
  j["runner_up"] = label_of(r, a.runner_up);
  j["challenger"] = label_of(r, a.challenger);
  j["metric"] = "cost per run of the runner-up minus the leader, USD (positive: the leader stays ahead)";
  j["base"] = {{"metric", number_json(a.base_metric)}, {"breakeven_runs", runs_json(a.base_breakeven)},
               {"challenger_one_time_usd", number_json(a.challenger_one_time_usd)}};
  OrderedJson inputs = OrderedJson::array();
  for (const RangedInput& in : a.inputs)
    inputs.push_back({{"input", in.path}, {"label", in.label}, {"value", in.value}, {"low", in.low}, {"high", in.high},
                      {"dist", to_string(in.dist)}, {"default_range", in.default_range}});
  j["inputs"] = inputs;
  OrderedJson rows = OrderedJson::array();
  for (const SensitivityRow& row : a.sensitivity)
    rows.push_back({{"input", row.input},
                    {"label", row.label},
                    {"low_value", row.low_value},
                    {"high_value", row.high_value},
                    {"metric_at_low", number_json(row.metric_at_low)},
                    {"metric_at_high", number_json(row.metric_at_high)},
                    {"breakeven_at_low", runs_json(row.breakeven_at_low)},
                    {"breakeven_at_high", runs_json(row.breakeven_at_high)},
                    {"swing", number_json(row.swing)},
                    {"default_range", row.default_range}});
  j["sensitivity"] = rows;
  const MonteCarlo& mc = a.monte_carlo;
  OrderedJson mj = OrderedJson::object();
  mj["samples"] = mc.samples;
  mj["seed"] = mc.seed;
  OrderedJson opts = OrderedJson::array();
  for (size_t o = 0; o < mc.options.size(); ++o) {
    const OptionStats& st = mc.options[o];
    opts.push_back({{"label", r.options[o].label},
                    {"probability_cheapest", st.probability_cheapest},
                    {"probability_cheapest_horizon", st.probability_cheapest_horizon},
                    {"probability_feasible", st.probability_feasible},
                    {"cost_per_run_usd", percentiles_json(st.cost_per_run)},
                    {"horizon_cost_usd", percentiles_json(st.horizon_cost)}});
    // A null percentile says why: the option cannot run the job in that share of samples.
    if (!std::isfinite(st.cost_per_run.p5) || !std::isfinite(st.cost_per_run.p50) || !std::isfinite(st.cost_per_run.p95))
      opts.back()["cost_per_run_null_because"] = percentile_text(NAN, st);
    if (st.deadline_days > 0) {
      opts.back()["deadline_days"] = st.deadline_days;
      opts.back()["probability_on_time"] = st.probability_on_time;
      opts.back()["probability_late"] = st.probability_late;
      opts.back()["days_to_model"] = percentiles_json(st.days_to_model);
    }
  }
  mj["options"] = opts;
  mj["breakeven_runs"] = runs_percentiles_json(mc.breakeven_runs);
  mj["probability_pays_off"] = mc.probability_pays_off;
  mj["difference_histogram"] = {{"min", mc.difference.min}, {"max", mc.difference.max}, {"counts", mc.difference.counts}};
  mj["infeasible_samples"] = mc.infeasible_samples;
  j["monte_carlo"] = mj;
  return j;
}

namespace {
// The analysis drew the whole-run factor from the published runs (its default range).
bool draws_whole_run(const Analysis& a) {
  for (const RangedInput& in : a.inputs)
    if (in.default_range && in.ref.kind->spec == &fields::whole_run_factor) return true;
  return false;
}
}  // namespace

std::string analysis_less_likely(const ResolvedScenario& r, const Analysis& a) {
  std::vector<double> cheapest;
  for (const OptionStats& st : a.monte_carlo.options) cheapest.push_back(st.probability_cheapest);
  return less_likely_verdict(r, a.leader, cheapest);
}

std::string analysis_text(const ResolvedScenario& r, const Analysis& a) {
  std::string out;
  // Pads to a width in characters (a label is UTF-8 text).
  auto pad = [](std::string text, size_t width, bool right = false) {
    const size_t n = character_count(text);
    if (n >= width) return text;
    return right ? std::string(width - n, ' ') + text : text + std::string(width - n, ' ');
  };
  if (a.leader < 0 || a.runner_up < 0) {
    out += "Sensitivity needs two options that can run the workload.\n";
  } else {
    out += "Decision: " + label_of(r, a.leader) + " leads " + label_of(r, a.runner_up) + " by " + fmt::usd(a.base_metric) +
           " per run; " + label_of(r, a.challenger) +
           // Neither of the two has one-time costs (two CUDA options): there is no payback to speak of.
           (!(a.challenger_one_time_usd > 0)   ? std::string(" has no one-time costs to pay back")
            : std::isinf(a.base_breakeven) ? std::string(" never pays back its one-time costs")
                                           : " pays back its one-time costs after " + runs_text(a.base_breakeven) + " runs") +
           ".\n\n";
    out += "Sensitivity (lead per run at the low / high end of each range, largest swing first):\n";
    // Built by concatenation: a fixed line buffer cut long labels and numbers short.
    for (const SensitivityRow& row : a.sensitivity)
      out += "  " + pad(row.label, 44) + " " + pad(fmt::number(row.low_value), 10, true) + " .. " + pad(fmt::number(row.high_value), 10) +
             "  lead " + pad(lead_text(row.metric_at_low), 9, true) + " .. " + pad(lead_text(row.metric_at_high), 9) + "  break-even " +
             runs_text(row.breakeven_at_low) + " .. " + runs_text(row.breakeven_at_high) + (row.default_range ? "  (default range)" : "") +
             "\n";
  }
  const MonteCarlo& mc = a.monte_carlo;
  if (mc.samples > 0) {
    out += "\nMonte Carlo: " + std::to_string(mc.samples) + " samples, seed " + std::to_string(mc.seed) + "\n";
    const std::string whole = draws_whole_run(a) ? whole_run_note(*r.catalog) : "";
    if (!whole.empty()) out += "  Drawn with " + whole + "\n";
    for (size_t o = 0; o < mc.options.size(); ++o) {
      const OptionStats& st = mc.options[o];
      out += "  " + r.options[o].label + ": cheapest per run in " + fmt::percent(st.probability_cheapest) + " of samples; cost per run " +
             percentiles_text(st.cost_per_run, st, true) + "\n";
      if (st.deadline_days > 0)
        out += "    " + on_time_text(st) + "; days to the model " + percentiles_text(st.days_to_model, st, false) + "\n";
    }
    if (const std::string doubt = analysis_less_likely(r, a); !doubt.empty()) out += "  " + doubt + "\n";
    if (a.challenger >= 0 && a.challenger_one_time_usd > 0)
      out += "  Break-even runs for " + label_of(r, a.challenger) + ": P5 " + runs_text(mc.breakeven_runs.p5) + ", P50 " +
             runs_text(mc.breakeven_runs.p50) + ", P95 " + runs_text(mc.breakeven_runs.p95) + "; pays off within the expected runs in " +
             fmt::percent(mc.probability_pays_off) + " of samples\n";
  }
  // Labels are the user's text: no control character reaches the terminal.
  return escape_terminal_text(out);
}

std::string analysis_markdown(const ResolvedScenario& r, const Analysis& a) {
  std::string out = "#### How sure is it?\n\n";
  const MonteCarlo& mc = a.monte_carlo;
  if (mc.samples > 0) {
    const bool deadline = !mc.options.empty() && mc.options.front().deadline_days > 0;
    out += std::string("| Option | P(cheapest per run) | ") + (deadline ? "P(on time) | " : "") + "Cost per run P5 | P50 | P95 |\n|---|---:|" +
           (deadline ? "---:|" : "") + "---:|---:|---:|\n";
    for (size_t o = 0; o < mc.options.size(); ++o) {
      const OptionStats& st = mc.options[o];
      out += "| " + escape_markdown(r.options[o].label) + " | " + fmt::percent(st.probability_cheapest) + " | " +
             (deadline ? fmt::percent(st.probability_on_time) + " | " : "") + escape_markdown(percentile_text(st.cost_per_run.p5, st)) +
             " | " + escape_markdown(percentile_text(st.cost_per_run.p50, st)) + " | " + escape_markdown(percentile_text(st.cost_per_run.p95, st)) +
             " |\n";
    }
    if (const std::string doubt = analysis_less_likely(r, a); !doubt.empty()) out += "\n" + escape_markdown(doubt) + "\n";
    if (deadline) out += "\nP(on time): the share of samples whose model is done within " + deadline_words(mc.options.front().deadline_days) + ".\n";
    out += "\n" + std::to_string(mc.samples) + " Monte Carlo samples, seed " + std::to_string(mc.seed) + ".\n\n";
    const std::string whole = draws_whole_run(a) ? whole_run_note(*r.catalog) : "";
    if (!whole.empty()) out += escape_markdown("The samples draw the " + whole + ".") + "\n\n";
  }
  if (!a.sensitivity.empty()) {
    out += "| Input | Range | Lead per run at low | at high |\n|---|---|---:|---:|\n";
    for (const SensitivityRow& row : a.sensitivity)
      out += "| " + escape_markdown(row.label) + (row.default_range ? " (default range)" : "") + " | " +
             escape_markdown(fmt::number(row.low_value)) + " – " + escape_markdown(fmt::number(row.high_value)) + " | " +
             escape_markdown(lead_text(row.metric_at_low)) + " | " + escape_markdown(lead_text(row.metric_at_high)) + " |\n";
  }
  return out;
}

}  // namespace traincost
