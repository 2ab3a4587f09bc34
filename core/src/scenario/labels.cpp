#include "traincost/scenario/labels.hpp"

#include <cctype>
#include <cstring>

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

std::vector<std::string> distinct_labels(std::vector<std::string> labels) {
  for (size_t i = 1; i < labels.size(); ++i)
    for (size_t k = 0; k < i; ++k)
      if (labels[k] == labels[i]) {
        labels[i] += " #" + std::to_string(i + 1);
        k = static_cast<size_t>(-1);  // the new label may itself repeat an earlier one: check again
      }
  return labels;
}


std::string workload_title(const Workload& w, size_t index) {
  return w.name.empty() ? "Workload " + std::to_string(index + 1) : w.name;
}

}  // namespace traincost
