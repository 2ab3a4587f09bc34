#pragma once
// The cluster-size sweep as part of the page's derived state: computed once per scenario change,
// shortly after the edit (App::recompute schedules it; App::frame runs it when due), and when another
// workload is selected; never per frame. Each size runs the step-time model's layout search, so
// with eight options it costs about ten times the evaluation itself (bench: sweep/8_options).
#include <cstddef>

#include "traincost/io/scenario_json.hpp"

namespace traincost::web {

struct Derived;

// Sweeps `workload` of the last valid scenario into d.sweep; records its time in d.last_sweep_ms.
void compute_sweep(Derived& d, size_t workload);
// Whether d.sweep can be drawn for `workload` of the current results (it may be of the scenario
// before the last edit while the new one is due: the chart does not blink out at each edit).
bool sweep_current(const Derived& d, size_t workload);
// For the page's text mirror: the sweep as the CLI prints it (`traincost sweep FILE`) and as its
// JSON (`--format json`), so screen readers read the chart's figures and tests compare them.
OrderedJson sweep_mirror(const Derived& d);

}  // namespace traincost::web
