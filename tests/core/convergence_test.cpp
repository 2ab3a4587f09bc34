// Convergence from loss curves (issue 31, item 4; evidence/convergence.hpp): on exact power laws the
// tokens to the reference's final loss are known in closed form, and the estimate must find them;
// curves that are too short, do not overlap or are too noisy must say so and give no number.
#include "traincost/evidence/convergence.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "test_support.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/base/random.hpp"
#include "traincost/engine/evaluate.hpp"
#include "traincost/engine/pilot.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/io/pilot_log.hpp"
#include "traincost/scenario/fields.hpp"

namespace traincost {
namespace {

// L(D) = E + A·(D / 1e9)^-α at D = step, 2·step, ..., n·step.
std::vector<LossPoint> power_law(double E, double A, double alpha, double shift, double step, int n) {
  std::vector<LossPoint> out;
  for (int k = 1; k <= n; ++k) {
    const double d = step * k;
    out.push_back({d, E + A * std::pow(d / (1e9 * shift), -alpha)});
  }
  return out;
}

// The reference: L = 1.9 + 0.8·(D / 1e9)^-0.35 from 2.5e7 to 1e9 tokens (40 points); its final
// loss is 1.9 + 0.8 = 2.7 at 1e9.
std::vector<LossPoint> reference() { return power_law(1.9, 0.8, 0.35, 1, 2.5e7, 40); }

TEST(Convergence, AShiftedPowerLawGivesItsShiftExactly) {
  // The candidate is the reference stretched along tokens: L_c(D) = L_ref(D / 1.08). It reaches
  // 2.7 where D / 1.08e9 = 1, at 1.08e9 tokens: 1.08 × the reference's 1e9. Without noise every
  // resample is the same curve: the interval is the point.
  const ConvergenceEstimate e = estimate_convergence(power_law(1.9, 0.8, 0.35, 1.08, 2.5e7, 48), reference());
  ASSERT_TRUE(e.measured()) << e.reason;
  EXPECT_NEAR(e.target_loss, 2.7, 1e-9);
  EXPECT_DOUBLE_EQ(e.reference_tokens, 1e9);
  EXPECT_NEAR(e.ratio, 1.08, 1e-6);
  EXPECT_NEAR(e.low, 1.08, 1e-6);
  EXPECT_NEAR(e.high, 1.08, 1e-6);
  EXPECT_NEAR(e.candidate.alpha, 0.35, 1e-5);
  EXPECT_NEAR(e.reference.E, 1.9, 1e-6);
  // The first 10% of tokens (below 1e8: 3 of the reference's 40 points) is left out of the fit.
  EXPECT_EQ(e.reference.points, 37);
  EXPECT_EQ(e.failed_resamples, 0);
  EXPECT_NEAR(penalty_of_ratio(e.ratio), 0.08, 1e-6);
}

TEST(Convergence, ADifferentCurveByItsOwnFormula) {
  // Candidate L = 2.0 + 0.6·(D / 1e9)^-0.5 to 1.2e9 tokens. It reaches 2.7 where
  // 0.6·x^-0.5 = 0.7: x = (6/7)^2 = 0.73469..., so it needs 0.7347 × the reference's tokens: it
  // converges faster, and as a penalty that is none (the field counts extra tokens, from 0).
  const ConvergenceEstimate e = estimate_convergence(power_law(2.0, 0.6, 0.5, 1, 2.5e7, 48), reference());
  ASSERT_TRUE(e.measured()) << e.reason;
  EXPECT_NEAR(e.ratio, 36.0 / 49.0, 1e-6);
  EXPECT_EQ(penalty_of_ratio(e.ratio), 0);
}

TEST(Convergence, ALossSpikeIsLeftOut) {
  // The shifted candidate with a spike of +1.5 at its 20th point (5e8 tokens), as after a bad
  // batch: it is left out, and the answer is the spike-free one.
  std::vector<LossPoint> spiky = power_law(1.9, 0.8, 0.35, 1.08, 2.5e7, 48);
  spiky[19].loss += 1.5;
  const ConvergenceEstimate e = estimate_convergence(spiky, reference());
  ASSERT_TRUE(e.measured()) << e.reason;
  ASSERT_EQ(e.candidate.spikes.size(), 1u);
  EXPECT_DOUBLE_EQ(e.candidate.spikes[0].tokens, 5e8);
  EXPECT_NEAR(e.ratio, 1.08, 1e-6);
  // The Megatron fixture's curve (6 reports, a spike at iteration 40) is too short to fit: no number.
  const LogReading log = read_training_log(test::read_source_file("tests/core/data/logs/megatron.log"));
  ASSERT_TRUE(log.ok);
  const ConvergenceEstimate m = estimate_convergence(log.loss, reference());
  EXPECT_EQ(m.state, ConvergenceState::TooShort);
  EXPECT_EQ(m.ratio, 0);
  EXPECT_NE(m.reason.find("the candidate's curve has 6 points"), std::string::npos) << m.reason;
}

TEST(Convergence, TooShortOrNotOverlappingSaysSoWithoutANumber) {
  // Stretched by 1.6 and run to 1.2e9 tokens, the candidate would reach 2.7 at 1.6e9: beyond
  // 1.25 × 1.2e9 = 1.5e9, so the curve is too short to tell.
  const ConvergenceEstimate longer = estimate_convergence(power_law(1.9, 0.8, 0.35, 1.6, 2.5e7, 48), reference());
  EXPECT_EQ(longer.state, ConvergenceState::TooShort);
  EXPECT_EQ(longer.ratio, 0);
  EXPECT_NE(longer.reason.find("run it longer"), std::string::npos) << longer.reason;
  // Levelling off at 2.8, above the target 2.7: it never gets there.
  const ConvergenceEstimate above = estimate_convergence(power_law(2.8, 0.8, 0.35, 1, 2.5e7, 48), reference());
  EXPECT_EQ(above.state, ConvergenceState::NonOverlapping);
  // Stretched by 0.3 (it reaches 2.7 at 3e8) but logged only from 1e9 to 2e9 tokens, every point
  // of which (after the first 10%) is below 2.7 already: nothing says how it got there.
  std::vector<LossPoint> late;
  for (const LossPoint& p : power_law(1.9, 0.8, 0.35, 0.3, 2.5e7, 80))
    if (p.tokens >= 1e9) late.push_back(p);
  const ConvergenceEstimate below = estimate_convergence(late, reference());
  EXPECT_EQ(below.state, ConvergenceState::NonOverlapping);
  EXPECT_EQ(below.ratio, 0);
  // No reference curve at all.
  EXPECT_EQ(estimate_convergence(reference(), {}).state, ConvergenceState::NoCurves);
}

// Gaussian noise of standard deviation `sd` on each point, from a fixed seed.
std::vector<LossPoint> noisy(std::vector<LossPoint> curve, double sd, uint64_t seed) {
  Random rng(seed);
  for (LossPoint& p : curve) p.loss += sd * normal_quantile(rng.uniform());
  return curve;
}

TEST(Convergence, NoiseWidensTheIntervalUntilItSaysTooNoisy) {
  // Noise of 0.002 (a well-averaged log): measured, the interval holds the true 1.08.
  const ConvergenceEstimate fine =
      estimate_convergence(noisy(power_law(1.9, 0.8, 0.35, 1.08, 2.5e7, 48), 0.002, 7), noisy(reference(), 0.002, 8));
  ASSERT_TRUE(fine.measured()) << fine.reason;
  EXPECT_LE(fine.low, 1.08);
  EXPECT_GE(fine.high, 1.08);
  EXPECT_LT(fine.high - fine.low, kConvergenceMaxWidth);
  // Noise of 0.15 nats a point on curves that fall 1.2 nats: too noisy to tell, no number.
  const ConvergenceEstimate rough =
      estimate_convergence(noisy(power_law(1.9, 0.8, 0.35, 1.08, 2.5e7, 48), 0.15, 7), noisy(reference(), 0.15, 8));
  EXPECT_EQ(rough.state, ConvergenceState::TooNoisy) << rough.ratio;
  EXPECT_NE(rough.reason.find("too noisy"), std::string::npos) << rough.reason;
  // The same curves, the same answer: the bootstrap's seed is fixed.
  const ConvergenceEstimate again =
      estimate_convergence(noisy(power_law(1.9, 0.8, 0.35, 1.08, 2.5e7, 48), 0.002, 7), noisy(reference(), 0.002, 8));
  EXPECT_EQ(again.low, fine.low);
  EXPECT_EQ(again.high, fine.high);
}

// The default example with a Trn2 pilot whose loss curve is the reference stretched by `shift`.
Scenario with_curves(double shift, double mfu) {
  Scenario s = test::scenario(test::read_source_file("assets/scenarios/llama3-8b-pretrain.json"));
  PilotMeasurement m;
  m.instances = 2;
  m.mfu = mfu;
  m.loss = power_law(1.9, 0.8, 0.35, shift, 2.5e7, 48);
  m.reference_loss = reference();
  s.options[0].pilot = m;
  return s;
}

TEST(Convergence, TheMeasuredPenaltyReplacesTheScenariosAndItsRange) {
  const Catalog& catalog = builtin_catalog();
  Scenario s = with_curves(1.08, 0.3);
  s.ranges.push_back({fields::convergence_penalty.of_option(0), 0, 0.5, Distribution::Uniform});
  const ResolvedScenario r = resolve(s, catalog);
  ASSERT_TRUE(r.options[0].convergence && r.options[0].convergence->measured());
  // The catalog's Trainium penalty (2%) gives way to the measured 8%: 1.08 × the target's tokens.
  EXPECT_NEAR(r.workloads[0].options[0].convergence_penalty, 0.08, 1e-6);
  const Results results = evaluate(r);
  EXPECT_NEAR(results.workloads[0].options[0].tokens, 1.08 * results.workloads[0].target_tokens, 1e3);
  // Its range is the measurement's interval (for exact curves, 0.08 to 0.08 within the fit's
  // precision), not the scenario's 0 to 50%.
  for (const RangedInput& in : ranged_inputs(s, r, catalog))
    if (in.path == fields::convergence_penalty.of_option(0)) {
      EXPECT_NEAR(in.low, 0.08, 1e-6);
      EXPECT_NEAR(in.high, 0.08, 1e-6);
    }
  // A noisy pair gets the bootstrap's interval, as a penalty.
  s.options[0].pilot->loss = noisy(power_law(1.9, 0.8, 0.35, 1.08, 2.5e7, 48), 0.002, 7);
  s.options[0].pilot->reference_loss = noisy(reference(), 0.002, 8);
  const ResolvedScenario rn = resolve(s, catalog);
  const ConvergenceEstimate& c = *rn.options[0].convergence;
  ASSERT_TRUE(c.measured());
  int found = 0;
  for (const RangedInput& in : ranged_inputs(s, rn, catalog))
    if (in.path == fields::convergence_penalty.of_option(0)) {
      ++found;
      EXPECT_NEAR(in.low, penalty_of_ratio(c.low), 1e-12);
      EXPECT_NEAR(in.high, penalty_of_ratio(c.high), 1e-12);
      EXPECT_FALSE(in.default_range);
    }
  EXPECT_EQ(found, 1);
}

TEST(Convergence, PilotResultsShowThePenaltyMarkPassedOrFailed) {
  const Catalog& catalog = builtin_catalog();
  const Scenario before = test::scenario(test::read_source_file("assets/scenarios/llama3-8b-pretrain.json"));
  for (const double shift : {1.0, 1.2}) {
    const Scenario after = with_curves(shift, 0.3);
    const PilotResults x = pilot_results(before, after, catalog, 0, 0);
    ASSERT_TRUE(x.ok) << x.reason;
    ASSERT_TRUE(x.convergence && x.convergence->measured());
    EXPECT_NEAR(x.measured_penalty, shift - 1, 1e-6);
    if (x.penalty_has_mark) {
      const Threshold& t = x.plan.marks.penalty;
      EXPECT_EQ(x.penalty_passed, t.at_least ? x.measured_penalty >= t.value : x.measured_penalty <= t.value);
    }
    // The verdict after is the after-scenario's own.
    EXPECT_EQ(x.cheapest_after, evaluate(resolve(after, catalog)).workloads[0].comparison.cheapest);
  }
}

}  // namespace
}  // namespace traincost
