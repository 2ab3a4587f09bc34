#include "traincost/inputs.hpp"

#include <cstring>

namespace traincost {

const std::vector<InputKind>& rangeable_inputs() {
  using namespace fields;
  static const std::vector<InputKind> kinds = {
      {"runs", InputScope::Workload, &runs, "runs"},
      {"horizon_months", InputScope::Workload, &horizon_months, "horizon"},
      {"model.params", InputScope::Workload, &params, "parameters"},
      {"model.active_params", InputScope::Workload, &active_params, "active parameters"},
      {"target.tokens", InputScope::Workload, &tokens, "tokens"},
      {"target.steps", InputScope::Workload, &steps, "steps"},
      {"target.tokens_per_step", InputScope::Workload, &tokens_per_step, "tokens per step"},
      {"target.loss", InputScope::Workload, &loss, "target loss"},
      {"mfu", InputScope::Option, &mfu, "MFU"},
      {"measured_tokens_per_sec_per_chip", InputScope::Option, &measured_tokens_per_sec_per_chip, "measured throughput"},
      {"price_usd_per_hour", InputScope::Option, &price_usd_per_hour, "price"},
      {"discount", InputScope::Option, &discount, "discount"},
      {"scaling_per_doubling", InputScope::Option, &scaling_per_doubling, "scaling efficiency"},
      {"reliability.mtbf_hours_per_instance", InputScope::Option, &mtbf_hours_per_instance, "MTBF"},
      {"reliability.checkpoint_write_minutes", InputScope::Option, &checkpoint_write_minutes, "checkpoint write"},
      {"reliability.restart_minutes", InputScope::Option, &restart_minutes, "restart time"},
      {"porting.engineer_weeks", InputScope::Option, &engineer_weeks, "porting effort"},
      {"porting.usd_per_engineer_week", InputScope::Option, &usd_per_engineer_week, "engineer cost"},
      {"porting.validation_runs", InputScope::Option, &validation_runs, "validation runs"},
      {"porting.validation_run_fraction", InputScope::Option, &validation_run_fraction, "validation run length"},
      {"porting.convergence_penalty", InputScope::Option, &convergence_penalty, "convergence penalty"},
      {"porting.compile_hours_per_run", InputScope::Option, &compile_hours_per_run, "compile time"},
      {"porting.maintenance_usd_per_year", InputScope::Option, &maintenance_usd_per_year, "maintenance"},
      {"porting.egress_tb_per_run", InputScope::Option, &egress_tb_per_run, "egress volume"},
      {"porting.egress_usd_per_tb", InputScope::Option, &egress_usd_per_tb, "egress price"},
  };
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
  // index: 1 to 2 digits, then "]."
  size_t digits = 0;
  int index = 0;
  while (digits < rest.size() && digits < 3 && rest[digits] >= '0' && rest[digits] <= '9') {
    index = index * 10 + (rest[digits] - '0');
    ++digits;
  }
  if (digits == 0 || digits > 2 || rest.substr(digits, 2) != "].") return std::nullopt;
  const std::string_view name = rest.substr(digits + 2);
  for (const InputKind& kind : rangeable_inputs())
    if (kind.scope == scope && name == kind.name) return InputRef{&kind, index};
  return std::nullopt;
}

}  // namespace traincost
