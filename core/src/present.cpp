#include "traincost/present.hpp"

#include <cctype>
#include <cmath>
#include <cstring>

#include "traincost/fields.hpp"
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
      {"Status", "Status",
       "Whether the option can run the job: the cluster holds the model, fails rarely enough, reaches the target; with a deadline, "
       "the instances it needs to be done in time"},
  };
  return columns;
}

std::string status_text(const OptionResult& r) {
  switch (r.infeasible) {
    case Infeasible::No: return r.deadline.applied ? fmt::number(r.deadline.instances) + " instances" : "fits";
    case Infeasible::Memory:
      return r.memory.possible ? "needs " + fmt::number(r.memory.min_instances) + "+ instances" : "does not fit";
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
  if (r.deadline.applied)
    text += "; done in " + fmt::days(r.days_to_model) + " on " + fmt::number(r.deadline.instances) + " instances, the fewest within the " +
            fmt::number(r.deadline.deadline_days) + "-day deadline";
  return text;
}

std::vector<std::string> result_cells(const std::string& label, const OptionResult& r) {
  // An option that cannot run the job has no time or cost to show (its figures would mislead, and
  // can be negative or infinite): dashes, and the status says why.
  if (!r.feasible()) return {label, "–", "–", "–", "–", "–", "–", status_text(r)};
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
  // A predicted MFU for a chip with no published measurement rests on another chip's calibration.
  if (info.throughput == ThroughputSource::Predicted && p.performance.layout_found && !p.performance.validated) {
    f.speed = true;
    f.reasons.push_back(label + "'s MFU (" + fmt::percent(p.mfu) + ") is an estimate: predicted with no published measurement of " +
                        info.chip_name + " (median error " + fmt::percent(p.performance.error_median) + "); measure your own run");
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

namespace {

constexpr const char* kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The code point at text[i] (UTF-8) and its length in bytes. A byte that does not start a
// well-formed sequence (a stray continuation byte, a truncated or overlong sequence, a surrogate,
// anything past U+10FFFF) is invalid: length 1, and `valid` false.
unsigned code_point(std::string_view text, size_t i, size_t& length, bool& valid) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned c = byte(i);
  length = 1;
  valid = true;
  if (c < 0x80) return c;
  const size_t n = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  valid = false;
  if (n == 0 || i + n > text.size()) return 0xFFFD;
  unsigned cp = n == 2 ? (c & 0x1Fu) : n == 3 ? (c & 0x0Fu) : (c & 0x07u);
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0xFFFD;
    cp = (cp << 6) | (byte(i + k) & 0x3Fu);
  }
  if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
      (cp >= 0xD800 && cp <= 0xDFFF))
    return 0xFFFD;
  length = n;
  valid = true;
  return cp;
}

// Characters that change how text is laid out rather than being text: C0 controls (tab, line
// feed, carriage return, escape), DEL, C1 controls (CSI 0x9B starts an escape sequence in some
// terminals), the Unicode line and paragraph separators, and the bidirectional embeddings,
// overrides and isolates (which can make text display in another order than it is stored).
bool is_control(unsigned cp) {
  return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) || cp == 0x2028 || cp == 0x2029 ||
         (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

// Walks `text` character by character: `keep(cp, bytes)` appends what to write for a valid
// character that is not a control; controls become `control`, invalid bytes U+FFFD.
template <typename Keep>
std::string rewrite(std::string_view text, const char* control, Keep keep) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0, n = 0; i < text.size(); i += n) {
    bool valid = true;
    const unsigned cp = code_point(text, i, n, valid);
    if (!valid) out += kReplacement;
    else if (is_control(cp)) out += control;
    else keep(out, cp, text.substr(i, n));
  }
  return out;
}

}  // namespace

std::optional<ControlCharacter> find_control_character(std::string_view text) {
  size_t characters = 0;
  for (size_t i = 0, n = 0; i < text.size(); i += n, ++characters) {
    bool valid = true;
    const unsigned cp = code_point(text, i, n, valid);
    if (!valid || is_control(cp)) return ControlCharacter{cp, characters, !valid};
  }
  return std::nullopt;
}

bool has_control_characters(std::string_view text) { return find_control_character(text).has_value(); }

size_t character_count(std::string_view text) {
  size_t characters = 0;
  for (size_t i = 0, n = 0; i < text.size(); i += n, ++characters) {
    bool valid = true;
    code_point(text, i, n, valid);
  }
  return characters;
}

std::string escape_terminal(std::string_view text) {
  return rewrite(text, kReplacement, [](std::string& out, unsigned, std::string_view bytes) { out += bytes; });
}

std::string escape_terminal_text(std::string_view text) {
  std::string out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = text.find('\n', start);
    out += escape_terminal(text.substr(start, (end == std::string_view::npos ? text.size() : end) - start));
    if (end == std::string_view::npos) break;
    out += '\n';
    start = end + 1;
  }
  return out;
}

std::string escape_markdown(std::string_view text) {
  return rewrite(text, " ", [](std::string& out, unsigned cp, std::string_view bytes) {
    if (cp == '&') out += "&amp;";
    else if (cp == '<') out += "&lt;";
    else if (cp == '>') out += "&gt;";
    else if (cp < 0x80 && std::strchr("\\`*_[]!#|~", static_cast<int>(cp))) out += std::string("\\") + static_cast<char>(cp);
    else out += bytes;
  });
}

std::string markdown_url(std::string_view url) {
  std::string out;
  for (const char ch : url) {
    const auto c = static_cast<unsigned char>(ch);
    if (c > 0x20 && c < 0x7F && !std::strchr("()<>\\\"`[]| ", ch)) {
      out += ch;
    } else {
      static const char hex[] = "0123456789ABCDEF";
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 0xF];
    }
  }
  return out;
}

std::string escape_csv(std::string_view text) {
  std::string out = "\"";
  // What a spreadsheet reads as a formula: = + - @ first, or a tab, a line break or a fullwidth
  // = + - @ (U+FF1D, U+FF0B, U+FF0D, U+FF20) that some versions normalise to them.
  static const char* const kFormula[] = {"=", "+", "-", "@", "\t", "\r", "\n",
                                         "\xEF\xBC\x9D", "\xEF\xBC\x8B", "\xEF\xBC\x8D", "\xEF\xBC\xA0"};
  for (const char* start : kFormula)
    if (text.substr(0, std::strlen(start)) == start) {
      out += '\'';
      break;
    }
  for (size_t i = 0, n = 0; i < text.size(); i += n) {
    bool valid = true;
    code_point(text, i, n, valid);
    if (!valid) out += kReplacement;
    else if (text[i] == '"') out += "\"\"";
    else out += text.substr(i, n);
  }
  return out + "\"";
}

std::string escape_html(std::string_view text) {
  return rewrite(text, kReplacement, [](std::string& out, unsigned cp, std::string_view bytes) {
    switch (cp) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += bytes;
    }
  });
}

}  // namespace traincost
