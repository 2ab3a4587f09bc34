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

}  // namespace

std::string automatic_label(const Option& o, const Catalog& c) {
  // A default-sized option's size depends on the workload: its label names no count.
  const std::string count = o.sized_by_default() ? std::string() : " x" + std::to_string(o.instances);
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


std::string workload_title(const Workload& w, size_t index) {
  return w.name.empty() ? "Workload " + std::to_string(index + 1) : w.name;
}

}  // namespace traincost
