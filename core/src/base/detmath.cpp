#include "traincost/base/detmath.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace traincost::det {
namespace {
// ln 2 split so that k * kLn2Hi is exact for |k| < 2^11 (Cody–Waite range reduction).
constexpr double kLn2Hi = 6.93147180369123816490e-01;
constexpr double kLn2Lo = 1.90821492927058770002e-10;
constexpr double kInvLn2 = 1.44269504088896338700e+00;
constexpr double kSqrtHalf = 0.70710678118654752440;

// exp's range reduction by ln2/32: the high part has 32 significant bits, so that k * hi is
// exact for every k exp meets (|k| < 2^16); the low part is ln2/32 - hi rounded.
constexpr double kLn2Over32Hi = 0x1.62e42feep-6;
constexpr double kLn2Over32Lo = 0x1.a39ef35793c76p-38;
constexpr double kInvLn2Over32 = 0x1.71547652b82fep+5;  // 32 / ln2
constexpr double kRoundShift = 0x1.8p52;
// 2^(j/32), j = 0..31, each rounded to nearest (computed to 60 digits with Python's decimal).
constexpr double kExp2Table[32] = {
    0x1.0000000000000p+0, 0x1.059b0d3158574p+0, 0x1.0b5586cf9890fp+0, 0x1.11301d0125b51p+0, 0x1.172b83c7d517bp+0,
    0x1.1d4873168b9aap+0, 0x1.2387a6e756238p+0, 0x1.29e9df51fdee1p+0, 0x1.306fe0a31b715p+0, 0x1.371a7373aa9cbp+0,
    0x1.3dea64c123422p+0, 0x1.44e086061892dp+0, 0x1.4bfdad5362a27p+0, 0x1.5342b569d4f82p+0, 0x1.5ab07dd485429p+0,
    0x1.6247eb03a5585p+0, 0x1.6a09e667f3bcdp+0, 0x1.71f75e8ec5f74p+0, 0x1.7a11473eb0187p+0, 0x1.82589994cce13p+0,
    0x1.8ace5422aa0dbp+0, 0x1.93737b0cdc5e5p+0, 0x1.9c49182a3f090p+0, 0x1.a5503b23e255dp+0, 0x1.ae89f995ad3adp+0,
    0x1.b7f76f2fb5e47p+0, 0x1.c199bdd85529cp+0, 0x1.cb720dcef9069p+0, 0x1.d5818dcfba487p+0, 0x1.dfc97337b9b5fp+0,
    0x1.ea4afa2a490dap+0, 0x1.f50765b6e4540p+0};

// 2^e for a normal exponent (-1022 <= e <= 1023), from its bits.
double pow2(int e) {
  const uint64_t bits = static_cast<uint64_t>(e + 1023) << 52;
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}
}  // namespace

double exp(double x) {
  if (std::isnan(x)) return x;
  if (x > 709.782712893384) return std::numeric_limits<double>::infinity();
  if (x < -745.1332191019412) return 0.0;
  // x = k ln2/32 + r with |r| <= ln2/64, k = 32 e + j, then e^x = 2^e 2^(j/32) e^r.
  // k rounded to nearest by adding and removing 1.5 * 2^52 (exact for |x 32/ln2| < 2^51): the
  // same rounding on every IEEE 754 machine, and no call into the C library.
  const double kd = (x * kInvLn2Over32 + kRoundShift) - kRoundShift;
  const double r = (x - kd * kLn2Over32Hi) - kd * kLn2Over32Lo;
  const int k = static_cast<int>(kd);
  const int j = k & 31;  // two's complement: k mod 32 in [0, 32), also for negative k
  const int e = (k - j) / 32;
  // e^r - 1 to degree 6 (Horner, +,* only): the first omitted term, r^7/7!, is below 2^-58 for
  // |r| <= 0.0109.
  const double p = r + r * r * (1.0 / 2 + r * (1.0 / 6 + r * (1.0 / 24 + r * (1.0 / 120 + r * (1.0 / 720)))));
  const double t = kExp2Table[j];
  const double y = t + t * p;
  if (e >= -1022 && e <= 1023) return y * pow2(e);
  // 2^e itself is not a normal double (the result overflows to e^709.78 or falls into the
  // subnormals): two exact steps, the second rounds once.
  return e > 0 ? (y * pow2(e - 600)) * pow2(600) : (y * pow2(e + 600)) * pow2(-600);
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
