#pragma once
// The numeric inputs a range can be put on, addressed by path ("options[0].mfu",
// "workloads[1].runs"): the fields of fields.cpp marked rangeable. Sensitivity and Monte Carlo
// vary exactly these.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traincost/scenario/fields.hpp"

namespace traincost {

enum class InputScope { Workload, Option };

struct InputKind {
  std::string name;  // path below the workload or option: "porting.engineer_weeks"
  InputScope scope;
  const FieldSpec* spec;
  const char* label;  // short human name: "porting effort"
};

const std::vector<InputKind>& rangeable_inputs();

struct InputRef {
  const InputKind* kind = nullptr;
  int index = 0;  // workload or option index
  std::string path() const;  // the canonical path: "options[1].mfu"
};

// Parses "options[1].porting.engineer_weeks"; nothing when the path names no rangeable input.
// Indices are written without leading zeros ("options[01]" is not a path), so one input has
// exactly one path and duplicate ranges are found by comparing paths.
std::optional<InputRef> parse_input_path(std::string_view path);

}  // namespace traincost
