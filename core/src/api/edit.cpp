#include "traincost/api/builtin.hpp"
#include "traincost/api/edit.hpp"

#include <algorithm>
#include <cmath>

#include "traincost/engine/resolve_pair.hpp"
#include "traincost/scenario/fields.hpp"
#include "traincost/model/formulas.hpp"
#include "traincost/scenario/inputs.hpp"
#include "traincost/output/present.hpp"
#include "traincost/evidence/published_runs.hpp"
#include "traincost/output/report.hpp"
#include "traincost/engine/resolve.hpp"

namespace traincost::edit {
namespace {

bool valid_index(int index, size_t size) { return index >= 0 && static_cast<size_t>(index) < size; }

// Ranges point at options and workloads by index. After inserting at `index` (delta +1) or
// removing `index` (delta -1, its own ranges go), those past it move along.
void shift_ranges(Scenario& s, InputScope scope, int index, int delta) {
  std::vector<Range> kept;
  for (Range r : s.ranges) {
    auto ref = parse_input_path(r.input);
    if (ref && ref->kind->scope == scope) {
      if (delta < 0 && ref->index == index) continue;
      if (ref->index > index) {
        ref->index += delta;
        r.input = ref->path();
      }
    }
    kept.push_back(r);
  }
  s.ranges = kept;
}

}  // namespace

bool duplicate_option(Scenario& s, int index) {
  if (!valid_index(index, s.options.size()) || s.options.size() >= static_cast<size_t>(kMaxOptions)) return false;
  Option copy = s.options[static_cast<size_t>(index)];
  // A typed label is the user's: the copy says it is one. An automatic label stays automatic, and
  // the resolver makes the two read differently until the user changes the copy.
  if (!copy.label.empty()) copy.label += " (2)";
  s.options.insert(s.options.begin() + index + 1, copy);
  for (Workload& w : s.workloads)
    for (WorkloadOverride& ov : w.overrides)
      if (ov.option > index) ++ov.option;
  shift_ranges(s, InputScope::Option, index, +1);
  if (s.reference > index) ++s.reference;
  return true;
}

bool add_option(Scenario& s, const Option& o) {
  if (s.options.size() >= static_cast<size_t>(kMaxOptions)) return false;
  s.options.push_back(o);
  return true;
}

bool remove_option(Scenario& s, int index) {
  if (!valid_index(index, s.options.size()) || s.options.size() <= 1) return false;
  s.options.erase(s.options.begin() + index);
  for (Workload& w : s.workloads) {
    w.overrides.erase(std::remove_if(w.overrides.begin(), w.overrides.end(), [&](const WorkloadOverride& ov) { return ov.option == index; }),
                      w.overrides.end());
    for (WorkloadOverride& ov : w.overrides)
      if (ov.option > index) --ov.option;
  }
  shift_ranges(s, InputScope::Option, index, -1);
  if (s.reference == index) s.reference = 0;
  else if (s.reference > index) --s.reference;
  return true;
}

namespace {
// Clears a label that was the automatic one before an edit, so that it follows the edit.
void follow_label(Option& o, const std::string& automatic_before) {
  if (o.label == automatic_before) o.label.clear();
}
}  // namespace

bool set_instances(Option& o, const Catalog& catalog, int instances) {
  if (!fields::instances.check(instances).empty()) return false;
  const std::string before = automatic_label(o, catalog);
  o.instances = instances;
  o.instances_default = false;
  follow_label(o, before);
  return true;
}

namespace {

// Applies `change` to the workload's override for `option` (made when `adds`), and removes an
// override left with nothing in it.
template <typename F>
bool change_override(Workload& w, int option, bool adds, F change) {
  auto it = std::find_if(w.overrides.begin(), w.overrides.end(), [&](const WorkloadOverride& ov) { return ov.option == option; });
  if (it == w.overrides.end()) {
    if (!adds) return true;
    w.overrides.push_back({option, {}, {}});
    it = w.overrides.end() - 1;
  }
  change(*it);
  bool any = !it->parallelism.empty();
  for (const FieldSpec* spec : fields_of(Owner::Costs)) any = any || spec->get(it->costs).has_value();
  if (!any) w.overrides.erase(it);
  return true;
}

}  // namespace

bool set_override(Workload& w, int option, const FieldSpec& cost, std::optional<double> value) {
  if (cost.access.owner != Owner::Costs || option < 0 || (value && !cost.check(*value).empty())) return false;
  return change_override(w, option, value.has_value(), [&](WorkloadOverride& ov) { cost.set(ov.costs, value); });
}

bool set_pin(Workload& w, int option, const FieldSpec& pin, std::optional<double> value) {
  if (pin.access.owner != Owner::Parallelism || option < 0 || (value && !pin.check(*value).empty())) return false;
  return change_override(w, option, value.has_value(), [&](WorkloadOverride& ov) { pin.set(ov.parallelism, value); });
}

bool set_recompute_pin(Workload& w, int option, std::optional<Recompute> value) {
  if (option < 0) return false;
  return change_override(w, option, value.has_value(), [&](WorkloadOverride& ov) { ov.parallelism.recompute = value; });
}

bool set_sequence_parallel_pin(Workload& w, int option, std::optional<bool> value) {
  if (option < 0) return false;
  return change_override(w, option, value.has_value(), [&](WorkloadOverride& ov) { ov.parallelism.sequence_parallel = value; });
}

void set_pricing(Option& o, const Catalog& catalog, PricingModel pricing) {
  const std::string before = automatic_label(o, catalog);
  o.pricing = pricing;
  follow_label(o, before);
}

bool set_instance(Option& o, const Catalog& catalog, const std::string& id) {
  const Instance* inst = catalog.find_instance(id);
  if (!inst) return false;
  follow_label(o, automatic_label(o, catalog));
  o.instance = id;
  o.custom.reset();
  if (!inst->price(o.pricing).present())
    for (int m = 0; m < kPricingModels; ++m)
      if (inst->prices[static_cast<size_t>(m)].present()) {
        o.pricing = static_cast<PricingModel>(m);
        break;
      }
  const Chip* chip = catalog.find_chip(inst->chip);
  if (o.precision == Precision::FP8 && chip && !chip->fp8_tflops.present()) o.precision = Precision::BF16;
  return true;
}

bool use_row(Option& o, const Catalog& catalog, const std::string& id, PricingModel pricing, int instances) {
  const Instance* inst = catalog.find_instance(id);
  if (!inst || !inst->price(pricing).present() || !fields::instances.check(instances).empty()) return false;
  set_instance(o, catalog, id);
  set_pricing(o, catalog, pricing);
  set_instances(o, catalog, instances);
  return true;
}

bool make_custom(Option& o, const Catalog& catalog) {
  const Instance* inst = catalog.find_instance(o.instance);
  if (!inst) return false;
  CustomInstance ci;
  ci.chip = inst->chip;
  ci.chips = inst->chips;
  if (const Chip* chip = catalog.find_chip(ci.chip)) ci.family = chip->family;
  const PairInputs p = resolve_option(o, catalog);
  if (p.price_usd_per_hour > 0) o.price_usd_per_hour = p.price_usd_per_hour;
  const std::string before = automatic_label(o, catalog);
  o.instance = "custom";
  o.custom = ci;
  follow_label(o, before);
  return true;
}

bool set_custom_chip(Option& o, const Catalog& catalog, const std::string& chip_id, double current_mfu) {
  if (!o.custom) return false;
  CustomInstance& ci = *o.custom;
  if (!chip_id.empty()) {
    const Chip* chip = catalog.find_chip(chip_id);
    if (!chip) return false;
    ci.chip = chip_id;
    ci.family = chip->family;
    return true;
  }
  if (const Chip* chip = catalog.find_chip(ci.chip)) {
    if (ci.peak_tflops <= 0) ci.peak_tflops = chip->peak_tflops(o.precision).value;
    if (ci.memory_gb <= 0) ci.memory_gb = chip->hbm_bytes() / 1e9;
  }
  if (!o.mfu && !o.measured_tokens_per_sec_per_chip && o.mfu_from_run.empty()) o.mfu = std::clamp(current_mfu, fields::mfu.bounds.min, fields::mfu.bounds.max);
  ci.chip.clear();
  return true;
}

bool use_measured_throughput(Option& o, double current_tokens_per_sec_per_chip, bool measured) {
  if (!measured) {
    o.measured_tokens_per_sec_per_chip.reset();
    return true;
  }
  const double rate = std::round(current_tokens_per_sec_per_chip);
  o.mfu_from_run.clear();  // a measured throughput replaces any MFU, a published run's too
  o.measured_tokens_per_sec_per_chip = rate > 0 && std::isfinite(rate) ? rate : kFallbackTokensPerSec;
  return true;
}

bool use_run_mfu(Option& o, const std::string& run_id) {
  if (!builtin_published_runs().find(run_id)) return false;
  o.mfu_from_run = run_id;
  o.mfu.reset();
  o.measured_tokens_per_sec_per_chip.reset();
  return true;
}

bool add_workload(Scenario& s, const Workload& w) {
  if (s.workloads.size() >= static_cast<size_t>(kMaxWorkloads)) return false;
  s.workloads.push_back(w);
  return true;
}

bool duplicate_workload(Scenario& s, int index) {
  if (!valid_index(index, s.workloads.size())) return false;
  Workload copy = s.workloads[static_cast<size_t>(index)];
  copy.name = workload_title(copy, static_cast<size_t>(index)) + " (copy)";
  return add_workload(s, copy);
}

bool remove_workload(Scenario& s, int index) {
  if (!valid_index(index, s.workloads.size()) || s.workloads.size() <= 1) return false;
  s.workloads.erase(s.workloads.begin() + index);
  shift_ranges(s, InputScope::Workload, index, -1);
  return true;
}

bool set_target_kind(Workload& w, TargetKind kind) {
  if (w.target.kind == kind) return false;
  const double now = target_tokens(w.target, w.model);
  const double tokens = std::isfinite(now) && now > 0 ? now : kChinchillaTokensPerParam * w.model.params;
  w.target.kind = kind;
  switch (kind) {
    case TargetKind::Tokens: w.target.tokens = tokens; break;
    case TargetKind::Steps:
      w.target.tokens_per_step = kDefaultTokensPerStep;
      w.target.steps = std::max(1.0, std::round(tokens / kDefaultTokensPerStep));
      break;
    case TargetKind::Loss: {
      const ScalingLaw law = scaling_law_constants(w.target.law, w.target.custom_law);
      w.target.loss = std::round((loss_floor(law, w.model.active()) + kLossHeadroom) * 100) / 100;
      break;
    }
  }
  return true;
}

bool set_scaling_law(Workload& w, ScalingLawKind law) {
  if (w.target.law == law) return false;
  if (law == ScalingLawKind::Custom) w.target.custom_law = scaling_law_constants(w.target.law, w.target.custom_law);
  w.target.law = law;
  return true;
}

bool set_mixture_of_experts(Workload& w, bool moe) {
  if (moe == w.model.active_params.has_value()) return false;
  if (moe) w.model.active_params = std::max(fields::active_params.bounds.min, w.model.params * kDefaultActiveShare);
  else w.model.active_params.reset();
  return true;
}

bool add_range(Scenario& s, const Range& range) {
  if (s.ranges.size() >= static_cast<size_t>(kMaxRanges)) return false;
  for (const Range& r : s.ranges)
    if (r.input == range.input) return false;
  s.ranges.push_back(range);
  return true;
}

bool add_range(Scenario& s, const std::string& path, double value) {
  const auto ref = parse_input_path(path);
  if (!ref) return false;
  if (!(value > 0)) value = 1;
  const Bounds& b = ref->kind->spec->bounds;
  Range range{ref->path(), value * (1 - kStartingSpread), value * (1 + kStartingSpread), Distribution::Triangular};
  range.low = std::max(range.low, b.min);
  range.high = std::min(range.high, b.max);
  return add_range(s, range);
}

bool remove_range(Scenario& s, int index) {
  if (!valid_index(index, s.ranges.size())) return false;
  s.ranges.erase(s.ranges.begin() + index);
  return true;
}

void stamp_catalog(Scenario& s, const Catalog& catalog) {
  if (s.catalog.empty()) s.catalog = catalog.version;
}

}  // namespace traincost::edit
