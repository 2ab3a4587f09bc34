// Our uniform generator and inverse CDFs against known values.
#include "traincost/base/random.hpp"

#include <cmath>

#include <gtest/gtest.h>

namespace traincost {
namespace {

TEST(Random, SameSeedSameStreamDifferentSeedDifferentStream) {
  Random a(42), b(42), c(43);
  for (int i = 0; i < 100; ++i) {
    const uint64_t x = a.next();
    EXPECT_EQ(x, b.next());
    EXPECT_NE(x, c.next());
  }
}

TEST(Random, UniformIsInTheOpenUnitIntervalWithTheRightMean) {
  Random r(1);
  double sum = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const double u = r.uniform();
    ASSERT_GT(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
  }
  // mean 0.5, standard error sqrt(1/12 / n) = 0.00065: 5 standard errors
  EXPECT_NEAR(sum / n, 0.5, 0.0033);
}

TEST(Random, TriangularQuantiles) {
  // triangular(0, 1, 2): F(mode) = 0.5; median = 2 - sqrt(0.5 × 2 × 1) = 1
  EXPECT_DOUBLE_EQ(triangular_quantile(0, 1, 2, 0.5), 1);
  // u = 0.125 below the mode: 0 + sqrt(0.125 × 2 × 1) = 0.5
  EXPECT_DOUBLE_EQ(triangular_quantile(0, 1, 2, 0.125), 0.5);
  // triangular(40, 50, 80): F(50) = 0.25; P5 = 40 + sqrt(0.05 × 40 × 10) = 44.4721;
  // P95 = 80 - sqrt(0.05 × 40 × 30) = 72.2540
  EXPECT_NEAR(triangular_quantile(40, 50, 80, 0.05), 44.47213595499958, 1e-12);
  EXPECT_NEAR(triangular_quantile(40, 50, 80, 0.95), 72.25403330758517, 1e-12);
}

TEST(Random, NormalQuantileMatchesTables) {
  EXPECT_EQ(normal_quantile(0.5), 0.0);
  EXPECT_NEAR(normal_quantile(0.975), 1.959963984540054, 1e-14);
  EXPECT_NEAR(normal_quantile(0.95), 1.6448536269514722, 1e-14);
  EXPECT_NEAR(normal_quantile(0.05), -1.6448536269514722, 1e-14);
  EXPECT_NEAR(normal_quantile(0.001), -3.090232306167813, 1e-13);
  EXPECT_NEAR(normal_quantile(1e-10), -6.361340902404056, 1e-12);
}

TEST(Random, LognormalFromNinetyPercentInterval) {
  // p5 = 1, p95 = 100: median = sqrt(1 × 100) = 10, and the ends land on p5 and p95.
  EXPECT_NEAR(lognormal_quantile_90(1, 100, 0.5), 10, 1e-12);
  EXPECT_NEAR(lognormal_quantile_90(1, 100, 0.05), 1, 1e-12);
  EXPECT_NEAR(lognormal_quantile_90(1, 100, 0.95), 100, 1e-10);
}

}  // namespace
}  // namespace traincost
