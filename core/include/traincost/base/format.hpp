#pragma once
// Human-readable numbers shared by the CLI report, the verdict sentence, the Markdown export and
// the chart axes of the web page, so a figure reads the same wherever it appears.
#include <string>

namespace traincost::fmt {

std::string usd(double v);            // "$1.2M", "$850k", "$12.40", "-$3.1k"
std::string usd_exact(double v);      // "$1,234,567" (whole dollars, thousands separators)
std::string usd_rate(double v);       // a small rate to the tenth of a cent: "$0.455", "$12.310"; large ones as usd()
std::string hours(double h);          // "45 min", "7.5 h", "3.4 days", "2.1 years"
std::string days(double d);           // days against a deadline, precise enough to compare: "8.25 days", "30.4 days", "412 days"
std::string count(double v);          // "1.2T", "8.0B", "350M", "12k", "42"
std::string bytes(double v);          // binary units, as memory is sized: "79.6 GiB", "512 MiB"
std::string flops(double v);          // "1.2e24 FLOP" style: "1.23e+24"
std::string percent(double fraction); // 0.312 -> "31%", 0.0123 -> "1.2%"
std::string ratio(double v);          // "2.1×"
std::string number(double v, int significant = 3);  // plain, e.g. "0.35", "1,024"
std::string rounded(double v);        // three significant digits, thousands separated: "1,420", "12.5", "0.213"
std::string counted(double n, const char* one, const char* many);  // "1 instance", "2 instances", "0 runs"
std::string runs(double n);           // "4", "12.5" -> "13" (rounded up: whole runs)

// printf of one double ("%.2f", "%+.0f%%", "%.*g" with `precision`), always in the "C" locale: the
// process's locale is the host's (Python's locale.setlocale, a C++ program's), and under a
// comma-decimal one snprintf writes "54,14", which no JSON reader or link decoder reads back.
// Supports literal text, "%%" and one conversion: flags + - space 0 #, a width, a precision
// (digits, or '*' taken from `precision`), and f, e, g, E or G.
std::string printf_c(const char* format, double v, int precision = 6);
// strtod in the "C" locale: the number spelled at the start of `text` (0 when there is none).
double parse_c(const std::string& text);

}  // namespace traincost::fmt
