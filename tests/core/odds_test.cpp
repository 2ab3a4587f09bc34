// The quick look at the odds beside every point estimate (issue 30 item 2): the same Monte Carlo
// as analyze() with fewer samples, a point estimate far from its median said so with what pulls
// it, and a scenario too large for a quick look says it was skipped.
#include <gtest/gtest.h>

#include <cmath>

#include "test_support.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/engine/odds.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/output/analysis_report.hpp"
#include "traincost/output/report.hpp"
#include "traincost/output/verdict.hpp"

namespace traincost {
namespace {

TEST(Odds, AreTheAnalysisMonteCarloWithFewerSamples) {
  const Scenario s = test::example("llama3-8b-pretrain");
  const Results res = test::run(s);
  const QuickOdds q = quick_odds(s, builtin_catalog(), res);
  ASSERT_TRUE(q.computed) << q.skipped;
  EXPECT_EQ(q.samples, kQuickOddsSamples);
  AnalyzeOptions options;
  options.samples = kQuickOddsSamples;
  options.seed = s.analysis.seed;
  options.sensitivity = false;
  const Analysis a = analyze(s, builtin_catalog(), options);
  ASSERT_EQ(q.workloads[0].options.size(), a.monte_carlo.options.size());
  for (size_t o = 0; o < a.monte_carlo.options.size(); ++o) {
    EXPECT_EQ(q.workloads[0].options[o].cost_per_run.p50, a.monte_carlo.options[o].cost_per_run.p50);
    EXPECT_EQ(q.workloads[0].options[o].probability_cheapest, a.monte_carlo.options[o].probability_cheapest);
    EXPECT_EQ(q.workloads[0].options[o].point, res.workloads[0].options[o].cost_per_run);
  }
}

TEST(Odds, AFarMedianIsSaidWithWhatPullsIt) {
  // The default example draws the whole-run factor (published runs realized a median ×1.15 of their
  // plan) and Trn2's price range, which reaches further up than down: Trn2's median is well above
  // its point estimate, and the input named is one of the ranged inputs (its price: the whole-run
  // factor's median pulls less than it did at ×1.21, before NVIDIA's gradients were reduced in FP32).
  const Scenario s = test::example("llama3-8b-pretrain");
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  const QuickOdds q = quick_odds(s, builtin_catalog(), res);
  const OptionOdds& trn2 = q.workloads[0].options[0];
  ASSERT_TRUE(far_from_median(trn2));
  EXPECT_GT(trn2.cost_per_run.p50, trn2.point);
  EXPECT_FALSE(trn2.pulled_by.empty());
  EXPECT_GT(trn2.pulled_by_usd, 0);  // towards the median, which is above
  const std::string text = report_text(s, r, res, q);
  EXPECT_NE(text.find("How sure (2,000 simulated futures, seed 1"), std::string::npos) << text;
  // H100 is pulled by another input (the whole-run factor), so each option says it in its own
  // sentence, naming its own input.
  const OptionOdds& h100 = q.workloads[0].options[1];
  ASSERT_TRUE(far_from_median(h100));
  ASSERT_NE(h100.pulled_by, trn2.pulled_by);
  EXPECT_EQ(text.find("The point estimates sit below the medians of their futures ("), std::string::npos) << text;
  for (size_t o = 0; o < 2; ++o) {
    const size_t own = text.find(r.options[o].label + "'s point estimate (");
    ASSERT_NE(own, std::string::npos) << text;
    EXPECT_LT(text.find("pulled there mostly by the range of " + q.workloads[0].options[o].pulled_by, own), text.find('\n', own)) << text;
  }
}

TEST(Odds, OptionsPulledTheSameWaySayItInOneSentence) {
  // In the 70B target-loss example all three options sit below their medians; the two NVIDIA
  // options are pulled by the same whole-run factor, Trn2 by its price range: one sentence names
  // the two NVIDIA options with their own figures, in option order (not two sentences that differ
  // only in their numbers), and Trn2 gets its own.
  const Scenario s = test::example("llama3-70b-target-loss");
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  const QuickOdds q = quick_odds(s, builtin_catalog(), res);
  const std::vector<OptionOdds>& o = q.workloads[0].options;
  ASSERT_EQ(o.size(), 3u);
  for (const OptionOdds& x : o) {
    ASSERT_TRUE(far_from_median(x));
    ASSERT_LT(x.point, x.cost_per_run.p50);
  }
  ASSERT_EQ(o[1].pulled_by, o[2].pulled_by);
  ASSERT_NE(o[0].pulled_by, o[1].pulled_by);
  const std::string text = report_text(s, r, res, q);
  EXPECT_NE(text.find(r.options[0].label + "'s point estimate ("), std::string::npos) << text;
  EXPECT_EQ(text.find(r.options[1].label + "'s point estimate ("), std::string::npos) << text;
  EXPECT_EQ(text.find(r.options[2].label + "'s point estimate ("), std::string::npos) << text;
  const size_t one = text.find("The point estimates sit below the medians of their futures (" + r.options[1].label + " ");
  ASSERT_NE(one, std::string::npos) << text;
  const size_t end = text.find('\n', one);
  EXPECT_LT(text.find(r.options[2].label, one), end);
  EXPECT_GT(text.find(r.options[0].label, one), end) << "Trn2 is not in the NVIDIA options' sentence";
  EXPECT_NE(text.find("pulled there mostly by the range of " + o[1].pulled_by + " (+", one), std::string::npos) << text;
}

TEST(Odds, WithoutRangesEveryFutureIsThePointEstimate) {
  // No ranges and no default ranges: each sample is the base case, so the median, P5 and P95 are
  // the point estimate, nothing is far from it, and the cheaper option is cheapest in every sample.
  std::string json = test::simple_scenario();
  json.insert(json.rfind('}'), R"(,"analysis":{"default_ranges":false})");
  const Scenario s = test::scenario(json);
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  const QuickOdds q = quick_odds(s, builtin_catalog(), res);
  ASSERT_TRUE(q.computed);
  const int cheapest = res.workloads[0].comparison.cheapest;
  ASSERT_GE(cheapest, 0);
  for (size_t o = 0; o < 2; ++o) {
    const OptionOdds& x = q.workloads[0].options[o];
    EXPECT_DOUBLE_EQ(x.cost_per_run.p50, x.point);
    EXPECT_DOUBLE_EQ(x.cost_per_run.p5, x.point);
    EXPECT_DOUBLE_EQ(x.cost_per_run.p95, x.point);
    EXPECT_FALSE(far_from_median(x));
    EXPECT_EQ(x.probability_cheapest, static_cast<int>(o) == cheapest ? 1.0 : 0.0);
  }
  const std::vector<std::string> lines = odds_lines(r, res, q, 0);
  ASSERT_EQ(lines.size(), 1u);  // the look itself; no far median, no other likeliest option
  EXPECT_NE(lines[0].find("cheapest in 100%"), std::string::npos) << lines[0];
}

TEST(Odds, ALargeScenarioIsSkippedAndSaysSo) {
  // 5 workloads × 8 options = 40 pairs, above kQuickOddsMaxPairs (32).
  std::string workloads, options;
  for (int w = 0; w < 5; ++w) workloads += std::string(w ? "," : "") + R"({"name":"w)" + std::to_string(w) + R"(","model":{"params":1e9},"target":{"tokens":1e10}})";
  for (int o = 0; o < 8; ++o) options += std::string(o ? "," : "") + R"({"instance":"p5.48xlarge","instances":)" + std::to_string(o + 1) + "}";
  const Scenario s = test::scenario(R"({"version":1,"workloads":[)" + workloads + R"(],"options":[)" + options + "]}");
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  const QuickOdds q = quick_odds(s, builtin_catalog(), res);
  EXPECT_FALSE(q.computed);
  EXPECT_NE(q.skipped.find("5 workloads × 8 options"), std::string::npos) << q.skipped;
  EXPECT_NE(report_text(s, r, res, q).find("No quick look at the odds: 5 workloads"), std::string::npos);
  EXPECT_EQ(results_to_json(s, r, res, q)["workloads"][0]["odds"]["skipped"], q.skipped);
}

TEST(Odds, EveryFormatCarriesThem) {
  const Scenario s = test::example("portfolio-multicloud");
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  const QuickOdds q = quick_odds(s, builtin_catalog(), res);
  const OrderedJson j = results_to_json(s, r, res, q);
  for (size_t w = 0; w < res.workloads.size(); ++w) {
    const OrderedJson& odds = j["workloads"][w]["odds"];
    EXPECT_EQ(odds["samples"], kQuickOddsSamples);
    EXPECT_EQ(odds["options"].size(), r.options.size());
    EXPECT_EQ(odds["options"][0]["cost_per_run_usd"]["p50"], q.workloads[w].options[0].cost_per_run.p50);
  }
  EXPECT_NE(report_markdown(s, r, res, "", q).find("How sure (2,000 simulated futures"), std::string::npos);
  // CSV: the four odds columns in the header and filled on every row; as many cells as headers.
  const std::string csv = report_csv(s, r, res, q);
  const std::string header = csv.substr(0, csv.find('\n'));
  EXPECT_NE(header.find(",median_cost_per_run_usd,p5_cost_per_run_usd,p95_cost_per_run_usd,probability_cheapest"), std::string::npos);
  // Without odds the columns stay, empty: a spreadsheet's columns never move.
  const std::string plain = report_csv(s, r, res);
  EXPECT_EQ(plain.substr(0, plain.find('\n')), header);
  EXPECT_NE(plain.find(",,,,\n"), std::string::npos);
}

}  // namespace
}  // namespace traincost

namespace traincost {
namespace {

TEST(Odds, FuturesThatMissTheDeadlineAreSaidNotPrintedAsGaps) {
  // The deadline example: each option misses its 10-day deadline in most futures (the whole-run
  // factor's median is above 1 and the options are sized to just make it), so the median has no
  // cost. The sentence says how often each option is on time and how often it misses, and never
  // prints "n/a".
  const Scenario s = test::example("llama3-8b-deadline");
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  const QuickOdds q = quick_odds(s, builtin_catalog(), res);
  ASSERT_TRUE(q.computed);
  const std::vector<std::string> lines = odds_lines(r, res, q, 0);
  ASSERT_FALSE(lines.empty());
  for (const std::string& line : lines) EXPECT_EQ(line.find("n/a"), std::string::npos) << line;
  EXPECT_LT(q.workloads[0].options[0].probability_feasible, 1.0);
  // Both sides, for every option: on time in Y% of futures, misses it in the rest.
  const std::string& look = lines[0];
  size_t said = 0;
  for (size_t at = look.find("on time for the 10-day deadline in "); at != std::string::npos;
       at = look.find("on time for the 10-day deadline in ", at + 1)) {
    ++said;
    EXPECT_NE(look.find("of futures (misses it in ", at), std::string::npos) << look;
  }
  EXPECT_EQ(said, s.options.size()) << look;
}

// The verdict follows the point estimates; when more futures favour another option, the report,
// the analysis (text and Markdown) and the page say so with one sentence (verdict.hpp).
TEST(Odds, AVerdictTheFuturesDisfavourIsSaidToBeTheLessLikelyOutcome) {
  const Scenario s = test::example("llama3-8b-pretrain");
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const std::string a = r.options[0].label, b = r.options[1].label;
  EXPECT_EQ(less_likely_verdict(r, 0, {0.25, 0.75}),
            b + " is the cheapest in more futures (75%) than " + a + " (25%), which the point estimates favour: the verdict is the less likely outcome.");
  EXPECT_EQ(less_likely_verdict(r, 1, {0.25, 0.75}), "");  // the futures agree
  EXPECT_EQ(less_likely_verdict(r, 0, {0.5, 0.5}), "");    // a tie is not "more futures"
  EXPECT_EQ(less_likely_verdict(r, 1, {0.5, 0.5}), "");
  EXPECT_EQ(less_likely_verdict(r, -1, {0.25, 0.75}), "");  // no option can run the job
  EXPECT_EQ(less_likely_verdict(r, 0, {}), "");

  // The analysis says it where its own leader is the less likely outcome, and only there.
  AnalyzeOptions options;
  options.samples = 2000;
  options.sensitivity = false;
  const Analysis an = analyze(s, builtin_catalog(), options);
  ASSERT_EQ(an.monte_carlo.options.size(), 2u);
  ASSERT_GE(an.leader, 0);
  std::vector<double> cheapest;
  for (const OptionStats& st : an.monte_carlo.options) cheapest.push_back(st.probability_cheapest);
  const std::string doubt = analysis_less_likely(r, an);
  EXPECT_EQ(doubt, less_likely_verdict(r, an.leader, cheapest));
  const bool disfavoured = cheapest[static_cast<size_t>(1 - an.leader)] > cheapest[static_cast<size_t>(an.leader)];
  EXPECT_EQ(!doubt.empty(), disfavoured);
  EXPECT_EQ(analysis_text(r, an).find("the verdict is the less likely outcome") != std::string::npos, disfavoured);
  EXPECT_EQ(analysis_markdown(r, an).find("the verdict is the less likely outcome") != std::string::npos, disfavoured);
}

}  // namespace
}  // namespace traincost
