#include "traincost/engine/reliability.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>

#include "traincost/scenario/fields.hpp"
#include "traincost/model/fine_tune.hpp"
#include "traincost/model/formulas.hpp"

namespace traincost {

GoodputInputs goodput_inputs(const Workload& w, const PairInputs& p) {
  GoodputInputs in;
  // A LoRA checkpoint holds the adapters' state only: the frozen base is already on storage (it
  // is read back on restart too, which the restart time does not count).
  in.trained_params = trained_params(w);
  in.bytes_per_param = w.memory.bytes_per_param;
  in.instances = p.instances;
  in.mtbf_hours_per_instance = p.mtbf_hours_per_instance;
  in.checkpoint_gbps_per_instance = p.checkpoint_gbps_per_instance;
  in.checkpoint_write_minutes = p.checkpoint_write_minutes;
  in.checkpoint_blocking_share = p.checkpoint_blocking_share;
  in.checkpoint_interval_hours = p.checkpoint_interval_hours;
  in.restart_minutes = p.restart_minutes;
  in.job_restart_minutes = p.job_restart_minutes;
  in.replacement_share = p.replacement_share;
  in.replacement_minutes = p.replacement_minutes;
  in.lost_work_share = p.lost_work_share;
  in.spot_interruptions_per_hour = p.spot_interruptions_per_hour;
  in.spot_recovery_hours = p.spot_recovery_hours;
  return in;
}

GoodputTerms goodput_terms(const GoodputInputs& p) {
  GoodputTerms g;
  g.cluster_mtbf_hours = cluster_mtbf(p.mtbf_hours_per_instance, p.instances);
  g.checkpoint_bytes = checkpoint_bytes(p.trained_params, p.bytes_per_param);
  g.checkpoint_transfer_hours = checkpoint_transfer_hours(g.checkpoint_bytes, p.checkpoint_gbps_per_instance, p.instances);
  g.checkpoint_pause_hours = p.checkpoint_write_minutes > 0 ? p.checkpoint_write_minutes / 60
                                                            : checkpoint_pause_hours(g.checkpoint_transfer_hours, p.checkpoint_blocking_share);
  g.restart_hours = p.restart_minutes >= 0 ? p.restart_minutes / 60
                                           : restart_hours(p.job_restart_minutes, p.replacement_share, p.replacement_minutes,
                                                           g.checkpoint_transfer_hours);
  g.reclaims_per_hour = job_reclaim_rate(p.spot_interruptions_per_hour, p.instances);
  // Capacity the job holds (no reclaims) keeps the formulas it always had, to the last bit.
  const bool reclaimed = g.reclaims_per_hour > 0;
  if (reclaimed) {
    // A reclaim relaunches the job and reloads the checkpoint like any failure, after the wait for
    // capacity; no node replacement from the failure classes (the new capacity is the replacement).
    const double relaunch_hours = p.restart_minutes >= 0 ? p.restart_minutes / 60
                                                         : p.job_restart_minutes / 60 + g.checkpoint_transfer_hours;
    g.reclaim_restart_hours = p.spot_recovery_hours + relaunch_hours;
  }
  g.mtbf_between_losses_hours = reclaimed ? time_between_losses(g.cluster_mtbf_hours, p.lost_work_share, g.reclaims_per_hour)
                                          : mtbf_between_losses(g.cluster_mtbf_hours, p.lost_work_share);
  g.checkpoint_interval_hours = p.checkpoint_interval_hours > 0
                                    ? p.checkpoint_interval_hours
                                    : optimal_checkpoint_interval(g.checkpoint_pause_hours, g.mtbf_between_losses_hours);
  if (reclaimed) {
    g.goodput = goodput_with_reclaims(g.checkpoint_interval_hours, g.checkpoint_pause_hours, g.restart_hours, p.lost_work_share,
                                      g.cluster_mtbf_hours, g.reclaims_per_hour, g.reclaim_restart_hours);
    g.reclaim_wait_share = reclaim_wait_share(g.goodput, g.checkpoint_interval_hours, g.checkpoint_pause_hours, g.reclaims_per_hour,
                                              p.spot_recovery_hours);
  } else {
    g.goodput = goodput(g.checkpoint_interval_hours, g.checkpoint_pause_hours, g.restart_hours, p.lost_work_share,
                        g.cluster_mtbf_hours);
  }
  return g;
}

GoodputTerms goodput_terms(const Workload& w, const PairInputs& p) { return goodput_terms(goodput_inputs(w, p)); }

namespace {
// Whether two inputs are bit for bit the same, word by word: memcmp would be a call into the C
// library for each pair of every Monte Carlo sample, and so was copying both into arrays of words
// first (in WebAssembly, which has no bulk memory here). Each word is read where it lies.
bool same_bits(const GoodputInputs& a, const GoodputInputs& b) {
  static_assert(sizeof(GoodputInputs) % sizeof(uint64_t) == 0, "GoodputInputs holds doubles only");
  constexpr size_t kWords = sizeof(GoodputInputs) / sizeof(uint64_t);
  const auto* x = reinterpret_cast<const unsigned char*>(&a);
  const auto* y = reinterpret_cast<const unsigned char*>(&b);
  uint64_t differ = 0;
  for (size_t i = 0; i < kWords; ++i) {
    uint64_t u, v;
    std::memcpy(&u, x + i * sizeof u, sizeof u);
    std::memcpy(&v, y + i * sizeof v, sizeof v);
    differ |= u ^ v;
  }
  return differ == 0;
}
}  // namespace

const GoodputTerms& GoodputMemo::terms(const Workload& w, const PairInputs& p) {
  const GoodputInputs now = goodput_inputs(w, p);
  // Bit for bit the same inputs give bit for bit the same terms (a NaN or a -0 included).
  if (!known_ || !same_bits(now, inputs_)) {
    inputs_ = now;
    terms_ = goodput_terms(now);
    known_ = true;
  }
  return terms_;
}

std::vector<GoodputSwing> goodput_sensitivity(const Workload& w, const PairInputs& p, const Option& option,
                                              const Catalog& catalog, Family family) {
  namespace f = fields;
  std::vector<GoodputSwing> out;
  const double base = goodput_terms(w, p).goodput;
  for (const FieldSpec* field : {&f::mtbf_hours_per_instance, &f::job_restart_minutes, &f::replacement_minutes,
                                 &f::replacement_share, &f::checkpoint_gbps_per_instance, &f::lost_work_share,
                                 &f::spot_interruptions_per_hour, &f::spot_recovery_hours}) {
    if (field->get(option.reliability)) continue;  // the user's own figure
    // The spot defaults apply to spot capacity alone (an on-demand option has no reclaims to vary).
    const bool spot_field = field == &f::spot_interruptions_per_hour || field == &f::spot_recovery_hours;
    if (spot_field && option.pricing != PricingModel::Spot) continue;
    const Figure* figure = catalog.default_for(field->catalog_default, option.instance, family);
    if (!figure || !figure->has_range()) continue;
    // The catalog's MTBF is per chip; the field is per instance.
    const double per = field == &f::mtbf_hours_per_instance ? 1 / p.chips_per_instance : 1;
    GoodputSwing swing{field, figure->low * per, figure->high * per};
    PairInputs varied = p;
    varied.*(field->resolved) = swing.low;
    swing.goodput_at_low = goodput_terms(w, varied).goodput;
    varied.*(field->resolved) = swing.high;
    swing.goodput_at_high = goodput_terms(w, varied).goodput;
    if (std::fabs(swing.goodput_at_low - base) + std::fabs(swing.goodput_at_high - base) < 1e-3) continue;  // under 0.1 point either way
    out.push_back(swing);
  }
  return out;
}

}  // namespace traincost
