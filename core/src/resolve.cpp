#include "traincost/resolve.hpp"

#include "traincost/fields.hpp"
#include "traincost/present.hpp"

namespace traincost {

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
  info.label = o.label.empty() ? automatic_label(o, catalog) : o.label;

  p.instances = o.instances;
  p.discount = o.discount;
  info.mfu_from_catalog = !o.mfu;
  p.mfu = o.mfu ? *o.mfu : (chip ? chip->mfu.value : 0.0);  // validate() requires mfu for custom chips
  p.measured_tokens_per_sec_per_chip = o.measured_tokens_per_sec_per_chip.value_or(0);
  p.scaling_reference_chips = o.scaling_reference_chips.value_or(0);
  p.scaling_per_doubling = o.scaling_per_doubling;

  // Reliability: the option's value, else the catalog's (its MTBF is per chip).
  auto catalog_value = [&](const FieldSpec& f) {
    const Figure* figure = d.find(f.catalog_default, info.family);
    return figure && figure->present() ? figure->value : 0.0;
  };
  p.mtbf_hours_per_instance = o.reliability.mtbf_hours_per_instance.value_or(
      catalog_value(fields::mtbf_hours_per_instance) / p.chips_per_instance);
  p.checkpoint_write_minutes = o.reliability.checkpoint_write_minutes.value_or(catalog_value(fields::checkpoint_write_minutes));
  p.restart_minutes = o.reliability.restart_minutes.value_or(catalog_value(fields::restart_minutes));
  p.checkpoint_interval_hours = o.reliability.checkpoint_interval_hours.value_or(0);  // 0: the Young/Daly optimum

  // Platform costs: the workload's override, then the option's value, then the catalog default
  // for the chip family (0 where the catalog has none).
  for (const FieldSpec* f : fields_of(Owner::Costs)) {
    const std::optional<double> value = f->get(wc) ? f->get(wc) : f->get(o.porting);
    p.*(f->resolved) = value ? *value : f->catalog_default ? catalog_value(*f) : 0.0;
  }
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
    static_cast<Workload&>(wi) = w;
    wi.model.active_params = w.model.active();
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
