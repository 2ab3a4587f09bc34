// Sensitivity and Monte Carlo against cases whose answers can be derived exactly.
#include "traincost/api/builtin.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/engine/uncertainty.hpp"
#include "traincost/output/analysis_report.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "test_support.hpp"

namespace traincost {
namespace {

// Two identical p5.48xlarge clusters; A's MFU is uniform on [0.2, 0.6], B's is fixed at 0.3. Every
// cost scales with 1/MFU and nothing else differs, so A is cheaper exactly when its MFU > 0.3:
// P = (0.6 - 0.3) / (0.6 - 0.2) = 0.75.
const char* const kUniformMfu = R"({"version":1,
  "workloads":[{"model":{"params":8e9},"target":{"tokens":1e11}}],
  "options":[{"label":"A","instance":"p5.48xlarge","mfu":0.4},{"label":"B","instance":"p5.48xlarge","mfu":0.3}],
  "ranges":[{"input":"options[0].mfu","low":0.2,"high":0.6,"dist":"uniform"}],
  "analysis":{"default_ranges":false}})";

TEST(MonteCarlo, UniformMfuGivesTheDerivedProbability) {
  const Scenario s = test::scenario(kUniformMfu);
  AnalyzeOptions options;
  options.samples = 20000;
  const Analysis a = analyze(s, builtin_catalog(), options);
  ASSERT_EQ(a.monte_carlo.options.size(), 2u);
  // standard error sqrt(0.75 × 0.25 / 20000) = 0.0031: four standard errors
  EXPECT_NEAR(a.monte_carlo.options[0].probability_cheapest, 0.75, 0.0125);
  EXPECT_NEAR(a.monte_carlo.options[1].probability_cheapest, 0.25, 0.0125);
  EXPECT_DOUBLE_EQ(a.monte_carlo.options[0].probability_cheapest + a.monte_carlo.options[1].probability_cheapest, 1.0);
  EXPECT_EQ(a.monte_carlo.infeasible_samples, 0u);
}

// Option A's price is triangular(40, 50, 80) and its cost per run is proportional to its price,
// so its cost percentiles are the price percentiles times cost-per-dollar:
//   F(mode) = (50 - 40) / 40 = 0.25
//   P5  = 40 + sqrt(0.05 × 40 × 10) = 44.4721
//   P50 = 80 - sqrt(0.50 × 40 × 30) = 55.5051
//   P95 = 80 - sqrt(0.05 × 40 × 30) = 72.2540
TEST(MonteCarlo, TriangularPricePercentiles) {
  const Scenario s = test::scenario(R"({"version":1,
    "workloads":[{"model":{"params":8e9},"target":{"tokens":1e11}}],
    "options":[{"label":"A","instance":"p5.48xlarge","price_usd_per_hour":50},{"label":"B","instance":"p5.48xlarge","instances":2}],
    "ranges":[{"input":"options[0].price_usd_per_hour","low":40,"high":80,"dist":"triangular"}],
    "analysis":{"default_ranges":false}})");
  const Results base = test::run(s);
  const double per_dollar = base.workloads[0].options[0].cost_per_run / 50;
  AnalyzeOptions options;
  options.samples = 20000;
  options.seed = 3;
  const Percentiles p = analyze(s, builtin_catalog(), options).monte_carlo.options[0].cost_per_run;
  EXPECT_NEAR(p.p5 / per_dollar, 44.4721, 44.4721 * 0.006);
  EXPECT_NEAR(p.p50 / per_dollar, 55.5051, 55.5051 * 0.006);
  EXPECT_NEAR(p.p95 / per_dollar, 72.2540, 72.2540 * 0.006);
}

TEST(MonteCarlo, SameSeedSameNumbersOtherSeedOtherNumbers) {
  const Scenario s = test::scenario(test::read_source_file("assets/scenarios/gpt3-175b-ranges.json"));
  const ResolvedScenario r = resolve(s, builtin_catalog());
  AnalyzeOptions options;
  options.samples = 3000;
  options.seed = 11;
  const std::string first = analysis_to_json(s, r, analyze(s, builtin_catalog(), options)).dump();
  EXPECT_EQ(analysis_to_json(s, r, analyze(s, builtin_catalog(), options)).dump(), first);
  options.seed = 12;
  EXPECT_NE(analysis_to_json(s, r, analyze(s, builtin_catalog(), options)).dump(), first);
}

// The page runs the Monte Carlo a slice per frame (AnalysisRun) so that a million samples do not
// freeze it; the answer must be the one-shot analyze()'s, bit for bit, however it is sliced, and
// the run must report its progress and stop at the total.
TEST(MonteCarlo, SlicedRunEqualsOneShotBitForBit) {
  const Scenario s = test::scenario(test::read_source_file("assets/scenarios/gpt3-175b-ranges.json"));
  const ResolvedScenario r = resolve(s, builtin_catalog());
  AnalyzeOptions options;
  options.samples = 2500;
  options.seed = 5;
  const std::string one_shot = analysis_to_json(s, r, analyze(s, builtin_catalog(), options)).dump();
  for (size_t slice : {size_t{1}, size_t{7}, size_t{1000}, size_t{2499}, size_t{100000}}) {
    AnalysisRun run(s, builtin_catalog(), options);
    EXPECT_EQ(run.total(), 2500u);
    size_t slices = 0;
    while (!run.advance(slice)) {
      ++slices;
      EXPECT_EQ(run.done(), slices * slice);
    }
    EXPECT_EQ(run.done(), 2500u);
    EXPECT_TRUE(run.advance(slice)) << "a finished run stays finished";
    EXPECT_EQ(run.done(), 2500u);
    EXPECT_EQ(analysis_to_json(s, r, run.finish()).dump(), one_shot) << "slices of " << slice;
  }
}

// Without a Monte Carlo the run has nothing to advance and finishes at once with the sensitivity.
TEST(MonteCarlo, RunWithoutMonteCarloIsDoneAtOnce) {
  const Scenario s = test::scenario(test::read_source_file("assets/scenarios/gpt3-175b-ranges.json"));
  AnalyzeOptions options;
  options.monte_carlo = false;
  AnalysisRun run(s, builtin_catalog(), options);
  EXPECT_EQ(run.total(), 0u);
  EXPECT_TRUE(run.advance(0));
  const Analysis a = run.finish();
  EXPECT_EQ(a.monte_carlo.samples, 0);
  EXPECT_FALSE(a.sensitivity.empty());
}

TEST(Sensitivity, SwingsAreExactAndSortedLargestFirst) {
  const Scenario s = test::scenario(R"({"version":1,
    "workloads":[{"model":{"params":8e9},"target":{"tokens":1e11}}],
    "options":[{"label":"A","instance":"p5.48xlarge","price_usd_per_hour":50},{"label":"B","instance":"p5.48xlarge","instances":2}],
    "ranges":[{"input":"options[0].price_usd_per_hour","low":40,"high":80},
              {"input":"options[0].discount","low":0,"high":0.05,"dist":"uniform"}],
    "analysis":{"default_ranges":false}})");
  const Results base = test::run(s);
  const OptionResult& a = base.workloads[0].options[0];
  const OptionResult& b = base.workloads[0].options[1];
  AnalyzeOptions options;
  options.monte_carlo = false;
  const Analysis an = analyze(s, builtin_catalog(), options);
  ASSERT_EQ(an.sensitivity.size(), 2u);
  // The leader is A (half the chips, same speed per chip, lower price per instance-hour).
  EXPECT_EQ(an.leader, 0);
  const SensitivityRow& price = an.sensitivity[0];
  EXPECT_EQ(price.input, "options[0].price_usd_per_hour");
  // Lead = cost(B) - cost(A); A's cost is proportional to its price: at 40 it is 0.8 × cost at 50.
  EXPECT_NEAR(price.metric_at_low, b.cost_per_run - 0.8 * a.cost_per_run, 1e-6);
  EXPECT_NEAR(price.metric_at_high, b.cost_per_run - 1.6 * a.cost_per_run, 1e-6);
  EXPECT_NEAR(price.swing, 0.8 * a.cost_per_run, 1e-6);
  EXPECT_GT(price.swing, an.sensitivity[1].swing);
}

TEST(Sensitivity, DefaultRangesCoverTheGuessesAndSayTheyAreDefaults) {
  const Scenario s = test::scenario(test::read_source_file("assets/scenarios/llama3-8b-pretrain.json"));
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const std::vector<RangedInput> inputs = ranged_inputs(s, r, builtin_catalog());
  auto find = [&](const std::string& path) -> const RangedInput* {
    for (const RangedInput& in : inputs)
      if (in.path == path) return &in;
    return nullptr;
  };
  // Trn2's predicted MFU rests on its own calibration (two AXLearn rows): its band is its family's
  // doubled 90th-percentile held-out error (or its own held-out row's, if larger), either way; the
  // port effort lognormal 4 to 20 weeks; the runs ±50%; the estimated Trn2 price its catalog range.
  const RangedInput* mfu = find("options[0].mfu");
  ASSERT_TRUE(mfu);
  EXPECT_TRUE(mfu->default_range);
  const PairPerformance& trn2 = r.workloads[0].options[0].performance;
  ASSERT_TRUE(trn2.validated);
  ASSERT_TRUE(trn2.few_measurements);
  const Performance& perf = builtin_catalog().performance;
  // The workload (Llama 3 8B) is dense: the family's dense rows' band.
  EXPECT_DOUBLE_EQ(trn2.error_p90, std::max(2 * perf.trainium.dense_holdout_p90_error.value, perf.trainium2.holdout_p90_error.value));
  EXPECT_DOUBLE_EQ(mfu->low, mfu->value * (1 - trn2.error_p90));
  EXPECT_DOUBLE_EQ(mfu->high, mfu->value * (1 + trn2.error_p90));
  // H100's is validated: its family's dense rows' error either way.
  const RangedInput* h100 = find("options[1].mfu");
  ASSERT_TRUE(h100);
  const double band = builtin_catalog().performance.nvidia.dense_holdout_p90_error.value;
  EXPECT_DOUBLE_EQ(h100->low, h100->value * (1 - band));
  EXPECT_DOUBLE_EQ(h100->high, h100->value * (1 + band));
  const RangedInput* weeks = find("options[0].porting.engineer_weeks");
  ASSERT_TRUE(weeks);
  EXPECT_EQ(weeks->dist, Distribution::LogNormal);
  EXPECT_DOUBLE_EQ(weeks->low, 4);
  EXPECT_DOUBLE_EQ(weeks->high, 20);
  EXPECT_TRUE(find("workloads[0].runs"));
  EXPECT_TRUE(find("options[0].price_usd_per_hour"));
  EXPECT_FALSE(find("options[1].porting.engineer_weeks"));  // zero on CUDA: nothing to vary
  // The chance of a forced re-port: the catalog's range for Trainium; none on CUDA (no one-time cost).
  const RangedInput* report = find("options[0].porting.report_probability_per_year");
  ASSERT_TRUE(report);
  const Figure* chance = builtin_catalog().defaults.find("report_probability_per_year", Family::Trainium);
  EXPECT_DOUBLE_EQ(report->low, chance->low);
  EXPECT_DOUBLE_EQ(report->high, chance->high);
  EXPECT_FALSE(find("options[1].porting.report_probability_per_year"));
}

TEST(Sensitivity, RePortingAndTheCostOfDelayCanCarryRanges) {
  // Lead = cost(H100) − cost(Trn2). A re-port's expected cost is rate × share × one-time × 1 year,
  // spread over the runs: the lead moves by (high − low) × share × one-time / runs. The delay adds
  // $/day × days to each run: the lead moves by (high − low) × (days Trn2 − days H100), and past
  // about $15k a day H100 leads.
  Scenario s = test::scenario(test::read_source_file("assets/scenarios/llama3-8b-pretrain.json"));
  s.analysis.default_ranges = false;
  s.workloads[0].usd_per_day_of_delay = 0;
  s.ranges = {{"options[0].porting.report_probability_per_year", 0, 1, Distribution::Uniform},
              {"workloads[0].usd_per_day_of_delay", 0, 30000, Distribution::Uniform}};
  const Results base = test::run(s);
  const OptionResult& trn = base.workloads[0].options[0];
  const OptionResult& gpu = base.workloads[0].options[1];
  AnalyzeOptions options;
  options.samples = 500;
  const Analysis a = analyze(s, builtin_catalog(), options);
  ASSERT_EQ(a.sensitivity.size(), 2u);
  for (const SensitivityRow& row : a.sensitivity) {
    if (row.input == "options[0].porting.report_probability_per_year")
      EXPECT_NEAR(row.swing, 1 * 0.5 * trn.one_time_cost / 6, 1e-6);
    else
      EXPECT_NEAR(row.swing, 30000 * (trn.days_to_model - gpu.days_to_model), 1e-6);
  }
  // The Monte Carlo varies them too: Trn2 is not the cheapest in every sample.
  EXPECT_GT(a.monte_carlo.options[1].probability_cheapest, 0);
}

TEST(Sensitivity, BreakevenOfTheChallengerMatchesTheDecision) {
  const Scenario s = test::scenario(test::read_source_file("assets/scenarios/mixtral-moe.json"));
  const Results res = test::run(s);
  AnalyzeOptions options;
  options.samples = 500;
  const Analysis a = analyze(s, builtin_catalog(), options);
  ASSERT_EQ(a.challenger, 0);  // the Trainium option carries the port
  const Comparison& c = res.workloads[0].comparison;
  // H200 leads at 4 runs and loses from 4.2 runs on, when the port has paid back.
  ASSERT_EQ(c.breakeven.kind, BreakevenKind::UntilRuns);
  EXPECT_NEAR(a.base_breakeven, c.breakeven.runs, 1e-9);
}

}  // namespace
}  // namespace traincost

namespace traincost {
namespace {

// A range on an option's input varies that input where the option's value applies, never where a
// workload overrides it: the portfolio example's "One 70B run" ports with 12 weeks of its own.
TEST(Sensitivity, OptionRangesLeaveWorkloadOverridesAlone) {
  const Scenario s = test::scenario(test::read_source_file("assets/scenarios/portfolio-multicloud.json"));
  AnalyzeOptions options;
  options.monte_carlo = false;
  options.workload = 2;  // "One 70B run", which overrides options[0].porting.engineer_weeks = 12
  const Analysis a = analyze(s, builtin_catalog(), options);
  const SensitivityRow* weeks = nullptr;
  for (const SensitivityRow& row : a.sensitivity)
    if (row.input == "options[0].porting.engineer_weeks") weeks = &row;
  ASSERT_NE(weeks, nullptr);
  EXPECT_DOUBLE_EQ(weeks->base_value, 8);  // the option's own value, from the catalog
  EXPECT_DOUBLE_EQ(weeks->metric_at_low, a.base_metric);
  EXPECT_DOUBLE_EQ(weeks->metric_at_high, a.base_metric);
  // On "Quarterly 8B pretraining", which takes the option's value, the same range moves the lead
  // where the Trainium option is the runner-up: at 20 runs rather than 4, its port spread thinner
  // (at 4 it is third since Trainium2's calibration counts AXLearn's recomputation, issue 28).
  options.workload = 1;
  Scenario more_runs = s;
  more_runs.workloads[1].runs = 20;
  const Analysis first = analyze(more_runs, builtin_catalog(), options);
  for (const SensitivityRow& row : first.sensitivity) {
    if (row.input == "options[0].porting.engineer_weeks") {
      EXPECT_NE(row.metric_at_low, row.metric_at_high);
    }
  }
}

}  // namespace
}  // namespace traincost

namespace traincost {
namespace {

// Issue 29 item 5: with a deadline, the analysis says how often each option is on time. The
// example sizes each option to the fewest instances that make 10 days in the point estimate, so
// in many futures (a slower MFU, a longer whole run) it is late.
TEST(DeadlineOdds, TheAnalysisCountsFuturesOnTimeAndSaysWhyRangesAreMissing) {
  const Scenario s = test::example("llama3-8b-deadline");
  AnalyzeOptions options;
  options.samples = 2000;
  const Analysis a = analyze(s, builtin_catalog(), options);
  const ResolvedScenario r = resolve(s, builtin_catalog());
  for (const OptionStats& st : a.monte_carlo.options) {
    EXPECT_EQ(st.deadline_days, 10);
    // With a deadline, an option that runs is on time: the two shares are the same count.
    EXPECT_EQ(st.probability_on_time, st.probability_feasible);
    EXPECT_GT(st.probability_on_time, 0.05);
    EXPECT_LT(st.probability_on_time, 0.95);
    EXPECT_LE(st.probability_on_time + st.probability_late, 1.0);
    EXPECT_LE(st.days_to_model.p5, 10);  // the fast futures make it
    EXPECT_LE(st.days_to_model.p5, st.days_to_model.p50);
  }
  const std::string text = analysis_text(r, a);
  EXPECT_NE(text.find("on time for the 10-day deadline in "), std::string::npos) << text;
  EXPECT_NE(text.find("of futures (misses it in "), std::string::npos) << text;
  EXPECT_EQ(text.find("n/a"), std::string::npos) << text;
  EXPECT_EQ(analysis_markdown(r, a).find("n/a"), std::string::npos);
  const OrderedJson j = analysis_to_json(s, r, a);
  const OrderedJson& first = j["monte_carlo"]["options"][0];
  EXPECT_DOUBLE_EQ(first["probability_on_time"].get<double>(), a.monte_carlo.options[0].probability_on_time);
  EXPECT_TRUE(first.contains("days_to_model"));
  // A missing percentile of the cost says why.
  if (first["cost_per_run_usd"]["p95"].is_null()) {
    EXPECT_NE(first["cost_per_run_null_because"].get<std::string>().find("misses the 10-day deadline"), std::string::npos);
  }
}

TEST(DeadlineOdds, WithoutADeadlineNothingIsSaidOfIt) {
  const Scenario s = test::example("llama3-8b-pretrain");
  AnalyzeOptions options;
  options.samples = 500;
  const Analysis a = analyze(s, builtin_catalog(), options);
  for (const OptionStats& st : a.monte_carlo.options) {
    EXPECT_EQ(st.deadline_days, 0);
    EXPECT_TRUE(std::isnan(st.probability_on_time));
  }
  const OrderedJson j = analysis_to_json(s, resolve(s, builtin_catalog()), a);
  EXPECT_FALSE(j["monte_carlo"]["options"][0].contains("probability_on_time"));
  EXPECT_EQ(analysis_text(resolve(s, builtin_catalog()), a).find("on time"), std::string::npos);
}

}  // namespace
}  // namespace traincost
