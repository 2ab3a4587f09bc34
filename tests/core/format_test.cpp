#include "traincost/base/format.hpp"

#include <gtest/gtest.h>

namespace traincost {
namespace {

TEST(Format, Usd) {
  EXPECT_EQ(fmt::usd(0), "$0.00");
  EXPECT_EQ(fmt::usd(12.4), "$12.40");
  EXPECT_EQ(fmt::usd(850), "$850");
  EXPECT_EQ(fmt::usd(1234), "$1.2k");
  EXPECT_EQ(fmt::usd(850000), "$850k");
  EXPECT_EQ(fmt::usd(1.2e6), "$1.2M");
  EXPECT_EQ(fmt::usd(3.4e9), "$3.4B");
  EXPECT_EQ(fmt::usd(-3100), "-$3.1k");
  EXPECT_EQ(fmt::usd(999.7), "$1.0k");  // rounds up into the next unit rather than "$1000"
  EXPECT_EQ(fmt::usd_exact(1234567.4), "$1,234,567");
}

TEST(Format, Hours) {
  EXPECT_EQ(fmt::hours(0.75), "45 min");
  EXPECT_EQ(fmt::hours(0.000769), "2.8 s");  // 0.000769 × 3600 = 2.77 s
  EXPECT_EQ(fmt::hours(0.01), "36 s");
  EXPECT_EQ(fmt::hours(7.5), "7.5 h");
  EXPECT_EQ(fmt::hours(30), "30 h");
  EXPECT_EQ(fmt::hours(81.6), "3.4 days");  // 81.6 / 24 = 3.4
  EXPECT_EQ(fmt::hours(24 * 400), "1.1 years");
  EXPECT_EQ(fmt::hours(0), "0 s");         // nothing at all: not "0.0 s"
  EXPECT_EQ(fmt::hours(1e-6), "0.0 s");     // 0.0036 s: rounds to 0.0, but is not none
}

TEST(Format, CountedNounsAgreeWithTheirNumber) {
  EXPECT_EQ(fmt::counted(1, "instance", "instances"), "1 instance");
  EXPECT_EQ(fmt::counted(0, "instance", "instances"), "0 instances");
  EXPECT_EQ(fmt::counted(2, "instance", "instances"), "2 instances");
  EXPECT_EQ(fmt::counted(12, "chip", "chips"), "12 chips");
}

TEST(Format, CountsPercentsRatios) {
  EXPECT_EQ(fmt::count(2e12), "2.0T");
  EXPECT_EQ(fmt::count(8.03e9), "8.0B");
  EXPECT_EQ(fmt::count(350e6), "350M");
  EXPECT_EQ(fmt::count(12000), "12k");
  EXPECT_EQ(fmt::count(42), "42");
  EXPECT_EQ(fmt::percent(0.312), "31%");
  EXPECT_EQ(fmt::percent(0.0123), "1.2%");
  EXPECT_EQ(fmt::ratio(2.1), "2.10\xC3\x97");
  EXPECT_EQ(fmt::number(1024), "1024");
  EXPECT_EQ(fmt::number(12345), "12,345");
  EXPECT_EQ(fmt::number(0.35), "0.35");
  EXPECT_EQ(fmt::runs(3.4), "4");
  EXPECT_EQ(fmt::runs(4.0), "4");
}

}  // namespace
}  // namespace traincost
