// The step-time model's calibration: the catalog's factors are what the fit produces (nobody tunes
// them by hand), and the catalog never claims the model is more accurate than the held-out rows show.
#include "traincost/api/builtin.hpp"
#include "traincost/evidence/calibration.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "test_support.hpp"
#include "traincost/model/predict.hpp"

namespace traincost {
namespace {

void expect_close(double fitted, const Figure& stored, const char* what) {
  // The catalog keeps four significant digits.
  EXPECT_NEAR(fitted, stored.value, std::abs(stored.value) * 1e-3) << what << ": rerun scripts/update-calibration";
}

TEST(Calibration, TheCatalogHoldsWhatTheFitProduces) {
  const FittedCalibration fit = fit_calibration(builtin_measurements(), builtin_catalog());
  const Performance& p = builtin_catalog().performance;
  expect_close(fit.nvidia.matmul_efficiency, p.nvidia.matmul_efficiency, "nvidia matmul_efficiency");
  expect_close(fit.nvidia.fp8_matmul_efficiency, p.nvidia.fp8_matmul_efficiency, "nvidia fp8_matmul_efficiency");
  expect_close(fit.nvidia.attention_efficiency, p.nvidia.attention_efficiency, "nvidia attention_efficiency");
  expect_close(fit.nvidia.gemm_knee, p.nvidia.gemm_knee, "nvidia gemm_knee");
  expect_close(fit.nvidia.memory_bound_bytes, p.nvidia.memory_bound_bytes, "nvidia memory_bound_bytes");
  expect_close(fit.nvidia.moe_overhead_bytes, p.nvidia.moe_overhead_bytes, "nvidia moe_overhead_bytes");
  expect_close(fit.nvidia.flex_moe_share, p.nvidia.flex_moe_share, "nvidia flex_moe_share");
  expect_close(fit.trainium.matmul_efficiency, p.trainium.matmul_efficiency, "trainium matmul_efficiency");
  expect_close(fit.trainium.memory_bound_bytes, p.trainium.memory_bound_bytes, "trainium memory_bound_bytes");
  expect_close(fit.trainium2.matmul_efficiency, p.trainium2.matmul_efficiency, "trainium2 matmul_efficiency");
  // Trainium2 fits its matmul efficiency alone: every other factor is Trn1's.
  EXPECT_EQ(fit.trainium2.memory_bound_bytes, fit.trainium.memory_bound_bytes);
  EXPECT_EQ(fit.trainium2.attention_efficiency, fit.trainium.attention_efficiency);
  EXPECT_EQ(fit.trainium2.gemm_knee, fit.trainium.gemm_knee);
  // No Trainium MoE row calibrates: no MoE overhead bytes of its own, no flex share.
  EXPECT_EQ(fit.trainium.moe_overhead_bytes, 0);
  EXPECT_EQ(fit.trainium.flex_moe_share, 1);
}

// NVIDIA's matmul efficiencies are shares of a measured ceiling (MAMF, the best a GEMM reached in a
// sweep): a training step's matmuls cannot beat it, so the fit stops at 1. Unbounded, the FP8 share
// fitted 1.008 (2026-12-05); bounded, it sits at 1 exactly.
TEST(Calibration, MatmulEfficienciesOfAMeasuredCeilingNeverExceedIt) {
  const FittedCalibration fit = fit_calibration(builtin_measurements(), builtin_catalog());
  EXPECT_LE(fit.nvidia.matmul_efficiency, 1.0);
  EXPECT_LE(fit.nvidia.fp8_matmul_efficiency, 1.0);
  EXPECT_DOUBLE_EQ(fit.nvidia.fp8_matmul_efficiency, 1.0);
}

TEST(Calibration, TrainiumTwoIsPredictedWithItsOwnCalibrationAndThreeBorrowsIt) {
  const Catalog& c = builtin_catalog();
  const double own = c.performance.trainium2.matmul_efficiency.value;
  EXPECT_EQ(calibration_of(c, Family::Trainium, "trn2").matmul_efficiency, own);
  EXPECT_EQ(calibration_of(c, Family::Trainium, "trn3").matmul_efficiency, own);
  EXPECT_EQ(calibration_of(c, Family::Trainium, "trn1").matmul_efficiency, c.performance.trainium.matmul_efficiency.value);
  EXPECT_TRUE(c.performance.validated("trn2"));
  EXPECT_FALSE(c.performance.validated("trn3"));
  // The AXLearn rows: the calibration row within 15% of its measured tokens/s, and the held-out
  // row too (issue 28's mark), within the band the catalog states for Trainium2. Each row counts
  // the matmuls its checkpoint policy recomputes (45% of the 7B's forward, 8% of the 70B's); with
  // the 7B counted as full recomputation the 70B was 29% too fast.
  const Validation v = validate(builtin_measurements(), c);
  int trn2_rows = 0;
  for (const ValidationRow& row : v.rows) {
    if (row.measurement->chip != "trn2") continue;
    ++trn2_rows;
    ASSERT_TRUE(row.prediction.found) << row.measurement->id;
    EXPECT_GE(row.measurement->recomputed_matmul_share, 0) << row.measurement->id;
    if (row.measurement->holdout) {
      EXPECT_LE(std::abs(row.prediction.error), c.performance.trainium2.holdout_p90_error.value + 1e-12) << row.measurement->id;
    }
    EXPECT_LT(std::abs(row.prediction.error), 0.15) << row.measurement->id;
  }
  EXPECT_EQ(trn2_rows, 2);
  EXPECT_EQ(v.trainium2_calibration.rows, 1);
  EXPECT_EQ(v.trainium2_holdout.rows, 1);
}

TEST(Calibration, TheCatalogNeverClaimsBetterThanTheHeldOutRowsShow) {
  const Validation v = validate(builtin_measurements(), builtin_catalog());
  const Performance& p = builtin_catalog().performance;
  EXPECT_GE(p.nvidia.holdout_median_error.value, v.nvidia_holdout.median - 1e-12);
  EXPECT_GE(p.nvidia.holdout_p90_error.value, v.nvidia_holdout.p90 - 1e-12);
  EXPECT_GE(p.trainium.holdout_median_error.value, v.trainium_holdout.median - 1e-12);
  EXPECT_GE(p.trainium.holdout_p90_error.value, v.trainium_holdout.p90 - 1e-12);
  EXPECT_EQ(p.nvidia.holdout_rows.value, v.nvidia_holdout.rows);
  EXPECT_EQ(p.trainium.holdout_rows.value, v.trainium_holdout.rows);
  EXPECT_GE(p.trainium2.holdout_median_error.value, v.trainium2_holdout.median - 1e-12);
  EXPECT_GE(p.trainium2.holdout_p90_error.value, v.trainium2_holdout.p90 - 1e-12);
  EXPECT_EQ(p.trainium2.holdout_rows.value, v.trainium2_holdout.rows);
  // Sanity of the model itself: held-out median within 15% for both families.
  EXPECT_LT(v.nvidia_holdout.median, 0.15);
  EXPECT_LT(v.trainium_holdout.median, 0.15);
}

TEST(Calibration, TheFitNeverSeesTheHeldOutRows) {
  // Changing a held-out measurement changes nothing in the fit.
  MeasurementSet set = builtin_measurements();
  const FittedCalibration before = fit_calibration(set, builtin_catalog());
  for (Measurement& m : set.rows)
    if (m.holdout) m.tokens_per_sec_per_chip *= 3;
  const FittedCalibration after = fit_calibration(set, builtin_catalog());
  EXPECT_EQ(before.nvidia.matmul_efficiency, after.nvidia.matmul_efficiency);
  EXPECT_EQ(before.trainium.memory_bound_bytes, after.trainium.memory_bound_bytes);
  EXPECT_EQ(before.trainium2.matmul_efficiency, after.trainium2.matmul_efficiency);
}

TEST(Calibration, EveryChipAndFamilyIsInBothSetsAndTheValidatedListIsRight) {
  std::set<std::string> calibration, holdout;
  for (const Measurement& m : builtin_measurements().rows) {
    if (m.excluded) continue;
    (m.holdout ? holdout : calibration).insert(m.chip);
  }
  std::set<std::string> both;
  for (const std::string& c : calibration)
    if (holdout.count(c)) both.insert(c);
  // Every chip with measurements appears in both sets (so each is tested on rows the fit never saw).
  EXPECT_EQ(both, calibration);
  // The catalog's list of validated chips is exactly the measured ones.
  const std::vector<std::string>& listed = builtin_catalog().performance.validated_chips;
  EXPECT_EQ(std::set<std::string>(listed.begin(), listed.end()), calibration);
}

TEST(Calibration, MeasurementsAreReadWithTheirSources) {
  const MeasurementSet& set = builtin_measurements();
  EXPECT_GE(set.rows.size(), 100u);
  for (const Measurement& m : set.rows) {
    const MeasurementSource* s = set.find_source(m.source);
    ASSERT_NE(s, nullptr) << m.id;
    EXPECT_FALSE(s->url.empty()) << m.id;
    EXPECT_EQ(s->as_of.size(), 10u) << m.id << ": as_of must be a day, YYYY-MM-DD";
  }
}

TEST(Calibration, ARecomputedShareOutsideZeroToOneIsRefusedByName) {
  const std::string row = R"({"id":"x","source":"s","set":"holdout","chip":"trn2","chips":16,
    "model":{"params":1e9,"layers":10,"hidden":1024,"vocab":32000},"seq_len":2048,"global_batch_sequences":16,
    "layout":{"recompute":"selective","recomputed_matmul_share":SHARE},"tokens_per_sec_per_chip":1000})";
  auto load = [&](const std::string& share) {
    std::string r = row;
    r.replace(r.find("SHARE"), 5, share);
    Problems problems;
    const auto set = load_measurements(R"({"sources":{"s":{"title":"t","url":"u","as_of":"2025-01-01"}},"measurements":[)" + r + "]}",
                                       builtin_catalog(), problems);
    return std::make_pair(set.has_value() ? set->rows[0].recomputed_matmul_share : -2.0, problems);
  };
  const auto [share, none] = load("0.25");
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(share, 0.25);
  const auto [refused, problems] = load("1.5");
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].path, "measurements[0].layout.recomputed_matmul_share");
}

}  // namespace
}  // namespace traincost
