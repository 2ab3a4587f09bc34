#pragma once
// The formulas of the cost model, one function each, with the source of each formula.
// Units: FLOPs, tokens, bytes, hours and US dollars unless a name says otherwise.
//
// Each formula the explain text shows has a Formula beside it: the quantity it gives, its
// expression with a {placeholder} for each argument, and the arguments' names in the order the
// function takes them. explain.cpp calls the function itself and puts the arguments' values in
// place of the placeholders (checking at compile time that names and arity match), so the text
// shows what the code computes.
#include "traincost/scenario/scenario.hpp"

namespace traincost {

struct Formula {
  const char* quantity;    // "Training compute"
  const char* symbol;      // "Hc"
  const char* expression;  // "{hours} × {instances} × {P}"
  const char* arguments;   // "hours, instances, P": the function's parameters, in order
};

// ---- Work -------------------------------------------------------------------------------------

// Model FLOPs per training token.
//   6·N                 forward 2N + backward 4N per token (Kaplan et al. 2020, arXiv 2001.08361)
//   + 12·l·h·s          attention scores and context, forward and backward, counted as in the
//                       PaLM paper's MFU (Chowdhery et al. 2022, Appendix B) when the
//                       architecture is known
//   × 4/3               with full activation recomputation the forward pass runs twice: 8·N
//                       (Narayanan et al. 2021, arXiv 2104.04473); utilization is then read as
//                       hardware FLOPs utilization
// N is the active parameter count (a mixture-of-experts model computes with the routed experts).
double flops_per_token(const Model& model, bool recompute);
double dense_flops_per_token(double active_params);                           // 6·N
double attention_flops_per_token(double layers, double hidden, double seq);  // 12·l·h·s
double recomputed_flops(double flops);                                        // × 4/3
inline constexpr Formula kDenseFlops{"FLOPs per token", "f", "6 × {N}", "N"};
inline constexpr Formula kAttentionFlops{"Attention FLOPs per token", "fa", "12 × {l} × {h} × {s}", "l, h, s"};
inline constexpr Formula kRecomputedFlops{"FLOPs per token with full recomputation", "f'", "{f} × 4/3", "f"};
inline constexpr Formula kTrainingFlops{"Training FLOPs", "C", "{f} × {D}", "f, D"};
double training_flops(double flops_per_token, double tokens);

// ---- Defaults that follow practice -----------------------------------------------------------

// The compute-optimal global batch, in tokens, for a training budget of C FLOPs:
//   B_opt = 0.292 × C^0.3271   (DeepSeek-AI 2024, "DeepSeek LLM", arXiv 2401.02954, §3.1, fitted on
//                               1e17–3e20 FLOPs and confirmed at their 7B and 67B runs)
// Batches up to about this size reach the same loss on the same tokens; beyond it more batch costs
// more tokens (the critical batch size of McCandlish et al. 2018, arXiv 1812.06162). DeepSeek
// count C without the embeddings; counting them here moves B_opt by under 1% for models above 7B.
double optimal_batch_tokens(double compute_flops);
inline constexpr Formula kOptimalBatch{"Compute-optimal batch (cap)", "Bopt", "0.292 × {C}^0.3271", "C"};

// Tokens per chip a step gives a large cluster: Llama 3 405B trained with 16M-token batches on
// 16,384 H100s (1,024 a GPU; Llama Team 2024, arXiv 2407.21783, §3.3.2 and Table 4) and MegaScale's
// 175B with 12.6M on 12,288 GPUs (Jiang et al. 2024, arXiv 2402.15627): about a thousand tokens per
// chip is the least at which published runs keep their pipelines busy.
inline constexpr double kBatchTokensPerChip = 1024;

// The global batch when a scenario gives none: the cluster's floor (tokens per chip × chips), at
// least the 4M-token batch of the Llama 2 and 3 7B–70B recipes, at most the compute-optimal batch.
//   B = min(Bopt, max(4,194,304, 1,024 × chips))
double default_batch_tokens(double chips, double optimal_batch);
inline constexpr Formula kDefaultBatch{"Global batch (default)", "B", "min({Bopt}, max(4,194,304, 1,024 × {chips}))", "chips, Bopt"};

// Sequences per optimizer step of a LoRA or QLoRA fine-tune when a scenario gives no batch.
// Published adapter recipes step on tens of sequences, not on a pretraining batch of millions of
// tokens:
//   64   optimum-neuron's LoRA fine-tune of Llama 3.1 8B on one trn1.32xlarge
//        (examples/training/llama/finetune_llama.sh and .py, commits 1b52010 and 8a970f2: 32 ranks
//        at tensor parallelism 8 = 4 data-parallel replicas × batch 1 × 16 accumulation steps, packed
//        2,048-token sequences: 131,072 tokens a step)
//   16   QLoRA's Guanaco 7B and 65B (Dettmers et al. 2023, arXiv 2305.14314; artidoro/qlora
//        scripts/finetune_guanaco_7b.sh and _65b.sh, commit 0b46ca8: per-device batch 4 × 4
//        accumulation steps = 16 sequences of up to 16 + 512 tokens, unpacked, on one GPU)
// The default takes the cluster recipe's 64 sequences of the workload's seq_len.
inline constexpr double kAdapterBatchSequences = 64;

// The global batch of a LoRA or QLoRA fine-tune when the scenario gives none: 64 sequences, at
// least the cluster's floor of tokens per chip (as for full training), at most the compute-optimal
// batch.
//   B = min(Bopt, max(64 × seq_len, 1,024 × chips))
double default_adapter_batch_tokens(double chips, double seq_len, double optimal_batch);
inline constexpr Formula kDefaultAdapterBatch{"Global batch (LoRA/QLoRA default)", "B",
                                              "min({Bopt}, max(64 × {seq_len}, 1,024 × {chips}))", "chips, seq_len, Bopt"};

// GPipe's rule for gradient accumulation (Huang et al. 2019, arXiv 1811.06965, §2.3): with at
// least 4 micro-batches per pipeline stage the bubble is negligible. When the batch is a default,
// the layout search raises a pipelined layout's micro-batches to 4·p/v (p stages, v interleaved
// chunks each: a bubble (p − 1)/(v·m) under a quarter), within Bopt, rather than leave its stages
// idle.
inline constexpr double kMicroBatchesPerStage = 4;

// Parameters of a decoder transformer from its architecture: per layer the attention's query and
// output projections (2·h²) and key and value projections (2·h·h_kv, h_kv = h × kv heads / heads),
// the feed-forward (3·h·f gated as SwiGLU, else 2·h·f; × experts for a mixture of experts), and the
// input and output embeddings (2·V·h, untied as in Llama). With f = 4h and no GQA this is the
// 12·l·h² of Kaplan et al. 2020 plus the embeddings. Llama 3.1 405B (126 × 16,384, 8 of 128 KV
// heads, f 53,248, V 128,256): 126 × (5.70e8 + 2.62e9) + 4.20e9 = 4.06e11.
double architecture_params(const Model& model);
// The parameters a token passes through: the same count with experts_per_token of a mixture of
// experts' feed-forwards (the router's h × experts per layer left out, under 0.1%). Mixtral 8x7B
// (32 × 4,096, 8 of 32 KV heads, f 14,336 gated, V 32,000, top 2 of 8): 32 × (3.36e7 + 8.39e6 +
// 2 × 1.76e8) + 2.62e8 = 1.29e10, against 4.67e10 in all.
double architecture_active_params(const Model& model);

// Smallest loss a model of N parameters reaches with unlimited data: E + A / N^alpha.
double loss_floor(const ScalingLaw& law, double n_params);

// Tokens D at which L(N, D) = E + A/N^alpha + B/D^beta equals `loss`:
//   D = (B / (loss - E - A/N^alpha))^(1/beta)   (Hoffmann et al. 2022, arXiv 2203.15556)
// Only defined above the floor; returns +inf at or below it.
double tokens_for_loss(const ScalingLaw& law, double n_params, double loss);
double scaling_law_tokens(double E, double A, double B, double alpha, double beta, double n_params, double loss);
inline constexpr Formula kTokensForLoss{"Target tokens (scaling law)", "D0", "({B} / ({L} − {E} − {A} / {N}^{α}))^(1/{β})", "E, A, B, α, β, N, L"};

// Tokens the target asks for (before any convergence penalty).
double target_tokens(const Target& target, const Model& model);
double steps_to_tokens(double steps, double tokens_per_step);
inline constexpr Formula kStepsToTokens{"Target tokens", "D0", "{steps} × {tokens per step}", "steps, tokens per step"};

// Tokens trained on a platform that needs `penalty` more to reach the same quality.
double penalized_tokens(double target_tokens, double penalty);
inline constexpr Formula kPenalizedTokens{"Training tokens", "D", "{D0} × (1 + {convergence penalty})", "D0, convergence penalty"};

// ---- Speed ------------------------------------------------------------------------------------

double chips(double instances, double chips_per_instance);
inline constexpr Formula kChips{"Chips", "n", "{instances} × {chips per instance}", "instances, chips per instance"};

// Share of per-chip throughput kept at `chips` when the utilization was observed at
// `reference_chips`: per_doubling^log2(chips / reference_chips), and 1 at or below the
// reference. 0.98 per doubling matches Megatron-LM's 47% -> 42% MFU from 96 to 4,608 H100
// (5.6 doublings: 0.98^5.6 = 0.89 = 42/47).
double scaling_efficiency(double chips, double reference_chips, double per_doubling);
inline constexpr Formula kScalingEfficiency{"Scaling efficiency", "e", "{per doubling}^log2({n} / {reference})", "n, reference, per doubling"};

// Achieved model FLOP/s of a cluster: MFU × peak × chips × scaling efficiency.
double achieved_flops(double mfu, double peak_flops_per_chip, double chips, double efficiency);
inline constexpr Formula kAchievedFlops{"Achieved FLOP/s", "F", "{MFU} × {peak} × {n} × {e}", "MFU, peak, n, e"};
// Tokens/s of a cluster from a measured per-chip rate.
double measured_tokens_per_sec(double tokens_per_sec_per_chip, double chips, double efficiency);
inline constexpr Formula kMeasuredThroughput{"Throughput (measured)", "X", "{tokens/s per chip} × {n} × {e}", "tokens/s per chip, n, e"};

// Hours of pure computation: FLOPs / (FLOP/s) / 3600.
double compute_hours(double training_flops, double cluster_flops_per_sec);
inline constexpr Formula kComputeHours{"Compute time", "T", "{C} / {F} / 3600", "C, F"};

// ---- Goodput (time lost to failures and checkpoints) ------------------------------------------

// The whole cluster stops when any instance fails: M = MTBF per instance / instances.
double cluster_mtbf(double mtbf_hours_per_instance, double instances);
inline constexpr Formula kClusterMtbf{"Cluster MTBF", "M", "{MTBF per instance} / {instances}", "MTBF per instance, instances"};

// Bytes a checkpoint holds: the training state without the gradients (2 bytes per parameter in
// bf16), which a restart does not need. Mixed-precision Adam (16 bytes per parameter in memory)
// saves 14: BLOOM's 176B checkpoints were 2.3 TB, 13 bytes per parameter.
double checkpoint_bytes(double params, double bytes_per_param);
inline constexpr Formula kCheckpointBytes{"Checkpoint size", "B", "{params} × ({bytes per param} − 2)", "params, bytes per param"};

// Hours to move a checkpoint between the cluster and storage: every instance writes (or reads)
// its shard at once, at its share of the storage bandwidth.
double checkpoint_transfer_hours(double bytes, double gbps_per_instance, double instances);
inline constexpr Formula kCheckpointTransfer{"Checkpoint transfer", "x", "{B} / ({instances} × {bandwidth} GB/s) / 3600",
                                             "B, bandwidth, instances"};

// Hours a checkpoint pauses training: a synchronous save blocks for the whole transfer (share
// 1); an asynchronous one only while the state is copied to host memory (PyTorch DCP: 6.3 s of
// a 148.8 s save, a share of about 0.04).
double checkpoint_pause_hours(double transfer_hours, double blocking_share);
inline constexpr Formula kCheckpointPause{"Checkpoint pause", "δ", "{x} × {blocking share}", "x, blocking share"};

// Hours from a failure to training again, by failure class. Every failure restarts the job
// (detect, relaunch, re-initialise) and reloads the last checkpoint; the share caused by a broken
// node also waits for its replacement.
double restart_hours(double job_restart_minutes, double replacement_share, double replacement_minutes, double reload_hours);
inline constexpr Formula kRestart{"Restart", "R", "({job restart} + {replacement share} × {replacement}) / 60 + {reload}",
                                  "job restart, replacement share, replacement, reload"};

// Mean time between failures that lose work: a share s of failures rolls back to the last
// checkpoint (1 for classic checkpoint-restart; less with in-memory or peer copies of the state).
double mtbf_between_losses(double mtbf_hours, double lost_work_share);
inline constexpr Formula kMtbfBetweenLosses{"Time between losses", "Ms", "{M} / {s}", "M, s"};

// Compute time between checkpoints that minimises lost time, for checkpoint pause delta and mean
// time between losses M (both hours). Young 1974 gives sqrt(2·delta·M); Daly 2006 (Future
// Generation Computer Systems 22:303) refines it:
//   tau = sqrt(2·delta·M)·(1 + sqrt(delta/(2M))/3 + (delta/(2M))/9) - delta   when delta < 2M
//   tau = M                                                                  otherwise
double optimal_checkpoint_interval(double write_hours, double mtbf_hours);
inline constexpr Formula kCheckpointInterval{"Checkpoint interval (Young/Daly)", "τ",
                                             "√(2·{δ}·{Ms})·(1 + √({δ}/(2·{Ms}))/3 + ({δ}/(2·{Ms}))/9) − {δ}", "δ, Ms"};

// Fraction of wall-clock time that trains:
//   tau / (tau + delta)                       checkpoints pause training
//   / (1 + (R + s·(tau + delta)/2) / M)       every hour of running meets 1/M failures, each
//                                             costing a restart and, for a share s, half a
//                                             segment of lost work
// To first order in 1/M this is Young and Daly's tau/(tau+delta) × (1 − ((tau+delta)/2 + R)/M).
// Counting failures per hour of running rather than of wall clock (a restart that itself fails
// is not counted) keeps it positive when restarts take as long as the time between failures: at
// 100,000 chips it degrades smoothly instead of predicting negative progress.
double goodput(double interval_hours, double pause_hours, double restart_hours, double lost_work_share, double mtbf_hours);
inline constexpr Formula kGoodput{"Goodput", "g", "{τ}/({τ}+{δ}) / (1 + ({R} + {s}·({τ}+{δ})/2)/{M})", "τ, δ, R, s, M"};

// Spot reclaims. The provider takes back one instance Λ₁ times per instance-hour; training is
// synchronous, so any reclaim stops the whole job: Λ = instances × Λ₁ per hour of running. Each
// reclaim loses the work since the last checkpoint (the two-minute notice is not relied on), waits
// `recovery` hours for capacity and then restarts like a failure: R_spot = R_relaunch + recovery.
double job_reclaim_rate(double reclaims_per_instance_hour, double instances);
inline constexpr Formula kReclaimRate{"Spot reclaims", "Λ", "{instances} × {Λ₁}", "Λ₁, instances"};

// Mean time between events that lose work when reclaims join failures: the two are independent
// Poisson streams, so their rates add: 1 / (s/M + Λ). With Λ = 0 it is M / s.
double time_between_losses(double mtbf_hours, double lost_work_share, double reclaims_per_hour);
inline constexpr Formula kTimeBetweenLosses{"Time between losses", "Ms", "1 / ({s}/{M} + {Λ})", "M, s, Λ"};

// Goodput with reclaims: every hour of running also meets Λ reclaims, each costing its restart
// R_spot and half a segment of lost work (every reclaim loses it):
//   tau/(tau+delta) / (1 + (R + s·(tau+delta)/2)/M + Λ·(R_spot + (tau+delta)/2))
// With Λ = 0 this is goodput() above.
double goodput_with_reclaims(double interval_hours, double pause_hours, double restart_hours, double lost_work_share, double mtbf_hours,
                             double reclaims_per_hour, double reclaim_restart_hours);
inline constexpr Formula kGoodputSpot{"Goodput", "g",
                                      "{τ}/({τ}+{δ}) / (1 + ({R} + {s}·({τ}+{δ})/2)/{M} + {Λ}·({R spot} + ({τ}+{δ})/2))",
                                      "τ, δ, R, s, M, Λ, R spot"};

// Share of the wall clock spent waiting for reclaimed capacity, when no instance runs or is
// billed: wall = running × (1 + losses) and running × Λ × recovery of it is the wait, so the share
// is Λ·recovery / (1 + losses) = Λ·recovery · g · (tau+delta)/tau.
double reclaim_wait_share(double goodput, double interval_hours, double pause_hours, double reclaims_per_hour, double recovery_hours);
inline constexpr Formula kReclaimWait{"Unbilled wait", "u", "{Λ}·{recovery}·{g}·({τ}+{δ})/{τ}", "g, τ, δ, Λ, recovery"};

// Failures expected while the run trains: training hours / M.
double expected_interruptions(double training_hours, double mtbf_hours);
inline constexpr Formula kInterruptions{"Interruptions per run", "f", "{training hours} / {M}", "training hours, M"};

// Wall clock of one run: compute time stretched by goodput, plus compilation before it.
double wall_clock_hours(double compute_hours, double goodput, double compile_hours);
inline constexpr Formula kWallClock{"Wall clock", "W", "{T} / {g} + {compile}", "T, g, compile"};
// The same, as a whole run realizes it: the planned training time × the whole-run factor x
// (realized ÷ planned, evidence/whole_run.hpp), then compilation.
double realized_wall_clock_hours(double compute_hours, double goodput, double compile_hours, double whole_run_factor);
inline constexpr Formula kWallClockRealized{"Wall clock", "W", "{T} / {g} × {x} + {compile}", "T, g, compile, x"};
double chip_hours(double wall_clock_hours, double chips);
inline constexpr Formula kChipHours{"Chip-hours", "ch", "{W} × {n}", "W, n"};
// MFU realized over a whole published run: its training FLOPs over what its chips could do in the
// chip-hours it took at dense peak, F / (ch × 3600 × peak). Unlike a step MFU it includes every
// restart, evaluation pause and stall, which is why replaying runs compares the two.
double realized_mfu(double training_flops, double chip_hours, double peak_flops);
inline constexpr Formula kRealizedMfu{"MFU (realized)", "MFUr", "{F} / ({ch} × 3600 × {peak})", "F, ch, peak"};

// ---- Money ------------------------------------------------------------------------------------

// Price per instance-hour after a discount.
double discounted_price(double price_usd_per_hour, double discount);
inline constexpr Formula kDiscountedPrice{"Price", "P", "{price} × (1 − {discount})", "price, discount"};
// Cost of `hours` on `instances` instances at `price` each: training time, compilation.
double instance_cost(double hours, double instances, double price_usd_per_hour);
inline constexpr Formula kTrainingCost{"Training compute", "Hc", "{training hours} × {instances} × {P}", "training hours, instances, P"};
inline constexpr Formula kCompileCost{"Compilation", "Hk", "{compile hours} × {instances} × {P}", "compile hours, instances, P"};
// One-time: porting effort, and validation runs each a fraction of a full run's compute.
double porting_cost(double engineer_weeks, double usd_per_engineer_week);
inline constexpr Formula kPortingCost{"Porting", "Op", "{weeks} × {$/week}", "weeks, $/week"};
double validation_cost(double validation_runs, double run_fraction, double compute_cost_per_run);
inline constexpr Formula kValidationCost{"Validation", "Ov", "{runs} × {fraction} × {Hc}", "runs, fraction, Hc"};
// Maintenance over the horizon: $/year × months / 12.
double maintenance_cost(double usd_per_year, double horizon_months);
inline constexpr Formula kMaintenanceCost{"Maintenance over the horizon", "Mt", "{$/year} × {months} / 12", "$/year, months"};
double egress_cost(double tb, double usd_per_tb);
inline constexpr Formula kEgressCost{"Egress per run", "E", "{TB} × {$/TB}", "TB, $/TB"};
// Storage held while the run trains (a parallel file system such as FSx for Lustre, object
// storage, block volumes), billed per TB-month and prorated by the hour as AWS bills it: a month
// is 730 hours (8,760 / 12). Only while the cluster trains: the data and checkpoints kept between
// runs are the team's, whichever platform it picks.
double storage_cost(double tb, double usd_per_tb_month, double hours);
inline constexpr Formula kStorageCost{"Storage during the run", "St", "{TB} × {$/TB-month} × {training hours} / 730",
                                      "TB, $/TB-month, training hours"};
// Fully loaded cost of one run: what every run pays plus the fixed costs spread over the runs.
double cost_per_run(double per_run_cost, double fixed_cost, double runs);
inline constexpr Formula kCostPerRun{"Fully loaded per run", "total", "{per run} + {fixed} / {runs}", "per run, fixed, runs"};
double cost_per_million_tokens(double cost_per_run, double tokens);
inline constexpr Formula kCostPerMillionTokens{"All-in per million tokens", "$/M", "{cost per run} / ({D0} / 1e6)", "cost per run, D0"};
// Compute only: the hardware of one run (instance-hours × price at the layout's throughput,
// goodput losses and compilation included) per million target tokens, with no one-time, recurring
// or delay costs; what the chip costs per token, whatever the runs (cost_per_million_tokens() again).
inline constexpr Formula kComputeCostPerMillionTokens{"Compute only per million tokens", "$/M hw", "{hardware per run} / ({D0} / 1e6)",
                                                      "hardware per run, D0"};
// Cost of n runs: fixed + n × per run (the cumulative-cost chart's lines).
double cumulative_cost(double fixed_cost, double per_run_cost, double runs);

// ---- Time, lock-in and budget (the constraints a team plans against) ----------------------------

// Days from now until a run's model is done: the wait for capacity, then the wall clock.
double days_to_model(double wait_days, double wall_clock_hours);
inline constexpr Formula kDaysToModel{"Days until the model is done", "Td", "{wait} + {W} / 24", "wait, W"};
// What waiting for the model costs a run: the value of a day (the user's figure: what having the
// model a day sooner is worth) × the days until it is done. Every run pays it, like compute.
double delay_cost(double usd_per_day, double days);
inline constexpr Formula kDelayCost{"Cost of delay per run", "Dl", "{$/day} × {Td}", "$/day, Td"};
// Expected cost of forced re-ports over the horizon. Re-ports arrive at `probability_per_year` a
// year (a rate: the expected count over t years is rate × t, whether or not two fall in one year),
// and each costs `effort_share` of the one-time cost O (porting and validation) again.
double re_porting_cost(double probability_per_year, double effort_share, double one_time_cost, double horizon_months);
inline constexpr Formula kRePortingCost{"Expected re-porting over the horizon", "Rp", "{rate} × {share} × {O} × {months} / 12",
                                        "rate, share, O, months"};

// Target tokens a budget buys when one run's cash cost is fixed + rate × tokens (the compute and
// validation shares scale with the tokens; compilation, egress, porting, maintenance do not):
//   Db = (budget − fixed) / rate;  0 when the budget does not cover the fixed part.
double budget_tokens(double budget, double fixed_per_run, double usd_per_token);
inline constexpr Formula kBudgetTokens{"Target tokens the budget buys", "Db", "({budget} − {fixed}) / {$/token}", "budget, fixed, $/token"};
// Loss of a model of N parameters trained on D tokens, L = E + A/N^α + B/D^β (Hoffmann et al. 2022,
// arXiv 2203.15556, eq. 2).
double scaling_law_loss(double E, double A, double B, double alpha, double beta, double n_params, double tokens);
inline constexpr Formula kLossAtTokens{"Loss reached", "Lb", "{E} + {A} / {N}^{α} + {B} / {D}^{β}", "E, A, B, α, β, N, D"};
// The compute a model of N parameters trained on D tokens counts in the scaling law: C = 6·N·D.
double chinchilla_compute(double n_params, double tokens);
inline constexpr Formula kChinchillaCompute{"Compute of that run (6·N·D)", "Cb", "6 × {N} × {D}", "N, D"};
// Compute-optimal allocation of C = 6·N·D FLOPs, minimising L(N, D) (Hoffmann et al. 2022, eq. 4):
//   N_opt = G · (C/6)^(β/(α+β)),   G = (α·A / (β·B))^(1/(α+β)),   D_opt = C / (6 · N_opt)
double compute_optimal_params(double A, double B, double alpha, double beta, double compute);
inline constexpr Formula kOptimalParams{"Compute-optimal parameters", "Nopt", "({α}·{A} / ({β}·{B}))^(1/({α}+{β})) × ({C}/6)^({β}/({α}+{β}))",
                                        "A, B, α, β, C"};
double compute_optimal_tokens(double compute, double optimal_params);
inline constexpr Formula kOptimalTokens{"Compute-optimal tokens", "Dopt", "{C} / (6 × {Nopt})", "C, Nopt"};

// ---- Memory -----------------------------------------------------------------------------------

// Weights, gradients and optimizer state: params × bytes_per_param (16 for mixed-precision
// Adam: 2 + 2 + 4 + 4 + 4, Rajbhandari et al. 2019, arXiv 1910.02054), sharded over all chips
// (ZeRO-3 / FSDP).
double state_bytes(double params, double bytes_per_param);

// Activations held by one chip (Korthikanti et al. 2022, arXiv 2205.05198, Table 2), 16-bit,
// micro-batch b, sequence s, hidden h, heads a, layers l, tensor(+sequence)-parallel t:
//   no recompute:   l · s·b·h·(34 + 5·a·s/h) / t    (5·a·s/h dropped with flash attention)
//   full recompute: l · 2·s·b·h / t                 (only each layer's input is kept)
// Zero when the architecture is not given.
double activation_bytes_per_chip(const Model& model, const MemorySettings& memory, bool recompute);

// Bytes one chip holds: its share of the sharded state plus its activations.
double bytes_per_chip(double state, double chips, double activations_per_chip);
inline constexpr Formula kBytesPerChip{"Memory per chip", "mem", "{state} / {n} + {activations}", "state, n, activations"};

// Fewest chips whose usable memory holds the sharded state plus each chip's activations:
//   chips ≥ state / (usable_per_chip - activations_per_chip)
// Returns 0 when activations alone exceed a chip (no cluster size helps).
double min_chips_for_memory(double state, double activations_per_chip, double usable_bytes_per_chip);
inline constexpr Formula kMinChips{"Fewest chips that hold it", "nmin", "⌈{state} / ({usable} − {activations})⌉", "state, activations, usable"};

// ---- Step time (the performance model: core/include/traincost/step_time.hpp) --------------------
// Per chip and per training step; b = micro-batch (sequences), s = sequence length, t, p, d, c, e =
// tensor, pipeline, data, context and expert parallel degrees, v = interleaved pipeline chunks,
// m = micro-batches per step. Bytes are 16-bit unless a name says otherwise.

// Matmul FLOPs per token of a forward pass: 2 per weight that multiplies the token. The input
// embedding is a lookup, not a matmul, so with the vocabulary known its V·h weights are left out
// (the output head's V·h stay). A mixture of experts multiplies by its active parameters only.
double forward_matmul_flops_per_token(double active_params, double vocab, double hidden);
inline constexpr Formula kForwardMatmulFlops{"Matmul FLOPs per token (forward)", "fm", "2 × ({N} − {V} × {h})", "N, V, h"};
// Attention scores and context of a forward pass for one token over its causal prefix: the token
// attends to s/2 keys on average, 2 FLOPs each for QKᵀ and for AV over h channels
// (FlashAttention skips the masked half: Dao 2022, arXiv 2205.14135).
double forward_attention_flops_per_token(double layers, double hidden, double seq);
inline constexpr Formula kForwardAttentionFlops{"Attention FLOPs per token (forward, causal)", "fa", "2 × {l} × {h} × {s}", "l, h, s"};
// Training runs the forward pass once and the backward pass (twice the forward's FLOPs) once;
// full recomputation runs the forward a second time, selective recomputation only the attention
// (Korthikanti et al. 2022, arXiv 2205.05198).
double training_pass_factor(bool recomputed);  // 3, or 4 when recomputed
// Matmul passes of a training step when a share r of the layers' forward matmul work is run again
// in the backward pass: 3 + r. Full recomputation is r = 1 (training_pass_factor(true)), selective
// recomputation r = 0 (it recomputes the attention core, which holds no weight). A framework's own
// checkpoint policy lies between: JAX's saves named activations and recomputes only the matmuls
// whose outputs the backward pass needs and no saved activation provides (AXLearn's fuji.py
// policies; a measurement's note derives its r from them).
double training_matmul_passes(double recomputed_share);
// A matmul reaches its efficiency only when its smallest dimension is large: x / (x + knee).
// The knee is calibrated (measured small-GEMM slowdown, e.g. stas00/ml-engineering's MAMF scans).
double gemm_size_efficiency(double smallest_dimension, double knee);
inline constexpr Formula kGemmSizeEfficiency{"GEMM size efficiency", "g", "{x} / ({x} + {knee})", "x, knee"};
// Seconds of a micro-batch's matmuls and attention on one chip at their achieved rates.
double compute_seconds(double matmul_flops, double matmul_rate, double attention_flops, double attention_rate);
inline constexpr Formula kComputeSeconds{"Compute per micro-batch", "tm", "{matmul FLOPs} / {matmul rate} + {attention FLOPs} / {attention rate}",
                                         "matmul FLOPs, matmul rate, attention FLOPs, attention rate"};
// Tokens per second per chip: the global batch's tokens over the step time and the chips.
double tokens_per_sec_per_chip(double batch_sequences, double seq_len, double chips, double step_seconds);
inline constexpr Formula kTokensPerSecPerChip{"Tokens/s per chip", "x", "{B} × {s} / {n} / {step}", "B, s, n, step"};
// Model FLOPs utilization of a throughput: tokens/s × FLOPs per token / peak.
double utilization(double tokens_per_sec_per_chip, double flops_per_token, double peak_flops);
inline constexpr Formula kUtilization{"MFU (predicted)", "MFU", "{x} × {f} / {peak}", "x, f, peak"};
// Bytes a gradient takes in the data-parallel reduction on NVIDIA: FP32. The NVIDIA frameworks the
// measurements come from reduce gradients in FP32 by default: Megatron-Bridge's bf16_mixed (and
// the FP8 recipes built on it) sets grad_reduce_in_fp32=True (src/megatron/bridge/training/
// mixed_precision.py), Megatron-Core then keeps an FP32 main-gradient buffer and reduce-scatters
// it; torchtitan's FSDP2 reduces in float32 (training.mixed_precision_reduce, "currently float32").
// No Neuron source found says what NxD reduces in: Trainium keeps 16 bits (HardwareProfile's
// default). The weights are gathered in 16 bits.
inline constexpr double kReducedGradientBytes = 4;
inline constexpr double kGatheredWeightBytes = 2;
// Seconds of a ring collective moving `bytes` per rank among n ranks, `passes` times:
// passes × (n − 1)/n × bytes / bandwidth. An all-gather or reduce-scatter is one pass, an
// all-reduce two (Patarasuk and Yuan 2009; NCCL's bus-bandwidth convention).
double ring_collective_seconds(double passes, double ranks, double bytes, double bytes_per_sec);
inline constexpr Formula kRingCollective{"Ring collective", "tc", "{passes} × ({n} − 1)/{n} × {bytes} / {bandwidth}", "passes, n, bytes, bandwidth"};
// Idle share of a pipeline schedule: (p − 1) / (v × m) of the busy time (1F1B with v interleaved
// chunks per stage: Narayanan et al. 2021, arXiv 2104.04473, §2.2).
double pipeline_bubble_fraction(double stages, double interleave, double micro_batches);
inline constexpr Formula kPipelineBubble{"Pipeline bubble", "β", "({p} − 1) / ({v} × {m})", "p, v, m"};
// Training state per chip under ZeRO stage z over d data-parallel ranks, for `bytes_per_param`
// (16 = 2 weights + 2 gradients + 12 optimizer): stage 1 shards the optimizer, 2 also the
// gradients, 3 also the weights (Rajbhandari et al. 2019, arXiv 1910.02054).
double state_bytes_per_param(double bytes_per_param, int zero_stage, double data_parallel);
inline constexpr Formula kStateBytesPerParam{"State bytes per parameter (ZeRO)", "σ", "by stage {z} over {d} ranks, {bytes per param} in all", "bytes per param, z, d"};
// A mixture of experts' routed-expert weights are laid out on their own groups (Megatron-Core's
// expert layout, expert tensor parallelism 1: the e expert-parallel ranks are carved from the
// d × t data × tensor ranks of a pipeline stage). Each expert's weights sit whole on one rank of
// an expert-parallel group and are replicated over the expert-data-parallel group of the other
// d × t / e ranks holding the same experts: its gradients are reduced, and its ZeRO state
// sharded, over that group, not over all d data-parallel ranks (Megatron-Core parallel_state:
// expert data parallel size = world / (ETP × EP × PP); the dense weights' data-parallel group
// stays d).
double expert_data_parallel(double data_parallel, double tensor_parallel, double expert_parallel);
inline constexpr Formula kExpertDataParallel{"Expert-data-parallel ranks", "de", "{d} × {t} / {e}", "d, t, e"};
// Tokens one expert multiplies per micro-batch: each of the e ranks of its expert-parallel group
// routes its `tokens` k times, spread evenly over the E experts (balanced routing, as the
// published MoE benchmarks force it): tokens × k × e / E.
double expert_tokens(double tokens, double experts_per_token, double expert_parallel, double experts);
inline constexpr Formula kExpertTokens{"Tokens per expert", "te", "{tokens} × {k} × {e} / {E}", "tokens, k, e, E"};
// HBM bytes per token and MoE layer of the token permutation: the dispatch gathers a token's
// h-wide 16-bit activation into k expert-ordered copies (reads h, writes k·h) and the combine
// scatters them back (reads k·h, writes h), forward and backward: 2 × 2 × (1 + k) × h × 2 bytes
// (Megatron-Core moe_utils permute/unpermute; the router's probabilities and indices are small).
double moe_permutation_bytes_per_token(double hidden, double experts_per_token);
inline constexpr Formula kMoePermutationBytes{"Permutation bytes per token and layer", "bperm", "8 × (1 + {k}) × {h}", "k, h"};
// Seconds of one all-to-all among n ranks of which `local` share a scale-up domain (counting
// this one), each rank sending `bytes` spread evenly over the n ranks: the (local − 1)/n share
// crosses the scale-up links and the (n − local)/n share the rank's own network link, at once,
// so the slower of the two sets the time (each chip drives its own NIC in an all-to-all).
double all_to_all_seconds(double ranks, double local_ranks, double bytes, double scale_up_bytes_per_sec, double network_bytes_per_sec);
inline constexpr Formula kAllToAll{"All-to-all", "ta",
                                   "max(({local} − 1)/{n} × {bytes} / {scale-up}, ({n} − {local})/{n} × {bytes} / {network})",
                                   "n, local, bytes, scale-up, network"};
// A flex dispatcher (DeepEP, HybridEP: MoeDispatcher::Flex) sends a token once to each remote
// scale-up domain that holds any of its k experts and forwards it to those experts over the
// domain's scale-up links; an all-to-all sends one copy per remote expert. With the E experts
// spread evenly over the n = ranks / local domains of the expert-parallel group, a given other
// domain holds none of a token's k experts with probability C(E − E/n, k) / C(E, k), so a token
// crosses the network to (n − 1) × (1 − C(E − E/n, k) / C(E, k)) domains on average (balanced
// routing, as the published benchmarks force it). Returned as a share of the k copies of one
// dispatch, to compare with the all-to-all's (n − local)/n = (n_domains − 1)/n_domains.
// (k = 1 gives the all-to-all's share: a token then goes to one expert either way.)
double flex_network_share(double experts, double experts_per_token, double ranks, double local_ranks);
inline constexpr Formula kFlexNetworkShare{"Share of a dispatch over the network (flex)", "sf",
                                           "({n}/{local} − 1) × (1 − C({E} − {E}·{local}/{n}, {k}) / C({E}, {k})) / {k}", "E, k, n, local"};
// Seconds of one flex dispatch (or combine) among n ranks, `local` of them in this chip's domain:
// the copies for experts in the domain cross its scale-up links as in an all-to-all, the
// `network_share` of `bytes` this chip's network link, at once.
double flex_all_to_all_seconds(double ranks, double local_ranks, double bytes, double network_share, double scale_up_bytes_per_sec,
                               double network_bytes_per_sec);
inline constexpr Formula kFlexAllToAll{"Flex dispatch", "tf", "max(({local} − 1)/{n} × {bytes} / {scale-up}, {sf} × {bytes} / {network})",
                                       "n, local, bytes, sf, scale-up, network"};
// Activations one layer keeps for its backward pass, per micro-batch on one chip, 16-bit, with
// FlashAttention (no s×s scores), no dropout; h_kv = h × kv_heads / heads (grouped queries),
// f = FFN width, gated = SwiGLU-style (three FFN matrices), tokens = b × s / c:
//   tokens × (12·h + 4·h_kv) + tokens × f × (6 gated, 4 not)
// (Korthikanti et al. 2022 Table 2, 34·s·b·h, generalised; sequence parallelism divides all of it
// by t, plain tensor parallelism only the FFN and attention-internal parts). Full recomputation
// keeps only each layer's input (2 × tokens × h, divided by t with sequence parallelism); selective
// recomputation drops the FFN activation function's input (2 × tokens × f).
double layer_activation_bytes(double tokens, double hidden, double kv_hidden, double ffn, bool gated);

// ---- Decision ---------------------------------------------------------------------------------

// Cumulative cost of n runs is fixed + n × per_run. For option A against option B:
enum class BreakevenKind {
  FromFirstRun,  // A is cheaper at every run count
  AtRuns,        // A costs more at first and is cheaper from `runs` on (pays back its fixed cost)
  UntilRuns,     // A is cheaper at first and loses from `runs` on
  Never          // A is never cheaper
};
struct Breakeven {
  BreakevenKind kind = BreakevenKind::Never;
  double runs = 0;  // where the lines cross (AtRuns, UntilRuns): (fixed_a - fixed_b) / (per_run_b - per_run_a)
};
Breakeven breakeven(double fixed_a, double per_run_a, double fixed_b, double per_run_b);

// Runs after which A has paid back what it costs more up front: 1 when it is cheaper from the
// first run, the crossing when it wins from there on, +inf when it never wins for good.
double payback_runs(const Breakeven& b);

// ---- Thresholds and the pilot -------------------------------------------------------------------

// Where a difference that is affine in t crosses zero, from its values g0 and g1 at two points t0
// and t1 (the secant through them is the line itself):
//   t* = t0 − g0 × (t1 − t0) / (g1 − g0)
// The cost of an option is affine in each deciding input once the input is put on the right
// scale: price, porting effort, convergence penalty and compile time as they are; throughput and
// runs as their reciprocals (time per token, fixed cost per run). thresholds.cpp solves with it.
double affine_root(double t0, double g0, double t1, double g1);
inline constexpr Formula kAffineRoot{"Threshold (costs equal)", "t*", "{t0} − {g0} × ({t1} − {t0}) / ({g1} − {g0})", "t0, g0, t1, g1"};

// A per-chip throughput needed on the planned cluster of n chips, as a pilot on m < n chips should
// measure it: per-chip throughput falls by per_doubling each time a cluster doubles (the rule
// scaling_efficiency() applies to a measured rate), so the pilot must show x / per_doubling^log2(n/m).
double pass_mark_at_pilot_scale(double rate, double chips, double pilot_chips, double per_doubling);
inline constexpr Formula kPilotPassMark{"Pass mark at the pilot's size", "xp", "{x} / {per doubling}^log2({n} / {m})", "x, n, m, per doubling"};

// A pilot of `fraction` of a run's tokens, on a cluster whose chips each run 1/e times faster than
// the planned cluster's (e = scaling_efficiency(planned, pilot) ≤ 1), costs fraction × e × the run's
// training compute: the same chip-seconds per token, times e.
double pilot_compute_cost(double fraction, double compute_cost_per_run, double efficiency);
inline constexpr Formula kPilotCompute{"Pilot compute", "Cp", "{fraction} × {Hc} × {e}", "fraction, Hc, e"};

// The loss gap at D tokens that a convergence penalty p implies under L(D) = … + B / D^β: a platform
// needing (1 + p) times the tokens has, at D, the loss the reference had at D / (1 + p):
//   ΔL = B / (D / (1 + p))^β − B / D^β = B × D^−β × ((1 + p)^β − 1)
double loss_gap_for_penalty(double B, double beta, double tokens, double penalty);
inline constexpr Formula kLossGap{"Loss gap the penalty allows", "ΔL", "{B} × {D}^−{β} × ((1 + {p})^{β} − 1)", "B, β, D, p"};

}  // namespace traincost
