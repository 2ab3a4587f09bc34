// After the pilot (issue 31): the pilot block in the scenario, the measurement carried from the
// pilot's size to the planned cluster by the step-time model, the pass marks, the verdict before
// and after, and the validation of the extrapolation on published measurements.
#include "traincost/engine/pilot.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "test_support.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/engine/resolve_pair.hpp"
#include "traincost/evidence/pilot_scaling.hpp"
#include "traincost/io/pilot_log.hpp"
#include "traincost/io/scenario_json.hpp"
#include "traincost/model/formulas.hpp"

namespace traincost {
namespace {

// The default example (assets/presets.json's first): 16 trn2.48xlarge against 32 p5.48xlarge.
Scenario default_example() { return test::scenario(test::read_source_file("assets/scenarios/llama3-8b-pretrain.json")); }

Scenario with_pilot(const Scenario& s, const PilotMeasurement& m) {
  Scenario after = s;
  after.options[0].pilot = m;
  return after;
}

// Llama-3-8B at 8,192 tokens: 6 x 8.03e9 + 12 x 32 x 4,096 x 8,192 = 61,064,901,888 FLOPs a token.
constexpr double kFlopsPerToken = 6 * 8.03e9 + 12.0 * 32 * 4096 * 8192;
constexpr double kTrn2Peak = 667e12;

TEST(PilotBlock, RoundTripsAndOldScenariosReadAsBefore) {
  const std::string text = R"({"version":1,"workloads":[{"model":{"params":8e9},"target":{"tokens":1e11}}],
    "options":[{"instance":"trn2.48xlarge","instances":4,
                "pilot":{"instances":1,"seq_len":4096,"global_batch_sequences":64,"step_seconds":5.5,"flops":"hardware",
                         "tflops_per_chip":300,"compile_minutes":42,"parallelism":{"tensor":4,"recompute":"full"},
                         "source":"nxd.log","loss":[[1e6,9.5],[2e6,8.25]]}},
               {"instance":"p5.48xlarge","instances":2}]})";
  const Scenario s = test::scenario(text);
  ASSERT_TRUE(s.options[0].pilot);
  const PilotMeasurement& m = *s.options[0].pilot;
  EXPECT_EQ(*m.instances, 1);
  EXPECT_EQ(m.flops, FlopConvention::Hardware);
  EXPECT_EQ(*m.parallelism.tensor, 4);
  EXPECT_EQ(m.loss.size(), 2u);
  const std::string back = scenario_to_json(s, JsonForm::Minimal).dump();
  EXPECT_EQ(scenario_to_json(test::scenario(back), JsonForm::Minimal).dump(), back);
  EXPECT_FALSE(test::scenario(R"({"version":1,"workloads":[{"model":{"params":8e9},"target":{"tokens":1e11}}],
      "options":[{"instance":"trn2.48xlarge"}]})").options[0].pilot);

  Problems problems;
  EXPECT_FALSE(parse_scenario(R"({"version":1,"workloads":[{"model":{"params":8e9},"target":{"tokens":1e11}}],
      "options":[{"instance":"trn2.48xlarge","pilot":{"loss":[[2e6,9],[1e6,8]],"mfu":2}}]})",
                              builtin_catalog(), problems));
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].path, "options[0].pilot.mfu");
  EXPECT_EQ(problems[1].path, "options[0].pilot.loss[1]");
}

TEST(PilotBlock, RatesFromEachFigure) {
  Model model;
  model.params = 8.03e9;
  model.layers = 32;
  model.hidden = 4096;
  model.heads = 32;
  model.seq_len = 8192;
  PilotMeasurement m;
  // MFU 0.25 on Trn2: 0.25 x 667e12 / 61,064,901,888 = 2,730.70 tokens/s per chip.
  m.mfu = 0.25;
  EXPECT_NEAR(pilot_rate(m, model, 32, 0, kTrn2Peak).tokens_per_sec_per_chip, 2730.701185860227, 1e-9);
  // A step of 128 x 8,192 tokens in 4.6 s on 32 chips: 1,048,576 / 4.6 / 32 = 7,123.48.
  m.step_seconds = 4.6;
  m.global_batch_sequences = 128;
  const PilotRate step = pilot_rate(m, model, 32, 0, kTrn2Peak);
  EXPECT_NEAR(step.tokens_per_sec_per_chip, 1048576 / 4.6 / 32, 1e-9);
  EXPECT_STREQ(step.from, "step_seconds");
  // 10.67 sequences/s on 32 chips: 10.67 x 8,192 / 32 = 2,731.52 (wins over the step time).
  m.samples_per_sec = 10.67;
  EXPECT_NEAR(pilot_rate(m, model, 32, 0, kTrn2Peak).tokens_per_sec_per_chip, 2731.52, 1e-9);
  // TFLOP/s per chip in hardware FLOPs (recomputation counted, 4/3 of the model's): 300e12 / (4/3 x 61.06e9).
  PilotMeasurement t;
  t.tflops_per_chip = 300;
  t.flops = FlopConvention::Hardware;
  EXPECT_NEAR(pilot_rate(t, model, 32, 0, kTrn2Peak).tokens_per_sec_per_chip, 300e12 / (kFlopsPerToken * 4 / 3), 1e-6);
}

TEST(PilotResults, AMeasurementAtThePlannedSizeIsUsedAsItIs) {
  const Scenario before = default_example();
  PilotMeasurement m;
  m.instances = 16;
  m.tokens_per_sec = 3000.0 * 256;  // 3,000 tokens/s per chip on the planned 256 chips
  const ResolvedScenario r = resolve(with_pilot(before, m), builtin_catalog());
  const PairInputs& p = r.workloads[0].options[0];
  EXPECT_EQ(p.performance.source, ThroughputSource::Pilot);
  EXPECT_TRUE(p.performance.pilot.same_size);
  // MFU = 3,000 x 61,064,901,888 / 667e12 = 0.274655...
  EXPECT_NEAR(p.mfu, 3000 * kFlopsPerToken / kTrn2Peak, 1e-12);
  const OptionResult o = evaluate(r).workloads[0].options[0];
  EXPECT_NEAR(o.tokens_per_sec / o.chips, 3000, 1e-6);
}

TEST(PilotResults, ThePilotsRatioToThePredictionIsCarriedToThePlannedCluster) {
  const Scenario before = default_example();
  const ResolvedScenario rb = resolve(before, builtin_catalog());
  const double predicted_plan = rb.workloads[0].options[0].performance.time.tokens_per_sec_per_chip;
  PilotMeasurement m;
  m.instances = 2;
  m.mfu = 0.25;
  const ResolvedScenario ra = resolve(with_pilot(before, m), builtin_catalog());
  const PilotFit& f = ra.workloads[0].options[0].performance.pilot;
  ASSERT_TRUE(f.applied);
  EXPECT_FALSE(f.same_size);
  EXPECT_EQ(f.chips, 32);
  EXPECT_NEAR(f.measured_tokens_per_sec_per_chip, 0.25 * kTrn2Peak / kFlopsPerToken, 1e-9);
  // planned = predicted at the plan x measured / predicted at the pilot
  EXPECT_DOUBLE_EQ(f.predicted_at_plan, predicted_plan);
  EXPECT_NEAR(f.tokens_per_sec_per_chip, predicted_plan * f.measured_tokens_per_sec_per_chip / f.predicted_at_pilot, 1e-9);
  EXPECT_NEAR(ra.workloads[0].options[0].mfu, f.tokens_per_sec_per_chip * kFlopsPerToken / kTrn2Peak, 1e-12);
  // Its band is the extrapolation's validated error.
  EXPECT_EQ(ra.workloads[0].options[0].performance.error_p90, kPilotScalingWorstError);
}

// Done means: on the default example, a Trn2 pilot at 2 instances flips or keeps the verdict
// exactly where the pass mark said it would.
TEST(PilotResults, TheVerdictFlipsExactlyAtThePassMark) {
  const Scenario before = default_example();
  const Catalog& catalog = builtin_catalog();
  PilotMeasurement m;
  m.instances = 2;
  m.mfu = 0.25;
  const PilotResults at_quarter = pilot_results(before, with_pilot(before, m), catalog, 0, 0);
  ASSERT_TRUE(at_quarter.ok) << at_quarter.reason;
  ASSERT_TRUE(at_quarter.throughput_has_mark);
  const double mark = at_quarter.plan.marks.pilot_mfu;  // the MFU the pilot must show on 2 instances
  EXPECT_EQ(at_quarter.cheapest_before, 0);             // Trn2 leads before the pilot
  EXPECT_EQ(at_quarter.throughput_passed, 0.25 >= mark);
  EXPECT_EQ(at_quarter.cheapest_after == 0, at_quarter.throughput_passed);
  // Just either side of the mark.
  for (const double factor : {0.995, 1.005}) {
    m.mfu = mark * factor;
    const PilotResults x = pilot_results(before, with_pilot(before, m), catalog, 0, 0);
    ASSERT_TRUE(x.ok);
    EXPECT_NEAR(x.plan.marks.pilot_mfu, mark, 1e-12);
    EXPECT_EQ(x.throughput_passed, factor > 1) << factor;
    EXPECT_EQ(x.cheapest_after, factor > 1 ? 0 : 1) << factor;
  }
  // The same from the neuronx-distributed log of the pilot: 10.67 sequences/s on 32 chips is
  // 10.67 x 8,192 / 32 = 2,731.52 tokens/s per chip, MFU 2,731.52 x 61.06e9 / 667e12 = 0.25007.
  const LogReading log = read_training_log(test::read_source_file("tests/core/data/logs/nxd_trn2.log"));
  ASSERT_TRUE(log.ok);
  PilotMeasurement from_log;
  from_log.instances = 2;
  apply_reading(log, 32, from_log);
  const PilotResults x = pilot_results(before, with_pilot(before, from_log), catalog, 0, 0);
  ASSERT_TRUE(x.ok);
  EXPECT_NEAR(x.measured_mfu, 0.25007496372580174, 1e-9);
  EXPECT_EQ(x.throughput_passed, x.measured_mfu >= mark);
  EXPECT_EQ(x.cheapest_after == 0, x.throughput_passed);
}

// The extrapolation validated: on the published measurements at several sizes of one model, chip,
// precision, sequence length and source, the smallest size plays the pilot.
TEST(PilotScaling, ValidationMatchesTheStatedErrors) {
  const PilotScalingValidation v = validate_pilot_scaling(builtin_measurements(), builtin_catalog());
  EXPECT_EQ(static_cast<int>(v.pairs.size()), kPilotScalingPairs);
  EXPECT_NEAR(v.median, kPilotScalingMedianError, 0.0005) << v.median;
  EXPECT_NEAR(v.worst, kPilotScalingWorstError, 0.0005) << v.worst;
  for (const PilotScalingPair& p : v.pairs) {
    EXPECT_LT(p.pilot->chips, p.planned->chips);
    // error = (predicted large / predicted small) / (measured large / measured small) - 1
    EXPECT_NEAR(p.error, p.extrapolated / p.planned->tokens_per_sec_per_chip - 1, 1e-12);
  }
}

}  // namespace
}  // namespace traincost
