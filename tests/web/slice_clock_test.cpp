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

// The base evaluation's units are layout searches, not samples: its runs start with a slice of
// their own size, and come back to it after a restart.
TEST(SliceClock, AFirstSliceOfItsOwn) {
  SliceClock clock(32);
  EXPECT_EQ(clock.next_slice(), 32u);
  // Not timeable: assume 32 units/ms, 32 × 12 = 384.
  clock.record(32, 0.0);
  EXPECT_EQ(clock.next_slice(), 384u);
  clock.restart();
  EXPECT_EQ(clock.next_slice(), 32u);
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

}  // namespace
}  // namespace traincost::web
