// The training-log readers (core/include/traincost/io/pilot_log.hpp): each fixture under
// tests/core/data/logs/ is written from the framework's public log format, and reads to the
// figures worked out by hand in the comments.
#include "traincost/io/pilot_log.hpp"

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace traincost {
namespace {

LogReading read_fixture(const std::string& name) { return read_training_log(test::read_source_file("tests/core/data/logs/" + name)); }

std::string how(const LogReading& r, const std::string& key) {
  for (const LogFigure& f : r.figures)
    if (f.key == key) return f.how;
  return "";
}

TEST(PilotLog, MegatronIterationLines) {
  const LogReading r = read_fixture("megatron.log");
  ASSERT_TRUE(r.ok) << to_string(r.problems);
  EXPECT_EQ(r.format, LogFormat::Megatron);
  // Six reports (iterations 10..60); the first (9,000 ms: compilation) is warm-up. The rest are
  // 4,620 4,580 4,600 4,640 4,560 ms, all within 10% of their median 4,600: none more is skipped.
  EXPECT_EQ(r.reports, 6);
  EXPECT_EQ(r.warmup_skipped, 1);
  EXPECT_EQ(r.warmup_lines, "line 7");
  EXPECT_DOUBLE_EQ(*r.step_seconds, 4.6);
  EXPECT_EQ(how(r, "step_seconds"), "median of 5 reports, lines 8-12");
  // TFLOP/s/GPU: 413.8 417.4 415.6 412.0 419.2 -> median 415.6.
  EXPECT_DOUBLE_EQ(*r.tflops_per_chip, 415.6);
  EXPECT_DOUBLE_EQ(*r.global_batch_sequences, 128);
  EXPECT_EQ(*r.seq_len, 8192);
  EXPECT_EQ(*r.world_size, 32);
  // Warm-up beyond the typical step: (9.0 - 4.6) s x 10 iterations = 44 s.
  EXPECT_NEAR(*r.warmup_seconds, 44, 1e-9);
  // The loss spike at iteration 40 (9.90 after 7.80) is in the curve, and moves no throughput:
  // tokens = consumed samples x 8,192: 5,120 x 8,192 = 41,943,040.
  ASSERT_EQ(r.loss.size(), 6u);
  EXPECT_DOUBLE_EQ(r.loss[3].tokens, 41943040);
  EXPECT_DOUBLE_EQ(r.loss[3].loss, 9.904321);
}

TEST(PilotLog, TorchtitanMetricLinesWithColours) {
  const LogReading r = read_fixture("torchtitan.log");
  ASSERT_TRUE(r.ok) << to_string(r.problems);
  EXPECT_EQ(r.format, LogFormat::Torchtitan);
  // Step 1 (tps 1,024) is warm-up; tps 6,543 6,600 6,480 6,560 -> median (6,543 + 6,560) / 2 = 6,551.5.
  EXPECT_EQ(r.warmup_skipped, 1);
  EXPECT_DOUBLE_EQ(*r.tokens_per_sec_per_chip, 6551.5);
  // mfu 38.13% 38.46% 37.76% 38.23% -> (38.13 + 38.23) / 2 % = 0.3818.
  EXPECT_NEAR(*r.mfu, 0.3818, 1e-12);
  // tflops 377.12 380.41 373.49 378.10 -> (377.12 + 378.10) / 2 = 377.61.
  EXPECT_NEAR(*r.tflops_per_chip, 377.61, 1e-9);
  EXPECT_DOUBLE_EQ(*r.memory_gib, 63.71);
}

TEST(PilotLog, NeuronxDistributedLogLines) {
  const LogReading r = read_fixture("nxd_trn2.log");
  ASSERT_TRUE(r.ok) << to_string(r.problems);
  EXPECT_EQ(r.format, LogFormat::Nxd);
  // Throughput (sequences/s): 0.42 (skipped: first), 7.91 (1/7.91 is 35% off the median speed of the
  // rest: skipped), then 10.64 10.70 10.67 10.66 10.68 -> median 10.67.
  EXPECT_EQ(r.reports, 7);
  EXPECT_EQ(r.warmup_skipped, 2);
  EXPECT_EQ(r.warmup_lines, "lines 2-3");
  EXPECT_DOUBLE_EQ(*r.samples_per_sec, 10.67);
  EXPECT_FALSE(r.step_seconds);
}

TEST(PilotLog, ProgressBarOfNxdTraining) {
  const LogReading r = read_fixture("nxdt_progress.log");
  ASSERT_TRUE(r.ok) << to_string(r.problems);
  EXPECT_EQ(r.format, LogFormat::ProgressBar);
  // Steps 0..3 at 0.870 (skipped), 10.60, 10.80, 10.70 sequences/s -> median 10.70.
  EXPECT_EQ(r.warmup_skipped, 1);
  EXPECT_DOUBLE_EQ(*r.samples_per_sec, 10.7);
}

TEST(PilotLog, HuggingFaceTrainerSummary) {
  const LogReading r = read_fixture("hf_trainer.log");
  ASSERT_TRUE(r.ok) << to_string(r.problems);
  EXPECT_EQ(r.format, LogFormat::HuggingFace);
  // 71.168 samples/s and 0.556 steps/s: a step every 1 / 0.556 = 1.7986 s, of 71.168 / 0.556 = 128 sequences.
  EXPECT_DOUBLE_EQ(*r.samples_per_sec, 71.168);
  EXPECT_NEAR(*r.step_seconds, 1 / 0.556, 1e-12);
  EXPECT_NEAR(*r.global_batch_sequences, 128, 1e-9);
  EXPECT_EQ(r.warmup_skipped, 0);
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes.front().find("warm-up"), std::string::npos);
}

TEST(PilotLog, CsvLossCurve) {
  const LogReading r = read_fixture("loss.csv");
  ASSERT_TRUE(r.ok) << to_string(r.problems);
  EXPECT_EQ(r.format, LogFormat::Csv);
  ASSERT_EQ(r.loss.size(), 4u);
  EXPECT_DOUBLE_EQ(r.loss[2].tokens, 1258291200);
  EXPECT_DOUBLE_EQ(r.loss[2].loss, 3.402);
  // 419,430,400 tokens per 100 steps: 4,194,304 tokens a step.
  EXPECT_EQ(how(r, "batch_tokens"), "median tokens per step over 4 rows");
  EXPECT_FALSE(r.step_seconds || r.samples_per_sec || r.tokens_per_sec_per_chip);
}

TEST(PilotLog, MalformedOrTruncatedLinesFailNamingTheLine) {
  const LogReading cut = read_fixture("megatron_truncated.log");
  EXPECT_FALSE(cut.ok);
  ASSERT_EQ(cut.problems.size(), 1u);
  EXPECT_EQ(cut.problems[0].path, "line 3");
  EXPECT_NE(cut.problems[0].message.find("elapsed time per iteration (ms)"), std::string::npos);
  EXPECT_FALSE(cut.step_seconds);  // nothing half-read is offered

  const LogReading csv = read_fixture("loss_malformed.csv");
  EXPECT_FALSE(csv.ok);
  ASSERT_EQ(csv.problems.size(), 1u);
  EXPECT_EQ(csv.problems[0].path, "line 3");
  EXPECT_TRUE(csv.loss.empty());

  // A number that is not one.
  const LogReading bad = read_training_log("step: 1  loss: 9.1  tps: 1,000\nstep: 2  loss: 8.0  tps: abc\n");
  EXPECT_FALSE(bad.ok);
  ASSERT_EQ(bad.problems.size(), 1u);
  EXPECT_EQ(bad.problems[0].path, "line 2");

  const LogReading none = read_training_log("hello\nworld\n");
  EXPECT_FALSE(none.ok);
  ASSERT_EQ(none.problems.size(), 1u);
  EXPECT_NE(none.problems[0].message.find("no line of a known training log"), std::string::npos);
}

TEST(PilotLog, ApplyingAReadingFillsThePilotBlock) {
  PilotMeasurement pilot;
  pilot.instances = 2;
  const LogReading r = read_fixture("torchtitan.log");
  const std::vector<std::string> set = apply_reading(r, 32, pilot);
  // tokens/s over the cluster: 6,551.5 per chip x 32 chips = 209,648.
  EXPECT_DOUBLE_EQ(*pilot.tokens_per_sec, 209648);
  EXPECT_NEAR(*pilot.mfu, 0.3818, 1e-12);
  EXPECT_EQ(*pilot.instances, 2);
  EXPECT_EQ(set.front(), "tokens_per_sec");
  const OrderedJson j = reading_to_json(r);
  EXPECT_EQ(j["format"], "torchtitan");
  EXPECT_EQ(j["warmup_skipped"], 1);
}

}  // namespace
}  // namespace traincost
