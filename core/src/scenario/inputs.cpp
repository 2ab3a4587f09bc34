#include "traincost/scenario/inputs.hpp"

namespace traincost {

const std::vector<InputKind>& rangeable_inputs() {
  static const std::vector<InputKind> kinds = [] {
    std::vector<InputKind> out;
    for (const FieldSpec* f : all_fields()) {
      if (!f->rangeable) continue;
      const bool option = std::string(f->path).rfind("options[]", 0) == 0;
      out.push_back({f->input_name(), option ? InputScope::Option : InputScope::Workload, f, f->label});
    }
    return out;
  }();
  return kinds;
}

std::string InputRef::path() const {
  if (!kind) return {};
  return std::string(kind->scope == InputScope::Workload ? "workloads[" : "options[") + std::to_string(index) +
         "]." + kind->name;
}

std::optional<InputRef> parse_input_path(std::string_view path) {
  InputScope scope;
  std::string_view rest;
  if (path.substr(0, 10) == "workloads[") {
    scope = InputScope::Workload;
    rest = path.substr(10);
  } else if (path.substr(0, 8) == "options[") {
    scope = InputScope::Option;
    rest = path.substr(8);
  } else {
    return std::nullopt;
  }
  // index: 1 or 2 digits without a leading zero, then "]."
  size_t digits = 0;
  int index = 0;
  while (digits < rest.size() && digits < 3 && rest[digits] >= '0' && rest[digits] <= '9') {
    index = index * 10 + (rest[digits] - '0');
    ++digits;
  }
  if (digits == 0 || digits > 2 || (digits == 2 && rest[0] == '0') || rest.substr(digits, 2) != "].") return std::nullopt;
  const std::string_view name = rest.substr(digits + 2);
  for (const InputKind& kind : rangeable_inputs())
    if (kind.scope == scope && name == kind.name) return InputRef{&kind, index};
  return std::nullopt;
}

}  // namespace traincost
