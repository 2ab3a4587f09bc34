#include "traincost/resolve.hpp"

namespace traincost {
namespace {

// First present of: the workload's override, the option's value, the catalog default.
double pick(const std::optional<double>& workload, const std::optional<double>& option, const Figure& fallback) {
  if (workload) return *workload;
  if (option) return *option;
  return fallback.present() ? fallback.value : 0.0;
}

}  // namespace

PairInputs resolve_option(const Option& o, const Catalog& catalog, const PlatformCosts& wc, OptionInfo* info_out) {
  const Defaults& d = catalog.defaults;
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
    if (!o.price_usd_per_hour && info.catalog_price->present()) {
      info.price_from_catalog = true;
      p.price_usd_per_hour = info.catalog_price->value;
    }
  }
  if (chip) {
    info.chip_name = chip->name;
    info.family = chip->family;
    info.catalog_mfu = &chip->mfu;
    const Figure& peak = chip->peak_tflops(o.precision);
    p.peak_flops_per_chip = peak.present() ? peak.value * 1e12 : 0;
    p.hbm_bytes_per_chip = chip->hbm_bytes();
  }
  if (o.custom && o.custom->peak_tflops > 0) p.peak_flops_per_chip = o.custom->peak_tflops * 1e12;
  if (o.custom && o.custom->memory_gb > 0) p.hbm_bytes_per_chip = o.custom->memory_gb * 1e9;
  if (o.custom && info.chip_name.empty()) info.chip_name = "custom chip";
  if (o.price_usd_per_hour) p.price_usd_per_hour = *o.price_usd_per_hour;
  info.label = o.label.empty() ? o.instance : o.label;

  p.instances = o.instances;
  p.discount = o.discount;
  info.mfu_from_catalog = !o.mfu;
  p.mfu = o.mfu ? *o.mfu : (chip ? chip->mfu.value : 0.0);  // validate() requires mfu for custom chips
  p.measured_tokens_per_sec_per_chip = o.measured_tokens_per_sec_per_chip.value_or(0);
  p.scaling_reference_chips = o.scaling_reference_chips.value_or(0);
  p.scaling_per_doubling = o.scaling_per_doubling;

  p.mtbf_hours_per_instance = o.reliability.mtbf_hours_per_instance.value_or(d.mtbf_hours_per_chip.value / p.chips_per_instance);
  p.checkpoint_write_minutes = o.reliability.checkpoint_write_minutes.value_or(d.checkpoint_write_minutes.value);
  p.restart_minutes = o.reliability.restart_minutes.value_or(d.restart_minutes.value);
  p.checkpoint_interval_hours = o.reliability.checkpoint_interval_hours.value_or(0);

  // Platform costs: the workload's override, then the option's value, then the family default.
  const PlatformCosts& oc = o.porting;
  const PlatformDefaults& pd = d.platform(info.family);
  p.engineer_weeks = pick(wc.engineer_weeks, oc.engineer_weeks, pd.engineer_weeks);
  p.usd_per_engineer_week = pick(wc.usd_per_engineer_week, oc.usd_per_engineer_week, d.usd_per_engineer_week);
  p.validation_runs = pick(wc.validation_runs, oc.validation_runs, pd.validation_runs);
  p.validation_run_fraction = pick(wc.validation_run_fraction, oc.validation_run_fraction, pd.validation_run_fraction);
  p.convergence_penalty = pick(wc.convergence_penalty, oc.convergence_penalty, pd.convergence_penalty);
  p.compile_hours_per_run = pick(wc.compile_hours_per_run, oc.compile_hours_per_run, pd.compile_hours_per_run);
  p.maintenance_usd_per_year = pick(wc.maintenance_usd_per_year, oc.maintenance_usd_per_year, pd.maintenance_usd_per_year);
  p.egress_tb_per_run = pick(wc.egress_tb_per_run, oc.egress_tb_per_run, Figure{});
  p.egress_usd_per_tb = pick(wc.egress_usd_per_tb, oc.egress_usd_per_tb, d.egress_usd_per_tb);
  if (info_out) *info_out = std::move(info);
  return p;
}

ResolvedScenario resolve(const Scenario& s, const Catalog& catalog) {
  ResolvedScenario r;
  r.reference = s.reference;
  for (const Option& o : s.options) {
    OptionInfo info;
    resolve_option(o, catalog, {}, &info);
    r.options.push_back(std::move(info));
  }
  for (const Workload& w : s.workloads) {
    WorkloadInputs wi;
    wi.model = w.model;
    wi.model.active_params = w.model.active();
    wi.target = w.target;
    wi.recompute = w.recompute;
    wi.memory = w.memory;
    wi.runs = w.runs;
    wi.horizon_months = w.horizon_months;
    for (size_t i = 0; i < s.options.size(); ++i) {
      PlatformCosts overrides;
      for (const WorkloadOverride& ov : w.overrides)
        if (ov.option == static_cast<int>(i)) overrides = ov.costs;
      wi.options.push_back(resolve_option(s.options[i], catalog, overrides));
    }
    r.workloads.push_back(std::move(wi));
  }
  return r;
}

}  // namespace traincost
