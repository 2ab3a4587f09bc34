#include "traincost/base/random.hpp"

#include <cmath>

#include "traincost/base/detmath.hpp"

namespace traincost {
namespace {

uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// z such that Phi(z) = 0.95.
constexpr double kZ95 = 1.6448536269514722;

}  // namespace

Random::Random(uint64_t seed) {
  for (uint64_t& s : s_) s = splitmix64(seed);
}

double uniform_quantile(double low, double high, double u) { return PreparedQuantile::uniform(low, high)(u); }

double triangular_quantile(double low, double mode, double high, double u) {
  return PreparedQuantile::triangular(low, mode, high)(u);
}

PreparedQuantile PreparedQuantile::uniform(double low, double high) {
  PreparedQuantile q;
  q.kind_ = Kind::Uniform;
  q.low_ = low;
  q.width_ = high - low;
  return q;
}

PreparedQuantile PreparedQuantile::triangular(double low, double mode, double high) {
  PreparedQuantile q;
  q.low_ = low;  // Constant: a range of zero width
  if (!(high > low)) return q;
  q.kind_ = Kind::Triangular;
  q.high_ = high;
  q.width_ = high - low;
  q.split_ = (mode - low) / q.width_;  // F(mode)
  q.left_ = mode - low;
  q.right_ = high - mode;
  return q;
}

PreparedQuantile PreparedQuantile::lognormal_90(double p5, double p95) {
  PreparedQuantile q;
  q.kind_ = Kind::LogNormal;
  q.mu_ = (det::log(p5) + det::log(p95)) / 2;
  q.sigma_ = (det::log(p95) - det::log(p5)) / (2 * kZ95);
  return q;
}

double PreparedQuantile::operator()(double u) const {
  switch (kind_) {
    case Kind::Uniform: return low_ + u * width_;
    case Kind::Triangular: {
      // Which side of the mode u falls is a coin toss that a branch predictor loses often: both
      // sides' operands are selected without a branch, and one square root is taken.
      const bool left = u < split_;
      const double root = std::sqrt(left ? u * width_ * left_ : (1 - u) * width_ * right_);
      return left ? low_ + root : high_ - root;
    }
    case Kind::LogNormal: return det::exp(mu_ + sigma_ * normal_quantile(u));
    case Kind::Constant: break;
  }
  return low_;
}

double normal_quantile(double p) {
  // Wichura, M. J. (1988) Algorithm AS 241: The percentage points of the normal distribution.
  // Applied Statistics 37, 477-484. Coefficients of PPND16.
  const double q = p - 0.5;
  if (std::fabs(q) <= 0.425) {
    const double r = 0.180625 - q * q;
    return q * (((((((2509.0809287301226727 * r + 33430.575583588128105) * r + 67265.770927008700853) * r +
                    45921.953931549871457) * r + 13731.693765509461125) * r + 1971.5909503065514427) * r +
                 133.14166789178437745) * r + 3.387132872796366608) /
           (((((((5226.495278852545925 * r + 28729.085735721942674) * r + 39307.89580009271061) * r +
                21213.794301586595867) * r + 5394.1960214247511077) * r + 687.1870074920579083) * r +
             42.313330701600911252) * r + 1.0);
  }
  double r = q < 0 ? p : 1 - p;
  r = std::sqrt(-det::log(r));
  double value;
  if (r <= 5) {
    r -= 1.6;
    value = (((((((7.7454501427834140764e-4 * r + 0.0227238449892691845833) * r + 0.24178072517745061177) * r +
                1.27045825245236838258) * r + 3.64784832476320460504) * r + 5.7694972214606914055) * r +
             4.6303378461565452959) * r + 1.42343711074968357734) /
            (((((((1.05075007164441684324e-9 * r + 5.475938084995344946e-4) * r + 0.0151986665636164571966) * r +
                 0.14810397642748007459) * r + 0.68976733498510000455) * r + 1.6763848301838038494) * r +
              2.05319162663775882187) * r + 1.0);
  } else {
    r -= 5;
    value = (((((((2.01033439929228813265e-7 * r + 2.71155556874348757815e-5) * r + 0.0012426609473880784386) * r +
                0.026532189526576123093) * r + 0.29656057182850489123) * r + 1.7848265399172913358) * r +
             5.4637849111641143699) * r + 6.6579046435011037772) /
            (((((((2.04426310338993978564e-15 * r + 1.4215117583164458887e-7) * r + 1.8463183175100546818e-5) * r +
                 7.868691311456132591e-4) * r + 0.0148753612908506148525) * r + 0.13692988092273580531) * r +
              0.59983220655588793769) * r + 1.0);
  }
  return q < 0 ? -value : value;
}

double lognormal_quantile_90(double p5, double p95, double u) { return PreparedQuantile::lognormal_90(p5, p95)(u); }

}  // namespace traincost
