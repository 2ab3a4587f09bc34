// `calibrate`, `validate` and `replay`: the step-time model against the published measurements it
// is calibrated on (assets/measurements.json), and the whole model against published training
// runs (assets/published_runs.json).
#include <cstdio>

#include "cli_io.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/evidence/calibration.hpp"
#include "traincost/engine/replay.hpp"
#include "traincost/output/validation_report.hpp"

namespace traincost::cli {

// Fits the family factors on the calibration rows and prints them as the catalog's
// "performance" section, with the errors of the fitted model (scripts/update-calibration).
int calibrate(const Args& args) {
  const Flags flags = parse_flags(args, {"--as-of"});
  if (!flags.error.empty() || !flags.positional.empty()) {
    std::fprintf(stderr, "usage: traincost calibrate [--as-of YYYY-MM-DD]\n");
    return kUsageError;
  }
  const MeasurementSet& set = builtin_measurements();
  const FittedCalibration fit = rounded(fit_calibration(set, builtin_catalog()));
  const Validation v = validate(set, builtin_catalog(), fit);
  std::puts(calibration_json(fit, v, flags.get("--as-of", builtin_catalog().version)).c_str());
  return kOk;
}

// The validation table: every measurement, predicted with the catalog's calibration.
int validate_model(const Args& args) {
  const Flags flags = parse_flags(args, {"--format"});
  const std::string format = flags.get("--format", "markdown");
  if (!flags.error.empty() || !flags.positional.empty() || (format != "markdown" && format != "html")) {
    std::fprintf(stderr, "usage: traincost validate [--format markdown|html]\n");
    return kUsageError;
  }
  const MeasurementSet& set = builtin_measurements();
  const Validation v = validate(set, builtin_catalog());
  std::fputs((format == "html" ? validation_html(set, v) + "\n" : validation_markdown(set, v)).c_str(), stdout);
  return kOk;
}

// Every published run replayed from its public inputs: predicted vs published chip-hours, step
// MFU vs realized MFU (docs/validation.md and the methodology page carry the Markdown and HTML).
int replay(const Args& args) {
  const Flags flags = parse_flags(args, {"--format"});
  const std::string format = flags.get("--format", "text");
  if (!flags.error.empty() || !flags.positional.empty() ||
      (format != "text" && format != "json" && format != "markdown" && format != "csv" && format != "html")) {
    std::fprintf(stderr, "usage: traincost replay [--format text|json|markdown|csv|html]\n");
    return kUsageError;
  }
  const RunLibrary& library = builtin_published_runs();
  const Replay r = traincost::replay(library, builtin_catalog());
  if (format == "json") std::puts(replay_json(r, library).dump(2).c_str());
  else if (format == "markdown") std::fputs(replay_markdown(r, library).c_str(), stdout);
  else if (format == "csv") std::fputs(replay_csv(r).c_str(), stdout);
  else if (format == "html") std::puts(replay_html(r, library).c_str());
  else std::fputs(replay_text(r).c_str(), stdout);
  return kOk;
}

}  // namespace traincost::cli
