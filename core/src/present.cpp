#include "traincost/present.hpp"

#include <cctype>
#include <cstring>

#include "traincost/format.hpp"
#include "traincost/resolve.hpp"
#include "traincost/verdict.hpp"

namespace traincost {

const std::vector<ResultColumn>& result_columns() {
  static const std::vector<ResultColumn> columns = {
      {"Option", "Option", "Click the arrow to see every formula with these numbers"},
      {"Wall clock", "Time", "Wall clock per run: training at the cluster's goodput, plus compilation"},
      {"Chip-hours", "Chip-h", "Chip-hours per run"},
      {"Hardware per run", "Hardware", "Instance-hours × price, per run"},
      {"One-time", "One-time", "Porting engineering + validation compute, paid once"},
      {"Fully loaded per run", "All-in / run", "Fully loaded cost per run: hardware + recurring + one-time ÷ expected runs"},
      {"$ per M tokens", "$/M tok", "Fully loaded cost per million target tokens"},
      {"Status", "Status", "Whether the option can run the job: the cluster holds the model, fails rarely enough, reaches the target"},
  };
  return columns;
}

std::string status_text(const OptionResult& r) {
  switch (r.infeasible) {
    case Infeasible::No: return "fits";
    case Infeasible::Memory:
      return r.memory.possible ? "needs " + fmt::number(r.memory.min_instances) + "+ instances" : "does not fit";
    case Infeasible::Goodput: return "fails too often";
    case Infeasible::Target: return "target unreachable";
  }
  return {};
}

std::string status_detail(const OptionResult& r) {
  if (!r.feasible()) return infeasibility_reason(r);
  return fmt::number(r.memory.bytes_per_chip / 1e9, 3) + " GB per chip of " + fmt::number(r.memory.usable_bytes_per_chip / 1e9, 3) +
         " GB usable; holds from " + fmt::number(r.memory.min_instances) + (r.memory.min_instances == 1 ? " instance" : " instances");
}

std::vector<std::string> result_cells(const std::string& label, const OptionResult& r) {
  // An option that cannot run the job has no time or cost to show (its figures would mislead, and
  // can be negative or infinite): dashes, and the status says why.
  if (!r.feasible()) return {label, "–", "–", "–", fmt::usd(r.one_time_cost), "–", "–", status_text(r)};
  return {label,
          fmt::hours(r.wall_clock_hours),
          fmt::count(r.chip_hours),
          fmt::usd(r.hardware_cost_per_run),
          fmt::usd(r.one_time_cost),
          fmt::usd(r.cost_per_run),
          fmt::usd_rate(r.cost_per_million_tokens),
          status_text(r)};
}

namespace {

// "NVIDIA H100 SXM" -> "H100", "AWS Trainium2" -> "Trainium2": the chip's name without its vendor.
std::string short_chip_name(const Chip& chip) {
  std::string name = chip.name;
  for (const char* vendor : {"NVIDIA ", "AWS ", "Google ", "AMD "})
    if (name.rfind(vendor, 0) == 0) name = name.substr(std::strlen(vendor));
  const size_t space = name.find(' ');
  return space == std::string::npos ? name : name.substr(0, space);
}

}  // namespace

std::string automatic_label(const Option& o, const Catalog& c) {
  const std::string count = " x" + std::to_string(o.instances);
  const Instance* inst = c.find_instance(o.instance);
  if (!inst) {
    const Chip* chip = o.custom ? c.find_chip(o.custom->chip) : nullptr;
    return (chip ? short_chip_name(*chip) : std::string("Custom")) + count + (chip ? " (custom)" : "");
  }
  const Chip* chip = c.find_chip(inst->chip);
  // AWS instance families name the chip and the instance at once ("trn2.48xlarge" -> "Trn2").
  const std::string family = inst->id.substr(0, inst->id.find_first_of(".-"));
  if (chip && chip->family == Family::Trainium && inst->provider == "AWS") {
    std::string name = family;
    if (!name.empty()) name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
    return name + count;
  }
  const std::string where = inst->provider == "AWS" ? family : inst->provider;
  return (chip ? short_chip_name(*chip) : inst->chip) + count + " (" + where + ")";
}

EstimateFlags estimate_flags(const Scenario& s, const ResolvedScenario& r, size_t w, size_t o, const Catalog& c) {
  EstimateFlags f;
  if (o >= r.options.size() || w >= r.workloads.size()) return f;
  const OptionInfo& info = r.options[o];
  const PairInputs& p = r.workloads[w].options[o];
  const std::string& label = info.label;
  if (info.mfu_from_catalog && p.measured_tokens_per_sec_per_chip <= 0 && info.catalog_mfu && info.catalog_mfu->estimate) {
    f.speed = true;
    f.reasons.push_back(label + "'s MFU (" + fmt::percent(p.mfu) + ") is the catalog's estimate: no published figure for " +
                        info.chip_name + "; measure your own run");
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
    const Figure* figure = overridden ? nullptr : c.defaults.find("engineer_weeks", info.family);
    if (figure && figure->estimate) {
      f.one_time = true;
      f.reasons.push_back(label + "'s porting effort (" + fmt::number(p.engineer_weeks) + " engineer-weeks) is TrainCost's estimate");
    }
  }
  return f;
}

bool column_is_estimate(size_t column, const EstimateFlags& f) {
  const bool cost = f.speed || f.price;
  switch (column) {
    case 1: case 2: return f.speed;                   // wall clock, chip-hours
    case 3: case 6: return cost;                      // hardware, $ per M tokens
    case 4: return f.one_time;                        // one-time
    case 5: return cost || f.one_time;                // fully loaded
    default: return false;
  }
}

std::vector<std::string> result_cells(const std::string& label, const OptionResult& result, const EstimateFlags& flags) {
  std::vector<std::string> cells = result_cells(label, result);
  for (size_t c = 0; c < cells.size(); ++c)
    if (column_is_estimate(c, flags) && cells[c] != "–") cells[c] = kEstimateMark + cells[c];
  return cells;
}

std::string estimate_footnote(const Scenario& s, const ResolvedScenario& r, size_t w, const Catalog& c) {
  std::string reasons;
  for (size_t o = 0; o < r.options.size(); ++o)
    for (const std::string& reason : estimate_flags(s, r, w, o, c).reasons) reasons += (reasons.empty() ? "" : "; ") + reason;
  return reasons.empty() ? "" : std::string(kEstimateMark) + " rests on an estimate: " + reasons + ".";
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
  return fmt::number(value, 3);
}

std::string citation(const Figure& figure, const Catalog& catalog) {
  if (!figure.present()) return {};
  const Source* s = catalog.find_source(figure.source);
  std::string text = (s ? s->title : figure.source) + ", " + figure.as_of;
  if (figure.estimate) text += " (estimate)";
  if (!figure.note.empty()) text += ". " + figure.note;
  return text;
}

namespace {

// The code point at text[i] (UTF-8) and its length in bytes; invalid bytes count as one each.
unsigned code_point(std::string_view text, size_t i, size_t& length) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned c = byte(i);
  length = 1;
  if (c < 0x80) return c;
  const size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
  if (n == 1 || i + n > text.size()) return 0xFFFD;
  unsigned cp = c & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0xFFFD;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  length = n;
  return cp;
}

bool is_control(unsigned cp) { return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0); }

}  // namespace

bool has_control_characters(std::string_view text) {
  for (size_t i = 0, n = 0; i < text.size(); i += n)
    if (is_control(code_point(text, i, n))) return true;
  return false;
}

std::string escape_terminal(std::string_view text) {
  std::string out;
  for (size_t i = 0, n = 0; i < text.size(); i += n) {
    const unsigned cp = code_point(text, i, n);
    out += is_control(cp) ? std::string("\xEF\xBF\xBD") : std::string(text.substr(i, n));
  }
  return out;
}

std::string escape_markdown(std::string_view text) {
  std::string out;
  for (size_t i = 0, n = 0; i < text.size(); i += n) {
    const unsigned cp = code_point(text, i, n);
    if (is_control(cp)) out += ' ';
    else if (cp == '&') out += "&amp;";
    else if (cp == '<') out += "&lt;";
    else if (cp == '>') out += "&gt;";
    else if (cp < 0x80 && std::strchr("\\`*_[]!#|~", static_cast<int>(cp))) out += std::string("\\") + static_cast<char>(cp);
    else out += text.substr(i, n);
  }
  return out;
}

std::string escape_csv(std::string_view text) {
  std::string out = "\"";
  if (!text.empty() && std::strchr("=+-@\t\r", text[0])) out += '\'';
  for (char ch : text) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

std::string escape_html(std::string_view text) {
  std::string out;
  for (char ch : text) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += ch;
    }
  }
  return out;
}

}  // namespace traincost
