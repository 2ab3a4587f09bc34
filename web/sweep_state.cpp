#include "sweep_state.hpp"

#include "app.hpp"
#include "platform.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/output/sweep_report.hpp"

namespace traincost::web {

void compute_sweep(Derived& d, size_t workload) {
  d.sweep.due_ms = 0;
  if (workload >= d.resolved.workloads.size()) {
    d.sweep.has_result = false;
    return;
  }
  d.sweep.advance([&] { return std::make_unique<SweepRun>(d.scenario, d.resolved, builtin_catalog(), workload); }, now_ms);
}

bool sweep_current(const Derived& d, size_t workload) {
  // One of the scenario before an edit stays shown until the new one is due, if it still fits it.
  return d.sweep.has_result && d.sweep.result.workload == workload && workload < d.scenario.workloads.size() &&
         d.sweep.result.options.size() == d.resolved.options.size();
}

OrderedJson sweep_mirror(const Derived& d) {
  const Sweep& sweep = d.sweep.result;
  if (!sweep_current(d, sweep.workload)) return OrderedJson();
  return {{"workload", sweep.workload},
          {"text", sweep_text(d.scenario, d.resolved, sweep)},
          {"data", sweep_to_json(d.scenario, d.resolved, sweep)}};
}

}  // namespace traincost::web
