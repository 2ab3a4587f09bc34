#include "traincost/engine/replay.hpp"

#include <algorithm>
#include <cmath>

#include "traincost/model/formulas.hpp"
#include "traincost/engine/resolve.hpp"

namespace traincost {
namespace {

// The instance a run replays on: the catalog's AWS instance of its chip with the most chips (the
// training node), else any provider's. Prices do not enter the comparison; only the chip, the
// node size and its network do.
const Instance* instance_for(const std::string& chip, const Catalog& catalog) {
  const Instance* best = nullptr;
  for (const bool aws_only : {true, false}) {
    for (const Instance& i : catalog.instances)
      if (i.chip == chip && (!aws_only || i.provider == "AWS") && (!best || i.chips > best->chips)) best = &i;
    if (best) return best;
  }
  return nullptr;
}

ReplaySummary summarize(const std::vector<const ReplayRow*>& rows) {
  ReplaySummary s;
  std::vector<double> errors;
  for (const ReplayRow* r : rows) {
    errors.push_back(std::fabs(r->error));
    if (std::fabs(r->error) >= s.worst) {
      s.worst = std::fabs(r->error);
      s.worst_run = r->run->id;
    }
  }
  s.runs = static_cast<int>(errors.size());
  if (errors.empty()) return s;
  std::sort(errors.begin(), errors.end());
  const size_t n = errors.size();
  s.median = n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2;
  return s;
}

}  // namespace

Scenario replay_scenario(const PublishedRun& run, const Catalog& catalog) {
  Scenario s;
  s.name = "Replay of " + run.name;
  Workload w;
  w.name = run.name;
  w.model = run.model;
  w.moe_dispatcher = run.moe_dispatcher;
  w.target.kind = TargetKind::Tokens;
  w.target.tokens = run.tokens.value;
  if (run.global_batch_sequences.present() && run.model.seq_len > 0)
    w.global_batch_tokens = run.global_batch_sequences.value * run.model.seq_len;
  Option o;
  const Instance* instance = instance_for(run.chip, catalog);
  o.instance = instance ? instance->id : "";
  o.label = o.instance;
  o.instances = instance ? static_cast<int>(std::ceil(run.chips.value / instance->chips)) : 1;
  o.precision = run.precision;
  // The published tokens are the tokens trained: no platform penalty on top of them.
  o.porting.convergence_penalty = 0;
  s.workloads.push_back(std::move(w));
  s.options.push_back(std::move(o));
  return s;
}

ReplayRow replay_run(const PublishedRun& run, const Catalog& catalog) {
  ReplayRow row;
  row.run = &run;
  row.published_chip_hours = run.published_chip_hours();
  row.published_wall_clock_days = run.wall_clock_days.present() ? run.wall_clock_days.value : 0;
  row.realized_mfu = realized_mfu_of(run, catalog);
  if (!run.tokens.present()) row.status = ReplayStatus::NoTokens;
  else if (!run.chips.present()) row.status = ReplayStatus::NoChips;
  else if (!(row.published_chip_hours > 0)) row.status = ReplayStatus::NoDuration;
  if (row.status != ReplayStatus::Replayed && !(run.tokens.present() && run.chips.present())) return row;

  // Runs without a published duration are still evaluated (their prediction is shown), but they
  // have nothing to be compared with.
  const Scenario s = replay_scenario(run, catalog);
  row.instance = s.options[0].instance;
  row.instances = s.options[0].instances;
  const ResolvedScenario resolved = resolve(s, catalog);
  const Results results = evaluate(resolved);
  const OptionResult& r = results.workloads[0].options[0];
  const PairPerformance& perf = resolved.workloads[0].options[0].performance;
  if (!r.feasible() || !perf.layout_found) {
    if (row.status == ReplayStatus::Replayed) row.status = ReplayStatus::NoLayout;
    return row;
  }
  row.layout = perf.layout;
  row.predicted_mfu = perf.mfu;
  row.goodput = r.goodput;
  row.predicted_chip_hours = r.chip_hours;
  row.predicted_wall_clock_days = r.wall_clock_hours / 24;
  if (row.status == ReplayStatus::Replayed) row.error = row.predicted_chip_hours / row.published_chip_hours - 1;
  return row;
}

Replay replay(const RunLibrary& library, const Catalog& catalog) {
  return ReplayRun(library, catalog).finish();
}

bool ReplayRun::step() {
  if (next_ < library_.runs.size()) out_.rows.push_back(replay_run(library_.runs[next_++], catalog_));
  return next_ == library_.runs.size();
}

Replay ReplayRun::finish() {
  while (!step()) {
  }
  Replay out = std::move(out_);
  std::vector<const ReplayRow*> all, calibration, held_out;
  for (const ReplayRow& r : out.rows) {
    if (!r.counted()) continue;
    all.push_back(&r);
    (r.run->in_calibration() ? calibration : held_out).push_back(&r);
  }
  out.all = summarize(all);
  out.calibration = summarize(calibration);
  out.held_out = summarize(held_out);

  // Whole runs: each counted run's interval is fitted without it.
  const std::vector<double> ratios = whole_run_ratios(out);
  const std::vector<WholeRunSpread> loo = leave_one_out(ratios);
  size_t k = 0;
  for (ReplayRow& r : out.rows) {
    if (!r.counted()) continue;
    r.ratio = ratios[k];
    const WholeRunSpread& fit = loo[k++];
    if (!fit.fitted()) continue;
    r.realized_low = r.predicted_chip_hours * fit.low;
    r.realized_median = r.predicted_chip_hours * fit.median;
    r.realized_high = r.predicted_chip_hours * fit.high;
    r.inside = r.ratio >= fit.low && r.ratio <= fit.high;
  }
  out.whole_run = fit_whole_run(ratios);
  out.whole_run_check = check_leave_one_out(ratios);
  out.whole_run.loo_coverage = out.whole_run_check.coverage;
  return out;
}

std::vector<double> whole_run_ratios(const Replay& replay) {
  std::vector<double> ratios;
  for (const ReplayRow& r : replay.rows)
    if (r.counted()) ratios.push_back(r.published_chip_hours / r.predicted_chip_hours);
  return ratios;
}

}  // namespace traincost
