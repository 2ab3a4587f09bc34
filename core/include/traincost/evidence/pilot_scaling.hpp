#pragma once
// How well a pilot carries to a larger cluster (issue 31): the step-time model's ratio of measured
// to predicted throughput at the pilot's size, applied to its prediction at the planned size.
// Validated on the published measurements that exist at several sizes for the same model, chip,
// precision, sequence length and source (assets/measurements.json): the smallest size of each
// group plays the pilot, every larger size the planned cluster; the error is extrapolated ÷
// measured − 1 there. The constants below are that validation's result, rounded to three
// decimals; tests/core/pilot_scaling_test.cpp recomputes them and fails when they disagree.
#include <string>
#include <vector>

#include "traincost/evidence/calibration.hpp"

namespace traincost {

// Median and worst |extrapolated ÷ measured − 1| over the pairs below (catalog calibration).
inline constexpr double kPilotScalingMedianError = 0.096;
inline constexpr double kPilotScalingWorstError = 0.253;
inline constexpr int kPilotScalingPairs = 14;

// A measured throughput used at the size it was measured at is as uncertain as a measured rate
// (uncertainty.cpp's ±10% on measured_tokens_per_sec_per_chip).
inline constexpr double kPilotSameSizeError = 0.10;

struct PilotScalingPair {
  const Measurement* pilot = nullptr;
  const Measurement* planned = nullptr;
  double ratio = 0;         // measured ÷ predicted at the pilot
  double extrapolated = 0;  // predicted at the planned size × ratio, tokens/s per chip
  double error = 0;         // extrapolated ÷ measured − 1
};
struct PilotScalingValidation {
  std::vector<PilotScalingPair> pairs;
  double median = 0, worst = 0;  // of |error|
};
PilotScalingValidation validate_pilot_scaling(const MeasurementSet& set, const Catalog& catalog);

}  // namespace traincost
