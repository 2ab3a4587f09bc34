#include "traincost/base/format.hpp"

#include <cmath>
#include <cstdio>
#include <clocale>
#include <cstring>
#include <locale.h>

namespace traincost::fmt {

namespace {

// The C library's own number conversions under the "C" locale for this thread only (POSIX
// uselocale): a host that set a comma-decimal locale (Python's locale.setlocale) still reads and
// writes "1.5". The same snprintf and strtod as ever, so native and WebAssembly format alike (a
// stream's formatting differed from printf's on subnormal numbers under libc++).
class InCLocale {
 public:
  InCLocale() : before_(uselocale(c_locale())) {}
  ~InCLocale() { uselocale(before_); }
  InCLocale(const InCLocale&) = delete;
  InCLocale& operator=(const InCLocale&) = delete;

 private:
  static locale_t c_locale() {
    static const locale_t c = newlocale(LC_ALL_MASK, "C", static_cast<locale_t>(0));
    return c;
  }
  locale_t before_;
};

}  // namespace

std::string printf_c(const char* format, double v, int precision) {
  const InCLocale c;
  const bool star = std::strchr(format, '*') != nullptr;  // "%.*f": the precision comes first
  const int n = star ? std::snprintf(nullptr, 0, format, precision, v) : std::snprintf(nullptr, 0, format, v);
  if (n < 0) return std::string();
  std::string out(static_cast<size_t>(n) + 1, '\0');
  if (star) std::snprintf(&out[0], out.size(), format, precision, v);
  else std::snprintf(&out[0], out.size(), format, v);
  out.resize(static_cast<size_t>(n));
  return out;
}

double parse_c(const std::string& text) {
  const InCLocale c;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  return end == text.c_str() ? 0.0 : v;
}

namespace {

// The whole text, however long: a fixed buffer cut "%.0f" of a huge number short (issue row 7).
std::string printf_string(const char* format, double v) { return printf_c(format, v); }

// |v| in steps of 1000 with a k/M/B/T suffix: one decimal below 10, none above ("3.4M", "350M").
std::string scaled(double v) {
  static const char* const suffixes[] = {"", "k", "M", "B", "T"};
  double a = std::fabs(v);
  int i = 0;
  while (a >= 999.5 && i < 4) {
    a /= 1000.0;
    ++i;
  }
  return printf_string(a < 10 ? "%.1f" : "%.0f", a) + suffixes[i];
}

std::string with_separators(double whole) {
  std::string digits = printf_string("%.0f", std::fabs(whole));
  std::string out;
  const int n = static_cast<int>(digits.size());
  for (int i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) out += ',';
    out += digits[static_cast<size_t>(i)];
  }
  return out;
}

}  // namespace

std::string usd(double v) {
  if (!std::isfinite(v)) return "n/a";
  const std::string sign = v < 0 ? "-" : "";
  if (std::fabs(v) < 999.5) return sign + "$" + printf_string(std::fabs(v) < 100 ? "%.2f" : "%.0f", std::fabs(v));
  if (std::fabs(v) >= 999.5e12) return sign + "$" + printf_string("%.2g", std::fabs(v));  // past trillions: 3.1e+161
  return sign + "$" + scaled(v);
}

std::string usd_rate(double v) {
  if (!std::isfinite(v) || std::fabs(v) >= 999.5) return usd(v);
  return std::string(v < 0 ? "-" : "") + "$" + printf_string("%.3f", std::fabs(v));
}

std::string usd_exact(double v) {
  if (!std::isfinite(v)) return "n/a";
  if (std::fabs(v) >= 1e16) return usd(v);  // digits past double precision would be noise
  return std::string(v < 0 ? "-" : "") + "$" + with_separators(std::round(v));
}

std::string hours(double h) {
  if (!std::isfinite(h)) return "n/a";
  if (h < 0) return "-" + hours(-h);
  if (h == 0) return "0 s";  // none at all, not a rounded "0.0 s"
  if (h * 60 < 0.995) return printf_string(h * 3600 < 9.95 ? "%.1f s" : "%.0f s", h * 3600);
  if (h < 1) return printf_string("%.0f min", h * 60);
  if (h < 48) return printf_string(h < 10 ? "%.1f h" : "%.0f h", h);
  const double days = h / 24;
  if (days < 365) return printf_string(days < 10 ? "%.1f days" : "%.0f days", days);
  const double years = days / 365.25;
  return printf_string(years < 1e6 ? "%.1f years" : "%.3g years", years);
}

std::string days(double d) {
  if (!std::isfinite(d)) return "n/a";
  return printf_string(d < 10 ? "%.2f days" : d < 100 ? "%.1f days" : "%.0f days", d);
}

std::string count(double v) {
  if (!std::isfinite(v)) return "n/a";
  if (std::fabs(v) >= 999.5e12) return printf_string("%.2g", v);
  if (std::fabs(v) < 10 && v == std::round(v)) return printf_string("%.0f", v);
  return std::string(v < 0 ? "-" : "") + scaled(v);
}

std::string bytes(double v) {
  if (!std::isfinite(v)) return "n/a";
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double a = std::fabs(v);
  int i = 0;
  while (a >= 1023.95 && i < 5) {
    a /= 1024;
    ++i;
  }
  return std::string(v < 0 ? "-" : "") + printf_string(i == 0 || a >= 100 ? "%.0f " : "%.1f ", a) + units[i];
}

std::string flops(double v) {
  if (!std::isfinite(v)) return "n/a";
  return printf_string("%.3g", v);
}

std::string percent(double fraction) {
  if (!std::isfinite(fraction)) return "n/a";
  const double p = fraction * 100;
  if (std::fabs(p) < 9.95 && p != std::round(p)) return printf_string("%.1f%%", p);
  if (std::fabs(p) >= 1e6) return printf_string("%.3g%%", p);
  return printf_string("%.0f%%", p);
}

std::string ratio(double v) {
  if (!std::isfinite(v)) return "n/a";
  if (std::fabs(v) >= 1e6) return printf_string("%.3g\xC3\x97", v);
  return printf_string(v < 10 ? "%.2f\xC3\x97" : "%.1f\xC3\x97", v);
}

std::string number(double v, int significant) {
  if (!std::isfinite(v)) return "n/a";
  if (std::fabs(v) < 1e16 && v == std::round(v))  // whole numbers in full: "1024", "12,345"
    return std::string(v < 0 ? "-" : "") + (std::fabs(v) >= 1e4 ? with_separators(v) : printf_string("%.0f", std::fabs(v)));
  char format[16];
  std::snprintf(format, sizeof format, "%%.%dg", significant);
  return printf_string(format, v);
}

std::string rounded(double v) {
  if (!std::isfinite(v)) return "n/a";
  if (std::fabs(v) < 999.5) return printf_string("%.3g", v);
  double step = 1;  // a power of ten (exact) that leaves three digits
  while (std::fabs(v) / step >= 999.5) step *= 10;
  return std::string(v < 0 ? "-" : "") + with_separators(std::round(std::fabs(v) / step) * step);
}

std::string runs(double n) {
  if (!std::isfinite(n)) return "n/a";
  if (std::fabs(n) >= 1e15) return printf_string("%.3g", n);
  return printf_string("%.0f", std::ceil(n - 1e-9));
}

std::string counted(double n, const char* one, const char* many) { return number(n) + " " + (n == 1 ? one : many); }

}  // namespace traincost::fmt
