#include "traincost/model/predict.hpp"

#include <cmath>

#include "traincost/base/detmath.hpp"
#include "traincost/model/formulas.hpp"

namespace traincost {

HardwareProfile hardware_profile(const Chip& chip, Precision precision, double network_gbps_per_chip) {
  HardwareProfile hw;
  const double bf16 = chip.bf16_tflops.value * 1e12;
  const bool faster_fp8 = precision == Precision::FP8 && chip.fp8_tflops.present() && chip.fp8_tflops.value > chip.bf16_tflops.value;
  hw.fp8 = faster_fp8;
  hw.peak_bf16_flops = bf16;
  hw.peak_flops = faster_fp8 ? chip.fp8_tflops.value * 1e12 : bf16;
  hw.matmul_fraction_bf16 = chip.mamf_bf16_tflops.present() ? chip.mamf_bf16_tflops.value / chip.bf16_tflops.value : 1;
  hw.matmul_fraction = !faster_fp8 ? hw.matmul_fraction_bf16
                                   : chip.mamf_fp8_tflops.present() ? chip.mamf_fp8_tflops.value / chip.fp8_tflops.value : 1;
  hw.hbm_bytes = chip.hbm_bytes();
  hw.hbm_bytes_per_sec = chip.hbm_bandwidth_tbps.value * 1e12;
  hw.scale_up_bytes_per_sec = chip.scale_up_gbps.value * 1e9;
  hw.scale_up_chips = chip.scale_up_chips.value;
  if (chip.family == Family::Nvidia) hw.reduced_gradient_bytes = kReducedGradientBytes;
  hw.network_bytes_per_sec = (network_gbps_per_chip > 0 ? network_gbps_per_chip : chip.network_gbps_per_chip.value) * 1e9 / 8;
  return hw;
}

Calibration calibration_of(const Catalog& catalog, Family family) {
  const FamilyPerformance& f = catalog.performance.family(family);
  Calibration c;
  c.matmul_efficiency = f.matmul_efficiency.value;
  c.fp8_matmul_efficiency = family == Family::Trainium ? f.matmul_efficiency.value : f.fp8_matmul_efficiency.value;
  c.attention_efficiency = f.attention_efficiency.value;
  c.gemm_knee = f.gemm_knee.value;
  c.memory_bound_bytes = f.memory_bound_bytes.value;
  c.moe_overhead_bytes = f.moe_overhead_bytes.present() ? f.moe_overhead_bytes.value : 0;
  c.flex_moe_share = f.flex_moe_share.present() ? f.flex_moe_share.value : 1;
  c.ring_efficiency = catalog.performance.ring_efficiency.value;
  return c;
}

Calibration calibration_of(const Catalog& catalog, Family family, std::string_view chip) {
  Calibration c = calibration_of(catalog, family);
  if (const ChipCalibration* own = catalog.performance.own_calibration(chip))
    c.matmul_efficiency = c.fp8_matmul_efficiency = own->matmul_efficiency.value;
  return c;
}

Model assumed_architecture(double params) {
  Model m;
  m.params = params;
  const double layers = std::max(2.0, std::round(det::pow(params / 196608, 1.0 / 3.0)));
  m.layers = static_cast<int>(layers);
  m.hidden = 128 * m.layers;
  m.heads = m.layers;  // 128 channels each
  m.seq_len = 4096;
  m.gated_ffn = false;
  return m;
}

Shape shape_of(const Model& model, bool* assumed) {
  const bool known = model.has_architecture();
  if (assumed) *assumed = !known;
  const Model arch = known ? model : assumed_architecture(model.params);
  Shape s;
  s.params = model.params;
  s.active_params = model.active();
  s.layers = arch.layers;
  s.hidden = arch.hidden;
  s.heads = arch.heads > 0 ? arch.heads : std::max(1.0, std::round(arch.hidden / 128.0));
  s.kv_heads = model.kv_heads > 0 ? model.kv_heads : s.heads;
  s.ffn = model.ffn_hidden > 0 ? model.ffn_hidden : 4.0 * arch.hidden;
  s.vocab = known ? model.vocab : 0;
  s.experts = model.experts;
  s.experts_per_token = model.experts > 0 ? std::max(1, model.experts_per_token) : 0;
  s.seq_len = arch.seq_len;
  s.gated_ffn = known ? model.gated_ffn : false;
  return s;
}

}  // namespace traincost
