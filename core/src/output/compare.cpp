#include "traincost/output/compare.hpp"

#include <algorithm>
#include <cmath>

#include "traincost/base/format.hpp"
#include "traincost/base/text.hpp"
#include "traincost/engine/evaluate.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/output/present.hpp"
#include "traincost/scenario/labels.hpp"

namespace traincost {

namespace {

// The workload alone: what concerns the hardware. Overrides name a scenario's options; a deadline
// would size and fail rows for another question; a budget and a cost of delay are not hardware.
Workload hardware_only(Workload w, const CompareOptions& options) {
  w.overrides.clear();
  w.deadline_days.reset();
  w.budget_usd.reset();
  w.usd_per_day_of_delay.reset();
  if (options.tokens) {
    w.target = Target{};
    w.target.tokens = *options.tokens;
  }
  return w;
}

// The option a row evaluates: the instance at the chosen size, paid for one way.
Option row_option(const Instance& inst, PricingModel pricing, const CompareOptions& options) {
  Option o;
  o.instance = inst.id;
  o.pricing = pricing;
  if (options.instances) {
    o.instances = *options.instances;
  } else if (options.chips) {
    o.instances = std::max(1, static_cast<int>(std::ceil(*options.chips / inst.chips)));
  } else {
    o.instances = 1;
    o.instances_default = true;  // sized as a scenario without `instances` is
  }
  return o;
}

Evidence evidence_of(const PairPerformance& p) {
  if (!p.validated) return Evidence::Estimate;
  return p.estimate_band || p.fine_tune_derived ? Evidence::Predicted : Evidence::Validated;
}

CompareRow evaluate_row(const Workload& w, const Instance& inst, PricingModel pricing, const CompareOptions& options,
                        const Catalog& catalog) {
  Scenario s;
  s.workloads = {w};
  s.options = {row_option(inst, pricing, options)};
  const ResolvedScenario r = resolve(s, catalog);
  const Results results = evaluate(r);
  const OptionResult& x = results.workloads[0].options[0];
  const PairInputs& p = r.workloads[0].options[0];
  const Figure& price = inst.price(pricing);
  const Chip* chip = catalog.find_chip(inst.chip);

  CompareRow row;
  row.label = r.options[0].label;
  row.instance = inst.id;
  row.provider = inst.provider;
  row.region = inst.region;
  row.chip = chip ? chip->name : inst.chip;
  row.pricing = pricing;
  row.price_usd_per_instance_hour = x.price_usd_per_hour;
  row.price_usd_per_chip_hour = x.price_usd_per_hour / inst.chips;
  row.price_estimate = price.estimate;
  row.instances = p.instances;
  row.chips = x.chips;
  row.feasible = x.feasible();
  row.status = status_text(x);
  row.mfu = p.mfu;
  row.tokens_per_sec_per_chip = x.chips > 0 ? x.tokens_per_sec / x.chips : 0;
  row.wall_clock_hours = x.wall_clock_hours;
  row.hardware_cost_per_run = x.hardware_cost_per_run;
  row.compute_usd_per_m_tokens = x.compute_cost_per_million_tokens;
  row.evidence = evidence_of(p.performance);
  row.error_median = p.performance.error_median;
  // The reasons behind the speed and the price; porting (a one-time cost) is not in this view.
  const EstimateFlags flags = estimate_flags(s, r, 0, 0, catalog);
  row.reasons = flags.reasons;
  if (flags.one_time && !row.reasons.empty()) row.reasons.pop_back();  // porting's reason comes last
  return row;
}

std::string size_text(const CompareOptions& o) {
  if (o.instances) return "on " + fmt::counted(*o.instances, "instance", "instances") + " each";
  if (o.chips) return "on the fewest instances with at least " + fmt::counted(*o.chips, "chip", "chips");
  return "each sized to finish within " + fmt::number(kDefaultRunDays) + " days (the fewest instances that do)";
}

// Whether row a comes before row b: rows that run first, then by the sort's figure; ties keep the
// catalog's order (stable_sort).
bool before(const CompareRow& a, const CompareRow& b, CompareSort sort) {
  if (a.feasible != b.feasible) return a.feasible;
  if (!a.feasible) return false;
  switch (sort) {
    case CompareSort::Cost: return a.compute_usd_per_m_tokens < b.compute_usd_per_m_tokens;
    case CompareSort::Time: return a.wall_clock_hours < b.wall_clock_hours;
    case CompareSort::Throughput: return a.tokens_per_sec_per_chip > b.tokens_per_sec_per_chip;
  }
  return false;
}

}  // namespace

ComparisonRun::ComparisonRun(const Workload& workload, const Catalog& catalog, const CompareOptions& options)
    : catalog_(catalog), options_(options), workload_(hardware_only(workload, options)) {
  result_.workload = workload_title(workload_, 0);
  result_.named = !workload_.name.empty();
  result_.params = workload_.model.params;
  result_.target_tokens = target_tokens(workload_.target, workload_.model);
  result_.size = size_text(options);
  result_.sort = options.sort;
  for (const Instance& inst : catalog.instances)
    for (int m = 0; m < kPricingModels; ++m)
      if (inst.prices[static_cast<size_t>(m)].present()) rows_.emplace_back(&inst, static_cast<PricingModel>(m));
  result_.rows.reserve(rows_.size());
}

bool ComparisonRun::advance(size_t rows) {
  for (size_t k = 0; k < rows && done() < total(); ++k) {
    const auto& [inst, pricing] = rows_[done()];
    result_.rows.push_back(evaluate_row(workload_, *inst, pricing, options_, catalog_));
  }
  return done() == total();
}

ChipComparison ComparisonRun::finish() {
  advance(total());
  std::stable_sort(result_.rows.begin(), result_.rows.end(),
                   [&](const CompareRow& a, const CompareRow& b) { return before(a, b, options_.sort); });
  return std::move(result_);
}

ChipComparison compare_chips(const Workload& workload, const Catalog& catalog, const CompareOptions& options) {
  return ComparisonRun(workload, catalog, options).finish();
}

const std::vector<CompareColumn>& compare_columns() {
  static const std::vector<CompareColumn> columns = {
      {"Instance", "Instance", "The catalog's instance"},
      {"Chip", "Chip", "Its accelerator"},
      {"Pricing", "Pricing", "How it is paid for: on demand, a 1- or 3-year commitment, spot, a Capacity Block"},
      {"$ per chip-hour", "$/chip-hour", "The catalog's price per instance-hour ÷ chips per instance"},
      {"Instances", "Instances", "The size the run is on"},
      {"Tokens/s per chip", "Tok/s/chip", "Predicted training throughput per chip at the layout the step-time model chose"},
      {"MFU", "MFU", "Model FLOPs utilization of that layout"},
      {"Time", "Time", "Wall clock of one run on this size: training at the cluster's goodput, plus compilation"},
      {"Compute only $ per M tokens", "Compute $/M tok",
       "The hardware of one run (instance-hours × price) per million target tokens; no porting or other one-time costs"},
      {"Evidence", "Evidence",
       "validated: the step-time model was validated on published measurements of the chip; predicted: its error band is "
       "that of thin evidence (few or indirect measurements, a derived step such as a LoRA's, or measurements of the "
       "workload's kind that the model meets only within twice its family's dense error); estimate: no published "
       "measurement of the chip"},
      {"Status", "Status", "Whether the cluster can run the job"},
  };
  return columns;
}

std::vector<std::string> compare_cells(const CompareRow& r) {
  const std::string speed = r.evidence == Evidence::Validated ? "" : kEstimateMark;  // the MFU rests on an estimate
  const std::string cost = speed.empty() && !r.price_estimate ? "" : kEstimateMark;
  const std::string price = (r.price_estimate ? kEstimateMark : "") + fmt::usd_rate(r.price_usd_per_chip_hour);
  const std::string size = fmt::number(r.instances) + " (" + fmt::number(r.chips) + " chips)";
  if (!r.feasible) return {r.instance, r.chip, describe(r.pricing), price, size, "–", "–", "–", "–", word_of(kEvidenceWords, r.evidence), r.status};
  return {r.instance,
          r.chip,
          describe(r.pricing),
          price,
          size,
          speed + fmt::count(r.tokens_per_sec_per_chip),
          speed + fmt::percent(r.mfu),
          speed + fmt::hours(r.wall_clock_hours),
          cost + fmt::usd_rate(r.compute_usd_per_m_tokens),
          word_of(kEvidenceWords, r.evidence),
          r.status};
}

OrderedJson comparison_to_json(const ChipComparison& c) {
  auto figure = [](bool shown, double v) { return shown && std::isfinite(v) ? OrderedJson(v) : OrderedJson(nullptr); };
  OrderedJson rows = OrderedJson::array();
  for (const CompareRow& r : c.rows)
    rows.push_back({{"label", r.label},
                    {"instance", r.instance},
                    {"provider", r.provider},
                    {"region", r.region},
                    {"chip", r.chip},
                    {"pricing", to_string(r.pricing)},
                    {"price_usd_per_instance_hour", r.price_usd_per_instance_hour},
                    {"price_usd_per_chip_hour", r.price_usd_per_chip_hour},
                    {"price_estimate", r.price_estimate},
                    {"instances", r.instances},
                    {"chips", r.chips},
                    {"feasible", r.feasible},
                    {"status", r.status},
                    {"mfu", figure(r.feasible, r.mfu)},
                    {"tokens_per_sec_per_chip", figure(r.feasible, r.tokens_per_sec_per_chip)},
                    {"wall_clock_hours", figure(r.feasible, r.wall_clock_hours)},
                    {"hardware_cost_per_run_usd", figure(r.feasible, r.hardware_cost_per_run)},
                    {"compute_cost_per_million_tokens_usd", figure(r.feasible, r.compute_usd_per_m_tokens)},
                    {"evidence", word_of(kEvidenceWords, r.evidence)},
                    {"error_median", r.error_median},
                    {"estimate_reasons", r.reasons},
                    {"cells", compare_cells(r)}});
  OrderedJson columns = OrderedJson::array();
  for (const CompareColumn& col : compare_columns()) columns.push_back(col.header);
  return {{"traincost_version", TRAINCOST_VERSION},
          {"workload", c.workload},
          {"params", c.params},
          {"target_tokens", c.target_tokens},
          {"size", c.size},
          {"sort", word_of(kCompareSortWords, c.sort)},
          {"columns", columns},
          {"rows", rows}};
}

namespace {

std::string title_line(const ChipComparison& c) {
  // An automatic title already says "8B, 2T tokens"; a typed one says neither.
  const std::string numbers = c.named ? " (" + fmt::count(c.params) + " parameters, " + fmt::count(c.target_tokens) + " tokens)" : "";
  return "Chip by chip: " + c.workload + numbers + ", " + c.size + "; sorted by " + description_of(kCompareSortWords, c.sort) + ".";
}

std::string footnote(const ChipComparison& c) {
  return std::string(kEstimateMark) + " rests on an estimate (a throughput not validated on the chip, or a price the catalog marks as one). " +
         "Compute only: hardware alone, with no porting or other one-time costs; `traincost evaluate` gives the all-in figures. " +
         std::to_string(c.rows.size()) + " rows.";
}

std::string pad(const std::string& s, size_t width) {
  size_t visible = 0;
  for (unsigned char ch : s) visible += (ch & 0xC0) != 0x80;
  return visible >= width ? s + " " : s + std::string(width - visible, ' ');
}

}  // namespace

std::string comparison_text(const ChipComparison& c) {
  const std::vector<CompareColumn>& columns = compare_columns();
  std::vector<std::vector<std::string>> table = {{}};
  for (const CompareColumn& col : columns) table[0].push_back(col.header);
  for (const CompareRow& r : c.rows) table.push_back(compare_cells(r));
  std::vector<size_t> widths(columns.size(), 0);
  for (const auto& cells : table)
    for (size_t i = 0; i < cells.size(); ++i) {
      size_t visible = 0;
      for (unsigned char ch : cells[i]) visible += (ch & 0xC0) != 0x80;
      widths[i] = std::max(widths[i], visible + 1);
    }
  std::string out = title_line(c) + "\n\n";
  for (const auto& cells : table) {
    std::string line;
    for (size_t i = 0; i < cells.size(); ++i) line += i + 1 == cells.size() ? cells[i] : pad(cells[i], widths[i]);
    out += line + "\n";
  }
  out += "\n" + footnote(c) + "\n";
  return escape_terminal_text(out);
}

std::string comparison_markdown(const ChipComparison& c) {
  std::string out = "**" + escape_markdown(title_line(c)) + "**\n\n";
  std::string rule = "|";
  for (size_t i = 0; i < compare_columns().size(); ++i) {
    out += std::string("| ") + compare_columns()[i].header + " ";
    rule += i < 3 || i + 2 >= compare_columns().size() ? "---|" : "---:|";
  }
  out += "|\n" + rule + "\n";
  for (const CompareRow& r : c.rows) {
    for (const std::string& cell : compare_cells(r)) out += "| " + escape_markdown(cell) + " ";
    out += "|\n";
  }
  return out + "\n" + escape_markdown(footnote(c)) + "\n";
}

std::string comparison_csv(const ChipComparison& c) {
  auto num = [](double v) { return fmt::printf_c("%.10g", v); };
  std::string out =
      "instance,provider,region,chip,pricing,price_usd_per_instance_hour,price_usd_per_chip_hour,price_estimate,instances,chips,feasible,"
      "tokens_per_sec_per_chip,mfu,wall_clock_hours,hardware_cost_per_run_usd,compute_cost_per_million_tokens_usd,evidence,"
      "error_median,status,rests_on_estimates\n";
  for (const CompareRow& r : c.rows) {
    auto figure = [&](double v) { return r.feasible ? num(v) : std::string(); };
    std::string reasons;
    for (const std::string& reason : r.reasons) reasons += (reasons.empty() ? "" : "; ") + reason;
    out += escape_csv(r.instance) + "," + escape_csv(r.provider) + "," + escape_csv(r.region) + "," + escape_csv(r.chip) + "," +
           to_string(r.pricing) + "," + num(r.price_usd_per_instance_hour) + "," + num(r.price_usd_per_chip_hour) + "," +
           (r.price_estimate ? "true" : "false") + "," + num(r.instances) + "," + num(r.chips) + "," + (r.feasible ? "true" : "false") + "," +
           figure(r.tokens_per_sec_per_chip) + "," + figure(r.mfu) + "," + figure(r.wall_clock_hours) + "," +
           figure(r.hardware_cost_per_run) + "," + figure(r.compute_usd_per_m_tokens) + "," + word_of(kEvidenceWords, r.evidence) + "," +
           num(r.error_median) + "," + escape_csv(r.status) + "," + escape_csv(reasons) + "\n";
  }
  return out;
}

}  // namespace traincost
