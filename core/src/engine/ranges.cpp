#include "traincost/engine/ranges.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "traincost/engine/reliability.hpp"
#include "traincost/engine/resolve_pair.hpp"
#include "traincost/evidence/whole_run.hpp"
#include "traincost/scenario/fields.hpp"
#include "traincost/scenario/labels.hpp"

namespace traincost {
// An option's input appears once per workload, except in workloads that override it (their own
// value stays); a model's params also moves its active params when the scenario gave none. A
// predicted MFU differs by workload: the input is the first workload's, and the others move in
// proportion.
InputBinding::InputBinding(ResolvedScenario& r, const InputRef& ref, const Scenario& s) {
  const FieldSpec& f = *ref.kind->spec;
  const size_t i = static_cast<size_t>(ref.index);
  if (ref.kind->scope == InputScope::Option) {
    const double base = r.workloads.front().options[i].*f.resolved;
    for (size_t w = 0; w < r.workloads.size(); ++w) {
      bool overridden = false;
      if (f.access.owner == Owner::Costs)
        for (const WorkloadOverride& ov : s.workloads[w].overrides)
          overridden = overridden || (ov.option == ref.index && f.get(ov.costs).has_value());
      if (overridden) continue;
      double* at = &(r.workloads[w].options[i].*f.resolved);
      const bool proportional = &f == &fields::mfu && base > 0 && !s.options[i].mfu_stated();
      targets_.push_back({at, proportional ? *at / base : 1.0, *at});
    }
    return;
  }
  WorkloadInputs& w = r.workloads[i];
  void* owner = f.access.owner == Owner::Model ? static_cast<void*>(&w.model)
              : f.access.owner == Owner::Target ? static_cast<void*>(&w.target)
                                                : static_cast<void*>(static_cast<Workload*>(&w));
  if (double* target = f.access.address(owner)) targets_.push_back({target, 1.0, *target});
  if (&f == &fields::params && !s.workloads[i].model.active_params)
    targets_.push_back({&*w.model.active_params, 1.0, *w.model.active_params});
}

void InputBinding::set(double value) const {
  for (const Bound& t : targets_) *t.at = value * t.scale;
}
void InputBinding::restore() const {
  for (const Bound& t : targets_) *t.at = t.original;
}
double InputBinding::value() const { return targets_.empty() ? 0.0 : targets_.front().original; }

namespace {

PreparedQuantile quantile_of(const RangedInput& in) {
  switch (in.dist) {
    case Distribution::Uniform: return PreparedQuantile::uniform(in.low, in.high);
    case Distribution::LogNormal: return PreparedQuantile::lognormal_90(in.low, in.high);
    case Distribution::Triangular: break;
  }
  return PreparedQuantile::triangular(in.low, std::clamp(in.value, in.low, in.high), in.high);
}

// The lowest value a field accepts (its bound, or just above it when the bound is exclusive).
double lowest_of(const FieldSpec& field) {
  const Bounds& b = field.bounds;
  return b.min_exclusive ? std::nextafter(b.min, b.max) : b.min;
}

}  // namespace

// Every sample lies in its field's valid range: 4.6% of a 0.01-0.95 lognormal discount came out
// above 1, making negative prices. Values outside are pulled to the nearest valid one (the range's
// tail mass lands on the bound).
InputSampler::InputSampler(const RangedInput& in)
    : quantile_(quantile_of(in)), lowest_(lowest_of(*in.ref.kind->spec)), highest_(in.ref.kind->spec->bounds.max) {}
double InputSampler::operator()(double u) const { return std::min(std::max(quantile_(u), lowest_), highest_); }


namespace {

std::string title_of(const Scenario& s, const ResolvedScenario& r, const InputRef& ref) {
  if (ref.kind->scope == InputScope::Option) return r.options[static_cast<size_t>(ref.index)].label;
  return workload_title(s.workloads[static_cast<size_t>(ref.index)], static_cast<size_t>(ref.index));
}
}  // namespace

double sample_value(const RangedInput& input, double u) { return InputSampler(input)(u); }

double input_value(const Scenario& s, const ResolvedScenario& resolved, const Catalog& catalog, const InputRef& ref) {
  if (ref.kind->scope == InputScope::Option) {
    // The option's own value (workload overrides aside); a predicted MFU is the first workload's.
    const size_t i = static_cast<size_t>(ref.index);
    if (ref.kind->spec == &fields::mfu && !s.options[i].mfu_stated()) return resolved.workloads.front().options[i].mfu;
    const PairInputs p = resolve_option(s.options[i], catalog);
    return p.*(ref.kind->spec->resolved);
  }
  ResolvedScenario scratch = resolved;
  return InputBinding(scratch, ref, s).value();
}

std::vector<RangedInput> ranged_inputs(const Scenario& s, const ResolvedScenario& resolved, const Catalog& catalog) {
  std::vector<RangedInput> out;
  auto current = [&](const InputRef& ref) { return input_value(s, resolved, catalog, ref); };
  auto add = [&](const InputRef& ref, double low, double high, Distribution dist, bool is_default) {
    RangedInput in;
    in.ref = ref;
    in.path = ref.path();
    in.label = title_of(s, resolved, ref) + ": " + ref.kind->label;
    in.value = current(ref);
    // A default range is made from the value (0.5 to 2.5 times a porting effort): its ends are
    // held to what the field accepts, as a range the user writes is by validate().
    const FieldSpec& field = *ref.kind->spec;
    in.low = is_default ? field.clamp(low).value_or(low) : low;
    in.high = is_default ? field.clamp(high).value_or(high) : high;
    in.dist = dist;
    in.default_range = is_default;
    out.push_back(in);
  };
  // A convergence penalty a pilot's loss curves measured has the measurement's own interval: it
  // replaces a range the scenario gives (and the default one).
  auto measured_penalty = [&](size_t i) -> const ConvergenceEstimate* {
    const std::optional<ConvergenceEstimate>& c = resolved.options[i].convergence;
    return c && c->measured() ? &*c : nullptr;
  };
  for (size_t i = 0; i < resolved.options.size(); ++i)
    if (const ConvergenceEstimate* c = measured_penalty(i); c && penalty_of_ratio(c->high) > penalty_of_ratio(c->low)) {
      add(*parse_input_path(fields::convergence_penalty.of_option(i)), penalty_of_ratio(c->low), penalty_of_ratio(c->high),
          Distribution::Triangular, false);
      out.back().label += " (the pilot's loss curves)";
    }
  auto measured_path = [&](const std::string& path) {
    for (size_t i = 0; i < resolved.options.size(); ++i)
      if (measured_penalty(i) && path == fields::convergence_penalty.of_option(i)) return true;
    return false;
  };
  for (const Range& r : s.ranges)
    if (const auto ref = parse_input_path(r.input); ref && !measured_path(ref->path())) add(*ref, r.low, r.high, r.dist, false);
  if (!s.analysis.default_ranges) return out;

  auto has_range = [&](const std::string& path) {
    for (const RangedInput& in : out)
      if (in.path == path) return true;
    return false;
  };
  auto ref_of = [](const std::string& path) { return *parse_input_path(path); };

  for (size_t i = 0; i < resolved.options.size(); ++i) {
    const OptionInfo& info = resolved.options[i];
    const PairInputs p = resolve_option(s.options[i], catalog);  // the option's values, not a workload's
    const PairPerformance& predicted = resolved.workloads.front().options[i].performance;
    if (p.measured_tokens_per_sec_per_chip > 0) {
      const std::string path = fields::measured_tokens_per_sec_per_chip.of_option(i);
      if (!has_range(path))
        add(ref_of(path), p.measured_tokens_per_sec_per_chip * 0.9, p.measured_tokens_per_sec_per_chip * 1.1,
            Distribution::Triangular, true);
    } else {
      const std::string path = fields::mfu.of_option(i);
      if (!has_range(path)) {
        // A predicted MFU is as uncertain as the step-time model was on measurements it did not
        // see: its 90th-percentile error either way. A chip with no published measurement
        // (Trainium3) is predicted with another's efficiency: down to half, up by twice the
        // error. A stated MFU: -20% to +15%.
        const double mfu = input_value(s, resolved, catalog, ref_of(path));
        // A pilot's rate carried by the model: the extrapolation's validated error (or, measured at
        // the planned size, a measured rate's), which resolve_pair put in the same band.
        if ((info.throughput == ThroughputSource::Predicted || info.throughput == ThroughputSource::Pilot) && predicted.layout_found) {
          const double low = predicted.validated ? 1 - predicted.error_p90 : 0.5;
          add(ref_of(path), std::max(fields::mfu.bounds.min, mfu * low), std::min(1.0, mfu * (1 + predicted.error_p90)),
              Distribution::Triangular, true);
        }
        else if (mfu > 0)
          add(ref_of(path), mfu * 0.8, std::min(1.0, mfu * 1.15), Distribution::Triangular, true);
      }
    }
    const std::string price = fields::price_usd_per_hour.of_option(i);
    if (info.price_from_catalog && info.catalog_price && info.catalog_price->has_range() && !has_range(price))
      add(ref_of(price), info.catalog_price->low, info.catalog_price->high, Distribution::Triangular, true);
    // Failures matter only on large clusters: where they cost more than 3% of the time, the
    // per-chip MTBF varies over the catalog's range (OPT-175B's failure rate to BLOOM's).
    const std::string mtbf = fields::mtbf_hours_per_instance.of_option(i);
    const Figure* mtbf_figure = catalog.defaults.find(fields::mtbf_hours_per_instance.catalog_default, info.family);
    const WorkloadInputs& first = resolved.workloads.front();
    if (!s.options[i].reliability.mtbf_hours_per_instance && mtbf_figure && mtbf_figure->has_range() && !has_range(mtbf) &&
        goodput_terms(first, first.options[i]).goodput < 0.97)
      add(ref_of(mtbf), mtbf_figure->low / p.chips_per_instance, mtbf_figure->high / p.chips_per_instance, Distribution::Triangular,
          true);
    // Spot reclaims: the catalog's band for the instance type, else for the family (a month's
    // reclaimed share, per AWS's Spot Instance Advisor), and the wait for capacity over its stated
    // range, where the option is spot and takes the catalog's figures.
    if (s.options[i].pricing == PricingModel::Spot)
      for (const FieldSpec* f : {&fields::spot_interruptions_per_hour, &fields::spot_recovery_hours}) {
        const std::string path = f->of_option(i);
        const Figure* figure = catalog.default_for(f->catalog_default, s.options[i].instance, info.family);
        if (!f->get(s.options[i].reliability) && figure && figure->has_range() && !has_range(path))
          add(ref_of(path), figure->low, figure->high, Distribution::Triangular, true);
      }
    const std::string weeks = fields::engineer_weeks.of_option(i);
    if (p.engineer_weeks > 0 && !has_range(weeks))
      add(ref_of(weeks), p.engineer_weeks * 0.5, p.engineer_weeks * 2.5, Distribution::LogNormal, true);
    const std::string penalty = fields::convergence_penalty.of_option(i);
    if (p.convergence_penalty > 0 && !has_range(penalty) && !measured_path(penalty))
      add(ref_of(penalty), 0.0, std::min(1.0, p.convergence_penalty * 3), Distribution::Triangular, true);
    // The chance of a forced re-port, as the catalog bounds it, where the option has a one-time
    // cost to repeat and takes the catalog's figure.
    const std::string report = fields::report_probability_per_year.of_option(i);
    const Figure* chance = catalog.defaults.find(fields::report_probability_per_year.catalog_default, info.family);
    if (!s.options[i].porting.report_probability_per_year && chance && chance->has_range() && p.report_probability_per_year > 0 &&
        (p.engineer_weeks > 0 || p.validation_runs > 0) && !has_range(report))
      add(ref_of(report), chance->low, chance->high, Distribution::Triangular, true);
  }
  for (size_t w = 0; w < resolved.workloads.size(); ++w) {
    const std::string path = "workloads[" + std::to_string(w) + "].runs";
    const double runs = resolved.workloads[w].runs;
    if (runs > 1 && !has_range(path)) add(ref_of(path), std::max(1.0, runs * 0.5), runs * 1.5, Distribution::Triangular, true);
    // The whole run as published runs realized against their plan (evidence/whole_run.hpp): the
    // fitted predictive distribution, drawn as the lognormal through its 5th and 95th percentiles.
    // One draw per workload serves every option, as the same team runs the same recipe on each.
    const std::string whole = "workloads[" + std::to_string(w) + "]." + fields::whole_run_factor.input_name();
    const WholeRunSpread& spread = catalog.whole_run;
    if (spread.fitted() && !s.workloads[w].whole_run_factor && !has_range(whole))
      add(ref_of(whole), whole_run_quantile(spread, -kZ95), whole_run_quantile(spread, kZ95), Distribution::LogNormal, true);
  }
  return out;
}

}  // namespace traincost
