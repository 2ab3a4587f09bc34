// Types of the traincost package (index.js). Results are the JSON documents the traincost CLI
// prints with --format json; the interfaces name the fields most code reads and allow the rest.

/** One problem in the input: the JSON path of the field ("" for the document) and the CLI's message. */
export interface Problem {
  path: string;
  message: string;
}

/** Thrown for invalid input (a scenario, analyze options, a link or a Hugging Face config). */
export class ScenarioError extends Error {
  constructor(error: string, problems: Problem[]);
  readonly name: 'ScenarioError';
  /** What was invalid: "invalid scenario", "invalid options", "invalid link" or "invalid config". */
  readonly error: string;
  readonly problems: Problem[];
}

/** A scenario in the format of docs/scenario-format.md (see schema()), as an object or as JSON text. */
export type Scenario = ScenarioDocument | string;

export interface ScenarioDocument {
  version?: number;
  name?: string;
  catalog?: string;
  reference?: number;
  workloads: Array<Record<string, unknown>>;
  options: Array<Record<string, unknown>>;
  ranges?: Array<Record<string, unknown>>;
  analysis?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface AnalyzeOptions {
  /** Monte Carlo samples, 100 to 1,000,000 (default: the scenario's analysis.samples). */
  samples?: number;
  /** Random seed, 0 to 2^53-1 (default: the scenario's analysis.seed). */
  seed?: number;
  /** Index of the workload to analyse (default 0). */
  workload?: number;
}

export interface SweepOptions {
  /** Index of the workload to sweep (default 0). */
  workload?: number;
}

export interface Breakeven {
  kind: 'from_first_run' | 'at_runs' | 'until_runs' | 'never';
  runs: number | null;
}

export interface OptionResult {
  label: string;
  instance: string;
  feasible: boolean;
  issue?: string;
  /** With a pilot's loss curve and a reference curve: the tokens the option needs to reach the
   *  reference's final loss (ratio, 90% interval), or why the curves cannot tell. */
  convergence?: Convergence;
  training_flops: number;
  tokens: number;
  tokens_per_second: number;
  chips: number;
  goodput: number;
  wall_clock_hours: number;
  chip_hours: number;
  instance_hours: number;
  price_usd_per_instance_hour: number;
  hardware_cost_per_run_usd: number;
  one_time_cost_usd: number;
  maintenance_cost_usd: number;
  fixed_cost_usd: number;
  per_run_cost_usd: number;
  cost_per_run_usd: number;
  /** Compute only: hardware per run (instance-hours × price) per million target tokens, no one-time costs. */
  compute_cost_per_million_tokens_usd: number;
  /** All-in: the fully loaded cost per run (one-time costs spread over the runs) per million target tokens. */
  cost_per_million_tokens_usd: number;
  horizon_cost_usd: number;
  annual_cost_usd: number;
  /** Instances the results are at: the option's own, or the fewest that meet the workload's deadline. */
  instances: number;
  /** Wait for capacity + wall clock. */
  days_to_model: number;
  /** Expected cost of forced re-ports over the horizon (part of the fixed cost). */
  re_porting_cost_usd: number;
  /** The value of the days until the model is done (part of the per-run cost). */
  delay_cost_per_run_usd: number;
  /** One run's share of each part of its cost (schema().cost_parts); they add up to cost_per_run_usd. */
  breakdown_per_run_usd: Record<CostPartKey, number>;
  /** With a deadline: how the option was sized. */
  deadline?: {
    days: number;
    met: boolean;
    instances: number;
    configured_instances: number;
    fastest_instances: number;
    fastest_days: number | null;
    limit: number;
    capacity_limited: boolean;
    sizes_tried: number;
    /** With the workload's deadline_confidence: the chance asked for, whether it is reached, the share of
     * 1,000 drawn futures on time at this size, and the size the point estimate chose. */
    confidence?: number;
    confidence_met?: boolean;
    probability_on_time?: number;
    point_instances?: number;
  };
  /** With a budget: what it buys at this size (and, with a loss target, what it reaches). */
  budget?: {
    usd: number;
    usd_per_token: number;
    fixed_per_run_usd: number;
    tokens: number;
    covers_one_step: boolean;
    wall_clock_hours: number;
    scaling_law?: { loss: number; compute_flops: number; optimal_params: number; optimal_tokens: number; optimal_loss: number };
  };
  memory: Record<string, number | boolean>;
  savings_vs_reference: number;
  wall_clock_ratio_vs_reference: number;
  breakeven_vs_reference: Breakeven;
  /** The planned run as published runs realized against their plan (80% interval and median); null when not shown. */
  as_published_runs_realized: {
    interval: number;
    runs: number;
    chip_hours: { low: number; median: number; high: number };
    wall_clock_hours: { low: number; median: number; high: number };
    hardware_cost_per_run_usd: { low: number; median: number; high: number };
  } | null;
  [key: string]: unknown;
}

export interface LossCurveFit {
  points: number;
  fitted: boolean;
  E?: number;
  A?: number;
  alpha?: number;
  tokens_scale?: number;
  residual_sd?: number;
  spikes_left_out: [number, number][];
}
export interface Convergence {
  state: 'measured' | 'too_short' | 'non_overlapping' | 'too_noisy' | 'no_curves';
  reason?: string;
  ratio?: number;
  low?: number;
  high?: number;
  penalty?: number;
  penalty_low?: number;
  penalty_high?: number;
  target_loss?: number;
  reference_tokens?: number;
  candidate_tokens?: number;
  resamples?: number;
  failed_resamples?: number;
  seed?: number;
  candidate_fit?: LossCurveFit;
  reference_fit?: LossCurveFit;
}

export interface WorkloadResult {
  name: string;
  target_tokens: number;
  runs: number;
  deadline_days: number | null;
  budget_usd: number | null;
  usd_per_day_of_delay: number | null;
  /** The one-sentence answer. */
  verdict: string;
  /** What the constraints cannot give (a deadline shorter than an option's fastest run, a budget below one step), naming the field. */
  problems: Problem[];
  options: OptionResult[];
  comparison: {
    cheapest: string | null;
    cheapest_index: number;
    runner_up: string | null;
    runner_up_index: number;
    savings: number;
    wall_clock_ratio: number;
    breakeven: Breakeven['kind'];
    breakeven_runs: number | null;
    /** What would change the answer: the cheapest against the runner-up, input by input. */
    thresholds: Threshold[];
    /** Index into thresholds of the nearest to flipping the answer (-1: none flips it). */
    decisive_threshold: number;
    /** "Holds while Trn2 x16 reaches at least 2,720 tokens/s per chip (MFU 0.25)." or null. */
    holds_while: string | null;
    [key: string]: unknown;
  };
  /** The odds beside the point estimates: a 2,000-sample Monte Carlo with the scenario's seed, or why it was skipped. */
  odds?: QuickOdds | { skipped: string };
  [key: string]: unknown;
}

export interface QuickOdds {
  samples: number;
  seed: number;
  options: {
    cost_per_run_usd: { p5: number | null; p50: number | null; p95: number | null };
    probability_cheapest: number;
    probability_feasible: number;
    /** The median is more than 10% from the point estimate. */
    far_from_median: boolean;
    /** The ranged input that pulls the median away from the point estimate most, or null. */
    pulled_by: string | null;
    pulled_by_usd: number | null;
  }[];
  /** What the reports print. */
  sentences: string[];
}

/** The value of one input at which two options cost the same per run, all else at its base value. */
export interface Threshold {
  /** Whose input (null for the workload's runs). */
  option: string | null;
  option_index: number;
  /** The scenario field: "options[0].mfu", "workloads[2].overrides[0].engineer_weeks", "workloads[0].runs". */
  input: string;
  quantity: 'throughput' | 'price' | 'porting_effort' | 'convergence_penalty' | 'compile_time' | 'runs';
  base: number;
  /** null when no value in the field's valid range flips the answer. */
  value: number | null;
  /** Where the first option stays cheaper; null when nothing flips it. */
  direction: 'at least' | 'at most' | null;
  /** value / base - 1 (null from a base of 0, or without a flip). */
  change: number | null;
  /** Throughput only: the same as the effective rates the model uses. */
  mfu?: { value: number | null; base: number | null };
  tokens_per_sec_per_chip?: { value: number | null; base: number | null };
  /** The condition in words. */
  condition: string;
}

/** `traincost evaluate --format json` */
export interface Evaluation {
  traincost_version: string;
  catalog: string;
  workloads: WorkloadResult[];
  portfolio: { verdict: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** `traincost sweep --format json` */
export interface Sweep {
  workload: number;
  name: string;
  deadline_days: number | null;
  options: Array<{
    label: string;
    instance: string;
    evaluated_instances: number;
    limit: number;
    /** The size with the lowest cost per run among those that run (in time, with a deadline). */
    cheapest_instances: number | null;
    points: Array<{
      instances: number;
      chips: number;
      feasible: boolean;
      status: string;
      mfu: number | null;
      wall_clock_hours: number | null;
      days_to_model: number | null;
      cost_per_run_usd: number | null;
      in_time: boolean;
    }>;
  }>;
}

/** Break-even runs: a number, "never", or null when undefined. */
export type Runs = number | 'never' | null;
export interface Percentiles<T = number | null> {
  p5: T;
  p50: T;
  p95: T;
}

/** `traincost analyze --format json` */
export interface Analysis {
  workload: number;
  leader: string;
  runner_up: string;
  challenger: string;
  metric: string;
  base: { metric: number | null; breakeven_runs: Runs; challenger_one_time_usd: number | null };
  inputs: Array<{ input: string; label: string; value: number; low: number; high: number; dist: string; default_range: boolean }>;
  sensitivity: Array<{
    input: string;
    label: string;
    low_value: number;
    high_value: number;
    metric_at_low: number | null;
    metric_at_high: number | null;
    breakeven_at_low: Runs;
    breakeven_at_high: Runs;
    swing: number | null;
    default_range: boolean;
  }>;
  monte_carlo: {
    samples: number;
    seed: number;
    options: Array<{
      label: string;
      probability_cheapest: number;
      probability_cheapest_horizon: number;
      probability_feasible: number;
      cost_per_run_usd: Percentiles;
      horizon_cost_usd: Percentiles;
      /** Why a cost percentile is null: the share of samples the option cannot run the job, and why. */
      cost_per_run_null_because?: string;
      /** With a deadline on the workload. */
      deadline_days?: number;
      probability_on_time?: number;
      probability_late?: number;
      days_to_model?: Percentiles;
    }>;
    breakeven_runs: Percentiles<Runs>;
    probability_pays_off: number;
    difference_histogram: { min: number; max: number; counts: number[] };
    infeasible_samples: number;
  };
  [key: string]: unknown;
}

export interface PilotOptions {
  /** Index of the workload (default 0). */
  workload?: number;
  /** The platform to pilot (default: of the two leading options, the one with the larger one-time cost). */
  candidate?: number;
  /** What it is compared with (default: the other leading option). */
  against?: number;
  /** Share of a full run's tokens, in (0, 1] (default: the candidate's validation run length). */
  fraction?: number;
  /** Instances of the pilot cluster, at most the planned ones (default: the planned cluster). */
  instances?: number;
  samples?: number;
  seed?: number;
}

/** `traincost pilot --format json` */
export interface PilotPlan {
  ok: boolean;
  /** Why there is no plan, when ok is false. */
  reason?: string;
  workload: number;
  workload_name: string;
  candidate: string | null;
  candidate_index: number;
  incumbent: string | null;
  incumbent_index: number;
  recommendation: 'worth running' | 'not worth it: decide now' | 'no plan';
  summary: string;
  run?: Record<string, number>;
  pass_marks?: { rows: Array<{ measure: string; pass_mark: string; planned: string }>; [key: string]: unknown };
  thresholds?: Threshold[];
  value?: {
    samples: number;
    seed: number;
    revealed: string[];
    decide_now: string;
    value_of_information_usd: number;
    standard_error_usd: number;
    max_saving_usd: number;
    perfect_information_usd: number;
    net_value_usd: number;
    probability_changes_decision: number;
    [key: string]: unknown;
  };
  steps?: ExplainStep[];
  [key: string]: unknown;
}

export interface ExplainStep {
  quantity: string;
  formula: string;
  substituted: string;
  result: string;
}

/** `traincost explain --format json` */
export interface Explanation {
  traincost_version: string;
  catalog: string;
  workloads: Array<{ name: string; verdict: string; options: Array<{ label: string; instance: string; steps: ExplainStep[] }> }>;
  /** The whole explanation as the CLI prints it. */
  text: string;
}

export interface Link {
  /** "s=1.…" */
  fragment: string;
  /** "#s=1.…": append it to calculator.html */
  link: string;
}

export interface DecodedLink {
  scenario: ScenarioDocument;
  notices: string[];
}

/**
 * The parts of a run's cost, in the order of `schema().cost_parts` (the core's kCostParts). Spelled
 * out for editors; npm/test/types.test.mjs checks that it lists exactly the schema's keys.
 */
export type CostPartKey = 'compute' | 'compile' | 'porting' | 'validation' | 'maintenance' | 're_porting' | 'egress' | 'storage' | 'delay';

/** `traincost schema --format json` */
export interface Schema {
  scenario_format: number;
  fields: Array<{
    path: string;
    /** Short name for forms and charts: "MFU" */
    label: string;
    unit: string;
    min: number;
    max: number | null;
    min_exclusive: boolean;
    integer: boolean;
    range: string;
    default: string;
    meaning: string;
    typical: string;
    /** Its default's key in the catalog's "defaults" (a row of the site's data page), or null. */
    catalog_default: string | null;
  }>;
  /** The parts of a run's cost: the keys of breakdown_per_run_usd, in order. */
  cost_parts: Array<{
    key: CostPartKey;
    label: string;
    meaning: string;
    /** Paid by every run, or once over the horizon (a run's share is it ÷ runs). */
    recurrence: 'per_run' | 'fixed';
    /** The quantity of its formula in explain(). */
    formula: string;
    /** Its symbol in the formulas: "Hc". */
    symbol: string;
  }>;
  /** The cost per run in the parts' symbols: "total = (Hc + Hk + E + Dl) + (Op + Ov + Mt + Rp) / runs". */
  total_formula: string;
  /** The parts of a step's time (the performance's breakdown_s). */
  step_parts: Array<{ key: string; label: string }>;
}

/** `traincost replay --format json` */
export interface ReplaySummary {
  runs: number;
  median_abs_error: number;
  worst_abs_error: number;
  worst_run: string;
}
export interface Replay {
  summary: { all: ReplaySummary; calibration: ReplaySummary; held_out: ReplaySummary };
  split_rule: string;
  runs: Array<{
    id: string;
    name: string;
    org: string;
    year: number;
    chip: string;
    set: 'calibration' | 'held_out';
    status: 'replayed' | 'no_duration' | 'no_tokens' | 'no_chips' | 'no_layout';
    /** Published chip-hours compared with: stated, or stated wall-clock × chips */
    compared_chip_hours: number | null;
    realized_mfu: number | null;
    /** predicted / published chip-hours − 1 */
    error: number | null;
    predicted: {
      instance: string;
      instances: number;
      chip_hours: number;
      wall_clock_days: number;
      step_mfu: number;
      goodput: number;
      layout: string;
    } | null;
    [key: string]: unknown;
  }>;
}

export interface Version {
  traincost: string;
  catalog: string;
  scenario_format: number;
  link_format: number;
}

/** Cost of every option for every workload, the verdicts and the portfolio. */
export function evaluate(scenario: Scenario): Evaluation;
/** Sensitivity and Monte Carlo: how sure the verdict is. */
export function analyze(scenario: Scenario, options?: AnalyzeOptions | string): Analysis;
/** What a pilot must show, what it costs, and whether it is worth running before deciding. */
export function pilot(scenario: Scenario, options?: PilotOptions | string): PilotPlan;
/** Cost per run and days until the model is done over cluster sizes, per option. */
export function sweep(scenario: Scenario, options?: SweepOptions | string): Sweep;
export interface CardOptions {
  /** "html" (default): one <figure> with inline styles; "svg": an image. */
  format?: 'html' | 'svg';
  /** The calculator page the card links to (default "calculator.html"): an http(s) address or a relative path. */
  url?: string;
  /** HTML only. "inline" (default): style attributes; "none": class names alone, for a page that styles the card itself (a Content-Security-Policy without inline styles). */
  styles?: 'inline' | 'none';
}
export interface Card {
  format: 'html' | 'svg';
  /** The card: HTML or SVG text, every text escaped, no script. */
  card: string;
  /** "#s=1.…": the scenario's share link. */
  link: string;
}
/** A static card of the answer (verdict, headline, results table, link) for wikis without scripts or iframes. */
export function card(scenario: Scenario, options?: CardOptions | string): Card;
export interface CompareOptions {
  /** The target in tokens (default: the workload's own; required for a Hugging Face config). */
  tokens?: number;
  /** Every row on this many instances (else `chips`, else each sized to finish within 30 days). */
  instances?: number;
  /** Every row on the fewest instances with at least this many chips. */
  chips?: number;
  /** "cost" (compute-only $ per M tokens, default), "time" or "throughput". */
  sort?: 'cost' | 'time' | 'throughput';
  /** With a scenario: the workload compared (default 0). */
  workload?: number;
}
export interface CompareRow {
  label: string;
  instance: string;
  provider: string;
  region: string;
  chip: string;
  pricing: 'on_demand' | 'reserved_1yr' | 'reserved_3yr' | 'spot' | 'capacity_block';
  price_usd_per_instance_hour: number;
  price_usd_per_chip_hour: number;
  price_estimate: boolean;
  instances: number;
  chips: number;
  feasible: boolean;
  status: string;
  mfu: number | null;
  tokens_per_sec_per_chip: number | null;
  wall_clock_hours: number | null;
  hardware_cost_per_run_usd: number | null;
  /** Compute only: hardware per run per million target tokens (no one-time costs). */
  compute_cost_per_million_tokens_usd: number | null;
  evidence: 'validated' | 'predicted' | 'estimate';
  error_median: number;
  estimate_reasons: string[];
  /** The row as the CLI's table shows it, one cell per `columns` entry. */
  cells: string[];
}
export interface Comparison {
  traincost_version: string;
  workload: string;
  params: number;
  target_tokens: number;
  size: string;
  sort: 'cost' | 'time' | 'throughput';
  columns: string[];
  rows: CompareRow[];
}
/** One model on every catalog instance and pricing (`traincost compare --format json`). model: a scenario,
 *  a Hugging Face config.json, or a workload preset's name as plain text. */
export function compare(model: Scenario | Record<string, unknown> | string, options?: CompareOptions | string): Comparison;
/** Every formula with the scenario's numbers substituted. */
export function explain(scenario: Scenario): Explanation;
/** The share link of a scenario. */
export function encodeLink(scenario: Scenario): Link;
/** The scenario in a share link (the payload, s=…, #s=… or a whole address). */
export function decodeLink(link: string): DecodedLink;
/** A model block from a Hugging Face config.json (object or text). */
export function importHf(config: Record<string, unknown> | string): Record<string, unknown>;
/** The built-in hardware catalog (assets/catalog.json): every figure with its source and date. */
export function catalog(): Record<string, unknown>;
/** Every numeric scenario field: unit, valid range, default, meaning. */
export function schema(): Schema;
/** Published training runs (assets/published_runs.json) replayed with TrainCost's defaults. */
export function replay(): Replay;
/** A pilot's training log read (`traincost pilot-results` reads it the same way). */
export function readLog(log: string): Record<string, unknown>;
export const version: Version;
export const ready: Promise<TrainCost>;

export interface TrainCost {
  ScenarioError: typeof ScenarioError;
  evaluate: typeof evaluate;
  analyze: typeof analyze;
  pilot: typeof pilot;
  sweep: typeof sweep;
  card: typeof card;
  explain: typeof explain;
  encodeLink: typeof encodeLink;
  decodeLink: typeof decodeLink;
  importHf: typeof importHf;
  catalog: typeof catalog;
  schema: typeof schema;
  replay: typeof replay;
  readLog: typeof readLog;
  version: Version;
  ready: Promise<TrainCost>;
}
declare const traincost: TrainCost;
export default traincost;
