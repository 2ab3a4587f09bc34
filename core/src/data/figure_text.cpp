#include "traincost/data/figure_text.hpp"

#include <cmath>
#include <cstdio>

#include "traincost/base/format.hpp"

namespace traincost {
namespace {

enum class Kind { Number, Money, Percent, Bytes };

struct FigureUnit {
  std::string_view key;
  Kind kind;
  std::string_view unit;  // after the number
};

// The unit of every figure of assets/catalog.json, by key (one key means one thing wherever it
// appears). A key not listed reads as a plain number.
constexpr FigureUnit kUnits[] = {
    {"bf16_tflops", Kind::Number, " TFLOP/s"},
    {"fp8_tflops", Kind::Number, " TFLOP/s"},
    {"mamf_bf16_tflops", Kind::Number, " TFLOP/s"},
    {"mamf_fp8_tflops", Kind::Number, " TFLOP/s"},
    {"hbm", Kind::Bytes, ""},
    {"hbm_bandwidth_tbps", Kind::Number, " TB/s"},
    {"interconnect_gbps", Kind::Number, " GB/s"},
    {"scale_up_gbps", Kind::Number, " GB/s"},
    {"scale_up_chips", Kind::Number, " chips"},
    {"network_gbps", Kind::Number, " Gbit/s"},
    {"network_gbps_per_chip", Kind::Number, " Gbit/s"},
    {"memory_bound_bytes", Kind::Number, " bytes"},
    {"moe_overhead_bytes", Kind::Number, " bytes"},
    {"holdout_median_error", Kind::Percent, ""},
    {"holdout_p90_error", Kind::Percent, ""},
    {"dense_holdout_median_error", Kind::Percent, ""},
    {"dense_holdout_p90_error", Kind::Percent, ""},
    {"moe_holdout_median_error", Kind::Percent, ""},
    {"moe_holdout_p90_error", Kind::Percent, ""},
    {"ring_efficiency", Kind::Percent, " of the link"},
    {"mfu", Kind::Percent, ""},
    {"on_demand", Kind::Money, " per hour"},
    {"reserved_1yr", Kind::Money, " per hour"},
    {"reserved_3yr", Kind::Money, " per hour"},
    {"spot", Kind::Money, " per hour"},
    {"capacity_block", Kind::Money, " per hour"},
    {"usd_per_chip_hour", Kind::Money, " per chip-hour"},
    {"usd_per_engineer_week", Kind::Money, " per engineer-week"},
    {"egress_usd_per_tb", Kind::Money, " per TB"},
    {"storage_usd_per_tb_month", Kind::Money, " per TB-month"},
    {"maintenance_usd_per_year", Kind::Money, " a year"},
    {"mtbf_hours_per_chip", Kind::Number, " h per chip"},
    {"checkpoint_gbps_per_instance", Kind::Number, " GB/s per instance"},
    {"checkpoint_blocking_share", Kind::Percent, ""},
    {"job_restart_minutes", Kind::Number, " min"},
    {"replacement_share", Kind::Percent, ""},
    {"replacement_minutes", Kind::Number, " min"},
    {"lost_work_share", Kind::Percent, ""},
    {"engineer_weeks", Kind::Number, " engineer-weeks"},
    {"validation_runs", Kind::Number, " runs"},
    {"validation_run_fraction", Kind::Percent, " of a full run"},
    {"convergence_penalty", Kind::Percent, " more tokens"},
    {"compile_hours_per_run", Kind::Number, " h"},
    {"report_probability_per_year", Kind::Percent, " a year"},
    {"report_effort_share", Kind::Percent, " of the first port"},
};

const FigureUnit& unit_of(std::string_view key) {
  static constexpr FigureUnit kPlain{"", Kind::Number, ""};
  for (const FigureUnit& u : kUnits)
    if (u.key == key) return u;
  return kPlain;
}

// Thousands separators in the whole part of a printed number: "1234567.5" -> "1,234,567.5".
std::string grouped(std::string text) {
  const size_t start = text[0] == '-' ? 1 : 0;
  size_t end = text.find_first_of(".e", start);
  if (end == std::string::npos) end = text.size();
  if (text.find('e') != std::string::npos) return text;  // exponent form: left as printed
  for (size_t i = end; i > start + 3; i -= 3) text.insert(i - 3, ",");
  return text;
}

std::string printed(const char* format, double v) { return fmt::printf_c(format, v); }

// A catalog number as written, without float noise: whole numbers in full ("12,345", "1,024"),
// others to six significant digits ("0.88", "1.34375", "12,345.7").
std::string plain(double v) {
  if (v == std::round(v) && std::fabs(v) < 1e15) return grouped(printed("%.0f", v));
  // A small rate in positional notation, as the catalog writes it ("0.0000342", not "3.42e-05"):
  // three significant digits' worth of places, trailing zeros dropped.
  if (std::fabs(v) < 1e-4 && std::fabs(v) >= 1e-9) {
    std::string text = printed("%.11f", v);
    text.erase(text.find_last_not_of('0') + 1);
    return text;
  }
  return grouped(printed("%.6g", v));
}

std::string number_of(Kind kind, double v) {
  switch (kind) {
    case Kind::Money: {
      // Whole dollars; cents when the figure has them; more digits only where the catalog gives
      // more (a per-chip rate of $1.34375 is used as is).
      const std::string sign = v < 0 ? "-$" : "$";
      const double a = std::fabs(v);
      if (a == std::round(a) && a < 1e15) return sign + grouped(printed("%.0f", a));
      // 17.4 × 100 is 1739.9999999999998 in binary: a cent figure is one within a millionth of a cent.
      if (std::fabs(a * 100 - std::round(a * 100)) < 1e-6) return sign + grouped(printed("%.2f", a));
      return sign + grouped(printed("%.12g", a));  // every digit the catalog gives ("$21.957642")
    }
    case Kind::Percent:
      return printed("%.4g", v * 100) + "%";
    case Kind::Bytes:
      return fmt::bytes(v) + " (" + plain(v) + " bytes)";
    case Kind::Number:
      break;
  }
  return plain(v);
}

}  // namespace

std::string figure_text(std::string_view key, double value) {
  const FigureUnit& u = unit_of(key);
  return number_of(u.kind, value) + std::string(u.unit);
}

std::string figure_range_text(std::string_view key, double low, double high) {
  const FigureUnit& u = unit_of(key);
  return number_of(u.kind, low) + " to " + number_of(u.kind, high);
}

}  // namespace traincost
