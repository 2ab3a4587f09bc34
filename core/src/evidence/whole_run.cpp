#include "traincost/evidence/whole_run.hpp"

#include <algorithm>
#include <cmath>

#include "traincost/base/detmath.hpp"

namespace traincost {

double student_t_quantile(double z, double nu) {
  const double z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z;
  return z + (z3 + z) / (4 * nu) + (5 * z5 + 16 * z3 + 3 * z) / (96 * nu * nu) +
         (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * nu * nu * nu);
}

double whole_run_quantile(const WholeRunSpread& s, double z) {
  if (!s.fitted()) return 1;
  // t is odd in z: the lower quantile mirrors the upper one.
  const double t = student_t_quantile(std::fabs(z), s.runs - 1);
  return s.median * det::exp((z < 0 ? -t : t) * s.predictive_log_sd);
}

WholeRunSpread fit_whole_run(const std::vector<double>& ratios) {
  std::vector<double> logs;
  for (const double r : ratios)
    if (r > 0 && std::isfinite(r)) logs.push_back(det::log(r));
  WholeRunSpread s;
  if (logs.size() < 3) return s;
  const double n = static_cast<double>(logs.size());
  double sum = 0;
  for (const double x : logs) sum += x;
  const double mean = sum / n;
  double squares = 0;
  for (const double x : logs) squares += (x - mean) * (x - mean);
  s.runs = static_cast<int>(logs.size());
  s.log_sd = std::sqrt(squares / (n - 1));
  s.predictive_log_sd = s.log_sd * std::sqrt(1 + 1 / n);
  const double spread = student_t_quantile(kZ90, n - 1) * s.predictive_log_sd;
  s.median = det::exp(mean);
  std::vector<double> errors;
  for (const double x : logs) errors.push_back(std::fabs(det::exp(-x) - 1));
  std::sort(errors.begin(), errors.end());
  const size_t k = errors.size();
  s.planned_median_error = k % 2 ? errors[k / 2] : (errors[k / 2 - 1] + errors[k / 2]) / 2;
  s.low = det::exp(mean - spread);
  s.high = det::exp(mean + spread);
  return s;
}

std::vector<WholeRunSpread> leave_one_out(const std::vector<double>& ratios) {
  std::vector<WholeRunSpread> out;
  for (size_t i = 0; i < ratios.size(); ++i) {
    std::vector<double> others = ratios;
    others.erase(others.begin() + static_cast<std::ptrdiff_t>(i));
    out.push_back(fit_whole_run(others));
  }
  return out;
}

WholeRunCheck check_leave_one_out(const std::vector<double>& ratios) {
  WholeRunCheck c;
  const std::vector<WholeRunSpread> fits = leave_one_out(ratios);
  std::vector<double> errors;
  for (size_t i = 0; i < ratios.size(); ++i) {
    if (!fits[i].fitted() || !(ratios[i] > 0)) continue;
    ++c.runs;
    c.inside += ratios[i] >= fits[i].low && ratios[i] <= fits[i].high;
    // predicted × median / published = median / r
    errors.push_back(std::fabs(fits[i].median / ratios[i] - 1));
  }
  if (c.runs == 0) return c;
  c.coverage = static_cast<double>(c.inside) / c.runs;
  std::sort(errors.begin(), errors.end());
  const size_t n = errors.size();
  c.median_error = n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2;
  return c;
}

}  // namespace traincost
