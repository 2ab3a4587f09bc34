#include "traincost/engine/resolve.hpp"

#include "traincost/engine/deadline.hpp"
#include "traincost/engine/deadline_odds.hpp"
#include "traincost/engine/resolve_pair.hpp"
#include "traincost/scenario/labels.hpp"

namespace traincost {

namespace {

// An option without a label of its own is labelled with the instance count its runs used (a
// deadline may have sized it away from `instances`), or with no count when its workloads used
// different ones; then no two options may read the same.
void label_what_ran(const Scenario& s, const Catalog& catalog, ResolvedScenario& r) {
  std::vector<std::string> labels;
  for (size_t i = 0; i < s.options.size(); ++i) {
    const Option& o = s.options[i];
    if (!o.label.empty()) {
      labels.push_back(o.label);
      continue;
    }
    std::optional<int> used = o.sized_by_default() ? std::nullopt : std::optional<int>(o.instances);
    for (size_t w = 0; w < r.workloads.size(); ++w) {
      const int n = static_cast<int>(r.workloads[w].options[i].instances);
      if (w == 0) used = n;
      else if (used != n) used.reset();
    }
    labels.push_back(automatic_label(o, catalog, used));
    r.options[i].label_counts_instances = used.has_value();
  }
  labels = distinct_labels(std::move(labels));
  for (size_t i = 0; i < labels.size(); ++i) r.options[i].label = labels[i];
}

}  // namespace

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
  // A deadline with odds resizes from the point estimate's sizes, drawing over the whole resolved
  // scenario's ranges; the labels then count the instances it chose.
  size_for_deadline_odds(s, catalog, r);
  label_what_ran(s, catalog, r);
  return r;
}

}  // namespace traincost
