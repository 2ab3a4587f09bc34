#pragma once
// Goodput: the share of wall-clock time a cluster trains, after checkpoint pauses and the work
// and restarts failures cost. Each term comes from the option's reliability inputs (or the
// catalog's sourced defaults) and the workload's checkpoint size; explain shows them all, and
// goodput_sensitivity() says how far the answer moves over the catalog's ranges.
#include <string>
#include <vector>

#include "traincost/data/catalog.hpp"
#include "traincost/engine/resolved.hpp"

namespace traincost {

struct FieldSpec;

struct GoodputTerms {
  double cluster_mtbf_hours = 0;         // M
  double checkpoint_bytes = 0;           // B
  double checkpoint_transfer_hours = 0;  // x: one full write, or read on restart
  double checkpoint_pause_hours = 0;     // δ (the option's override, else x × blocking share)
  double restart_hours = 0;              // R (the option's override, else from the failure classes)
  double mtbf_between_losses_hours = 0;  // M / s, or 1 / (s/M + Λ) with spot reclaims
  double checkpoint_interval_hours = 0;  // τ (the option's, else the Young/Daly optimum)
  double goodput = 1;                    // g
  // Spot reclaims (all 0 for capacity the job holds)
  double reclaims_per_hour = 0;          // Λ: instances × reclaims per instance-hour
  double reclaim_restart_hours = 0;      // R_spot: waiting for capacity, then relaunch and reload
  double reclaim_wait_share = 0;         // u: share of the wall clock waiting for capacity, unbilled
};
GoodputTerms goodput_terms(const Workload& w, const PairInputs& p);

// Goodput with one reliability input at the low and the high end of the catalog's range, all
// else as resolved. Inputs the option overrides, or that do not move goodput, are left out.
struct GoodputSwing {
  const FieldSpec* field = nullptr;
  double low = 0, high = 0;  // the input, in its field's unit (MTBF per instance, minutes, ...)
  double goodput_at_low = 0, goodput_at_high = 0;
};
std::vector<GoodputSwing> goodput_sensitivity(const Workload& w, const PairInputs& p, const Option& option,
                                              const Catalog& catalog, Family family);

}  // namespace traincost
