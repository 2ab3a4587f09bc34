#pragma once
// Convergence from loss curves (issue 31, item 4): how many tokens the candidate needs to reach the
// loss the reference curve (the incumbent's run, or a reference run of the same recipe) ended at.
//
// Method, per curve: the points after the first 10% of its tokens (the learning-rate warm-up) are
// fitted with L(D) = E + A·D^-α by least squares (α on a grid, then refined; E and A in closed
// form for each α). A loss spike is left out: the point furthest from the fit is dropped while it
// lies more than 5 robust standard deviations (1.4826 × the median absolute residual of the
// others) from it, up to a tenth of the points, and the curve is refitted. The target is the
// reference's fitted loss at its last fitted point, D_ref; the candidate's tokens to it are its
// fit solved for D; the ratio is D_candidate ÷ D_ref (1.08: the candidate needs 8% more tokens).
// The interval is a residual bootstrap (both curves' residuals resampled onto their fits, both
// refitted, 400 times from a fixed seed: the same answer every time), its 5th and 95th percentiles.
//
// No number is given when the curves cannot tell, and the reason is said plainly:
//   - too noisy (judged first, so that noise is not called shortness): the 90% interval is wider
//     than 0.2 (the ratio known to worse than ±10%), or more than a tenth of the resampled fits
//     never reach the target (or, when the fit itself never does, a tenth of them do);
//   - too short: fewer than 8 points to fit on either curve, or the candidate would reach the
//     target only more than 25% beyond its last point;
//   - non-overlapping: the candidate's curve starts below the target (it says nothing about
//     getting there), or its fit levels off above it.
#include <cstdint>
#include <string>
#include <vector>

#include "traincost/base/enum_words.hpp"
#include "traincost/scenario/scenario.hpp"

namespace traincost {

inline constexpr int kConvergenceMinPoints = 8;
inline constexpr double kConvergenceWarmupShare = 0.10;    // of a curve's last tokens, left out of its fit
inline constexpr double kConvergenceMaxExtrapolation = 1.25;  // × the candidate's last tokens
inline constexpr double kConvergenceSpikeSigmas = 5;
inline constexpr double kConvergenceMaxWidth = 0.20;       // of the 90% interval of the ratio
inline constexpr int kConvergenceResamples = 400;
inline constexpr uint64_t kConvergenceSeed = 31;

// L(D) = E + A·(D / scale)^-alpha over the points it was fitted to.
struct LossCurveFit {
  bool ok = false;
  double E = 0, A = 0, alpha = 0, scale = 1;
  int points = 0;                 // fitted
  double first_tokens = 0, last_tokens = 0;  // of the fitted points
  double residual_sd = 0;         // root mean square of the residuals
  std::vector<LossPoint> spikes;  // left out of the fit
  double loss_at(double tokens) const;
  double tokens_to(double loss) const;  // 0 when the fit never gets there (loss ≤ E)
};
LossCurveFit fit_loss_curve(const std::vector<LossPoint>& curve, double scale);

enum class ConvergenceState { NoCurves, Measured, TooShort, NonOverlapping, TooNoisy };
inline constexpr EnumWord<ConvergenceState> kConvergenceStateWords[] = {
    {ConvergenceState::NoCurves, "no_curves", "no loss curves to compare"},
    {ConvergenceState::Measured, "measured", "measured"},
    {ConvergenceState::TooShort, "too_short", "the curves are too short to tell"},
    {ConvergenceState::NonOverlapping, "non_overlapping", "the curves do not overlap"},
    {ConvergenceState::TooNoisy, "too_noisy", "the curves are too noisy to tell"}};

struct ConvergenceEstimate {
  ConvergenceState state = ConvergenceState::NoCurves;
  std::string reason;              // why there is no number (plain words), when not measured
  double ratio = 0, low = 0, high = 0;  // candidate ÷ reference tokens to the target; 90% interval
  double target_loss = 0;          // the reference's fitted loss at its last fitted point
  double reference_tokens = 0, candidate_tokens = 0;
  LossCurveFit candidate, reference;
  int resamples = 0, failed_resamples = 0;
  uint64_t seed = 0;
  bool measured() const { return state == ConvergenceState::Measured; }
};
ConvergenceEstimate estimate_convergence(const std::vector<LossPoint>& candidate, const std::vector<LossPoint>& reference);

// The pilot block's curves compared (its loss against its reference_loss); the same curves give the
// same estimate, worked out once (a few are kept: resolve asks for each option many times).
ConvergenceEstimate convergence_of(const PilotMeasurement& pilot);

// The convergence penalty a measured ratio gives the option: ratio − 1 held to the field's range
// [0, 1] (the reference is taken to converge in the target's tokens).
inline double penalty_of_ratio(double ratio) { return ratio < 1 ? 0.0 : ratio > 2 ? 1.0 : ratio - 1; }

}  // namespace traincost
