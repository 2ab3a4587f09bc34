#include "traincost/engine/resolve_pair.hpp"

#include <algorithm>
#include <cmath>

#include "traincost/scenario/fields.hpp"
#include "traincost/model/fine_tune.hpp"
#include "traincost/model/formulas.hpp"
#include "traincost/scenario/labels.hpp"
#include "traincost/model/predict.hpp"
#include "traincost/evidence/convergence.hpp"
#include "traincost/evidence/error_band.hpp"
#include "traincost/evidence/pilot_scaling.hpp"
#include "traincost/evidence/published_runs.hpp"

namespace traincost {

std::optional<double> given_batch_tokens(const Workload& w) {
  if (w.global_batch_tokens) return *w.global_batch_tokens;
  if (w.target.kind == TargetKind::Steps) return w.target.tokens_per_step;
  return std::nullopt;
}

double batch_tokens_of(const Workload& w, const PairInputs& p) {
  if (const std::optional<double> given = given_batch_tokens(w)) return *given;
  return p.performance.batch_tokens > 0 ? p.performance.batch_tokens : kDefaultGlobalBatchTokens;
}

PairInputs resolve_option(const Option& o, const Catalog& catalog, const PlatformCosts& wc, OptionInfo* info_out) {
  PairInputs p;
  OptionInfo info;
  info.instance = o.instance;
  info.pricing = o.pricing;
  const Chip* chip = nullptr;
  if (o.instance == "custom" && o.custom) {
    chip = o.custom->chip.empty() ? nullptr : catalog.find_chip(o.custom->chip);
    p.chips_per_instance = o.custom->chips;
    info.provider = "custom";
    info.family = chip ? chip->family : o.custom->family;
  } else if (const Instance* inst = catalog.find_instance(o.instance)) {
    chip = catalog.find_chip(inst->chip);
    p.chips_per_instance = inst->chips;
    info.provider = inst->provider;
    info.catalog_price = &inst->price(o.pricing);
    info.network_gbps_per_chip = inst->network_gbps.present() && inst->chips > 0 ? inst->network_gbps.value / inst->chips : 0;
    if (!o.price_usd_per_hour && info.catalog_price->present()) {
      info.price_from_catalog = true;
      p.price_usd_per_hour = info.catalog_price->value;
    }
  }
  if (chip) {
    info.chip_name = chip->name;
    info.family = chip->family;
    info.chip = chip;
    const Figure& peak = chip->peak_tflops(o.precision);
    p.peak_flops_per_chip = peak.present() ? peak.value * 1e12 : 0;
    p.hbm_bytes_per_chip = chip->hbm_bytes();
  }
  if (o.custom && o.custom->peak_tflops > 0) p.peak_flops_per_chip = o.custom->peak_tflops * 1e12;
  if (o.custom && o.custom->memory_gb > 0) p.hbm_bytes_per_chip = o.custom->memory_gb * 1e9;
  if (o.custom && info.chip_name.empty()) info.chip_name = "custom chip";
  if (o.price_usd_per_hour) p.price_usd_per_hour = *o.price_usd_per_hour;
  info.label = o.label.empty() ? automatic_label(o, catalog) : o.label;

  p.instances = o.instances;
  p.discount = o.discount;
  p.wait_days = o.wait_days.value_or(0);
  p.max_instances = o.max_instances.value_or(0);
  info.throughput = o.pilot && o.pilot->has_rate()        ? ThroughputSource::Pilot
                    : o.measured_tokens_per_sec_per_chip ? ThroughputSource::Measured
                    : o.mfu || !o.mfu_from_run.empty() ? ThroughputSource::Mfu
                                                       : ThroughputSource::Predicted;
  p.mfu = o.mfu.value_or(0);  // a predicted MFU is filled per workload by resolve()
  // "Utilization as realized by run X": validate() has checked the run exists and has one.
  if (!o.mfu_from_run.empty()) {
    p.mfu_run = catalog.runs ? catalog.runs->find(o.mfu_from_run) : nullptr;
    if (p.mfu_run) p.mfu = realized_mfu_of(*p.mfu_run, catalog);
  }
  p.measured_tokens_per_sec_per_chip = o.measured_tokens_per_sec_per_chip.value_or(0);
  p.scaling_reference_chips = o.scaling_reference_chips.value_or(0);
  p.scaling_per_doubling = o.scaling_per_doubling;

  // Reliability: the option's value, else the catalog's for the instance type, else for the
  // chip family (its MTBF is per chip). Per type: AWS's Spot Instance Advisor band for reclaims.
  auto catalog_value = [&](const FieldSpec& f) {
    const Figure* figure = catalog.default_for(f.catalog_default, o.instance, info.family);
    return figure && figure->present() ? figure->value : 0.0;
  };
  p.mtbf_hours_per_instance = o.reliability.mtbf_hours_per_instance.value_or(
      catalog_value(fields::mtbf_hours_per_instance) / p.chips_per_instance);
  p.checkpoint_write_minutes = o.reliability.checkpoint_write_minutes.value_or(0);  // 0: derived per workload
  p.restart_minutes = o.reliability.restart_minutes.value_or(PairInputs::kDerived);
  p.checkpoint_interval_hours = o.reliability.checkpoint_interval_hours.value_or(0);  // 0: the Young/Daly optimum
  // Only spot capacity is reclaimed by default; on-demand, reserved and Capacity Blocks are held.
  p.spot_interruptions_per_hour = o.reliability.spot_interruptions_per_hour.value_or(
      o.pricing == PricingModel::Spot ? catalog_value(fields::spot_interruptions_per_hour) : 0.0);
  p.spot_recovery_hours = o.reliability.spot_recovery_hours.value_or(catalog_value(fields::spot_recovery_hours));
  for (const FieldSpec* f : {&fields::checkpoint_gbps_per_instance, &fields::checkpoint_blocking_share, &fields::job_restart_minutes,
                             &fields::replacement_share, &fields::replacement_minutes, &fields::lost_work_share})
    p.*(f->resolved) = f->get(o.reliability).value_or(catalog_value(*f));

  // Platform costs: the workload's override, then the option's value, then the catalog default
  // for the chip family (0 where the catalog has none).
  for (const FieldSpec* f : fields_of(Owner::Costs)) {
    const std::optional<double> value = f->get(wc) ? f->get(wc) : f->get(o.porting);
    p.*(f->resolved) = value ? *value : f->catalog_default ? catalog_value(*f) : 0.0;
  }
  // A pilot's loss curves that tell the tokens to the reference's loss replace the stated penalty
  // (uncertainty.cpp gives it the measurement's interval instead of the stated range).
  if (o.pilot && !o.pilot->loss.empty() && !o.pilot->reference_loss.empty()) {
    info.convergence = convergence_of(*o.pilot);
    if (info.convergence->measured()) p.convergence_penalty = penalty_of_ratio(info.convergence->ratio);
  }
  if (info_out) *info_out = std::move(info);
  return p;
}

namespace {

// The layout keys the workload pins for an option: its override's, else format 1's memory
// settings when they say more than the defaults (recomputation, tensor parallelism, micro-batch).
LayoutPins pins_of(const Workload& w, const WorkloadOverride* ov) {
  LayoutPins pins = ov ? ov->parallelism : LayoutPins{};
  if (!pins.recompute && w.recompute) pins.recompute = Recompute::Full;
  if (!pins.tensor && w.memory.tensor_parallel > 1) pins.tensor = w.memory.tensor_parallel;
  if (!pins.micro_batch && w.memory.micro_batch > 1) pins.micro_batch = w.memory.micro_batch;
  return pins;
}

// Hardware for a custom chip with the user's own figures: their peak and memory, with an
// HGX-class node's links assumed (450 GB/s per direction among 8, 400 Gbit/s per chip out).
HardwareProfile own_figures(const PairInputs& p) {
  HardwareProfile hw;
  hw.peak_flops = hw.peak_bf16_flops = p.peak_flops_per_chip;
  hw.hbm_bytes = p.hbm_bytes_per_chip;
  hw.hbm_bytes_per_sec = 3.35e12;
  hw.scale_up_bytes_per_sec = 450e9;
  hw.scale_up_chips = 8;
  hw.network_bytes_per_sec = 400e9 / 8;
  return hw;
}

// The step-time model's inputs for a pair (its shape, hardware and calibration) and the batch:
// the scenario's, else the default that grows with the cluster up to the compute-optimal batch
// (formulas.hpp), which the layout search may also raise a pipeline to.
StepInputs step_inputs(const Workload& w, const Option& o, const OptionInfo& info, const Catalog& catalog, const PairInputs& p,
                       double chips, PairPerformance& perf) {
  StepInputs in;
  in.shape = shape_of(w.model, &perf.assumed_architecture);
  in.hardware = info.chip ? hardware_profile(*info.chip, o.precision, info.network_gbps_per_chip) : own_figures(p);
  if (o.custom && o.custom->peak_tflops > 0) in.hardware.peak_flops = in.hardware.peak_bf16_flops = p.peak_flops_per_chip;
  if (o.custom && o.custom->memory_gb > 0) in.hardware.hbm_bytes = p.hbm_bytes_per_chip;
  in.calibration = info.chip ? calibration_of(catalog, info.family, info.chip->id) : calibration_of(catalog, info.family);
  const std::optional<double> given = given_batch_tokens(w);
  const double compute = training_flops(flops_per_token(w.model, false), target_tokens(w.target, w.model));
  perf.optimal_batch_tokens = std::isfinite(compute) && compute > 0 ? optimal_batch_tokens(compute) : kDefaultGlobalBatchTokens;
  perf.batch_default = !given;
  // A LoRA or QLoRA fine-tune steps on tens of sequences, as its published recipes do
  // (kAdapterBatchSequences), not on a pretraining batch; a full fine-tune keeps full training's.
  const bool adapter_batch = w.fine_tune.adapters();
  perf.batch_tokens = given           ? *given
                      : adapter_batch ? default_adapter_batch_tokens(chips, in.shape.seq_len, perf.optimal_batch_tokens)
                                      : default_batch_tokens(chips, perf.optimal_batch_tokens);
  in.global_batch_sequences = std::max(1.0, std::floor(perf.batch_tokens / in.shape.seq_len));
  // Full training's default may be raised toward Bopt to fill a pipeline; a fine-tune's stays the
  // recipe's (64 sequences already give 4 micro-batches to each of 16 stages).
  if (perf.batch_default && !adapter_batch)
    in.max_batch_sequences = std::max(in.global_batch_sequences, std::floor(perf.optimal_batch_tokens / in.shape.seq_len));
  in.bytes_per_param = w.memory.bytes_per_param;
  in.usable_fraction = w.memory.usable_fraction;
  // DeepEP and HybridEP run on NVIDIA GPUs only (their kernels are CUDA and NVSHMEM/RDMA): a
  // Trainium or custom option dispatches with an all-to-all whatever the workload says.
  in.moe_dispatcher = info.family == Family::Nvidia && info.chip ? w.moe_dispatcher : MoeDispatcher::AllToAll;
  if (w.fine_tune.adapters()) {
    const AdapterParams adapters = adapter_params(w.model, w.fine_tune);
    in.frozen_base = true;
    in.frozen_bytes_per_param = frozen_base_bytes(w.model, w.fine_tune.mode) / w.model.params;
    in.adapter_params = adapters.total;
    in.adapter_active_params = adapters.active;
  }
  perf.global_batch_sequences = in.global_batch_sequences;
  perf.usable_bytes_per_chip = in.hardware.hbm_bytes * in.usable_fraction;
  return in;
}

}  // namespace

PilotRate pilot_rate(const PilotMeasurement& m, const Model& model, double chips, double batch_sequences, double peak_flops_per_chip) {
  PilotRate r;
  if (chips <= 0) return r;
  const double seq = m.seq_len ? *m.seq_len : model.seq_len;
  Model at_pilot = model;
  at_pilot.seq_len = static_cast<int>(seq);
  const double batch = m.global_batch_sequences.value_or(batch_sequences);
  if (m.tokens_per_sec) {
    r = {*m.tokens_per_sec / chips, "tokens_per_sec"};
  } else if (m.samples_per_sec && seq > 0) {
    r = {*m.samples_per_sec * seq / chips, "samples_per_sec"};
  } else if (m.step_seconds && seq > 0 && batch > 0) {
    r = {batch * seq / *m.step_seconds / chips, "step_seconds"};
  } else if (m.tflops_per_chip) {
    const double per_token = flops_per_token(at_pilot, m.flops == FlopConvention::Hardware);
    if (per_token > 0) r = {*m.tflops_per_chip * 1e12 / per_token, "tflops_per_chip"};
  } else if (m.mfu && peak_flops_per_chip > 0) {
    const double per_token = flops_per_token(at_pilot, false);
    if (per_token > 0) r = {*m.mfu * peak_flops_per_chip / per_token, "mfu"};
  }
  return r;
}

namespace {

// The pilot's measured rate carried to this cluster: at the planned size it is used as it is;
// otherwise the model predicts the pilot (its size, sequence length, batch and stated layout, the
// rest searched) and the planned cluster, and the plan keeps measured ÷ predicted at the pilot
// (the efficiency the model missed) at the planned size. Where the model cannot lay the pilot out,
// the option's scaling rule carries the rate (scaling_reference_chips = the pilot's chips).
void fit_pilot(const Workload& w, const Option& o, const OptionInfo& info, const LayoutPins& pins, const Catalog& catalog,
               double predicted_at_plan, PairInputs& p) {
  PairPerformance& perf = p.performance;
  PilotFit& fit = perf.pilot;
  const PilotMeasurement& m = *o.pilot;
  const double planned_chips = p.instances * p.chips_per_instance;
  fit.chips = m.instances ? *m.instances * p.chips_per_instance : planned_chips;
  fit.predicted_at_plan = predicted_at_plan;
  fit.same_size = fit.chips == planned_chips && (!m.seq_len || *m.seq_len == w.model.seq_len || !w.model.has_architecture());

  // The model at the pilot: its batch default is the plan's at that size.
  PairPerformance at_pilot;
  PairInputs q = p;
  q.instances = fit.chips / p.chips_per_instance;
  Workload wp = w;
  if (m.seq_len && w.model.has_architecture()) wp.model.seq_len = *m.seq_len;
  StepInputs in = step_inputs(wp, o, info, catalog, q, fit.chips, at_pilot);
  if (m.global_batch_sequences) {
    in.global_batch_sequences = *m.global_batch_sequences;
    in.max_batch_sequences = 0;
  }
  const PilotRate rate = pilot_rate(m, wp.model, fit.chips, in.global_batch_sequences, p.peak_flops_per_chip);
  fit.from = rate.from;
  fit.measured_tokens_per_sec_per_chip = rate.tokens_per_sec_per_chip;
  if (rate.tokens_per_sec_per_chip <= 0) return;  // validate() names what is missing
  fit.applied = true;
  double tokens_per_sec = rate.tokens_per_sec_per_chip;
  if (!fit.same_size) {
    const LayoutChoice choice = search_layout(in, fit.chips, m.parallelism.empty() ? pins : m.parallelism);
    if (choice.found && choice.time.tokens_per_sec_per_chip > 0) {
      fit.pilot_layout = choice.layout;
      fit.predicted_at_pilot = choice.time.tokens_per_sec_per_chip;
      fit.ratio = rate.tokens_per_sec_per_chip / fit.predicted_at_pilot;
      tokens_per_sec = predicted_at_plan * fit.ratio;
    } else {
      fit.by_rule = true;
    }
  }
  fit.tokens_per_sec_per_chip = tokens_per_sec;
  if (fit.by_rule) {
    p.measured_tokens_per_sec_per_chip = rate.tokens_per_sec_per_chip;
    p.scaling_reference_chips = fit.chips;
    fit.tokens_per_sec_per_chip = rate.tokens_per_sec_per_chip * scaling_efficiency(planned_chips, fit.chips, p.scaling_per_doubling);
  } else {
    p.measured_tokens_per_sec_per_chip = 0;
    p.mfu = utilization(tokens_per_sec, flops_per_token(w.model, w.recompute), p.peak_flops_per_chip);
    p.scaling_reference_chips = 0;
  }
  // The band: a measurement's own spread at its size; carried to another size, the extrapolation's
  // error on the published measurements (evidence/pilot_scaling.hpp).
  perf.error_median = fit.same_size ? kPilotSameSizeError / 2 : kPilotScalingMedianError;
  perf.error_p90 = fit.same_size ? kPilotSameSizeError : kPilotScalingWorstError;
  perf.validated = true;
  perf.few_measurements = false;
  perf.estimate_band = false;
}

// Runs the step-time model for a pair: the fastest layout that fits, its step time and memory,
// and (when the option states neither an MFU nor a measured rate) the MFU it implies; with a
// pilot, the pilot's rate carried to this cluster (PilotFit).
void predict_pair(const Workload& w, const Option& o, const OptionInfo& info, const LayoutPins& pins, const Catalog& catalog,
                  MinInstances min_instances, PairInputs& p) {
  PairPerformance& perf = p.performance;
  perf.source = info.throughput;
  const double chips = p.instances * p.chips_per_instance;
  StepInputs in = step_inputs(w, o, info, catalog, p, chips, perf);

  const LayoutChoice choice = search_layout(in, chips, pins);
  perf.layouts_tried = choice.layouts_tried;
  perf.layout_found = choice.found;
  perf.least_memory_bytes = choice.least_memory_bytes;
  perf.least_memory_layout = choice.least_memory_layout;
  perf.batch_divisible = choice.found || choice.least_memory_bytes > 0;
  if (choice.found) {
    perf.layout = choice.layout;
    perf.time = choice.time;
  } else if (min_instances == MinInstances::Find) {
    // How many instances would hold it: the smallest power-of-two multiple up to 64 that fits.
    for (double scale = 2; scale <= 64 && perf.min_instances == 0; scale *= 2)
      if (search_layout(in, chips * scale, pins).found) perf.min_instances = p.instances * scale;
  }

  // The error band: the held-out error of the calibration the chip is predicted with, on the
  // workload's kind of model. Thin evidence doubles it, once: a family with no held-out row of the
  // workload's kind (no Trainium mixture of experts is published), or a chip with its own
  // calibration on a handful of rows that cannot show a spread (Trainium2). The two are the same
  // want of evidence, so a chip with both (Trainium2 on an MoE) is doubled once, not twice. A chip
  // with its own calibration keeps its own held-out error where that is larger. A chip with no
  // published measurement gets twice the band of the calibration it borrows (Trainium3: twice
  // Trainium2's).
  const FamilyPerformance& family = catalog.performance.family(info.family);
  const ChipCalibration* own = info.chip ? catalog.performance.own_calibration(info.chip->id) : nullptr;
  perf.validated = info.chip && catalog.performance.validated(info.chip->id);
  // The band is that of the workload's kind: the model's error on dense models says little about
  // mixtures of experts (NVIDIA's held-out MoE rows err several times more than its dense ones).
  // A family with no held-out MoE row gives an MoE workload its dense band, doubled; it then rests
  // on the family's dense measurements.
  perf.moe = is_moe(w.model.experts);
  perf.moe_unmeasured = perf.moe && family.moe_holdout_rows.value <= 0;
  double median = family.dense_holdout_median_error.value, p90 = family.dense_holdout_p90_error.value;
  perf.measurements = family.dense_holdout_rows.value + family.dense_calibration_rows.value;
  const std::string family_name = info.family == Family::Trainium ? "Trainium" : "NVIDIA";
  perf.evidence = family_name + (perf.moe && !perf.moe_unmeasured ? " mixture-of-experts training" : " dense training");
  if (perf.moe && !perf.moe_unmeasured) {
    median = family.moe_holdout_median_error.value;
    p90 = family.moe_holdout_p90_error.value;
    perf.measurements = family.moe_holdout_rows.value + family.moe_calibration_rows.value;
  }
  if (perf.moe_unmeasured || own) {
    median *= kThinEvidenceFactor;
    p90 *= kThinEvidenceFactor;
  }
  if (own) {
    median = std::max(median, own->holdout_median_error.value);
    p90 = std::max(p90, own->holdout_p90_error.value);
    perf.measurements = own->holdout_rows.value + own->calibration_rows.value;
    perf.evidence = (info.chip_name.empty() ? info.chip->id : info.chip_name) + " dense training";  // its own rows are all dense
    perf.few_measurements = true;
  }
  // Figures resting on such a band are estimates, by the quality of the evidence rather than by
  // chip: thin evidence (the doubling above), or measurements of the workload's kind that err at
  // least as much as thin evidence is assumed to (twice the family's dense held-out error: NVIDIA's
  // mixture-of-experts rows).
  perf.estimate_band = perf.moe_unmeasured || perf.few_measurements || band_is_estimate(median, family.dense_holdout_median_error.value);
  perf.error_median = median * (perf.validated ? 1 : kThinEvidenceFactor);
  perf.error_p90 = p90 * (perf.validated ? 1 : kThinEvidenceFactor);
  // No LoRA or QLoRA step time is among the measurements the model was validated on: a frozen
  // base's step is derived from the full-training model (fine_tune.hpp), so it does not get the
  // full-training error; it gets twice it, the rule for a chip with no measurement of its own.
  if (w.fine_tune.adapters()) {
    perf.fine_tune_derived = true;
    perf.error_median *= kThinEvidenceFactor;
    perf.error_p90 *= kThinEvidenceFactor;
  }

  if (!choice.found) return;
  const double tokens_per_sec = choice.time.tokens_per_sec_per_chip;
  // The step's tokens include any padding: the model's FLOPs per token are per sequence token here
  // (evaluate() divides the data tokens by the fill).
  perf.mfu = utilization(tokens_per_sec, training_flops_per_token(w, false), p.peak_flops_per_chip);
  perf.hfu = utilization(tokens_per_sec, training_flops_per_token(w, choice.layout.recompute == Recompute::Full), p.peak_flops_per_chip);
  if (perf.source == ThroughputSource::Predicted) {
    // evaluate() turns MFU × peak × chips into tokens/s with the workload's FLOPs per token; the
    // prediction already includes the cost of scale, so no scaling loss is applied on top.
    p.mfu = utilization(tokens_per_sec, training_flops_per_token(w, w.recompute), p.peak_flops_per_chip);
    p.scaling_reference_chips = 0;
  }
  if (perf.source == ThroughputSource::Pilot) fit_pilot(w, o, info, pins, catalog, tokens_per_sec, p);
}

}  // namespace

PairInputs resolve_pair(const Workload& w, const Option& option, size_t index, double instances, const Catalog& catalog,
                        MinInstances min_instances) {
  Option o = option;
  o.instances = static_cast<int>(instances);
  const WorkloadOverride* override_of_option = nullptr;
  for (const WorkloadOverride& ov : w.overrides)
    if (ov.option == static_cast<int>(index)) override_of_option = &ov;
  OptionInfo info;
  PairInputs p = resolve_option(o, catalog, override_of_option ? override_of_option->costs : PlatformCosts{}, &info);
  predict_pair(w, o, info, pins_of(w, override_of_option), catalog, min_instances, p);
  return p;
}

}  // namespace traincost
