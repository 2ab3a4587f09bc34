#include "traincost/scenario/labels.hpp"

#include <cctype>
#include <cstring>

#include "traincost/base/format.hpp"

namespace traincost {

namespace {

// "NVIDIA H100 SXM" -> "H100", "AWS Trainium2" -> "Trainium2": the chip's name without its vendor.
std::string short_chip_name(const Chip& chip) {
  std::string name = chip.name;
  for (const char* vendor : {"NVIDIA ", "AWS ", "Google ", "AMD "})
    if (name.rfind(vendor, 0) == 0) name = name.substr(std::strlen(vendor));
  const size_t space = name.find(' ');
  return space == std::string::npos ? name : name.substr(0, space);
}

// How an option is paid for, as its label says it; on demand, the usual case, says nothing.
const char* pricing_word(PricingModel pricing) {
  switch (pricing) {
    case PricingModel::OnDemand: return "";
    case PricingModel::Reserved1yr: return "1-yr";
    case PricingModel::Reserved3yr: return "3-yr";
    case PricingModel::Spot: return "spot";
    case PricingModel::CapacityBlock: return "Capacity Block";
  }
  return "";
}

// "(p5)", "(p5, spot)", "(spot)", or nothing.
std::string qualifier(std::string where, PricingModel pricing) {
  const std::string paid = pricing_word(pricing);
  if (!where.empty() && !paid.empty()) where += ", ";
  where += paid;
  return where.empty() ? "" : " (" + where + ")";
}

}  // namespace

std::string automatic_label(const Option& o, const Catalog& c, std::optional<int> instances) {
  const std::string count = instances ? " x" + std::to_string(*instances) : "";
  const Instance* inst = c.find_instance(o.instance);
  if (!inst) {
    const Chip* chip = o.custom ? c.find_chip(o.custom->chip) : nullptr;
    return (chip ? short_chip_name(*chip) : std::string("Custom")) + count + qualifier(chip ? "custom" : "", o.pricing);
  }
  const Chip* chip = c.find_chip(inst->chip);
  // AWS instance families name the chip and the instance at once ("trn2.48xlarge" -> "Trn2").
  const std::string family = inst->id.substr(0, inst->id.find_first_of(".-"));
  if (chip && chip->family == Family::Trainium && inst->provider == "AWS") {
    std::string name = family;
    if (!name.empty()) name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
    return name + count + qualifier("", o.pricing);
  }
  const std::string where = inst->provider == "AWS" ? family : inst->provider;
  return (chip ? short_chip_name(*chip) : inst->chip) + count + qualifier(where, o.pricing);
}

namespace {

// Whether `text` at `i` starts a space: ASCII space, no-break space (U+00A0), the typographic
// spaces U+2000-U+200A, U+202F, U+205F, the ideographic space U+3000; `length` its bytes.
bool space_at(const std::string& text, size_t i, size_t& length) {
  const auto b = [&](size_t k) { return k < text.size() ? static_cast<unsigned char>(text[k]) : 0u; };
  length = 1;
  if (b(i) == ' ') return true;
  length = 2;
  if (b(i) == 0xC2 && b(i + 1) == 0xA0) return true;
  length = 3;
  if (b(i) == 0xE2 && b(i + 1) == 0x80 && (b(i + 2) <= 0x8A || b(i + 2) == 0xAF)) return true;
  if (b(i) == 0xE2 && b(i + 1) == 0x81 && b(i + 2) == 0x9F) return true;
  if (b(i) == 0xE3 && b(i + 1) == 0x80 && b(i + 2) == 0x80) return true;
  return false;
}

// A label as a reader tells it from others: spaces of any kind and number read as one, none at
// either end, and ASCII letters in either case ("Same", "Same " and "same" read as one label).
std::string reading_key(const std::string& label) {
  std::string key;
  bool pending_space = false;
  for (size_t i = 0, n = 0; i < label.size(); i += n) {
    if (space_at(label, i, n)) {
      pending_space = !key.empty();
      continue;
    }
    n = 1;
    if (pending_space) key += ' ';
    pending_space = false;
    key += static_cast<char>(std::tolower(static_cast<unsigned char>(label[i])));
  }
  return key;
}

// The label without spaces at its end, before a " #2" is added.
std::string trimmed(std::string label) {
  for (bool again = true; again;) {
    again = false;
    for (size_t back = 1; back <= 3 && back <= label.size(); ++back) {
      size_t n = 0;
      if (space_at(label, label.size() - back, n) && n == back) {
        label.resize(label.size() - back);
        again = true;
        break;
      }
    }
  }
  return label;
}

}  // namespace

std::vector<std::string> distinct_labels(std::vector<std::string> labels) {
  // Two options that read alike are told apart, so no sentence reads "Same is 22% cheaper than
  // Same" (issue 33, item 9), also when they differ only in spaces or case.
  for (size_t i = 1; i < labels.size(); ++i)
    for (size_t k = 0; k < i; ++k)
      if (reading_key(labels[k]) == reading_key(labels[i])) {
        labels[i] = trimmed(labels[i]) + " #" + std::to_string(i + 1);
        k = static_cast<size_t>(-1);  // the new label may itself repeat an earlier one: check again
      }
  return labels;
}

namespace {

// A parameter or token count as a name says it: "8B" rather than "8.0B", "47B", "1.5T".
std::string short_count(double v) {
  std::string text = fmt::count(v);
  const size_t dot = text.find(".0");
  if (dot != std::string::npos && (dot + 2 == text.size() || !std::isdigit(static_cast<unsigned char>(text[dot + 2]))))
    text.erase(dot, 2);
  return text;
}

}  // namespace

std::string automatic_workload_name(const Workload& w) {
  const Model& m = w.model;
  std::string name = m.active() < m.params ? "MoE " + short_count(m.params) + " total / " + short_count(m.active()) + " active"
                                           : short_count(m.params);
  if (w.fine_tune.mode == FineTuneMode::Lora) name += " LoRA";
  if (w.fine_tune.mode == FineTuneMode::Qlora) name += " QLoRA";
  switch (w.target.kind) {
    case TargetKind::Tokens: name += ", " + short_count(w.target.tokens) + " tokens"; break;
    case TargetKind::Steps: name += ", " + short_count(w.target.steps) + " steps"; break;
    case TargetKind::Loss: name += ", to loss " + fmt::number(w.target.loss); break;
  }
  if (w.deadline_days) name += ", within " + fmt::counted(*w.deadline_days, "day", "days");
  // A regular cadence, when the runs over the horizon make one exactly.
  const double per_year = w.runs * 12 / w.horizon_months;
  if (per_year == 52) name += ", weekly";
  else if (per_year == 12) name += ", monthly";
  else if (per_year == 4) name += ", quarterly";
  return name;
}

std::string workload_title(const Workload& w, size_t) { return w.name.empty() ? automatic_workload_name(w) : w.name; }

std::string input_title(const Scenario& s, const InputRef& ref, const Catalog& catalog) {
  const size_t i = static_cast<size_t>(ref.index);
  std::string owner;
  if (ref.kind->scope == InputScope::Workload)
    owner = i < s.workloads.size() ? workload_title(s.workloads[i], i) : "workload " + std::to_string(i + 1);
  else if (i < s.options.size())
    owner = s.options[i].label.empty() ? automatic_label(s.options[i], catalog) : s.options[i].label;
  else
    owner = "option " + std::to_string(i + 1);
  return owner + ": " + ref.kind->label;
}

}  // namespace traincost
