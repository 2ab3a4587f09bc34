#include "traincost/base/format.hpp"

#include <cmath>
#include <cstdio>
#include <iomanip>
#include <locale>
#include <sstream>

namespace traincost::fmt {

// Streams imbued with the classic locale format and parse numbers as the "C" locale does
// (libstdc++ and libc++ both convert through the C locale explicitly, never the global one),
// and give printf's own results for %f, %e and %g.
std::string printf_c(const char* format, double v, int precision) {
  std::ostringstream out;
  out.imbue(std::locale::classic());
  const char* p = format;
  auto literal = [&](const char* until_conversion) {
    for (; *p; ++p) {
      if (*p != '%') out << *p;
      else if (p[1] == '%') out << *++p;
      else if (until_conversion) return;
    }
  };
  literal(format);
  if (*p == '%') {
    ++p;
    bool plus = false, left = false, zero = false, point = false;
    for (;; ++p) {
      if (*p == '+') plus = true;
      else if (*p == '-') left = true;
      else if (*p == '0') zero = true;
      else if (*p == '#') point = true;
      else if (*p != ' ') break;
    }
    int width = 0;
    for (; *p >= '0' && *p <= '9'; ++p) width = width * 10 + (*p - '0');
    int digits = 6;
    if (*p == '.') {
      ++p;
      if (*p == '*') {
        digits = precision;
        ++p;
      } else {
        digits = 0;
        for (; *p >= '0' && *p <= '9'; ++p) digits = digits * 10 + (*p - '0');
      }
    }
    const char conversion = *p ? *p++ : 'g';
    if (conversion == 'f' || conversion == 'F') out << std::fixed;
    else if (conversion == 'e' || conversion == 'E') out << std::scientific;
    if (conversion == 'E' || conversion == 'G') out << std::uppercase;
    if (plus) out << std::showpos;
    if (point) out << std::showpoint;
    if (width > 0) out << std::setw(width) << std::setfill(zero && !left ? '0' : ' ') << (left ? std::left : std::internal);
    // printf's %.0g is %.1g; a stream's precision 0 in general notation is the same.
    out << std::setprecision(digits) << v;
    out << std::noshowpos << std::noshowpoint << std::nouppercase;
    literal(nullptr);
  }
  return out.str();
}

double parse_c(const std::string& text) {
  std::istringstream in(text);
  in.imbue(std::locale::classic());
  double v = 0;
  in >> v;
  return in.fail() ? 0.0 : v;
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
