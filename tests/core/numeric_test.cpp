// Numeric safety as a rule (issue rows 3, 4 and 7): every figure an option shows is finite and
// not negative, or the option is marked infeasible and its time and cost are withheld (dashes in
// text, empty CSV cells, null in JSON); Monte Carlo samples stay in their field's valid range;
// targets resolving outside the token limits are refused; no number is cut short when printed.
#include <cfloat>
#include <cstdio>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/engine/cost_parts.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/output/explain.hpp"
#include "traincost/base/format.hpp"
#include "traincost/output/present.hpp"
#include "traincost/base/random.hpp"
#include "traincost/output/report.hpp"
#include "traincost/engine/uncertainty.hpp"

namespace traincost {
namespace {

struct Row {
  std::string name;
  std::string input;
  std::string expected;  // row 3: the status of the last option; row 7: a problem ("" = accepted)
};
void PrintTo(const Row& r, std::ostream* os) { *os << r.name; }
std::string row_name(const ::testing::TestParamInfo<Row>& p) { return p.param.name; }

std::string two(const std::string& a, const std::string& b, const std::string& workload = R"("model":{"params":8e9},"target":{"tokens":1e11})") {
  return test::simple_scenario(workload, a, b);
}

// Keys of the results JSON that hold a time or a cost: never negative, null when withheld.
bool time_or_cost(const std::string& key) {
  auto ends = [&](const char* suffix) {
    const std::string s = suffix;
    return key.size() >= s.size() && key.compare(key.size() - s.size(), s.size(), s) == 0;
  };
  return ends("_usd") || ends("_hours") || key == "compute" || key == "compile" || key == "porting" || key == "validation" ||
         key == "maintenance" || key == "egress";
}
void walk(const Json& j, const std::string& key, const std::function<void(const std::string&, const Json&)>& f) {
  f(key, j);
  if (j.is_object())
    for (const auto& item : j.items()) walk(item.value(), item.key(), f);
  else if (j.is_array())
    for (const Json& v : j) walk(v, key, f);
}

// ---- Row 3: an option that cannot run the job shows no time or cost ----------------------------

std::vector<Row> infeasible_rows() {
  const std::string trn2 = R"("instance":"trn2.48xlarge","instances":2)";
  // A batch big enough to spread over the largest clusters, so that failures decide.
  const std::string big_batch = R"("model":{"params":8e9},"target":{"tokens":1e11},"global_batch_tokens":1e10)";
  const std::string day = R"(,"reliability":{"restart_minutes":1440})";
  return {
      // 800,000 H100 fail every 3.75 minutes; restarting takes a day: goodput 1/(1 + 1440/3.75) < 1%.
      {"p5_times_100000_restart_of_a_day", two(trn2, R"("instance":"p5.48xlarge","instances":100000)" + day, big_batch), "fails too often"},
      {"trn2_times_100000_with_validation_runs",
       two(R"("instance":"p5.48xlarge","instances":4)", R"("instance":"trn2.48xlarge","instances":100000)" + day, big_batch), "fails too often"},
      // M = 1/64 h and a day to restart
      {"mtbf_of_one_hour", two(trn2, R"("instance":"p5.48xlarge","instances":64,"reliability":{"mtbf_hours_per_instance":1,"restart_minutes":1440})"),
       "fails too often"},
      // M = 0.5 h with checkpoints every 1,000 h: each failure loses 500 h
      {"checkpoints_every_1000_hours",
       two(trn2, R"("instance":"p5.48xlarge","instances":12500,"reliability":{"checkpoint_interval_hours":1000})", big_batch), "fails too often"},
      // M = 0.5 h and each checkpoint a day: τ = M, 0.5 h of work in 24.5 h, then most of it lost
      {"checkpoint_write_of_a_day",
       two(trn2, R"("instance":"p5.48xlarge","instances":12500,"reliability":{"checkpoint_write_minutes":1440})", big_batch), "fails too often"},
      {"custom_cluster_failing", two(trn2, R"("instance":"custom","instances":100000,"price_usd_per_hour":30,"mfu":0.4,)"
                                           R"("custom":{"chips":8,"peak_tflops":989,"memory_gb":80},"reliability":{"mtbf_hours_per_instance":1000,"restart_minutes":1440})",
                                     big_batch),
       "fails too often"},
      // 800,000 chips and a 4M-token batch: fewer sequences than data-parallel ranks
      {"p5_times_100000_default_batch", two(trn2, R"("instance":"p5.48xlarge","instances":100000)"), "batch too small"},
      {"model_too_large_for_one_instance", two(trn2, R"("instance":"p5.48xlarge","instances":1)", R"("model":{"params":7e11},"target":{"tokens":1e11})"),
       "needs"},
      // 20T parameters hold 320 TB of training state; 64 times the cluster (512 p4d) has 164 TB
      {"state_too_large_for_any_cluster", two(trn2, R"("instance":"p4d.24xlarge","instances":8)",
                                              R"("model":{"params":2e13},"target":{"tokens":1e11})"),
       "does not fit"},
      {"the_reference_cannot_run", two(R"("instance":"p5.48xlarge","instances":100000)" + day, trn2, big_batch), "fits"},
      {"no_option_can_run",
       two(R"("instance":"p5.48xlarge","instances":100000)" + day, R"("instance":"trn2.48xlarge","instances":100000)" + day, big_batch),
       "fails too often"},
  };
}

class Infeasible3 : public ::testing::TestWithParam<Row> {};

TEST_P(Infeasible3, ShowsNoTimeOrCostInAnyOutput) {
  const Scenario s = test::scenario(GetParam().input);
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  const std::vector<OptionResult>& options = res.workloads[0].options;
  EXPECT_EQ(status_text(options.back()).rfind(GetParam().expected, 0), 0u) << status_text(options.back());
  bool any_infeasible = false;
  for (const OptionResult& o : options) any_infeasible = any_infeasible || !o.feasible();
  ASSERT_TRUE(any_infeasible);

  // JSON: every time or cost is a number >= 0 or null; an infeasible option's are all null.
  const Json json = Json::parse(results_to_json(s, r, res).dump());
  walk(json, "", [&](const std::string& key, const Json& v) {
    if (time_or_cost(key) && v.is_number()) { EXPECT_GE(v.get<double>(), 0) << key; }
  });
  for (size_t o = 0; o < options.size(); ++o) {
    const Json& oj = json["workloads"][0]["options"][o];
    if (options[o].feasible()) continue;
    for (const auto& item : oj.items())
      if (time_or_cost(item.key()) && !item.value().is_object()) { EXPECT_TRUE(item.value().is_null()) << item.key() << " = " << item.value(); }
    for (const auto& item : oj["breakdown_per_run_usd"].items()) { EXPECT_TRUE(item.value().is_null()) << item.key(); }
    EXPECT_TRUE(oj["goodput"].is_null() || (oj["goodput"].get<double>() > 0 && oj["goodput"].get<double>() <= 1)) << oj["goodput"];
    EXPECT_TRUE(json["portfolio"]["single_option"][o]["annual_cost_usd"].is_null());
    EXPECT_EQ(oj["issue"].get<std::string>().find('-'), std::string::npos) << oj["issue"];
  }

  // Text, Markdown, CSV: dashes or empty cells, no negative figure, no negative percentage.
  const std::string text = report_text(s, r, res), md = report_markdown(s, r, res, ""), csv = report_csv(s, r, res);
  for (const std::string& out : {text, md, csv}) {
    EXPECT_EQ(out.find("-$"), std::string::npos) << out;
    EXPECT_EQ(out.find(",-"), std::string::npos) << out;
    EXPECT_EQ(out.find(" -0"), std::string::npos) << out;
    EXPECT_EQ(out.find("(goodput -"), std::string::npos) << out;
  }
  for (size_t o = 0; o < options.size(); ++o)
    if (!options[o].feasible())
      for (size_t c = 1; c + 1 < result_columns().size(); ++c) { EXPECT_EQ(result_cells("x", options[o])[c], "–"); }

  // The cost breakdown the page charts (and its tooltips show) is withheld too, never negative.
  for (const OptionResult& o : options) {
    if (o.feasible()) continue;
    const CostBreakdown b = breakdown(o, 1);
    for (double v : b) { EXPECT_TRUE(std::isnan(v)) << v; }
  }

  // Explain: the steps of an infeasible option stop before any time or cost.
  for (size_t o = 0; o < options.size(); ++o) {
    if (options[o].feasible()) continue;
    for (const ExplainStep& step : explain_pair(r.workloads[0], r.workloads[0].options[o], options[o], res.workloads[0].target_tokens, *r.catalog)) {
      EXPECT_EQ(step.result.find('$'), std::string::npos) << step.quantity << " " << step.result;
      EXPECT_NE(step.quantity, "Wall clock");
    }
  }
}
INSTANTIATE_TEST_SUITE_P(Row3, Infeasible3, ::testing::ValuesIn(infeasible_rows()), row_name);

// The property behind the rows: whatever the inputs, a feasible option's figures are valid.
TEST(Infeasible3, FeasibleMeansEveryFigureIsValid) {
  for (int instances : {1, 2, 8, 64, 512, 4096, 12000, 12600, 13000, 50000, 100000})
    for (const char* instance : {"p5.48xlarge", "trn2.48xlarge", "trn1.32xlarge", "p4d.24xlarge"}) {
      const Scenario s = test::scenario(two(R"("instance":"trn2.48xlarge","instances":2)",
                                            std::string(R"("instance":")") + instance + R"(","instances":)" + std::to_string(instances)));
      const Results res = test::run(s);
      for (const OptionResult& o : res.workloads[0].options) {
        if (!o.feasible()) continue;
        for (double v : {o.wall_clock_hours, o.chip_hours, o.hardware_cost_per_run, o.one_time_cost, o.cost_per_run,
                         o.cost_per_million_tokens, o.annual_cost})
          EXPECT_TRUE(std::isfinite(v) && v >= 0) << instance << " x" << instances;
        EXPECT_TRUE(o.goodput > 0.01 && o.goodput <= 1);
      }
    }
}

// ---- Row 4: Monte Carlo samples stay in the field's valid range --------------------------------

struct SampledRange {
  std::string name;
  std::string input;  // range input path
  double low, high;
  Distribution dist;
};
void PrintTo(const SampledRange& r, std::ostream* os) { *os << r.name; }

const SampledRange kSampled[] = {
    {"discount_lognormal", "options[1].discount", 0.01, 0.95, Distribution::LogNormal},
    {"discount_lognormal_narrow_at_the_top", "options[1].discount", 0.5, 0.95, Distribution::LogNormal},
    {"mfu_lognormal", "options[0].mfu", 0.05, 0.99, Distribution::LogNormal},
    {"mfu_lognormal_at_the_floor", "options[0].mfu", 0.01, 0.02, Distribution::LogNormal},
    {"price_lognormal", "options[1].price_usd_per_hour", 1, 100000, Distribution::LogNormal},
    {"convergence_penalty_lognormal", "options[0].porting.convergence_penalty", 0.01, 0.9, Distribution::LogNormal},
    {"validation_run_fraction_lognormal", "options[0].porting.validation_run_fraction", 0.1, 1, Distribution::LogNormal},
    {"scaling_per_doubling_lognormal", "options[0].scaling_per_doubling", 0.6, 1, Distribution::LogNormal},
    {"engineer_weeks_lognormal", "options[0].porting.engineer_weeks", 10, 1000, Distribution::LogNormal},
    {"runs_lognormal_from_one", "workloads[0].runs", 1, 10, Distribution::LogNormal},
    {"horizon_lognormal", "workloads[0].horizon_months", 1, 120, Distribution::LogNormal},
    {"params_lognormal", "workloads[0].model.params", 1e6, 1e14, Distribution::LogNormal},
    {"tokens_lognormal", "workloads[0].target.tokens", 1e3, 1e15, Distribution::LogNormal},
    {"restart_lognormal", "options[1].reliability.restart_minutes", 1, 1440, Distribution::LogNormal},
    {"discount_uniform_to_the_bound", "options[1].discount", 0, 0.95, Distribution::Uniform},
    {"mfu_triangular_to_the_bound", "options[0].mfu", 0.01, 1, Distribution::Triangular},
};

// The base scenario with this one range (and, unless `defaults`, no default ranges).
std::string with_range(const SampledRange& c, bool defaults = false) {
  char low[32], high[32];
  std::snprintf(low, sizeof low, "%.17g", c.low);
  std::snprintf(high, sizeof high, "%.17g", c.high);
  std::string text = test::simple_scenario();
  const std::string head = R"({"version":1,)";
  return head + R"("ranges":[{"input":")" + c.input + R"(","low":)" + low + R"(,"high":)" + high + R"(,"dist":")" + to_string(c.dist) +
         R"("}],)" + (defaults ? "" : R"("analysis":{"default_ranges":false},)") + text.substr(head.size());
}

class Sampling4 : public ::testing::TestWithParam<SampledRange> {};

TEST_P(Sampling4, StaysInTheFieldsRange) {
  const SampledRange& c = GetParam();
  const Scenario s = test::scenario(with_range(c));
  const std::vector<RangedInput> inputs = ranged_inputs(s, resolve(s, builtin_catalog()), builtin_catalog());
  ASSERT_EQ(inputs.size(), 1u);
  const FieldSpec& field = *inputs[0].ref.kind->spec;
  // Every value the Monte Carlo can draw (u over (0, 1), the extremes included) is one the field accepts.
  for (const double u : {1e-300, 1e-17, 1e-9, 1e-4, 0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99, 1 - 1e-9, 1 - 1.1e-16}) {
    const double v = sample_value(inputs[0], u);
    EXPECT_EQ(field.check(v), "") << "u = " << u << ": " << v;
  }
  Random rng(7);
  for (int i = 0; i < 20000; ++i) {
    const double v = sample_value(inputs[0], rng.uniform());
    ASSERT_EQ(field.check(v), "") << v;
  }
  // And what the Monte Carlo makes of them: costs are never negative.
  AnalyzeOptions options;
  options.samples = 4000;
  options.sensitivity = false;
  const Analysis a = analyze(s, builtin_catalog(), options);
  for (const OptionStats& st : a.monte_carlo.options) {
    if (std::isfinite(st.cost_per_run.p5)) { EXPECT_GE(st.cost_per_run.p5, 0); }
    if (std::isfinite(st.horizon_cost.p5)) { EXPECT_GE(st.horizon_cost.p5, 0); }
  }
}
INSTANTIATE_TEST_SUITE_P(Row4, Sampling4, ::testing::ValuesIn(kSampled),
                         [](const ::testing::TestParamInfo<SampledRange>& p) { return p.param.name; });

// The issue's case: 4.6% of a 0.01-0.95 lognormal discount came out above 1, and a price with a
// discount above 1 is negative. Now the tail lands on the bound, 0.95.
TEST(Sampling4, ALognormalDiscountNeverGoesPastTheBound) {
  const Scenario s = test::scenario(with_range(kSampled[0], true));
  const std::vector<RangedInput> inputs = ranged_inputs(s, resolve(s, builtin_catalog()), builtin_catalog());
  ASSERT_EQ(inputs[0].path, "options[1].discount");
  Random rng(2026);
  int at_bound = 0;
  for (int i = 0; i < 20000; ++i) {
    const double v = sample_value(inputs[0], rng.uniform());
    ASSERT_LE(v, 0.95);
    at_bound += v == 0.95;
  }
  EXPECT_NEAR(at_bound / 20000.0, 0.05, 0.006);  // 0.95 is the 95th percentile: the top 5% land on it
  AnalyzeOptions options;
  options.samples = 20000;
  options.sensitivity = false;
  const Analysis a = analyze(s, builtin_catalog(), options);
  EXPECT_GT(a.monte_carlo.options[1].cost_per_run.p5, 0);
}

// Default ranges are made from the value (0.5 to 2.5 times a porting effort): they too stay in
// the field's range, at both ends.
TEST(Sampling4, DefaultRangesStayInTheFieldsRange) {
  const Scenario s = test::scenario(two(R"("instance":"trn2.48xlarge","instances":2,"porting":{"engineer_weeks":900,"convergence_penalty":0.9},)"
                                        R"("measured_tokens_per_sec_per_chip":999000000)",
                                        R"("instance":"p5.48xlarge","instances":4,"mfu":0.99)", R"("model":{"params":8e9},"target":{"tokens":1e11},"runs":900000)"));
  for (const RangedInput& in : ranged_inputs(s, resolve(s, builtin_catalog()), builtin_catalog())) {
    EXPECT_EQ(in.ref.kind->spec->check(in.low), "") << in.path;
    EXPECT_EQ(in.ref.kind->spec->check(in.high), "") << in.path;
  }
}

// ---- Row 7: targets are within the token limits once resolved, and numbers print in full -------

std::vector<Row> target_rows() {
  auto law = [](const std::string& constants, const std::string& loss) {
    return test::simple_scenario(R"("model":{"params":8e9},"target":{"loss":)" + loss + R"(,"scaling_law":{)" + constants + "}}");
  };
  auto steps = [](const std::string& n, const std::string& per) {
    return test::simple_scenario(R"("model":{"params":8e9},"target":{"steps":)" + n + R"(,"tokens_per_step":)" + per + "}");
  };
  const std::string few = "TrainCost models; aim for a lower loss";
  return {
      {"custom_law_tiny_b", law(R"("E":1.69,"A":406.4,"B":0.001,"alpha":0.34,"beta":0.28)", "2.5"),
       "workloads[0].target.loss: needs only 9.75e-11 tokens under custom, fewer than the 1000 " + few},
      {"custom_law_steep_beta", law(R"("E":1,"A":1,"B":1,"alpha":0.5,"beta":2)", "2"), "workloads[0].target.loss: needs only 1 tokens"},
      {"custom_law_of_the_issue", law(R"("E":1.69,"A":406.4,"B":0.5,"alpha":0.34,"beta":0.5)", "2.9"), "tokens under custom, fewer than the 1000"},
      {"custom_law_just_below", law(R"("E":1,"A":1,"B":999,"alpha":0.5,"beta":1)", "2"), "needs only 999 tokens"},
      {"custom_law_at_the_minimum", law(R"("E":1,"A":1,"B":1000,"alpha":0.5,"beta":1)", "2"), ""},
      {"published_law_high_loss", law(R"("E":1.69,"A":406.4,"B":410.7,"alpha":0.34,"beta":0.28)", "19.9"), ""},
      {"one_step_of_one_token", steps("1", "1"), "workloads[0].target.steps: 1 steps of 1 tokens is 1 tokens, fewer than the 1000 TrainCost models"},
      {"steps_just_below", steps("10", "99"), "is 990 tokens, fewer than the 1000"},
      {"steps_at_the_minimum", steps("10", "100"), ""},
      {"steps_at_the_maximum", steps("1000000", "10000000000"), ""},
      {"steps_past_the_maximum", steps("1000000000", "10000000000"),
       "workloads[0].target.steps: 1,000,000,000 steps of 10,000,000,000 tokens is 1e+19 tokens, more than the 1e+16 TrainCost models"},
      {"tokens_below_the_minimum", test::simple_scenario(R"("model":{"params":8e9},"target":{"tokens":999})"),
       "workloads[0].target.tokens: must be between 1000 and 1e+16, got 999"},
  };
}

class Targets7 : public ::testing::TestWithParam<Row> {};
TEST_P(Targets7, ResolveWithinTheTokenLimits) {
  Problems problems;
  const auto s = parse_scenario(GetParam().input, builtin_catalog(), problems);
  if (GetParam().expected.empty()) {
    ASSERT_TRUE(s) << to_string(problems);
    const Results res = test::run(*s);
    EXPECT_GE(res.workloads[0].target_tokens, 1000);
    for (const OptionResult& o : res.workloads[0].options)
      EXPECT_LT(o.cost_per_million_tokens, 1e12) << "a sensible target gives a sensible $/M tokens";
    return;
  }
  EXPECT_FALSE(s);
  EXPECT_NE(to_string(problems).find(GetParam().expected), std::string::npos) << to_string(problems);
}
INSTANTIATE_TEST_SUITE_P(Row7, Targets7, ::testing::ValuesIn(target_rows()), row_name);

// A loss range under a custom law: samples that resolve below (or above) the token limits make
// the option unable to run that sample, never a $1e161 figure.
TEST(Targets7, SampledTargetsOutsideTheLimitsAreInfeasible) {
  const Scenario s = test::scenario(
      R"({"version":1,"ranges":[{"input":"workloads[0].target.loss","low":2.1,"high":19,"dist":"uniform"}],"analysis":{"default_ranges":false},)"
      R"("workloads":[{"model":{"params":8e9},"target":{"loss":2.2,"scaling_law":{"E":1.69,"A":406.4,"B":410.7,"alpha":0.34,"beta":1}}}],)"
      R"("options":[{"instance":"trn2.48xlarge","instances":2},{"instance":"p5.48xlarge","instances":4}]})");
  AnalyzeOptions options;
  options.samples = 2000;
  const Analysis a = analyze(s, builtin_catalog(), options);
  EXPECT_GT(a.monte_carlo.infeasible_samples, 0u);
  for (const OptionStats& st : a.monte_carlo.options) {
    EXPECT_LT(st.probability_feasible, 1);
    if (std::isfinite(st.cost_per_run.p95)) { EXPECT_LT(st.cost_per_run.p95, 1e12); }
  }
  const ResolvedScenario r = resolve(s, builtin_catalog());
  std::vector<double> tokens = {2.0, 19.0};
  for (const double loss : tokens) {
    WorkloadInputs w = r.workloads[0];
    w.target.loss = loss;
    const double t = target_tokens(w.target, w.model);
    const OptionResult o = evaluate_pair(w, w.options[0], t);
    EXPECT_EQ(o.feasible(), t >= 1000 && t <= 1e16) << loss << " -> " << t;
  }
}

// Every formatter prints any double in full and short: no fixed buffer cuts a number.
TEST(Targets7, FormattersNeverCutANumber) {
  using Format = std::string (*)(double);
  const std::pair<const char*, Format> formats[] = {
      {"usd", fmt::usd}, {"usd_rate", fmt::usd_rate}, {"usd_exact", fmt::usd_exact}, {"hours", fmt::hours}, {"count", fmt::count},
      {"flops", fmt::flops}, {"percent", fmt::percent}, {"ratio", fmt::ratio}, {"runs", fmt::runs},
      {"number", [](double v) { return fmt::number(v); }},
  };
  for (const auto& [name, format] : formats)
    for (const double v : std::vector<double>{0.0, -0.0, 5e-324, 1e-300, 0.229, 1.0, 999.5, 1e6, 1e15, 9.99e15, 1e16, 3.1e161, 1e300,
                                              DBL_MAX, -1.0, -1e300, -DBL_MAX, NAN, INFINITY, -INFINITY}) {
      const std::string text = format(v);
      EXPECT_FALSE(text.empty()) << name << "(" << v << ")";
      EXPECT_LE(text.size(), 28u) << name << "(" << v << ") = " << text;
      EXPECT_FALSE(has_control_characters(text)) << name;
    }
  EXPECT_EQ(fmt::hours(1e300), "1.14e+296 years");
  EXPECT_EQ(fmt::percent(1e300), "1e+302%");
  EXPECT_EQ(fmt::usd_rate(3.1e161), "$3.1e+161");
}

}  // namespace
}  // namespace traincost
