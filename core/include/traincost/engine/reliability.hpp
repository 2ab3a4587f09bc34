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

// Everything goodput_terms() reads: the workload's checkpoint size and the pair's reliability
// figures, all doubles.
struct GoodputInputs {
  double trained_params = 0, bytes_per_param = 0;  // the checkpoint: trained_params(w) × (bytes/param − 2)
  double instances = 0;
  double mtbf_hours_per_instance = 0;
  double checkpoint_gbps_per_instance = 0, checkpoint_write_minutes = 0, checkpoint_blocking_share = 0;
  double checkpoint_interval_hours = 0;
  double restart_minutes = 0, job_restart_minutes = 0, replacement_share = 0, replacement_minutes = 0;
  double lost_work_share = 0;
  double spot_interruptions_per_hour = 0, spot_recovery_hours = 0;
};
GoodputInputs goodput_inputs(const Workload& w, const PairInputs& p);
GoodputTerms goodput_terms(const GoodputInputs& inputs);

// One pair's goodput terms, kept with the inputs they came from and recomputed only when one of
// those changed. A Monte Carlo sample moves an MFU, a price, an effort or the runs far more often
// than a reliability figure, and the terms (two square roots and a dozen divisions) were a
// quarter of the time evaluate_options() spent on a pair; comparing sixteen doubles is not.
class GoodputMemo {
 public:
  const GoodputTerms& terms(const Workload& w, const PairInputs& p);

 private:
  bool known_ = false;
  GoodputInputs inputs_;
  GoodputTerms terms_;
};

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
