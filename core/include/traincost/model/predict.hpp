#pragma once
// From the catalog and a scenario to the step-time model's inputs: a chip's hardware profile, its
// family's calibration, and the shape of a workload's model (with an assumed architecture when the
// scenario gives only a parameter count).
#include <string>

#include "traincost/data/catalog.hpp"
#include "traincost/model/performance.hpp"
#include "traincost/scenario/scenario.hpp"

namespace traincost {

// The chip as the step-time model sees it: peaks at the precision (FP8 matmuls only where the
// chip runs FP8 faster than BF16), measured matmul ceilings where published, memory in bytes,
// and links. `network_gbps_per_chip` is the cluster's scale-out network (an instance's EFA / its
// chips); 0 takes the chip's usual figure.
HardwareProfile hardware_profile(const Chip& chip, Precision precision, double network_gbps_per_chip = 0);

// A family's calibrated factors from the catalog. Trainium's FP8 matmuls are assumed to reach the
// same share of their peak as its BF16 ones (no FP8 Trainium training has been published).
Calibration calibration_of(const Catalog& catalog, Family family);
// A chip's calibration: its family's, with the matmul efficiency of its own calibration where the
// catalog has one (Trainium2 and the chips that borrow it).
Calibration calibration_of(const Catalog& catalog, Family family, std::string_view chip);

// The model's shape. Without layers, hidden size and sequence length the architecture is assumed
// from the parameter count as for a Llama-style model (assumed_architecture below), and
// `assumed` says so.
Shape shape_of(const Model& model, bool* assumed = nullptr);

// Layers and width of a dense decoder with `params` parameters, as Llama-style models are shaped:
// width 128 × layers (Kaplan et al. 2020's aspect ratio for efficient models), 12 × layers ×
// width² parameters, so layers = (params / 196,608)^(1/3), width rounded to a multiple of 128,
// sequence length 4,096, heads of 128 channels.
Model assumed_architecture(double params);

}  // namespace traincost
