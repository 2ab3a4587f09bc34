// The step-time error band an option shows is the held-out error of its workload's kind of model
// (dense or mixture of experts) on its chip family (resolve_pair.cpp), read from the catalog's
// performance block, which `traincost calibrate` writes from the validation.
#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/evidence/calibration.hpp"
#include "traincost/output/present.hpp"

namespace traincost {
namespace {

const PairPerformance& option_of(const ResolvedScenario& r, const std::string& instance) {
  for (size_t o = 0; o < r.options.size(); ++o)
    if (r.options[o].instance == instance) return r.workloads[0].options[o].performance;
  ADD_FAILURE() << "no option on " << instance;
  return r.workloads[0].options[0].performance;
}

TEST(ErrorBand, TheSplitSummariesAddUpToTheWholeOnes) {
  // Every held-out (and calibration) row is either dense or a mixture of experts.
  const Validation v = validate(builtin_measurements(), builtin_catalog());
  EXPECT_EQ(v.nvidia_dense_holdout.rows + v.nvidia_moe_holdout.rows, v.nvidia_holdout.rows);
  EXPECT_EQ(v.nvidia_dense_calibration.rows + v.nvidia_moe_calibration.rows, v.nvidia_calibration.rows);
  EXPECT_EQ(v.trainium_dense_holdout.rows + v.trainium_moe_holdout.rows, v.trainium_holdout.rows);
  EXPECT_EQ(v.trainium_dense_calibration.rows + v.trainium_moe_calibration.rows, v.trainium_calibration.rows);
  // No Trainium MoE training is published; NVIDIA's MoE rows exist (assets/measurements.json).
  EXPECT_EQ(v.trainium_moe_holdout.rows, 0);
  EXPECT_GT(v.nvidia_moe_holdout.rows, 0);
  const Performance& perf = builtin_catalog().performance;
  EXPECT_EQ(perf.nvidia.dense_holdout_rows.value + perf.nvidia.moe_holdout_rows.value, perf.nvidia.holdout_rows.value);
  EXPECT_EQ(perf.trainium.dense_holdout_rows.value + perf.trainium.moe_holdout_rows.value, perf.trainium.holdout_rows.value);
}

TEST(ErrorBand, ADenseOptionShowsTheDenseRowsErrorAndAnMoeOptionTheMoeRows) {
  const Catalog& c = builtin_catalog();
  const FamilyPerformance& nvidia = c.performance.nvidia;
  // The default example (Llama 3 8B, dense) on p5.48xlarge (H100, validated): NVIDIA's dense band.
  const ResolvedScenario dense = resolve(test::scenario(test::read_source_file("assets/scenarios/llama3-8b-pretrain.json")), c);
  const PairPerformance& h100 = option_of(dense, "p5.48xlarge");
  EXPECT_FALSE(h100.moe);
  EXPECT_DOUBLE_EQ(h100.error_median, nvidia.dense_holdout_median_error.value);
  EXPECT_DOUBLE_EQ(h100.error_p90, nvidia.dense_holdout_p90_error.value);
  EXPECT_EQ(h100.measurements, nvidia.dense_holdout_rows.value + nvidia.dense_calibration_rows.value);
  EXPECT_EQ(h100.evidence, "NVIDIA dense training");
  // Mixtral (8 experts) on p5en.48xlarge (H200, validated): NVIDIA's MoE band, wider than the dense one.
  const Scenario moe_scenario = test::scenario(test::read_source_file("assets/scenarios/mixtral-moe.json"));
  const ResolvedScenario moe = resolve(moe_scenario, c);
  const PairPerformance& h200 = option_of(moe, "p5en.48xlarge");
  EXPECT_TRUE(h200.moe);
  EXPECT_FALSE(h200.moe_unmeasured);
  EXPECT_DOUBLE_EQ(h200.error_median, nvidia.moe_holdout_median_error.value);
  EXPECT_DOUBLE_EQ(h200.error_p90, nvidia.moe_holdout_p90_error.value);
  EXPECT_EQ(h200.measurements, nvidia.moe_holdout_rows.value + nvidia.moe_calibration_rows.value);
  EXPECT_EQ(h200.evidence, "NVIDIA mixture-of-experts training");
  EXPECT_GT(h200.error_median, 2 * h100.error_median);
  // Mixtral on Trainium2: no Trainium MoE row, so the family's band is its dense one doubled, and
  // Trainium2's own calibration (two rows) at least doubles that again:
  //   median = max(2 × 2 × Trn1 dense median, Trainium2's own held-out median).
  const FamilyPerformance& trn = c.performance.trainium;
  const PairPerformance& trn2 = option_of(moe, "trn2.48xlarge");
  EXPECT_TRUE(trn2.moe_unmeasured);
  EXPECT_DOUBLE_EQ(trn2.error_median, std::max(4 * trn.dense_holdout_median_error.value, c.performance.trainium2.holdout_median_error.value));
  EXPECT_DOUBLE_EQ(trn2.error_p90, std::max(4 * trn.dense_holdout_p90_error.value, c.performance.trainium2.holdout_p90_error.value));
  // The sentence says which evidence the band is of.
  size_t o = 0;
  while (moe.options[o].instance != "trn2.48xlarge") ++o;
  const EstimateFlags f = estimate_flags(moe_scenario, moe, 0, o, c);
  std::string all;
  for (const std::string& reason : f.reasons) all += reason + "\n";
  EXPECT_NE(all.find("published measurements of AWS Trainium2 dense training, none of mixture-of-experts training: band doubled (median error"),
            std::string::npos)
      << all;
}

}  // namespace
}  // namespace traincost
