#pragma once
// The numbers of one (workload, option) pair with every default applied: the option's own values,
// the workload's overrides, then the catalog's (engine/resolve_pair.hpp fills them). The field
// table names, for each option field, the number it becomes here (FieldSpec::resolved), so the
// resolver, the uncertainty analysis and the sensitivity of goodput address them the same way.
namespace traincost {

struct PairNumbers {
  // A restart time of 0 is a real answer (an instant restart), so "not given" is negative.
  static constexpr double kDerived = -1;

  // Cluster
  double instances = 1;
  double chips_per_instance = 1;
  double peak_flops_per_chip = 0;      // FLOP/s at the option's precision
  double hbm_bytes_per_chip = 0;
  double price_usd_per_hour = 0;       // per instance, before discount
  double discount = 0;
  double mfu = 0;
  double measured_tokens_per_sec_per_chip = 0;  // 0: use mfu
  double scaling_reference_chips = 0;           // 0: no scaling loss
  double scaling_per_doubling = 1;
  // Reliability
  double mtbf_hours_per_instance = 0;
  double checkpoint_write_minutes = 0;     // 0: from the checkpoint size and bandwidth
  double checkpoint_gbps_per_instance = 0;
  double checkpoint_blocking_share = 1;
  double restart_minutes = kDerived;       // kDerived: from the failure classes
  double job_restart_minutes = 0;
  double replacement_share = 0;
  double replacement_minutes = 0;
  double lost_work_share = 1;
  double checkpoint_interval_hours = 0;    // 0: the Young/Daly optimum
  double spot_interruptions_per_hour = 0;  // reclaims per instance-hour (0: not spot)
  double spot_recovery_hours = 0;          // until the capacity is back after a reclaim
  // Platform costs
  double engineer_weeks = 0;
  double usd_per_engineer_week = 0;
  double validation_runs = 0;
  double validation_run_fraction = 0;
  double convergence_penalty = 0;
  double compile_hours_per_run = 0;
  double maintenance_usd_per_year = 0;
  double egress_tb_per_run = 0;
  double egress_usd_per_tb = 0;
  double storage_tb = 0;
  double storage_usd_per_tb_month = 0;
  double report_probability_per_year = 0;
  double report_effort_share = 0;
  // Time
  double wait_days = 0;       // until the capacity is there
  double max_instances = 0;   // the option's capacity limit (0: none given)
};

}  // namespace traincost
