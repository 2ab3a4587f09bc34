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

ResolveRun::ResolveRun(const Scenario& s, const Catalog& catalog) : s_(&s), catalog_(&catalog) {
  r_.catalog = &catalog;
  r_.reference = s.reference;
}

size_t ResolveRun::total() const {
  return s_->options.size() + s_->workloads.size() * s_->options.size() + DeadlineOddsRun::total(*s_) + 1;
}

size_t ResolveRun::done() const {
  if (finished_) return total();  // (finish() may have moved the resolved scenario out)
  const size_t n = s_->options.size();
  if (r_.options.size() < n) return r_.options.size();
  return n + r_.workloads.size() * n + wi_.options.size() + (odds_ ? odds_->done() : 0);
}

bool ResolveRun::step() {
  if (finished_) return true;
  const Scenario& s = *s_;
  const Catalog& catalog = *catalog_;
  // The options' own numbers, one a step.
  if (r_.options.size() < s.options.size()) {
    OptionInfo info;
    resolve_option(s.options[r_.options.size()], catalog, {}, &info);
    r_.options.push_back(std::move(info));
    return false;
  }
  // Each workload's pairs: one resolve_pair() a step, or one size of a deadline's search.
  if (r_.workloads.size() < s.workloads.size()) {
    const Workload& w = s.workloads[r_.workloads.size()];
    const size_t i = wi_.options.size();
    if (i == 0 && !started_workload_) {
      wi_ = WorkloadInputs{};
      static_cast<Workload&>(wi_) = w;
      wi_.model.active_params = w.model.active();
      wi_.usd_per_day_of_delay = w.usd_per_day_of_delay.value_or(0);  // set, so the analysis can vary it
      wi_.whole_run_factor = w.whole_run_factor.value_or(1);           // the same
      started_workload_ = true;
    }
    if (i < s.options.size()) {
      if (w.deadline_days) {
        if (!search_) search_ = std::make_unique<DeadlineSearch>(wi_, s.options[i], i, catalog);
        if (!search_->step()) return false;
        wi_.options.push_back(search_->result());
        search_.reset();
      } else if (s.options[i].sized_by_default()) {
        // No size given: the fewest instances that finish in kDefaultRunDays, as a deadline would
        // size it, but with no deadline to meet (a slower run is not infeasible).
        if (!search_) {
          sized_ = wi_;
          sized_.deadline_days = kDefaultRunDays;
          search_ = std::make_unique<DeadlineSearch>(sized_, s.options[i], i, catalog);
        }
        if (!search_->step()) return false;
        PairInputs p = search_->result();
        search_.reset();
        p.default_size = p.deadline;
        p.deadline = DeadlineSizing{};
        wi_.options.push_back(std::move(p));
      } else {
        wi_.options.push_back(resolve_pair(w, s.options[i], i, s.options[i].instances, catalog));
      }
      if (wi_.options.size() < s.options.size()) return false;
    }
    r_.workloads.push_back(std::move(wi_));
    wi_ = WorkloadInputs{};
    started_workload_ = false;
    return false;
  }
  // A deadline with odds resizes from the point estimate's sizes, drawing over the whole resolved
  // scenario's ranges, a size or a batch of draws a step; the labels then count the instances it
  // chose.
  if (!odds_) odds_ = std::make_unique<DeadlineOddsRun>(s, catalog, r_);
  if (!odds_->step()) return false;
  label_what_ran(s, catalog, r_);
  finished_ = true;
  return true;
}

ResolvedScenario ResolveRun::finish() { return std::move(r_); }

ResolvedScenario resolve(const Scenario& s, const Catalog& catalog) {
  ResolveRun run(s, catalog);
  while (!run.step()) {
  }
  return run.finish();
}

}  // namespace traincost
