#pragma once
// The step-time model's validation as people and the catalog read it.
#include <string>

#include "traincost/evidence/calibration.hpp"

namespace traincost {

// The validation table (docs/validation.md and the methodology page are generated from it), as
// Markdown or as HTML (every cell escaped).
std::string validation_markdown(const MeasurementSet& set, const Validation& v);
std::string validation_html(const MeasurementSet& set, const Validation& v);

// The fitted factors (rounded()) with the errors of the model using them: the catalog's
// "performance" section (scripts/update-calibration writes it).
std::string calibration_json(const FittedCalibration& rounded_fit, const Validation& v, const std::string& as_of);

}  // namespace traincost
