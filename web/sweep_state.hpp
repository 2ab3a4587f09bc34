#pragma once
// The cluster-size sweep as part of the page's derived state: computed once per scenario change,
// shortly after the edit (App::recompute schedules it; App::frame runs it when due), and when another
// workload is selected; never per frame. Each size runs the step-time model's layout search, so
// with eight options it costs about ten times the evaluation itself (bench: sweep/8_options).
#include <cstddef>

#include "traincost/data/catalog.hpp"
#include "traincost/engine/sweep.hpp"
#include "traincost/io/scenario_json.hpp"

namespace traincost::web {

struct Derived;

// The sweep as a run for SlicedJob (sliced_job.hpp): one slice does it all, in the frame it
// starts (each size is one layout search, not samples to slice), so the references it holds into
// the derived state never outlive a frame.
class SweepRun {
 public:
  SweepRun(const Scenario& scenario, const ResolvedScenario& resolved, const Catalog& catalog, size_t workload)
      : scenario_(scenario), resolved_(resolved), catalog_(catalog), workload_(workload) {}
  bool advance(size_t) {
    result_ = sweep(scenario_, resolved_, catalog_, workload_);
    done_ = true;
    return true;
  }
  size_t done() const { return done_ ? 1 : 0; }
  size_t total() const { return 1; }
  Sweep finish() { return std::move(result_); }

 private:
  const Scenario& scenario_;
  const ResolvedScenario& resolved_;
  const Catalog& catalog_;
  size_t workload_;
  Sweep result_;
  bool done_ = false;
};

// Sweeps `workload` of the last valid scenario into d.sweep (its time in d.sweep.last_ms).
void compute_sweep(Derived& d, size_t workload);
// Whether d.sweep's result can be drawn for `workload` of the current results (it may be of the
// scenario before the last edit while the new one is due: the chart does not blink out at each edit).
bool sweep_current(const Derived& d, size_t workload);
// For the page's text mirror: the sweep as the CLI prints it (`traincost sweep FILE`) and as its
// JSON (`--format json`), so screen readers read the chart's figures and tests compare them.
OrderedJson sweep_mirror(const Derived& d);

}  // namespace traincost::web
