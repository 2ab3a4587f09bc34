#include "sweep_state.hpp"

#include "app.hpp"
#include "platform.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/output/sweep_report.hpp"

namespace traincost::web {

void compute_sweep(Derived& d, size_t workload) {
  if (workload >= d.resolved.workloads.size()) {
    d.sweep_ready = false;
    return;
  }
  const double start = now_ms();
  d.sweep = sweep(d.scenario, d.resolved, builtin_catalog(), workload);
  d.sweep_ready = true;
  d.last_sweep_ms = now_ms() - start;
}

bool sweep_current(const Derived& d, size_t workload) {
  // One of the scenario before an edit stays shown until the new one is due, if it still fits it.
  return d.sweep_ready && d.sweep.workload == workload && workload < d.scenario.workloads.size() &&
         d.sweep.options.size() == d.resolved.options.size();
}

OrderedJson sweep_mirror(const Derived& d) {
  if (!sweep_current(d, d.sweep.workload)) return OrderedJson();
  return {{"workload", d.sweep.workload},
          {"text", sweep_text(d.scenario, d.resolved, d.sweep)},
          {"data", sweep_to_json(d.scenario, d.resolved, d.sweep)}};
}

}  // namespace traincost::web
