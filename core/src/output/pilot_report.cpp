// The pilot plan as JSON, text and Markdown. Every output says the same things from the same rows:
// the summary, what to run, the pass marks, the value, and how the figures are computed.
#include <cmath>

#include "traincost/output/explain.hpp"
#include "traincost/base/format.hpp"
#include "traincost/engine/pilot.hpp"
#include "traincost/output/present.hpp"
#include "traincost/output/report.hpp"

namespace traincost {
namespace {

OrderedJson number_json(double v) { return std::isfinite(v) ? OrderedJson(v) : OrderedJson(); }
OrderedJson if_flips(const Threshold& t, double v) { return t.flips ? number_json(v) : OrderedJson(); }
OrderedJson direction_json(const Threshold& t) { return t.flips ? OrderedJson(t.at_least ? "at least" : "at most") : OrderedJson(); }

std::string label_of(const ResolvedScenario& r, int o) { return o >= 0 ? r.options[static_cast<size_t>(o)].label : "none"; }

// A mark that no valid value reaches: the candidate wins (or loses) whatever the pilot shows.
std::string no_mark(const PilotPlan& plan, const char* quantity) {
  return plan.candidate_leads ? std::string("any: no ") + quantity + " changes the choice"
                              : std::string("none: no ") + quantity + " alone makes it the cheaper";
}

std::string workload_name(const Scenario& s, const PilotPlan& plan) { return workload_title(s.workloads[plan.workload], plan.workload); }

std::string cluster_text(const ResolvedScenario& r, const PilotPlan& plan) {
  const PilotRun& run = plan.run;
  const OptionInfo& info = r.options[static_cast<size_t>(plan.candidate)];
  std::string text = fmt::number(run.instances) + " × " + info.instance + " (" + fmt::number(run.chips) + " chips), ";
  if (run.instances == run.planned_instances) return text + "the planned cluster";
  return text + "a smaller cluster than the planned " + fmt::number(run.planned_instances) +
         " instances: its chips are assumed to run 1/" + fmt::number(run.efficiency, 3) +
         " times as fast as the planned cluster's" +
         (run.by_model ? " (the step-time model's prediction at both sizes)" : " (the option's scaling per doubling)");
}

std::string length_text(const PilotPlan& plan) {
  const PilotRun& run = plan.run;
  return fmt::percent(run.fraction) + " of a full run: " + fmt::count(run.tokens) + " tokens, " + fmt::rounded(std::ceil(run.steps)) +
         " optimizer steps, about " + fmt::hours(run.hours) + " with compilation";
}

std::string cost_text(const PilotPlan& plan) {
  const PilotRun& run = plan.run;
  return fmt::usd(run.porting_usd) + " porting + " + fmt::usd(run.compute_usd) + " compute + " + fmt::usd(run.compile_usd) +
         " compilation = " + fmt::usd(run.cost_usd);
}

std::vector<std::pair<std::string, std::string>> value_rows(const ResolvedScenario& r, const PilotPlan& plan) {
  const PilotValue& v = plan.value;
  const std::string c = label_of(r, plan.candidate), i = label_of(r, plan.incumbent);
  return {
      {"Deciding now", v.decide_now == plan.candidate
                           ? c + ", expected " + fmt::usd(v.candidate_usd) + " over the horizon (" + i + ": " + fmt::usd(v.incumbent_usd) + ")"
                           : i + ", expected " + fmt::usd(v.incumbent_usd) + " over the horizon (" + c + ": " + fmt::usd(v.candidate_usd) + ")"},
      {"Deciding after the pilot, were it free", "expected " + fmt::usd(v.after_pilot_usd)},
      {"Value of the information", fmt::usd(v.value_usd) + " ± " + fmt::usd(v.standard_error_usd) + " (standard error); at most " +
                                       fmt::usd(v.max_saving_usd) + " in any sample"},
      {"Were every uncertain input known", fmt::usd(v.perfect_information_usd) + " (the most any study could be worth)"},
      {"Chance the pilot changes the choice", fmt::percent(v.probability_changes)},
      {"Chance " + c + " passes", fmt::percent(v.probability_passes) + " (cheaper once its porting is spent)"},
      {"Net value of piloting", fmt::usd(v.net_value_usd) + " (its compute paid, a port that passes reused)"},
  };
}

std::string method_note(const PilotPlan& plan) {
  const PilotValue& v = plan.value;
  std::string revealed;
  for (const std::string& path : v.revealed) revealed += (revealed.empty() ? "" : ", ") + path;
  return fmt::rounded(v.samples) + " Monte Carlo samples, seed " + std::to_string(v.seed) +
         "; the pilot reveals " + (revealed.empty() ? std::string("no ranged input (nothing it measures is uncertain)") : revealed) +
         "; every other range stays uncertain. Costs are the workload's over its horizon." +
         (v.skipped_samples ? " " + std::to_string(v.skipped_samples) + " samples in which an option could not run were left out." : "");
}

}  // namespace

std::vector<std::pair<std::string, std::string>> pilot_run_rows(const ResolvedScenario& r, const PilotPlan& plan) {
  if (!plan.ok) return {};
  const PilotRun& run = plan.run;
  return {{"On", cluster_text(r, plan)},
          {"Length", length_text(plan)},
          {"Before it", "porting, " + fmt::number(run.engineer_weeks, 3) + " engineer-weeks (" + fmt::usd(run.porting_usd) + ")"},
          {"Cost", cost_text(plan)}};
}

std::vector<std::pair<std::string, std::string>> pilot_value_rows(const ResolvedScenario& r, const PilotPlan& plan) {
  return plan.ok ? value_rows(r, plan) : std::vector<std::pair<std::string, std::string>>();
}

std::string pilot_method_note(const PilotPlan& plan) { return plan.ok ? method_note(plan) : std::string(); }

const char* recommendation(const PilotPlan& plan) {
  if (!plan.ok) return "no plan";
  return plan.worth_running ? "worth running" : "not worth it: decide now";
}

std::string pilot_summary(const ResolvedScenario& r, const PilotPlan& plan) {
  if (!plan.ok) return "No pilot plan: " + plan.reason + ".";
  const PilotValue& v = plan.value;
  const std::string c = label_of(r, plan.candidate);
  // An option with nothing to port (a CUDA chip) says so, not "after $0.00 of porting".
  const std::string porting = plan.run.porting_usd > 0 ? " of compute after " + fmt::usd(plan.run.porting_usd) + " of porting)" : " of compute, nothing to port)";
  const std::string pilot = "a pilot of " + c + " (" + fmt::percent(plan.run.fraction) + " of a run: " + fmt::usd(plan.run.compute_usd + plan.run.compile_usd) + porting;
  if (plan.worth_running)
    return "Worth running: " + pilot + " is expected to save " + fmt::usd(v.net_value_usd) + " against deciding now (for " +
           label_of(r, v.decide_now) + "). Knowing " + c + "'s throughput and convergence first is worth " + fmt::usd(v.value_usd) +
           " and changes the choice in " + fmt::percent(v.probability_changes) + " of samples.";
  if (v.value_usd == 0)
    return "Not worth it: decide now for " + label_of(r, v.decide_now) + ". No throughput or convergence " + c +
           " can show within its ranges changes the choice, so " + pilot + " cannot pay.";
  return "Not worth it: decide now for " + label_of(r, v.decide_now) + ". Knowing " + c + "'s throughput and convergence first is worth " +
         fmt::usd(v.value_usd) + ", which does not cover " + pilot + ": net " + fmt::usd(v.net_value_usd) + ".";
}

std::vector<std::vector<std::string>> pass_mark_rows(const ResolvedScenario& r, const PilotPlan& plan) {
  const PilotMarks& m = plan.marks;
  const PilotRun& run = plan.run;
  std::vector<std::vector<std::string>> rows;
  const Threshold& x = m.throughput;
  const std::string bound = x.at_least ? "at least " : "at most ";
  rows.push_back({"Throughput on the pilot cluster",
                  x.flips ? bound + fmt::rounded(m.pilot_tokens_per_sec_per_chip) + " tokens/s per chip (MFU " + fmt::number(m.pilot_mfu, 2) + ")"
                          : no_mark(plan, "throughput"),
                  fmt::rounded(m.base_pilot_tokens_per_sec_per_chip) + " (MFU " + fmt::number(x.base_mfu / run.efficiency, 2) + ")"});
  if (x.flips)
    rows.push_back({"Both together: tokens/s per chip ÷ (1 + convergence penalty)", bound + fmt::rounded(m.adjusted_rate),
                    fmt::rounded(m.base_adjusted_rate)});
  const Threshold& p = m.penalty;
  const std::string incumbent = label_of(r, plan.incumbent);
  rows.push_back({"Tokens to reach " + incumbent + "'s loss",
                  p.flips ? std::string(p.at_least ? "at least " : "at most ") + fmt::ratio(m.tokens_factor) + " its tokens: at the pilot's " +
                                fmt::count(run.tokens) + " tokens, a loss at most " + fmt::number(m.loss_gap, 2) + " above its loss (" +
                                description_of(kLawWords, m.law) + " law)"
                          : no_mark(plan, "convergence penalty"),
                  fmt::ratio(m.base_tokens_factor) + " (penalty " + fmt::percent(p.base) + ")"});
  const Threshold& k = m.compile;
  rows.push_back({"Compile time", k.flips ? std::string(k.at_least ? "at least " : "at most ") + fmt::hours(k.value) + " per run" : no_mark(plan, "compile time"),
                  fmt::hours(k.base)});
  return rows;
}

OrderedJson pilot_to_json(const Scenario& s, const ResolvedScenario& r, const PilotPlan& plan) {
  OrderedJson j = OrderedJson::object();
  j["traincost_version"] = TRAINCOST_VERSION;
  j["catalog"] = r.catalog->version;
  j["workload"] = plan.workload;
  j["workload_name"] = workload_name(s, plan);
  j["ok"] = plan.ok;
  j["candidate"] = plan.candidate >= 0 ? OrderedJson(label_of(r, plan.candidate)) : OrderedJson();
  j["candidate_index"] = plan.candidate;
  j["incumbent"] = plan.incumbent >= 0 ? OrderedJson(label_of(r, plan.incumbent)) : OrderedJson();
  j["incumbent_index"] = plan.incumbent;
  j["recommendation"] = recommendation(plan);
  j["summary"] = pilot_summary(r, plan);
  if (!plan.ok) {
    j["reason"] = plan.reason;
    return j;
  }
  const PilotRun& run = plan.run;
  j["run"] = {{"instances", run.instances},         {"planned_instances", run.planned_instances},
              {"chips", run.chips},                 {"planned_chips", run.planned_chips},
              {"fraction", run.fraction},           {"tokens", run.tokens},
              {"steps", run.steps},                 {"hours", run.hours},
              {"efficiency", run.efficiency},       {"engineer_weeks", run.engineer_weeks},
              {"porting_usd", run.porting_usd},     {"compute_usd", run.compute_usd},
              {"compile_usd", run.compile_usd},     {"cost_usd", run.cost_usd}};
  const PilotMarks& m = plan.marks;
  OrderedJson marks = OrderedJson::object();
  marks["throughput"] = {{"input", m.throughput.path},
                         {"direction", direction_json(m.throughput)},
                         {"tokens_per_sec_per_chip", if_flips(m.throughput, m.pilot_tokens_per_sec_per_chip)},
                         {"mfu", if_flips(m.throughput, m.pilot_mfu)},
                         {"base_tokens_per_sec_per_chip", number_json(m.base_pilot_tokens_per_sec_per_chip)},
                         {"planned_cluster_tokens_per_sec_per_chip", if_flips(m.throughput, m.throughput.tokens_per_sec_per_chip)},
                         {"adjusted_tokens_per_sec_per_chip", if_flips(m.throughput, m.adjusted_rate)},
                         {"base_adjusted_tokens_per_sec_per_chip", number_json(m.base_adjusted_rate)}};
  marks["convergence"] = {{"input", m.penalty.path},
                          {"direction", direction_json(m.penalty)},
                          {"penalty", if_flips(m.penalty, m.penalty.value)},
                          {"base_penalty", m.penalty.base},
                          {"tokens_factor", if_flips(m.penalty, m.tokens_factor)},
                          {"loss_gap", if_flips(m.penalty, m.loss_gap)},
                          {"at_tokens", run.tokens},
                          {"scaling_law", word_of(kLawWords, m.law)}};
  marks["compile"] = {{"input", m.compile.path},
                      {"direction", direction_json(m.compile)},
                      {"hours", if_flips(m.compile, m.compile.value)},
                      {"base_hours", m.compile.base}};
  OrderedJson rows = OrderedJson::array();
  for (const std::vector<std::string>& row : pass_mark_rows(r, plan))
    rows.push_back({{"measure", row[0]}, {"pass_mark", row[1]}, {"planned", row[2]}});
  marks["rows"] = rows;
  j["pass_marks"] = marks;
  OrderedJson thresholds = OrderedJson::array();
  for (const Threshold& t : plan.thresholds) thresholds.push_back(threshold_json(r, t));
  j["thresholds"] = thresholds;
  const PilotValue& v = plan.value;
  j["value"] = {{"samples", v.samples},
                {"seed", v.seed},
                {"revealed", v.revealed},
                {"decide_now", label_of(r, v.decide_now)},
                {"decide_now_index", v.decide_now},
                {"candidate_usd", v.candidate_usd},
                {"incumbent_usd", v.incumbent_usd},
                {"expected_porting_usd", v.expected_porting_usd},
                {"after_pilot_usd", v.after_pilot_usd},
                {"value_of_information_usd", v.value_usd},
                {"standard_error_usd", v.standard_error_usd},
                {"max_saving_usd", v.max_saving_usd},
                {"perfect_information_usd", v.perfect_information_usd},
                {"probability_changes_decision", v.probability_changes},
                {"probability_passes", v.probability_passes},
                {"net_value_usd", v.net_value_usd},
                {"skipped_samples", v.skipped_samples}};
  OrderedJson steps = OrderedJson::array();
  for (const ExplainStep& step : explain_pilot(r, plan))
    steps.push_back({{"quantity", step.quantity}, {"formula", step.formula}, {"substituted", step.substituted}, {"result", step.result}});
  j["steps"] = steps;
  return j;
}

std::string pilot_text(const Scenario& s, const ResolvedScenario& r, const PilotPlan& plan) {
  std::string out = "Pilot plan: " + workload_name(s, plan);
  if (plan.ok) out += ", " + label_of(r, plan.candidate) + " against " + label_of(r, plan.incumbent);
  out += "\n\n" + pilot_summary(r, plan) + "\n";
  if (!plan.ok) return escape_terminal_text(out);
  const PilotRun& run = plan.run;
  out += "\nWhat to run\n";
  out += "  On:       " + cluster_text(r, plan) + "\n";
  out += "  Length:   " + length_text(plan) + "\n";
  out += "  Before:   porting, " + fmt::number(run.engineer_weeks, 3) + " engineer-weeks (" + fmt::usd(run.porting_usd) + ")\n";
  out += "  Cost:     " + cost_text(plan) + "\n";
  out += "\nWhat to measure: the pass marks (each with the other inputs at their planned values)\n";
  for (const std::vector<std::string>& row : pass_mark_rows(r, plan))
    out += "  " + row[0] + ": " + row[1] + "; planned " + row[2] + "\n";
  out += "\nIs it worth it?\n";
  for (const auto& [label, figure] : value_rows(r, plan)) out += "  " + label + ": " + figure + "\n";
  out += "  (" + method_note(plan) + ")\n";
  out += "\nHow the figures are computed\n";
  for (const ExplainStep& step : explain_pilot(r, plan)) {
    out += "  " + step.quantity + ": " + step.formula + "\n";
    out += "      " + step.substituted + " " + step.result + "\n";
  }
  return escape_terminal_text(out);
}

std::string pilot_markdown(const Scenario& s, const ResolvedScenario& r, const PilotPlan& plan) {
  const auto md = [](const std::string& text) { return escape_markdown(text); };
  std::string out = "### Pilot plan: " + md(workload_name(s, plan));
  if (plan.ok) out += ", " + md(label_of(r, plan.candidate)) + " against " + md(label_of(r, plan.incumbent));
  out += "\n\n" + md(pilot_summary(r, plan)) + "\n\n";
  if (plan.ok) {
    out += "#### What to run\n\n| | |\n|---|---|\n";
    for (const auto& [label, text] : pilot_run_rows(r, plan)) out += "| " + md(label) + " | " + md(text) + " |\n";
    out += "\n";
    out += "#### What to measure\n\nEach pass mark holds the other inputs at their planned values.\n\n";
    out += "| Measure | Pass mark | Planned |\n|---|---|---|\n";
    for (const std::vector<std::string>& row : pass_mark_rows(r, plan))
      out += "| " + md(row[0]) + " | " + md(row[1]) + " | " + md(row[2]) + " |\n";
    out += "\n#### Is it worth it?\n\n| | |\n|---|---|\n";
    for (const auto& [label, figure] : value_rows(r, plan)) out += "| " + md(label) + " | " + md(figure) + " |\n";
    out += "\n" + md(method_note(plan)) + "\n\n";
  }
  out += "_Computed by TrainCost " TRAINCOST_VERSION " with catalog " + md(r.catalog->version) + "._\n";
  return out;
}

}  // namespace traincost
