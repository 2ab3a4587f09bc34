#include "sweep_state.hpp"

#include "app.hpp"
#include "platform.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/output/sweep_report.hpp"

namespace traincost::web {

bool compute_sweep(Derived& d, size_t workload) {
  if (workload >= d.resolved.workloads.size()) {
    d.sweep.due_ms = 0;
    d.sweep.run.reset();
    d.sweep.has_result = false;
    return false;
  }
  if (d.sweep.run && d.sweep.run->workload() != workload) d.sweep.run.reset();  // of a workload no longer shown
  if (d.sweep.due_ms <= 0) d.sweep.due_ms = now_ms();  // kept while it runs, so that the page keeps drawing frames
  return d.sweep.advance([&] { return std::make_unique<SweepRun>(d.scenario, d.resolved, builtin_catalog(), workload); }, now_ms);
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
