#pragma once
// Calibration and validation of the step-time model on published measurements
// (assets/measurements.json): each measurement is a model trained on a cluster laid out a stated
// way, with its measured tokens per second per chip. Comparing tokens per second keeps FLOP
// counting conventions out of the comparison.
//
// The fit adjusts a chip family's few efficiency factors (performance.hpp's Calibration) to the
// rows marked "calibration" and never sees the rows marked "holdout"; the validation reports how
// wrong the model is on both. The catalog stores the fitted factors and the held-out errors, and
// a test re-runs the fit and fails when they disagree (so no factor is tuned by hand).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traincost/data/catalog.hpp"
#include "traincost/model/performance.hpp"

namespace traincost {

struct Measurement {
  std::string id;
  std::string source;      // key into MeasurementSet::sources
  std::string row;         // where in the source
  bool holdout = false;    // set "holdout": never used by the fit
  bool excluded = false;   // not comparable (a hardware variant TrainCost has no profile for)
  std::string excluded_reason;
  std::string chip;        // catalog chip id
  double chips = 0;
  double network_gbps_per_chip = 0;
  std::string model_name;
  Shape shape;
  Precision precision = Precision::BF16;
  double global_batch_sequences = 0;
  LayoutPins layout;       // the keys the source states; the others are searched
  // The share of the layers' forward matmuls its framework's checkpoint policy recomputes, where
  // the source's configuration says (layout.recomputed_matmul_share; below 0: the recompute mode's).
  double recomputed_matmul_share = -1;
  // Megatron-Core's expert-parallel overlap (layout.moe_a2a_overlap, the recipe's moe_a2a_overlap):
  // one micro-batch's all-to-alls run under another's compute.
  bool expert_overlap = false;
  // The token dispatcher its recipe runs (layout.moe_dispatcher: "all_to_all" or "flex", from the
  // row's recipe: moe_token_dispatcher_type / moe_flex_dispatcher_backend).
  MoeDispatcher dispatcher = MoeDispatcher::AllToAll;
  double tokens_per_sec_per_chip = 0;
  bool derived = false;    // tokens/s computed from a FLOP rate, not published as such
  std::string note;
};

struct MeasurementSource {
  std::string id, title, url, as_of;
};

struct MeasurementSet {
  std::vector<MeasurementSource> sources;
  std::vector<Measurement> rows;
  std::string split_rule;
  const MeasurementSource* find_source(std::string_view id) const;
};

std::optional<MeasurementSet> load_measurements(std::string_view json_text, const Catalog& catalog, Problems& problems);

// The model's tokens/s per chip for a measurement: the stated layout, the rest searched.
struct MeasuredPrediction {
  bool found = false;
  double tokens_per_sec_per_chip = 0;
  Layout layout;
  double error = 0;  // predicted / measured - 1
};
MeasuredPrediction predict(const Measurement& m, const Catalog& catalog, const Calibration& calibration);

struct FittedCalibration {
  Calibration nvidia;
  Calibration trainium;   // fitted on Trn1's rows
  Calibration trainium2;  // Trn1's, with Trainium2's own matmul efficiency
  double nvidia_loss = 0, trainium_loss = 0, trainium2_loss = 0;  // mean squared log error over the calibration rows
};
// Which calibration predicts a measurement: NVIDIA's, Trainium's (fitted on Trn1), or Trainium2's
// (the chips of the catalog's performance.trainium2).
enum class CalibrationGroup { Nvidia, Trainium, Trainium2 };
CalibrationGroup calibration_group(const Catalog& catalog, const Measurement& m);
const Calibration& calibration_for(const FittedCalibration& fit, CalibrationGroup group);
// The catalog's calibrations, as the fit's type.
FittedCalibration catalog_calibration(const Catalog& catalog);

// Trainium's attention efficiency and GEMM knee, which Trn1's calibration rows do not identify:
// with the matmul efficiency and memory-bound bytes refitted at each knee, the rows' RMS log error
// is 0.099 at a knee of 98, 0.095 at 211 (its minimum) and 0.096 at 300, a knee trading off
// against the matmul efficiency (0.52 at 98, 0.72 at 300); set free, the attention efficiency runs
// off without bound. So Trainium keeps the values its matmul efficiency and memory-bound bytes
// were fitted with: NVIDIA's fit of 2026-12-05 before NVIDIA's gradients were reduced in FP32
// (kReducedGradientBytes). That change moved NVIDIA's knee (98 -> 181) through NVIDIA's
// data-parallel time, which Trainium's 16-bit reduction does not share, so it carries no evidence
// about Trainium's matmuls. Held out, the fitted knee of 211 does worse on Trn1 (median 7.9%
// against 6.6%) and Trainium2 (16% against 14%). Replace both when Trainium rows pin them.
inline constexpr double kTrainiumAttentionEfficiency = 0.3615;
inline constexpr double kTrainiumGemmKnee = 98.34;

// Fits NVIDIA's five factors (BF16 and FP8 matmul efficiency, attention efficiency, GEMM knee,
// memory-bound bytes), with the MoE overhead's own bytes when a calibration row is a mixture of
// experts and the flex dispatcher's share of them when one runs flex, on its calibration rows, then Trainium's matmul efficiency and memory-bound
// bytes on Trn1's (its attention efficiency and GEMM knee are kTrainiumAttentionEfficiency and
// kTrainiumGemmKnee: Trn1's rows do not identify them), then Trainium2's matmul efficiency alone on Trainium2's rows (one row calibrates:
// one factor, which that row pins; everything else is Trn1's). Deterministic: Nelder-Mead from
// fixed starting points, a fixed number of steps.
FittedCalibration fit_calibration(const MeasurementSet& set, const Catalog& catalog);

struct ErrorSummary {
  int rows = 0;
  double median = 0;  // of |predicted / measured - 1|
  double p90 = 0;
  double worst = 0;
};
struct ValidationRow {
  const Measurement* measurement = nullptr;
  MeasuredPrediction prediction;
};
struct Validation {
  std::vector<ValidationRow> rows;
  ErrorSummary nvidia_calibration, nvidia_holdout, trainium_calibration, trainium_holdout, trainium2_calibration, trainium2_holdout;
  // The same rows split by the model's kind (mixture of experts: more than one expert; dense
  // otherwise), per family: an option's error band is that of its workload's kind, since the
  // model's error on one kind says little about the other's. Each pair of kinds adds up to the
  // all-rows summary's rows. (Trainium2's own rows are summarized whole: they are all dense.)
  ErrorSummary nvidia_dense_calibration, nvidia_dense_holdout, nvidia_moe_calibration, nvidia_moe_holdout;
  ErrorSummary trainium_dense_calibration, trainium_dense_holdout, trainium_moe_calibration, trainium_moe_holdout;
};

// Every row predicted with the given calibrations (by default the catalog's).
Validation validate(const MeasurementSet& set, const Catalog& catalog, const FittedCalibration& calibrations);
Validation validate(const MeasurementSet& set, const Catalog& catalog);

// The fitted factors, rounded to four significant digits as the catalog stores them.
FittedCalibration rounded(const FittedCalibration& fit);

}  // namespace traincost
