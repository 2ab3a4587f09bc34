// The page's deferred, sliced work (web/sliced_job.hpp): the analysis, the pilot plan, the sweep.
#include "sliced_job.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

namespace traincost::web {
namespace {

// Counts samples; its result is how many it was asked to compute in all. Each sample costs
// `cost(i)` ms on the clock it shares with the job (the run is the only thing that takes time).
struct CountingRun {
  size_t total_samples, next = 0;
  double* clock = nullptr;
  double (*cost)(size_t) = [](size_t) { return 1.0 / 128; };  // exact in binary: the slices' sums are exact
  explicit CountingRun(size_t total, double* c = nullptr) : total_samples(total), clock(c) {}
  bool advance(size_t samples) {
    for (size_t k = 0; k < samples && next < total_samples; ++k) {
      if (clock) *clock += cost(next);
      ++next;
    }
    return next == total_samples;
  }
  size_t done() const { return next; }
  size_t total() const { return total_samples; }
  size_t finish() { return next; }
};

// A clock that moves 2 ms at each reading.
struct FakeClock {
  double t = 0;
  double operator()() { return t += 2; }
};

TEST(SlicedJob, RunsASliceAtATimeUntilDone) {
  SlicedJob<CountingRun> job;
  double t = 0;
  const auto clock = [&] { return t; };
  int started = 0;
  // 12,800 samples of 1/128 ms: 100 ms of work, in slices of SliceClock::kTargetMs (12 ms), each
  // overrunning by at most one chunk (an eighth of a slice: 1.5 ms). The first chunk is
  // kFirstSlice (200 samples, 1.5625 ms), then 128 samples/ms × 12 / 8 = 192 (1.5 ms): the first
  // slice ends at 12.0625 ms (1,544 samples), the next seven at 12 ms (1,536 each, 12,296 in all),
  // and the ninth does the last 504.
  const auto start = [&] {
    ++started;
    return std::make_unique<CountingRun>(12800, &t);
  };
  job.schedule(5);
  EXPECT_FALSE(job.ready);
  EXPECT_EQ(job.due_ms, 5);
  size_t before = 0;
  bool finished = false;
  while (!finished) {
    const double began = t;
    finished = job.advance(start, clock);
    const double took = t - began;
    if (!finished) {
      EXPECT_GE(took, SliceClock::kTargetMs);
      EXPECT_LE(took, SliceClock::kTargetMs + 1.5625);
      EXPECT_FALSE(job.has_result);
      EXPECT_GT(job.progress(), static_cast<double>(before) / 12800);
      before = job.run->done();
    }
  }
  EXPECT_EQ(started, 1);
  EXPECT_TRUE(job.ready && job.has_result);
  EXPECT_EQ(job.result, 12800u);
  EXPECT_EQ(job.slices, 9u);
  EXPECT_EQ(job.due_ms, 0);
  EXPECT_EQ(job.run, nullptr);
  EXPECT_EQ(job.progress(), 0.0);
  EXPECT_NEAR(job.last_ms, 100.0, 1e-6);  // all of the run's time, and only it
}

TEST(SlicedJob, UnitsThatTurnCostlyEndTheSliceOnTime) {
  // The heavy link's base evaluation: cheap units (0.1 ms) and then units of 10 ms (a deadline
  // searched up to 100,000 instances). Sized by count at the cheap units' rate, a slice would hold
  // 120 of the costly ones: 1.2 s. Sized by time, no slice takes more than its 12 ms plus one
  // unit, whatever the units cost.
  SlicedJob<CountingRun> job(1, 1);  // as the page's base evaluation: a unit between looks at the clock
  double t = 0;
  const auto clock = [&] { return t; };
  const auto start = [&] {
    auto run = std::make_unique<CountingRun>(300, &t);
    run->cost = [](size_t i) { return i < 100 ? 0.1 : 10.0; };
    return run;
  };
  double longest = 0;
  for (bool finished = false; !finished;) {
    const double began = t;
    finished = job.advance(start, clock);
    longest = std::max(longest, t - began);
  }
  EXPECT_EQ(job.result, 300u);
  EXPECT_LE(longest, SliceClock::kTargetMs + 10.0 + 1e-9);
  EXPECT_NEAR(job.last_ms, 100 * 0.1 + 200 * 10.0, 1e-6);
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
