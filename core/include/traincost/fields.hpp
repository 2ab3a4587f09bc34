#pragma once
// What every numeric input of a scenario means: unit, valid range, default, typical values.
// One table serves the validator (messages name the field and its bounds), the web page's
// tooltips and the generated reference in docs/scenario-format.md.
#include <string>
#include <vector>

namespace traincost {

struct FieldSpec {
  const char* path;         // documentation path, e.g. "options[].mfu"
  const char* unit;         // e.g. "fraction", "USD per instance-hour"
  double min;               // valid range; min is exclusive when min_exclusive
  double max;
  bool min_exclusive;
  bool integer;             // must be a whole number
  const char* default_text; // e.g. "the catalog's figure for the chip"
  const char* meaning;
  const char* typical;      // typical values and where they come from

  // Last path component: the JSON key ("mfu").
  std::string key() const;
  // "must be > 0, got -3" or "" when the value is acceptable.
  std::string check(double value) const;
};

namespace fields {
// Scenario
extern const FieldSpec reference;
extern const FieldSpec samples, seed;
// Workload
extern const FieldSpec params, active_params, layers, hidden, heads, seq_len, vocab;
extern const FieldSpec tokens, steps, tokens_per_step, loss;
extern const FieldSpec law_E, law_A, law_B, law_alpha, law_beta;
extern const FieldSpec bytes_per_param, micro_batch, tensor_parallel, usable_fraction;
extern const FieldSpec runs, horizon_months, override_option;
// Option
extern const FieldSpec instances, price_usd_per_hour, discount, mfu, measured_tokens_per_sec_per_chip;
extern const FieldSpec scaling_reference_chips, scaling_per_doubling;
extern const FieldSpec custom_chips, custom_peak_tflops, custom_memory_gb;
extern const FieldSpec mtbf_hours_per_instance, checkpoint_write_minutes, restart_minutes, checkpoint_interval_hours;
// Platform costs (options[].porting and workloads[].overrides[])
extern const FieldSpec engineer_weeks, usd_per_engineer_week, validation_runs, validation_run_fraction,
    convergence_penalty, compile_hours_per_run, maintenance_usd_per_year, egress_tb_per_run, egress_usd_per_tb;
// Ranges
extern const FieldSpec range_low, range_high;
}  // namespace fields

// Every spec above, in documentation order.
const std::vector<const FieldSpec*>& all_fields();

}  // namespace traincost
