// The page's deferred, sliced work (web/sliced_job.hpp): the analysis, the pilot plan, the sweep.
#include "sliced_job.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

namespace traincost::web {
namespace {

// Counts samples; its result is how many it was asked to compute in all.
struct CountingRun {
  size_t total_samples, next = 0;
  explicit CountingRun(size_t total) : total_samples(total) {}
  bool advance(size_t samples) {
    next = std::min(total_samples, next + samples);
    return next == total_samples;
  }
  size_t done() const { return next; }
  size_t total() const { return total_samples; }
  size_t finish() { return next; }
};

// A clock that moves 2 ms at each reading: every slice takes 2 ms as timed.
struct FakeClock {
  double t = 0;
  double operator()() { return t += 2; }
};

TEST(SlicedJob, RunsASliceAtATimeUntilDone) {
  SlicedJob<CountingRun> job;
  FakeClock clock;
  int started = 0;
  const auto start = [&] {
    ++started;
    return std::make_unique<CountingRun>(1000);
  };
  job.schedule(5);
  EXPECT_FALSE(job.ready);
  EXPECT_EQ(job.due_ms, 5);
  // The first slice is SliceClock::kFirstSlice (200) samples; it is timed at 2 ms: 100 per ms, so
  // the next slices hold 100 × 12 = 1200 samples, and the second finishes the 1000.
  EXPECT_FALSE(job.advance(start, clock));
  EXPECT_DOUBLE_EQ(job.progress(), 0.2);
  EXPECT_FALSE(job.has_result);
  EXPECT_TRUE(job.advance(start, clock));
  EXPECT_EQ(started, 1);
  EXPECT_TRUE(job.ready && job.has_result);
  EXPECT_EQ(job.result, 1000u);
  EXPECT_EQ(job.slices, 2u);
  EXPECT_EQ(job.due_ms, 0);
  EXPECT_EQ(job.run, nullptr);
  EXPECT_EQ(job.progress(), 0.0);
  // Each advance reads the clock four times (its start, the slice's start and end, its end), 2 ms
  // apart: 6 ms from its first reading to its last, twice.
  EXPECT_DOUBLE_EQ(job.last_ms, 12.0);
}

TEST(SlicedJob, AnEditKeepsTheOldResultButNotItsRun) {
  SlicedJob<CountingRun> job;
  FakeClock clock;
  const auto start = [] { return std::make_unique<CountingRun>(100); };
  ASSERT_TRUE(job.advance(start, clock));
  job.schedule(50);
  EXPECT_FALSE(job.ready);
  EXPECT_TRUE(job.has_result);  // still drawn until the new one is done
  EXPECT_EQ(job.result, 100u);
  // A run in progress when the scenario changes is dropped; the next starts afresh.
  const auto big = [] { return std::make_unique<CountingRun>(100000); };
  EXPECT_FALSE(job.advance(big, clock));
  ASSERT_NE(job.run, nullptr);
  job.schedule(60);
  EXPECT_EQ(job.run, nullptr);
  EXPECT_EQ(job.due_ms, 60);
  EXPECT_FALSE(job.advance(big, clock));
  EXPECT_EQ(job.slices, 1u);  // counted from the new run's start
}

}  // namespace
}  // namespace traincost::web
