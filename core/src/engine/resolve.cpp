#include "traincost/engine/resolve.hpp"

#include "traincost/engine/deadline.hpp"
#include "traincost/engine/resolve_pair.hpp"

namespace traincost {

ResolvedScenario resolve(const Scenario& s, const Catalog& catalog) {
  ResolvedScenario r;
  r.catalog = &catalog;
  r.reference = s.reference;
  for (const Option& o : s.options) {
    OptionInfo info;
    resolve_option(o, catalog, {}, &info);
    r.options.push_back(std::move(info));
  }
  for (const Workload& w : s.workloads) {
    WorkloadInputs wi;
    static_cast<Workload&>(wi) = w;
    wi.model.active_params = w.model.active();
    wi.usd_per_day_of_delay = w.usd_per_day_of_delay.value_or(0);  // set, so the analysis can vary it
    wi.whole_run_factor = w.whole_run_factor.value_or(1);           // the same
    for (size_t i = 0; i < s.options.size(); ++i) {
      if (w.deadline_days) {
        wi.options.push_back(size_for_deadline(wi, s.options[i], i, catalog));
      } else if (s.options[i].sized_by_default()) {
        // No size given: the fewest instances that finish in kDefaultRunDays, as a deadline would
        // size it, but with no deadline to meet (a slower run is not infeasible).
        WorkloadInputs sized = wi;
        sized.deadline_days = kDefaultRunDays;
        PairInputs p = size_for_deadline(sized, s.options[i], i, catalog);
        p.default_size = p.deadline;
        p.deadline = DeadlineSizing{};
        wi.options.push_back(std::move(p));
      } else {
        wi.options.push_back(resolve_pair(w, s.options[i], i, s.options[i].instances, catalog));
      }
    }
    r.workloads.push_back(std::move(wi));
  }
  return r;
}

}  // namespace traincost
