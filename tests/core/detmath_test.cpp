// detmath must agree with the C library to a few ulp (it replaces it for bit-for-bit parity).
#include "traincost/base/detmath.hpp"

#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

namespace traincost {
namespace {

double ulps_apart(double a, double b) { return std::fabs(a - b) / std::fabs(std::nextafter(b, INFINITY) - b); }

TEST(DetMath, ExpMatchesLibmAcrossRange) {
  // Bound: 2^(j/32) is rounded once (half an ulp), e^r - 1 is a degree-6 polynomial whose
  // truncation is below 2^-58 and whose rounding adds about half an ulp, and t + t p and the
  // scaling by 2^e round once more: under 2 ulp, i.e. a relative error below 2^-51 = 4.4e-16.
  // Every x from -708 to 709.7 in steps of 0.0137 (about 100,000 points, every table entry and
  // every reduced r), and [-2, 2] finely, where the Monte Carlo's lognormals mostly land.
  // (Measured: at most 1 ulp, 2.2e-16, over every x in steps of 1e-4 against glibc.)
  for (double x = -708; x <= 709.7; x += 0.0137) {
    const double rel = std::fabs(det::exp(x) - std::exp(x)) / std::exp(x);
    EXPECT_LE(rel, 4.4e-16) << "x = " << x;
  }
  for (double x = -2; x <= 2; x += 1e-5) EXPECT_LE(std::fabs(det::exp(x) - std::exp(x)) / std::exp(x), 4.4e-16) << "x = " << x;
  for (double x = -700; x <= 700; x += 0.37) EXPECT_LE(ulps_apart(det::exp(x), std::exp(x)), 2) << "x = " << x;
  EXPECT_EQ(det::exp(0), 1.0);
  EXPECT_EQ(det::exp(1e-300), 1.0);
  EXPECT_EQ(det::exp(800), INFINITY);
  EXPECT_EQ(det::exp(-800), 0.0);
  EXPECT_TRUE(std::isnan(det::exp(NAN)));
}

TEST(DetMath, ExpAtTheEndsOfTheDoubles) {
  // Past 2^1023 (e = 1024) and into the subnormals (e < -1022) the scaling takes two steps.
  EXPECT_LE(std::fabs(det::exp(709.78) / std::exp(709.78) - 1), 4.4e-16);
  EXPECT_TRUE(std::isfinite(det::exp(709.782712893384)));
  EXPECT_LE(std::fabs(det::exp(-708.5) / std::exp(-708.5) - 1), 1e-15);  // just subnormal: fewer bits
  EXPECT_GT(det::exp(-745), 0.0);  // the least subnormal, 4.9e-324
  EXPECT_EQ(det::exp(-745), std::exp(-745));
  for (double x = -745; x <= -700; x += 0.01) {
    // Absolute error below one subnormal step where the result is subnormal.
    const double expected = std::exp(x);
    EXPECT_LE(std::fabs(det::exp(x) - expected), std::max(expected * 4.4e-16, 4.95e-324)) << "x = " << x;
  }
}

TEST(DetMath, LogMatchesLibmAcrossRange) {
  for (double x = 1e-300; x < 1e300; x *= 1.7) EXPECT_LE(ulps_apart(det::log(x), std::log(x)), 4) << "x = " << x;
  for (double x = 0.5; x < 2; x += 0.001) EXPECT_LE(std::fabs(det::log(x) - std::log(x)), 4e-16) << "x = " << x;
  EXPECT_EQ(det::log(1), 0.0);
  EXPECT_TRUE(std::isnan(det::log(-1)));
  EXPECT_EQ(det::log(0), -INFINITY);
}

TEST(DetMath, PowWithinTenToTheMinusThirteen) {
  for (double x : {1e-9, 0.3, 0.98, 2.0, 7e10, 1e14})
    for (double y : {-3.5714, -0.34, 0.28, 0.5, 1.0, 3.5714, 10.0}) {
      const double expected = std::pow(x, y);
      EXPECT_NEAR(det::pow(x, y) / expected, 1.0, 1e-13) << x << "^" << y;
    }
  EXPECT_EQ(det::pow(0.98, 0), 1.0);
  EXPECT_EQ(det::pow(0, 2), 0.0);
}

TEST(DetMath, Log2OfPowersOfTwoIsExactEnough) {
  // log2(1024 / 256) = 2: used for the scaling efficiency per doubling.
  EXPECT_NEAR(det::log2(4.0), 2.0, 1e-15);
  EXPECT_NEAR(det::log2(1024.0), 10.0, 1e-14);
}

}  // namespace
}  // namespace traincost
