#pragma once
// How many Monte Carlo samples the page computes in one slice. A run (the analysis, the pilot
// plan) advances a slice per task (main.cpp's pump); each slice is sized to take about `kTargetMs` at the rate the
// previous slice ran, so a million samples never hold the main thread for seconds and a fast
// machine is not slowed by slices that are too small. The slicing changes when an answer
// arrives, never the answer (the core's runs are bit-identical however they are sliced).
//
// No browser types: it compiles natively and is tested in tests/web/slice_clock_test.cpp.
#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace traincost::web {

class SliceClock {
 public:
  static constexpr double kTargetMs = 12;     // CPU time of one slice
  static constexpr size_t kFirstSlice = 200;  // small, to measure the rate
  static constexpr double kMeasurableMs = 0.5;  // below this a timer says little: double instead

  // `first`: the slice that measures the rate, small enough for one frame on a slow phone. A
  // Monte Carlo sample costs microseconds; a unit of other runs (a chip comparison's row, an
  // evaluation) can cost a millisecond, and starts with fewer.
  // `max_chunk`: at most this many units between two looks at the clock; 1 for runs whose units
  // cost a hundredfold more one than another (a layout search), so that a slice overruns its
  // time by one unit at most.
  explicit SliceClock(size_t first = kFirstSlice, size_t max_chunk = SIZE_MAX) : first_(first), max_chunk_(max_chunk) {}

  // Forgets the rate: the next run starts with a small slice again.
  void restart() { samples_per_ms_ = 0; }

  // Samples to compute in the next slice.
  size_t next_slice() const {
    if (samples_per_ms_ <= 0) return first_;
    return static_cast<size_t>(std::max(1.0, samples_per_ms_ * kTargetMs));
  }

  // Samples to compute before looking at the clock again within a slice (SlicedJob): an eighth of
  // the slice at the last rate, or the first slice before there is one.
  static constexpr size_t kChunksPerSlice = 8;
  size_t next_chunk() const {
    if (samples_per_ms_ <= 0) return std::min(first_, max_chunk_);
    return std::min(max_chunk_, std::max<size_t>(1, next_slice() / kChunksPerSlice));
  }
  // Records that `samples` took `elapsed_ms`. A slice too quick to time doubles the next one.
  void record(size_t samples, double elapsed_ms) {
    if (elapsed_ms > kMeasurableMs) samples_per_ms_ = static_cast<double>(samples) / elapsed_ms;
    else samples_per_ms_ = samples_per_ms_ > 0 ? samples_per_ms_ * 2 : static_cast<double>(first_);
  }

 private:
  size_t first_, max_chunk_;
  double samples_per_ms_ = 0;  // rate of the last slice; 0 before the first
};

// Share of a run done, 0 before it starts: for "simulating… 40%" and the test stats.
template <class Run>
double progress_of(const Run* run) {
  return run && run->total() > 0 ? static_cast<double>(run->done()) / static_cast<double>(run->total()) : 0.0;
}

}  // namespace traincost::web
