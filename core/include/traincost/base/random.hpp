#pragma once
// Our own random numbers and inverse CDFs. Standard-library distributions are implemented
// differently by libstdc++ (native) and libc++ (Emscripten), so a seed would give different
// samples in the CLI and the browser. Everything here is integer arithmetic plus detmath, and
// therefore identical to the last bit on every platform.
#include <cstdint>

namespace traincost {

// xoshiro256** (Blackman & Vigna 2018), seeded through splitmix64.
class Random {
 public:
  explicit Random(uint64_t seed);
  // Defined here so that the Monte Carlo loop, which draws every input of every sample, inlines
  // them.
  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in the open interval (0, 1): never exactly 0 or 1, so inverse CDFs stay finite.
  // 53 random bits, centred in their cell: (k + 0.5) / 2^53.
  double uniform() { return (static_cast<double>(next() >> 11) + 0.5) * (1.0 / 9007199254740992.0); }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

// Inverse CDFs: u in (0, 1) -> a sample.
double uniform_quantile(double low, double high, double u);
double triangular_quantile(double low, double mode, double high, double u);
// Standard normal quantile, Wichura's AS 241 (PPND16), relative error about 1e-16.
double normal_quantile(double u);
// Lognormal whose 5th and 95th percentiles are p5 and p95.
double lognormal_quantile_90(double p5, double p95, double u);

// One of the three inverse CDFs with the parts that do not depend on u worked out once: the
// Monte Carlo loop draws from the same range 100,000 times. Calling it with u performs the same
// operations on the same values as the functions above, so it returns the same bits.
class PreparedQuantile {
 public:
  static PreparedQuantile uniform(double low, double high);
  static PreparedQuantile triangular(double low, double mode, double high);
  static PreparedQuantile lognormal_90(double p5, double p95);
  double operator()(double u) const;

 private:
  enum class Kind { Uniform, Triangular, LogNormal, Constant } kind_ = Kind::Constant;
  double low_ = 0, high_ = 0;
  double width_ = 0, split_ = 0, left_ = 0, right_ = 0;  // triangular (width_ is also uniform's):
                                                         // high - low, F(mode), mode - low, high - mode
  double mu_ = 0, sigma_ = 0;                            // lognormal
};

}  // namespace traincost
