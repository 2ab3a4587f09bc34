#pragma once
// Every numeric field of a scenario, declared once: where it lives in the JSON and in the
// Scenario structs, its unit, valid range, default, meaning and typical values, how the page
// shows it, which resolved number it becomes, which catalog figure is its default and whether
// the uncertainty analysis can put a range on it.
//
// The reader, the writer and the validator of scenario_json.cpp, the resolver, the uncertainty
// binding, the list of rangeable inputs (inputs.hpp), the page's editors and tooltips and
// `traincost schema` (so docs/scenario-format.md) all iterate this table. Adding a numeric field
// is one declaration in fields.cpp (plus the formula that uses it); docs/architecture.md shows how.
#include <optional>
#include <string>
#include <vector>

#include "traincost/scenario/layout.hpp"
#include "traincost/scenario/pair_numbers.hpp"
#include "traincost/scenario/scenario.hpp"

namespace traincost {

// The struct a field is a member of.
enum class Owner { Scenario, Analysis, Workload, Model, Target, Law, Memory, Override, Parallelism, Option, Custom, Reliability, Costs, FineTune, Pilot, Range };

template <typename T> constexpr Owner owner_of();
template <> constexpr Owner owner_of<Scenario>() { return Owner::Scenario; }
template <> constexpr Owner owner_of<AnalysisSettings>() { return Owner::Analysis; }
template <> constexpr Owner owner_of<Workload>() { return Owner::Workload; }
template <> constexpr Owner owner_of<Model>() { return Owner::Model; }
template <> constexpr Owner owner_of<Target>() { return Owner::Target; }
template <> constexpr Owner owner_of<ScalingLaw>() { return Owner::Law; }
template <> constexpr Owner owner_of<MemorySettings>() { return Owner::Memory; }
template <> constexpr Owner owner_of<WorkloadOverride>() { return Owner::Override; }
template <> constexpr Owner owner_of<LayoutPins>() { return Owner::Parallelism; }
template <> constexpr Owner owner_of<Option>() { return Owner::Option; }
template <> constexpr Owner owner_of<CustomInstance>() { return Owner::Custom; }
template <> constexpr Owner owner_of<Reliability>() { return Owner::Reliability; }
template <> constexpr Owner owner_of<PlatformCosts>() { return Owner::Costs; }
template <> constexpr Owner owner_of<PilotMeasurement>() { return Owner::Pilot; }
template <> constexpr Owner owner_of<FineTune>() { return Owner::FineTune; }
template <> constexpr Owner owner_of<Range>() { return Owner::Range; }

// Reads and writes one member of its owner through a type-erased pointer; made by bind<&T::m>()
// for members of type double, int, unsigned long long, std::optional<double> or std::optional<int>.
struct Access {
  Owner owner = Owner::Scenario;
  bool whole = false;     // an int member: written to JSON as an integer
  bool optional = false;  // a std::optional<double> member: absent means "use the default"
  std::optional<double> (*get)(const void* owner) = nullptr;
  void (*set)(void* owner, std::optional<double> value) = nullptr;  // nothing resets an optional
  double* (*address)(void* owner) = nullptr;  // the double itself (nullptr for int, unset optional)
};

namespace detail {
template <typename T> struct MemberOf;
template <typename C, typename M> struct MemberOf<M C::*> {
  using Class = C;
  using Type = M;
};
}  // namespace detail

template <auto Member>
Access bind() {
  using C = typename detail::MemberOf<decltype(Member)>::Class;
  using M = typename detail::MemberOf<decltype(Member)>::Type;
  Access a;
  a.owner = owner_of<C>();
  if constexpr (std::is_same_v<M, std::optional<double>>) {
    a.optional = true;
    a.get = [](const void* o) { return static_cast<const C*>(o)->*Member; };
    a.set = [](void* o, std::optional<double> v) { static_cast<C*>(o)->*Member = v; };
    a.address = [](void* o) -> double* {
      auto& v = static_cast<C*>(o)->*Member;
      return v ? &*v : nullptr;
    };
  } else if constexpr (std::is_same_v<M, std::optional<int>>) {
    a.optional = true;
    a.whole = true;
    a.get = [](const void* o) -> std::optional<double> {
      const auto& v = static_cast<const C*>(o)->*Member;
      return v ? std::optional<double>(*v) : std::nullopt;
    };
    a.set = [](void* o, std::optional<double> v) {
      static_cast<C*>(o)->*Member = v ? std::optional<int>(static_cast<int>(*v)) : std::nullopt;
    };
    a.address = [](void*) -> double* { return nullptr; };
  } else if constexpr (std::is_same_v<M, double>) {
    a.get = [](const void* o) -> std::optional<double> { return static_cast<const C*>(o)->*Member; };
    a.set = [](void* o, std::optional<double> v) {
      if (v) static_cast<C*>(o)->*Member = *v;
    };
    a.address = [](void* o) -> double* { return &(static_cast<C*>(o)->*Member); };
  } else {  // int, unsigned long long: whole numbers, already checked against the field's bounds
    a.whole = true;
    a.get = [](const void* o) -> std::optional<double> { return static_cast<double>(static_cast<const C*>(o)->*Member); };
    a.set = [](void* o, std::optional<double> v) {
      if (v) static_cast<C*>(o)->*Member = static_cast<M>(*v);
    };
    a.address = [](void*) -> double* { return nullptr; };
  }
  return a;
}

// How the page shows and takes a value.
enum class Display {
  Plain,     // 0.35, 1024
  Quantity,  // 8.03B, 2.0T: accepts suffixes k M B T and e-notation
  Usd,       // $35.76
  Percent,   // a fraction shown and typed as a percentage: 30% <-> 0.30
};

struct Bounds {
  double min = 0;  // exclusive when min_exclusive
  double max = 0;
  bool min_exclusive = false;
  bool integer = false;  // must be a whole number
};
inline constexpr bool kExclusive = true;
inline constexpr bool kWhole = true;

struct FieldSpec {
  const char* path;          // documentation path, e.g. "options[].mfu"
  const char* label;         // short name for forms, ranges and charts: "MFU"
  const char* unit;          // e.g. "fraction", "USD per instance-hour"
  Display display;
  Bounds bounds;
  const char* default_text;  // e.g. "the catalog's figure for the chip"
  const char* meaning;
  const char* typical;       // typical values and where they come from
  Access access;             // the member it is in its owner struct
  double PairNumbers::*resolved = nullptr;  // an option field's resolved number, when it has one
  const char* catalog_default = nullptr;   // key of its default in the catalog's "defaults"
  bool rangeable = false;                  // the uncertainty analysis can put a range on it

  // Last path component: the JSON key ("mfu").
  std::string key() const;
  // The path below its workload or option ("porting.engineer_weeks"), for range inputs.
  std::string input_name() const;
  // The input path of this field of option `option`: "options[2].porting.engineer_weeks".
  std::string of_option(size_t option) const;
  // "must be > 0, got -3" or "" when the value is acceptable. `as_written` (when given) is how
  // the input spelled the value, shown after "got" (an integer beyond 2^53 has no double of its own).
  std::string check(double value, const std::string& as_written = {}) const;
  // The nearest value the field accepts (a sampled value pulled back into the valid range:
  // uncertainty.cpp); nothing for NaN or an infinity.
  std::optional<double> clamp(double value) const;

  template <typename O> std::optional<double> get(const O& owner) const { return checked<O>().access.get(&owner); }
  template <typename O> void set(O& owner, std::optional<double> value) const { checked<O>().access.set(&owner, value); }

 private:
  template <typename O> const FieldSpec& checked() const;
};

namespace fields {
// Scenario
extern const FieldSpec reference;
extern const FieldSpec samples, seed;
// Workload
extern const FieldSpec params, active_params, layers, hidden, heads, seq_len, vocab, kv_heads, ffn_hidden, experts, experts_per_token;
extern const FieldSpec global_batch_tokens;
extern const FieldSpec pin_tensor, pin_pipeline, pin_data, pin_context, pin_expert, pin_micro_batch, pin_interleave, pin_zero;
extern const FieldSpec tokens, steps, tokens_per_step, loss;
extern const FieldSpec law_E, law_A, law_B, law_alpha, law_beta;
extern const FieldSpec bytes_per_param, micro_batch, tensor_parallel, usable_fraction;
extern const FieldSpec runs, horizon_months, override_option;
extern const FieldSpec deadline_days, deadline_confidence, budget_usd, usd_per_day_of_delay, whole_run_factor;
extern const FieldSpec lora_rank, trainable_share, fill;
// Option
extern const FieldSpec instances, price_usd_per_hour, discount, mfu, measured_tokens_per_sec_per_chip;
extern const FieldSpec scaling_reference_chips, scaling_per_doubling, max_instances, wait_days;
extern const FieldSpec pilot_instances, pilot_seq_len, pilot_global_batch_sequences, pilot_step_seconds, pilot_tokens_per_sec,
    pilot_samples_per_sec, pilot_tflops_per_chip, pilot_mfu, pilot_compile_minutes;
extern const FieldSpec custom_chips, custom_peak_tflops, custom_memory_gb;
extern const FieldSpec mtbf_hours_per_instance, checkpoint_write_minutes, checkpoint_gbps_per_instance, checkpoint_blocking_share,
    restart_minutes, job_restart_minutes, replacement_share, replacement_minutes, lost_work_share, checkpoint_interval_hours,
    spot_interruptions_per_hour, spot_recovery_hours;
// Platform costs (options[].porting and workloads[].overrides[])
extern const FieldSpec engineer_weeks, usd_per_engineer_week, validation_runs, validation_run_fraction,
    convergence_penalty, compile_hours_per_run, maintenance_usd_per_year, egress_tb_per_run, egress_usd_per_tb,
    storage_tb, storage_usd_per_tb_month,
    report_probability_per_year, report_effort_share;
// Ranges
extern const FieldSpec range_low, range_high;
}  // namespace fields

// Every spec above, in documentation order.
const std::vector<const FieldSpec*>& all_fields();
// The fields of one owner struct, in the order the writer emits them.
const std::vector<const FieldSpec*>& fields_of(Owner owner);
// The field with this documentation path, or nullptr.
const FieldSpec* find_field(const std::string& path);

void abort_owner_mismatch(const FieldSpec& spec);  // a programming error: reports and aborts
template <typename O> const FieldSpec& FieldSpec::checked() const {
  if (access.owner != owner_of<O>()) abort_owner_mismatch(*this);
  return *this;
}

}  // namespace traincost
