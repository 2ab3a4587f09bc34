#pragma once
// How much the evidence behind a step-time prediction widens its error band, and when a band makes
// the figures resting on it estimates (≈). One declaration each, used by the band itself
// (engine/resolve_pair.cpp) and by the methodology page's sentence about it
// (output/validation_report.cpp), so that the page cannot say another rule than the one applied.
namespace traincost {

// Thin evidence multiplies a band by this, once: a family with no held-out row of the workload's
// kind, a chip calibrated on too few rows to show a spread, a chip with no measurement of its own
// (which borrows another's calibration), a step derived rather than measured (a LoRA's frozen base).
inline constexpr double kThinEvidenceFactor = 2;

// A band at least as wide as thin evidence would make its family's dense one is itself thin
// evidence: the workload's kind errs that much even where it is measured (NVIDIA's mixture-of-
// experts rows). Figures resting on it are marked as estimates.
inline bool band_is_estimate(double median_error, double family_dense_median_error) {
  return median_error >= kThinEvidenceFactor * family_dense_median_error;
}

}  // namespace traincost
