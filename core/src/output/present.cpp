#include "traincost/output/present.hpp"

#include <cctype>
#include <cmath>
#include <cstring>

#include "traincost/scenario/fields.hpp"
#include "traincost/base/format.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/output/verdict.hpp"

namespace traincost {

const std::vector<ResultColumn>& result_columns() {
  static const std::vector<ResultColumn> columns = {
      {"Option", "Option", "Click the arrow to see every formula with these numbers"},
      {"Wall clock", "Time", "Wall clock per run: training at the cluster's goodput, plus compilation"},
      {"Chip-hours", "Chip-h", "Chip-hours per run"},
      {"Hardware per run", "Hardware", "Instance-hours × price, per run"},
      {"Compute only $ per M tokens", "Compute $/M tok",
       "Compute only: the hardware per run (instance-hours × price at the layout's throughput) per million target tokens, no one-time costs"},
      {"One-time", "One-time", "Porting engineering + validation compute, paid once"},
      {"Fully loaded per run", "All-in / run", "Fully loaded cost per run: hardware + recurring + one-time ÷ expected runs"},
      {"All-in $ per M tokens", "All-in $/M tok",
       "All-in: the fully loaded cost per run (one-time costs spread over the runs) per million target tokens"},
      {"Status", "Status",
       "Whether the option can run the job: the cluster holds the model, fails rarely enough, reaches the target; with a deadline, "
       "the instances it needs to be done in time"},
  };
  return columns;
}

std::string status_text(const OptionResult& r) {
  if (r.infeasible == Infeasible::No && r.deadline.applied) return fmt::counted(r.deadline.instances, "instance", "instances");
  return status_text(r.infeasible, r.memory);
}

std::string status_text(Infeasible why, const MemoryFit& memory) {
  switch (why) {
    case Infeasible::No: return "fits";
    case Infeasible::Memory:
      return memory.possible ? "needs " + fmt::number(memory.min_instances) + "+ instances" : "does not fit";
    case Infeasible::Goodput: return "fails too often";
    case Infeasible::Target: return "target unreachable";
    case Infeasible::Layout: return "batch too small";
    case Infeasible::Deadline: return "too slow";
  }
  return {};
}

std::string status_detail(const OptionResult& r) {
  if (!r.feasible()) return infeasibility_reason(r);
  std::string text = fmt::bytes(r.memory.bytes_per_chip) + " per chip of " + fmt::bytes(r.memory.usable_bytes_per_chip) + " usable";
  const DeadlineSizing& d = r.deadline;
  if (d.applied && d.confidence > 0) {
    // Sized for a chance of being on time (deadline_odds.hpp), against the plan's size.
    const std::string deadline = "the " + fmt::number(d.deadline_days) + "-day deadline";
    text += "; done in " + fmt::days(r.days_to_model) + " as planned on " + fmt::number(d.instances) + " instances, ";
    text += d.confidence_met ? "the fewest on time for " + deadline + " in at least " + fmt::percent(d.confidence) + " of futures (" +
                                   fmt::percent(d.probability_on_time) + ")"
                             : "on time for " + deadline + " in only " + fmt::percent(d.probability_on_time) + " of futures, the best up to " +
                                   fmt::number(d.limit) + " instances (deadline_confidence " + fmt::percent(d.confidence) + " not reached)";
    text += "; the plan alone needs " + fmt::number(d.point_instances);
  } else if (d.applied) {
    text += "; done in " + fmt::days(r.days_to_model) + " on " + fmt::number(d.instances) + " instances, the fewest within the " +
            fmt::number(d.deadline_days) + "-day deadline";
  }
  return text;
}

std::vector<std::string> result_cells(const std::string& label, const OptionResult& r) {
  // An option that cannot run the job has no time or cost to show (its figures would mislead, and
  // can be negative or infinite): dashes, and the status says why.
  if (!r.feasible()) return {label, "–", "–", "–", "–", "–", "–", "–", status_text(r)};
  return {label,
          fmt::hours(r.wall_clock_hours),
          fmt::count(r.chip_hours),
          fmt::usd(r.hardware_cost_per_run),
          fmt::usd_rate(r.compute_cost_per_million_tokens),
          fmt::usd(r.one_time_cost),
          fmt::usd(r.cost_per_run),
          fmt::usd_rate(r.cost_per_million_tokens),
          status_text(r)};
}

namespace {
// Said after the evidence a band is of, when a mixture of experts' band is its family's dense one doubled.
std::string moe_note(const PairPerformance& perf) {
  return perf.moe_unmeasured ? ", none of mixture-of-experts training: band doubled" : "";
}
}  // namespace

EstimateFlags estimate_flags(const Scenario& s, const ResolvedScenario& r, size_t w, size_t o, const Catalog& c) {
  EstimateFlags f;
  if (o >= r.options.size() || w >= r.workloads.size()) return f;
  const OptionInfo& info = r.options[o];
  const PairInputs& p = r.workloads[w].options[o];
  const std::string& label = info.label;
  // A predicted MFU for a chip with no published measurement rests on another chip's calibration.
  if (info.throughput == ThroughputSource::Predicted && p.performance.layout_found && p.performance.fine_tune_derived) {
    f.speed = true;
    f.reasons.push_back(label + "'s MFU (" + fmt::percent(p.mfu) + ") is derived for a " + to_string(s.workloads[w].fine_tune.mode) +
                        " fine-tune: no such step was measured (median error taken as " + fmt::percent(p.performance.error_median) +
                        ", twice the full-training model's); measure your own run");
  } else if (info.throughput == ThroughputSource::Predicted && p.performance.layout_found && !p.performance.validated) {
    f.speed = true;
    f.reasons.push_back(label + "'s MFU (" + fmt::percent(p.mfu) + ") is an estimate: predicted with no published measurement of " +
                        info.chip_name + " (median error " + fmt::percent(p.performance.error_median) + ", twice that on " +
                        p.performance.evidence + moe_note(p.performance) + "); measure your own run");
  } else if (info.throughput == ThroughputSource::Predicted && p.performance.layout_found && p.performance.estimate_band) {
    f.speed = true;
    f.reasons.push_back(label + "'s MFU (" + fmt::percent(p.mfu) + ") rests on " + fmt::number(p.performance.measurements) +
                        " published measurements of " + p.performance.evidence + moe_note(p.performance) + " (median error " +
                        fmt::percent(p.performance.error_median) + "); measure your own run");
  }
  if (info.price_from_catalog && info.catalog_price && info.catalog_price->estimate) {
    f.price = true;
    f.reasons.push_back(label + "'s price (" + fmt::usd(p.price_usd_per_hour) + "/h) is an estimate");
  }
  const size_t ref = static_cast<size_t>(r.reference) < r.options.size() ? static_cast<size_t>(r.reference) : 0;
  const Instance* mine = c.find_instance(info.instance);
  const Instance* theirs = c.find_instance(r.options[ref].instance);
  if (ref != o && info.price_from_catalog && r.options[ref].price_from_catalog && mine && theirs && mine->provider == theirs->provider &&
      mine->region != theirs->region) {
    f.price = true;
    f.reasons.push_back(label + "'s price is for " + mine->region + ", " + r.options[ref].label + "'s for " + theirs->region);
  }
  // Porting effort from the catalog's default (no value in the option or the workload's override).
  if (o < s.options.size() && w < s.workloads.size() && p.engineer_weeks > 0 && !s.options[o].porting.engineer_weeks) {
    bool overridden = false;
    for (const WorkloadOverride& ov : s.workloads[w].overrides) overridden = overridden || (ov.option == static_cast<int>(o) && ov.costs.engineer_weeks);
    const Figure* figure = overridden ? nullptr : c.defaults.find(fields::engineer_weeks.catalog_default, info.family);
    if (figure && figure->estimate) {
      f.one_time = true;
      f.reasons.push_back(label + "'s porting effort (" + fmt::number(p.engineer_weeks) + " engineer-weeks) is TrainCost's estimate");
    }
  }
  return f;
}

// A figure is an estimate when any input it is computed from is. The time and chip-hours come from
// the MFU; the hardware cost and its $/M tok from the MFU and the price; the one-time cost from the
// porting effort; the all-in cost per run, and the all-in $/M tok (that cost over the run's
// tokens), from all three, as the one-time costs are amortized over the runs.
bool column_is_estimate(ResultCol column, const EstimateFlags& f) {
  const bool hardware = f.speed || f.price;
  switch (column) {
    case ResultCol::WallClock: case ResultCol::ChipHours: return f.speed;
    case ResultCol::Hardware: case ResultCol::ComputeUsdPerMTokens: return hardware;
    case ResultCol::OneTime: return f.one_time;
    case ResultCol::FullyLoaded: case ResultCol::UsdPerMTokens: return hardware || f.one_time;
    default: return false;
  }
}

std::vector<std::string> result_cells(const std::string& label, const OptionResult& result, const EstimateFlags& flags) {
  std::vector<std::string> cells = result_cells(label, result);
  for (size_t c = 0; c < cells.size(); ++c)
    if (column_is_estimate(static_cast<ResultCol>(c), flags) && cells[c] != "–") cells[c] = kEstimateMark + cells[c];
  return cells;
}

std::string estimate_footnote(const Scenario& s, const ResolvedScenario& r, size_t w, const Catalog& c) {
  std::string reasons;
  for (size_t o = 0; o < r.options.size(); ++o)
    for (const std::string& reason : estimate_flags(s, r, w, o, c).reasons) reasons += (reasons.empty() ? "" : "; ") + reason;
  return reasons.empty() ? "" : std::string(kEstimateMark) + " rests on an estimate: " + reasons + ".";
}

AsRealized as_realized(const Workload& w, const OptionResult& r, const PairInputs& p, const Catalog& c) {
  AsRealized a;
  if (!c.whole_run.fitted() || !r.feasible() || p.mfu_run || w.whole_run_factor) return a;
  a.shown = true;
  const double factors[3] = {c.whole_run.low, c.whole_run.median, c.whole_run.high};
  for (int i = 0; i < 3; ++i) {
    // The planned training hours × the factor; compilation is not part of what runs realized.
    a.wall_clock_hours[i] = (r.wall_clock_hours - p.compile_hours_per_run) * factors[i] + p.compile_hours_per_run;
    a.chip_hours[i] = a.wall_clock_hours[i] * r.chips;
    a.hardware_cost[i] = r.compute_cost * factors[i] + r.compile_cost;
  }
  return a;
}

std::string as_realized_line(const Scenario& s, const ResolvedScenario& r, const Results& results, size_t w) {
  const Catalog& c = *r.catalog;
  std::string items;
  for (size_t o = 0; o < r.options.size(); ++o) {
    const AsRealized a = as_realized(s.workloads[w], results.workloads[w].options[o], r.workloads[w].options[o], c);
    if (!a.shown) continue;
    items += (items.empty() ? "" : "; ") + r.options[o].label + " " + fmt::count(a.chip_hours[0]) + " to " + fmt::count(a.chip_hours[2]) +
             " chip-hours, " + fmt::usd(a.hardware_cost[0]) + " to " + fmt::usd(a.hardware_cost[2]);
  }
  if (items.empty()) return "";
  return "As published runs realized (80% interval, from " + std::to_string(c.whole_run.runs) + " replayed runs): " + items + ".";
}

std::string whole_run_note(const Catalog& c) {
  const WholeRunSpread& w = c.whole_run;
  if (!w.fitted()) return "";
  return "whole runs: published runs took ×" + fmt::number(w.low, 2) + " to ×" + fmt::number(w.high, 2) +
         " of the planned chip-hours (80% interval; " + fmt::percent(w.loo_coverage) + " of " + std::to_string(w.runs) +
         " runs inside it when each is held out); the planned figure's median error on them is " + fmt::percent(w.planned_median_error);
}

std::string field_label(const FieldSpec& field) {
  std::string label = field.label;
  if (!label.empty() && label[0] >= 'a' && label[0] <= 'z') label[0] = static_cast<char>(label[0] - 'a' + 'A');
  const bool unit_shown = field.display == Display::Usd || field.display == Display::Percent;
  if (!unit_shown && *field.unit && std::string(field.label).find(field.unit) == std::string::npos)
    label += std::string(" (") + field.unit + ")";
  return label;
}

std::string field_value_text(const FieldSpec& field, double value) {
  switch (field.display) {
    case Display::Usd: return fmt::usd(value);
    case Display::Percent: return fmt::percent(value);
    case Display::Quantity: return fmt::count(value);
    case Display::Plain: break;
  }
  // Three significant digits, but never e-notation for a figure people read in full: 8,063 h.
  return std::fabs(value) >= 1000 && std::fabs(value) < 1e16 ? fmt::number(std::round(value)) : fmt::number(value, 3);
}

namespace {
std::string sentence_case(std::string text) {
  if (!text.empty() && text[0] >= 'a' && text[0] <= 'z') text[0] = static_cast<char>(text[0] - 'a' + 'A');
  return text;
}
}  // namespace

std::string citation(const Figure& figure, const Catalog& catalog) {
  if (!figure.present()) return {};
  const Source* s = catalog.find_source(figure.source);
  std::string text = figure.flag.empty() ? "" : sentence_case(figure.flag) + ". ";
  text += (s ? s->title : figure.source) + (s && s->secondary ? " (secondary source)" : "") + ", " + figure.as_of;
  if (figure.month_only) text += " (month only)";
  if (figure.estimate) text += " (estimate)";
  if (!figure.note.empty()) text += ". " + figure.note;
  return text;
}

}  // namespace traincost
