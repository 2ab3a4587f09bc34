#include "traincost/base/detmath.hpp"

#include <cmath>
#include <limits>

namespace traincost::det {
namespace {
// ln 2 split so that k * kLn2Hi is exact for |k| < 2^11 (Cody–Waite range reduction).
constexpr double kLn2Hi = 6.93147180369123816490e-01;
constexpr double kLn2Lo = 1.90821492927058770002e-10;
constexpr double kInvLn2 = 1.44269504088896338700e+00;
constexpr double kSqrtHalf = 0.70710678118654752440;
}  // namespace

double exp(double x) {
  if (std::isnan(x)) return x;
  if (x > 709.782712893384) return std::numeric_limits<double>::infinity();
  if (x < -745.1332191019412) return 0.0;
  // x = k ln2 + r with |r| <= ln2 / 2, then e^x = 2^k e^r.
  const double k = std::nearbyint(x * kInvLn2);
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;
  // Taylor series of e^r to degree 13: the first omitted term is below 2^-60 for |r| <= 0.347.
  double term = 1.0;
  double sum = 1.0;
  for (int i = 1; i <= 13; ++i) {
    term = term * r / i;
    sum += term;
  }
  return std::ldexp(sum, static_cast<int>(k));
}

double log(double x) {
  if (std::isnan(x) || x < 0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0) return -std::numeric_limits<double>::infinity();
  if (std::isinf(x)) return x;
  // x = m 2^k with m in [sqrt(1/2), sqrt(2)), then ln x = k ln2 + ln m and
  // ln m = 2 atanh(s) = 2 (s + s^3/3 + s^5/5 + ...) with s = (m - 1) / (m + 1), |s| <= 0.1716.
  int k = 0;
  double m = std::frexp(x, &k);  // m in [0.5, 1)
  if (m < kSqrtHalf) {
    m *= 2.0;
    --k;
  }
  const double s = (m - 1.0) / (m + 1.0);
  const double s2 = s * s;
  // s2 <= 0.02944: 12 terms take the series error below 2^-60.
  double sum = 0.0;
  for (int n = 23; n >= 1; n -= 2) sum = sum * s2 + 1.0 / n;
  const double ln_m = 2.0 * s * sum;
  return (k * kLn2Hi + ln_m) + k * kLn2Lo;
}

double log2(double x) { return log(x) * kInvLn2; }

double pow(double x, double y) {
  if (y == 0) return 1.0;
  if (x == 1) return 1.0;
  if (x == 0) return y > 0 ? 0.0 : std::numeric_limits<double>::infinity();
  if (x < 0) return std::numeric_limits<double>::quiet_NaN();
  return exp(y * log(x));
}

}  // namespace traincost::det
