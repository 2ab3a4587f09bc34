// The step-time model's calibration: the catalog's factors are what the fit produces (nobody tunes
// them by hand), and the catalog never claims the model is more accurate than the held-out rows show.
#include "traincost/api/builtin.hpp"
#include "traincost/evidence/calibration.hpp"

#include <gtest/gtest.h>

#include <algorithm>
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
  expect_close(fit.trainium.matmul_efficiency, p.trainium.matmul_efficiency, "trainium matmul_efficiency");
  expect_close(fit.trainium.memory_bound_bytes, p.trainium.memory_bound_bytes, "trainium memory_bound_bytes");
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

}  // namespace
}  // namespace traincost
