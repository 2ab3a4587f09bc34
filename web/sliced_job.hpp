#pragma once
// Work the page runs a slice per task: the base evaluation (resolve and evaluate, with their
// deadline searches: evaluation_run.hpp), due at once on every edit, and what follows a pause in
// editing: the Monte Carlo analysis, the pilot plan's Monte Carlo and the cluster-size sweep (a
// run of one slice). An edit schedules each (App::recompute); App::work_slice advances what is due,
// one slice per task of its own (main.cpp's pump), so that keys, clicks and scrolling keep working
// while a million samples or a thousand deadline probes run. The result of the run before stays until the new one is done, so
// the page does not collapse and jump at each edit.
//
// `Run` is one of the core's resumable computations: advance(n) does up to n more units (samples,
// or the base evaluation's bounded steps) and says whether it is done; done() and total() count
// them; finish() gives the result.
//
// No browser types: it compiles natively and is tested in tests/web/sliced_job_test.cpp.
#include <memory>
#include <type_traits>
#include <utility>

#include "slice_clock.hpp"

namespace traincost::web {

template <class Run>
class SlicedJob {
 public:
  using Result = std::decay_t<decltype(std::declval<Run&>().finish())>;

  // `first_slice`: the units of the first chunk of each run; `max_chunk`: units between two looks
  // at the clock (SliceClock).
  explicit SlicedJob(size_t first_slice = SliceClock::kFirstSlice, size_t max_chunk = SIZE_MAX) : clock_(first_slice, max_chunk) {}

  Result result;             // the last finished run's
  bool has_result = false;   // `result` holds one (maybe of an earlier scenario: see `ready`)
  bool ready = false;        // `result` is of the current scenario: nothing is due or running
  double due_ms = 0;         // when a run may start (0: none due); kept while the run is going
  std::unique_ptr<Run> run;  // the run in progress, null when none is
  double last_ms = 0;        // CPU time of the last run, all its slices so far
  unsigned slices = 0;       // frames the last run has taken

  // The scenario changed: the result is no longer current and a run in progress is of the old
  // one. A new run is due at `at_ms`.
  void schedule(double at_ms) {
    ready = false;
    run.reset();
    due_ms = at_ms;
  }

  // Share of the running run's samples done (0 when none runs), for "simulating… 40%".
  double progress() const { return progress_of(run.get()); }

  // Starts a run with `start()` (which returns a std::unique_ptr<Run>) when none is going, then
  // advances it by one slice, timed with `now()` in milliseconds. True when the run
  // finished in this slice: `result` holds it and is ready.
  template <class Start, class Now>
  bool advance(Start&& start, Now&& now) {
    const double began = now();
    if (!run) {
      run = start();
      ready = false;
      last_ms = 0;
      slices = 0;
      clock_.restart();
    }
    // A slice is a time, not a count: units in chunks of an eighth of the slice at the rate so
    // far (at most max_chunk), until the slice's time is spent. Units can cost far more than those
    // the rate was measured on (a deadline searched over 100,000 instances after one over 8), and
    // a slice sized by count would then hold the main thread for seconds; this one overruns its
    // time by at most one chunk.
    const double slice_began = now();
    bool finished = false;
    size_t units = 0;
    double elapsed = 0;
    do {
      const size_t chunk = clock_.next_chunk();
      finished = run->advance(chunk);
      units += chunk;
      elapsed = now() - slice_began;
      clock_.record(units, elapsed);
    } while (!finished && elapsed < SliceClock::kTargetMs);
    ++slices;
    if (finished) {
      result = run->finish();
      run.reset();
      has_result = true;
      ready = true;
      due_ms = 0;
    }
    last_ms += now() - began;
    return finished;
  }

 private:
  SliceClock clock_;  // sizes each slice to the target time at the rate the last one ran
};

}  // namespace traincost::web
