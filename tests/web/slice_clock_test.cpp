// The page's per-frame slice sizing (web/slice_clock.hpp).
#include "slice_clock.hpp"

#include <gtest/gtest.h>

namespace traincost::web {
namespace {

TEST(SliceClock, StartsSmallToMeasure) {
  SliceClock clock;
  EXPECT_EQ(clock.next_slice(), SliceClock::kFirstSlice);
}

TEST(SliceClock, SizesTheNextSliceToTheTargetAtTheLastRate) {
  SliceClock clock;
  // 200 samples in 4 ms: 50 samples/ms, so 12 ms holds 50 × 12 = 600 samples.
  clock.record(200, 4.0);
  EXPECT_EQ(clock.next_slice(), 600u);
  // A slower slice shrinks the next: 600 samples in 24 ms is 25/ms, 25 × 12 = 300.
  clock.record(600, 24.0);
  EXPECT_EQ(clock.next_slice(), 300u);
}

TEST(SliceClock, ASliceTooQuickToTimeDoublesTheRate) {
  SliceClock clock;
  // Not timeable before any rate: assume kFirstSlice samples/ms, 200 × 12 = 2400.
  clock.record(200, 0.0);
  EXPECT_EQ(clock.next_slice(), 2400u);
  // Again: the rate doubles to 400/ms, 400 × 12 = 4800.
  clock.record(2400, 0.1);
  EXPECT_EQ(clock.next_slice(), 4800u);
}

TEST(SliceClock, NeverAnEmptySlice) {
  SliceClock clock;
  clock.record(1, 1000.0);  // 0.001 samples/ms: 0.012 rounds down, but at least one sample
  EXPECT_EQ(clock.next_slice(), 1u);
}

TEST(SliceClock, RestartForgetsTheRate) {
  SliceClock clock;
  clock.record(200, 4.0);
  clock.restart();
  EXPECT_EQ(clock.next_slice(), SliceClock::kFirstSlice);
}

struct FakeRun {
  size_t done_samples, total_samples;
  size_t done() const { return done_samples; }
  size_t total() const { return total_samples; }
};

TEST(SliceClock, ProgressOfARun) {
  EXPECT_EQ(progress_of<FakeRun>(nullptr), 0.0);
  const FakeRun empty{0, 0};
  EXPECT_EQ(progress_of(&empty), 0.0);
  const FakeRun forty{400, 1000};
  EXPECT_DOUBLE_EQ(progress_of(&forty), 0.4);
}

TEST(SliceClock, ARunOfCostlierUnitsStartsWithItsOwnFirstSlice) {
  // The chip comparison evaluates a row per unit (about a millisecond): it starts with 4 rows, not
  // 200, then sizes slices by the rate as any run does: 4 rows in 2 ms = 2 rows/ms, × 12 ms = 24.
  SliceClock clock(4);
  EXPECT_EQ(clock.next_slice(), 4u);
  clock.record(4, 2.0);
  EXPECT_EQ(clock.next_slice(), 24u);
  clock.restart();
  EXPECT_EQ(clock.next_slice(), 4u) << "a restart comes back to the run's own first slice";
}

}  // namespace
}  // namespace traincost::web
