#pragma once
// The cluster-size sweep as part of the page's derived state: computed once per scenario change,
// shortly after the edit (App::base_done schedules it; App::work_slice runs it a slice per task when
// due), and when another workload is selected. Each size runs the step-time model's layout search, so
// with eight options it costs about ten times the evaluation itself (bench: sweep/8_options).
#include <cstddef>

#include "traincost/data/catalog.hpp"
#include "traincost/engine/sweep.hpp"
#include "traincost/io/scenario_json.hpp"

namespace traincost::web {

struct Derived;

// The sweep as a run for SlicedJob (sliced_job.hpp): a slice tries some sizes (one layout search
// each), so that a max_instances of 100,000 on eight options (some 200 sizes) does not hold the
// main thread. The references it holds into the derived state stay valid while it runs: only the
// base evaluation's end replaces them (App::base_done), and it reschedules the sweep, which drops
// the run.
class SweepRun {
 public:
  SweepRun(const Scenario& scenario, const ResolvedScenario& resolved, const Catalog& catalog, size_t workload)
      : steps_(scenario, resolved, catalog, workload), workload_(workload) {}
  bool advance(size_t sizes) {
    for (size_t i = 0; i < sizes; ++i)
      if (steps_.step()) return true;
    return false;
  }
  size_t done() const { return steps_.done(); }
  size_t total() const { return steps_.total(); }
  size_t workload() const { return workload_; }
  Sweep finish() { return steps_.finish(); }

 private:
  SweepSteps steps_;
  size_t workload_;
};

// Sizes in the sweep's first chunk, before its rate is known: each is a layout search, as a base
// evaluation's unit (kBaseFirstSlice), whose cost varies a hundredfold.
inline constexpr size_t kSweepFirstSlice = 1;

// Starts or advances by one slice the sweep of `workload` of the last valid scenario into d.sweep
// (its time in d.sweep.last_ms). True when it finished in this slice.
bool compute_sweep(Derived& d, size_t workload);
// Whether d.sweep's result can be drawn for `workload` of the current results (it may be of the
// scenario before the last edit while the new one is due: the chart does not blink out at each edit).
bool sweep_current(const Derived& d, size_t workload);
// For the page's text mirror: the sweep as the CLI prints it (`traincost sweep FILE`) and as its
// JSON (`--format json`), so screen readers read the chart's figures and tests compare them.
OrderedJson sweep_mirror(const Derived& d);

}  // namespace traincost::web
