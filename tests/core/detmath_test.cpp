// detmath must agree with the C library to a few ulp (it replaces it for bit-for-bit parity).
#include "traincost/base/detmath.hpp"

#include <cmath>

#include <gtest/gtest.h>

namespace traincost {
namespace {

double ulps_apart(double a, double b) { return std::fabs(a - b) / std::fabs(std::nextafter(b, INFINITY) - b); }

TEST(DetMath, ExpMatchesLibmAcrossRange) {
  for (double x = -700; x <= 700; x += 0.37) EXPECT_LE(ulps_apart(det::exp(x), std::exp(x)), 4) << "x = " << x;
  EXPECT_EQ(det::exp(0), 1.0);
  EXPECT_EQ(det::exp(800), INFINITY);
  EXPECT_EQ(det::exp(-800), 0.0);
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
