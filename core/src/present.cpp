#include "traincost/present.hpp"

#include <cmath>

#include <cstring>

#include "traincost/format.hpp"
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

std::string escape_terminal_lines(std::string_view text) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    out += escape_terminal(text.substr(start, (end == std::string_view::npos ? text.size() : end) - start));
    if (end == std::string_view::npos) break;
    out += '\n';
    start = end + 1;
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
