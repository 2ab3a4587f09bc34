// Properties that must hold for every valid scenario, checked over a few hundred random ones.
//
// The scenarios come from a seeded generator built on the core's own Random (xoshiro256**), so
// the cases are the same natively and under WebAssembly, and a failure names the case and prints
// its JSON. Every comparison is exact (<=, ==) where the arithmetic is monotone: IEEE rounding
// never reverses the order of two results computed by the same sequence of +, ×, ÷ on inputs
// that moved the same way. Only the break-even point, a quotient of differences, gets a
// relative tolerance.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/base/detmath.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/model/formulas.hpp"
#include "traincost/io/link.hpp"
#include "traincost/base/random.hpp"
#include "traincost/engine/uncertainty.hpp"

namespace traincost {
namespace {

constexpr int kCases = 300;

class Generator {
 public:
  explicit Generator(uint64_t seed) : rng_(seed) {}

  double uniform(double low, double high) { return uniform_quantile(low, high, rng_.uniform()); }
  double log_uniform(double low, double high) { return det::exp(uniform(det::log(low), det::log(high))); }
  int integer(int low, int high) {  // inclusive
    return low + static_cast<int>(rng_.next() % static_cast<uint64_t>(high - low + 1));
  }
  bool chance(double p) { return rng_.uniform() < p; }
  template <typename T>
  const T& pick(const std::vector<T>& items) {
    return items[static_cast<size_t>(integer(0, static_cast<int>(items.size()) - 1))];
  }

  Scenario scenario(int index) {
    const Catalog& catalog = builtin_catalog();
    Scenario s;
    s.name = "random scenario " + std::to_string(index);
    const int n_options = integer(2, 4);
    for (int i = 0; i < n_options; ++i) s.options.push_back(option(catalog, i));
    s.reference = integer(0, n_options - 1);
    const int n_workloads = integer(1, 3);
    for (int w = 0; w < n_workloads; ++w) s.workloads.push_back(workload(n_options));

    // Ranges on a few inputs, so links and the analysis carry them too.
    if (chance(0.5)) {
      const int o = integer(0, n_options - 1);
      if (!s.options[static_cast<size_t>(o)].measured_tokens_per_sec_per_chip)
        s.ranges.push_back({"options[" + std::to_string(o) + "].mfu", uniform(0.1, 0.3), uniform(0.3, 0.7),
                            chance(0.5) ? Distribution::Triangular : Distribution::Uniform});
    }
    if (chance(0.4))
      s.ranges.push_back({"options[" + std::to_string(integer(0, n_options - 1)) + "].porting.engineer_weeks",
                          uniform(1, 4), uniform(6, 30), Distribution::LogNormal});
    if (chance(0.4)) {
      const double runs = s.workloads[0].runs;
      s.ranges.push_back({"workloads[0].runs", std::max(1.0, runs * 0.5), runs * 2, Distribution::Uniform});
    }
    s.analysis.seed = rng_.next() >> 12;  // below 2^53: the format's limit
    s.analysis.default_ranges = chance(0.7);
    return s;
  }

 private:
  Option option(const Catalog& catalog, int i) {
    Option o;
    o.label = "option " + std::to_string(i);
    if (chance(0.15)) {
      o.instance = "custom";
      CustomInstance c;
      c.chips = pick(std::vector<int>{1, 8, 16});
      c.peak_tflops = uniform(100, 2500);
      c.memory_gb = uniform(24, 192);
      c.family = chance(0.5) ? Family::Trainium : Family::Nvidia;
      o.custom = c;
      o.mfu = uniform(0.15, 0.6);
      o.price_usd_per_hour = uniform(1, 10) * c.chips;
    } else {
      const Instance& inst = catalog.instances[static_cast<size_t>(integer(0, static_cast<int>(catalog.instances.size()) - 1))];
      o.instance = inst.id;
      std::vector<PricingModel> priced;
      for (int m = 0; m < kPricingModels; ++m)
        if (inst.prices[static_cast<size_t>(m)].present()) priced.push_back(static_cast<PricingModel>(m));
      o.pricing = pick(priced);
      const Chip* chip = catalog.find_chip(inst.chip);
      if (chip && chip->fp8_tflops.present() && chance(0.3)) o.precision = Precision::FP8;
      if (chance(0.5)) o.mfu = uniform(0.15, 0.6);
      if (chance(0.2)) o.price_usd_per_hour = uniform(1, 15) * inst.chips;
    }
    o.instances = integer(1, 64);
    if (chance(0.3)) o.discount = uniform(0, 0.4);
    if (chance(0.15)) {
      o.measured_tokens_per_sec_per_chip = log_uniform(100, 20000);
      o.mfu.reset();
    }
    if (chance(0.3)) {
      o.scaling_reference_chips = log_uniform(8, 256);
      o.scaling_per_doubling = uniform(0.9, 1);
    }
    if (chance(0.3)) {
      o.reliability.mtbf_hours_per_instance = log_uniform(500, 50000);
      o.reliability.checkpoint_write_minutes = uniform(0.5, 10);
      o.reliability.restart_minutes = uniform(0, 30);
    }
    if (chance(0.5)) o.porting.engineer_weeks = uniform(0, 30);
    if (chance(0.3)) o.porting.convergence_penalty = uniform(0, 0.1);
    if (chance(0.3)) o.porting.compile_hours_per_run = uniform(0, 3);
    if (chance(0.3)) o.porting.maintenance_usd_per_year = uniform(0, 60000);
    if (chance(0.2)) {
      o.porting.egress_tb_per_run = uniform(0, 50);
      o.porting.egress_usd_per_tb = uniform(20, 120);
    }
    return o;
  }

  Workload workload(int n_options) {
    Workload w;
    w.model.params = log_uniform(1e8, 2e11);
    if (chance(0.2)) w.model.active_params = w.model.params * uniform(0.1, 1);
    if (chance(0.6)) {
      w.model.layers = integer(8, 96);
      w.model.hidden = 128 * integer(8, 96);
      w.model.heads = integer(8, 96);
      w.model.seq_len = pick(std::vector<int>{2048, 4096, 8192});
    }
    const int kind = integer(0, 2);
    if (kind == 0) {
      w.target.kind = TargetKind::Tokens;
      w.target.tokens = log_uniform(1e9, 2e12);
    } else if (kind == 1) {
      w.target.kind = TargetKind::Steps;
      w.target.steps = std::round(log_uniform(1e3, 1e5));
      w.target.tokens_per_step = std::round(log_uniform(5e5, 4e6));
    } else {
      w.target.kind = TargetKind::Loss;
      w.target.law = chance(0.5) ? ScalingLawKind::Hoffmann2022 : ScalingLawKind::Besiroglu2024;
      const double floor = loss_floor(scaling_law_constants(w.target.law, {}), w.model.active());
      w.target.loss = floor + uniform(0.05, 0.6);
    }
    w.recompute = chance(0.4);
    w.memory.tensor_parallel = pick(std::vector<int>{1, 1, 8});
    if (chance(0.3)) w.memory.micro_batch = integer(1, 4);
    if (chance(0.2)) w.memory.flash_attention = false;
    w.runs = chance(0.3) ? 1 : std::round(uniform(1, 50) * 4) / 4;
    w.horizon_months = integer(6, 36);
    if (chance(0.3)) {
      WorkloadOverride ov;
      ov.option = integer(0, n_options - 1);
      ov.costs.engineer_weeks = uniform(0, 20);
      w.overrides.push_back(ov);
    }
    return w;
  }

  Random rng_;
};

// The random scenarios, made once; each is checked to be valid (else the generator is wrong).
const std::vector<Scenario>& scenarios() {
  static const std::vector<Scenario> all = [] {
    std::vector<Scenario> out;
    Generator g(20261130);
    for (int i = 0; i < kCases; ++i) out.push_back(g.scenario(i));
    return out;
  }();
  return all;
}

std::string describe(size_t index, const Scenario& s) {
  return "case " + std::to_string(index) + ": " + scenario_to_json(s, JsonForm::Minimal).dump();
}

std::vector<double> numbers(const OptionResult& r) {
  return {r.tokens,          r.flops_per_token,   r.training_flops,  r.chips,           r.scaling_efficiency,
          r.cluster_flops_per_sec, r.tokens_per_sec, r.compute_hours, r.checkpoint_interval_hours, r.goodput,
          r.training_hours,  r.wall_clock_hours,  r.chip_hours,      r.instance_hours,  r.price_usd_per_hour,
          r.compute_cost,    r.compile_cost,      r.hardware_cost_per_run, r.porting_cost, r.validation_cost,
          r.one_time_cost,   r.maintenance_cost,  r.egress_cost_per_run, r.fixed_cost,  r.per_run_cost,
          r.cost_per_run,    r.cost_per_million_tokens, r.horizon_cost, r.annual_cost,
          r.memory.state_bytes, r.memory.bytes_per_chip, r.memory.usable_bytes_per_chip, r.memory.min_instances,
          r.savings_vs_reference, r.wall_clock_ratio_vs_reference};
}

TEST(Invariants, GeneratedScenariosAreValid) {
  for (size_t i = 0; i < scenarios().size(); ++i) {
    const Problems problems = validate(scenarios()[i], builtin_catalog());
    EXPECT_TRUE(problems.empty()) << describe(i, scenarios()[i]) << "\n" << to_string(problems);
  }
}

TEST(Invariants, EveryOutputOfAnOptionThatCanRunIsFinite) {
  // An option that cannot run (no layout fits, the batch cannot be spread) has its figures
  // withheld wherever they are shown; the others must all be finite.
  int feasible = 0, pairs = 0;
  for (size_t i = 0; i < scenarios().size(); ++i) {
    const Scenario& s = scenarios()[i];
    const Results res = test::run(s);
    for (const WorkloadResult& w : res.workloads) {
      ASSERT_TRUE(std::isfinite(w.target_tokens)) << describe(i, s);
      const bool reference_runs = w.options[static_cast<size_t>(s.reference)].feasible();
      for (const OptionResult& r : w.options) {
        ++pairs;
        if (!r.feasible()) continue;
        ++feasible;
        std::vector<double> values = numbers(r);
        if (!reference_runs) values.resize(values.size() - 2);  // savings and time against a reference that cannot run: n/a
        for (const double v : values) ASSERT_TRUE(std::isfinite(v)) << describe(i, s);
        EXPECT_GT(r.cost_per_run, 0) << describe(i, s);
      }
      if (w.comparison.runner_up >= 0) {
        EXPECT_TRUE(std::isfinite(w.comparison.savings)) << describe(i, s);
        EXPECT_GE(w.comparison.savings, 0) << describe(i, s);
      }
    }
    for (size_t o = 0; o < res.portfolio.single_option_annual.size(); ++o) {
      if (!res.portfolio.single_option_feasible[o]) continue;
      EXPECT_TRUE(std::isfinite(res.portfolio.single_option_annual[o])) << describe(i, s);
    }
  }
  EXPECT_GT(feasible, pairs / 2);  // the generator mostly makes jobs that can run
}

// Cost per run of every (workload, option) pair; NaN for a pair that cannot run (the comparisons
// below then hold vacuously: a job that cannot run has no cost to compare).
std::vector<std::vector<double>> costs(const Scenario& s) {
  std::vector<std::vector<double>> out;
  for (const WorkloadResult& w : test::run(s).workloads) {
    out.emplace_back();
    for (const OptionResult& r : w.options) out.back().push_back(r.feasible() ? r.cost_per_run : NAN);
  }
  return out;
}
bool comparable(double a, double b) { return !std::isnan(a) && !std::isnan(b); }

// Each monotonicity test below counts the comparisons it made (a pair that cannot run on either
// side is skipped) and requires at least this share of the ones it would make were every pair
// able to run, so that it cannot pass by comparing nothing. With the 300 generated scenarios it
// makes about 90% of them: 1,291 of 1,412 for the MFU, 1,553 of 1,729 for price, discount and runs.
constexpr double kMinComparedShare = 0.5;

TEST(Invariants, MoreMfuNeverCostsMore) {
  int compared = 0, unchanged = 0, possible = 0;
  for (size_t i = 0; i < scenarios().size(); ++i) {
    const Scenario& s = scenarios()[i];
    const ResolvedScenario r = resolve(s, builtin_catalog());
    for (size_t o = 0; o < s.options.size(); ++o) {
      if (s.options[o].measured_tokens_per_sec_per_chip) continue;  // mfu has no effect there
      // A stated MFU (a predicted one differs by workload: the highest), then 10% more.
      double mfu = 0;
      for (const WorkloadInputs& w : r.workloads) mfu = std::max(mfu, w.options[o].mfu);
      if (!(mfu > 0) || mfu * 1.1 > 1) continue;
      Scenario stated = s;
      stated.options[o].mfu = mfu;
      Scenario faster = s;
      faster.options[o].mfu = mfu * 1.1;
      const auto before = costs(stated), after = costs(faster);
      for (size_t w = 0; w < s.workloads.size(); ++w) {
        ++possible;
        if (comparable(after[w][o], before[w][o])) {
          EXPECT_LE(after[w][o], before[w][o]) << "option " << o << ", " << describe(i, s);
          ++compared;
        }
        for (size_t other = 0; other < s.options.size(); ++other) {
          if (other == o || !comparable(after[w][other], before[w][other])) continue;
          EXPECT_EQ(after[w][other], before[w][other]) << describe(i, s);
          ++unchanged;
        }
      }
    }
  }
  std::printf("MoreMfuNeverCostsMore: %d of %d pairs compared, %d others unchanged\n", compared, possible, unchanged);
  EXPECT_GE(compared, kMinComparedShare * possible);
  EXPECT_GE(unchanged, compared / 2);  // most scenarios have another option to hold still
}

TEST(Invariants, AHigherPriceNeverCostsLess) {
  int dearer_compared = 0, discount_compared = 0, possible = 0;
  for (size_t i = 0; i < scenarios().size(); ++i) {
    const Scenario& s = scenarios()[i];
    const ResolvedScenario r = resolve(s, builtin_catalog());
    const auto before = costs(s);
    for (size_t o = 0; o < s.options.size(); ++o) {
      Scenario dearer = s;
      dearer.options[o].price_usd_per_hour = r.workloads[0].options[o].price_usd_per_hour * 1.25;
      const auto after = costs(dearer);
      possible += static_cast<int>(s.workloads.size());
      for (size_t w = 0; w < s.workloads.size(); ++w)
        if (comparable(after[w][o], before[w][o])) {
          EXPECT_GE(after[w][o], before[w][o]) << "option " << o << ", " << describe(i, s);
          ++dearer_compared;
        }
      Scenario discounted = s;
      discounted.options[o].discount = std::min(0.95, s.options[o].discount + 0.1);
      const auto cheaper = costs(discounted);
      for (size_t w = 0; w < s.workloads.size(); ++w)
        if (comparable(cheaper[w][o], before[w][o])) {
          EXPECT_LE(cheaper[w][o], before[w][o]) << "option " << o << ", " << describe(i, s);
          ++discount_compared;
        }
    }
  }
  std::printf("AHigherPriceNeverCostsLess: %d (price) and %d (discount) of %d pairs compared\n", dearer_compared, discount_compared,
              possible);
  EXPECT_GE(dearer_compared, kMinComparedShare * possible);
  EXPECT_GE(discount_compared, kMinComparedShare * possible);
}

TEST(Invariants, MoreRunsNeverRaiseTheAmortizedCostPerRun) {
  int compared = 0, possible = 0;
  for (size_t i = 0; i < scenarios().size(); ++i) {
    const Scenario& s = scenarios()[i];
    const auto before = costs(s);
    for (size_t w = 0; w < s.workloads.size(); ++w) {
      Scenario more = s;
      more.workloads[w].runs = s.workloads[w].runs * 2 + 1;
      const auto after = costs(more);
      possible += static_cast<int>(s.options.size());
      for (size_t o = 0; o < s.options.size(); ++o)
        if (comparable(after[w][o], before[w][o])) {
          EXPECT_LE(after[w][o], before[w][o]) << "workload " << w << " option " << o << ", " << describe(i, s);
          ++compared;
        }
    }
  }
  std::printf("MoreRunsNeverRaiseTheAmortizedCostPerRun: %d of %d pairs compared\n", compared, possible);
  EXPECT_GE(compared, kMinComparedShare * possible);
}

// Cumulative cost of n runs: fixed + n × per_run, the lines the break-even chart draws.
double cumulative(const OptionResult& r, double n) { return r.fixed_cost + n * r.per_run_cost; }

// `b` says where A's line crosses B's; check the lines agree at run counts around it.
void expect_consistent(const OptionResult& a, const OptionResult& b, const Breakeven& be, const std::string& where) {
  auto cheaper_or_equal = [&](double n) {  // A costs no more than B after n runs (up to rounding)
    const double ca = cumulative(a, n), cb = cumulative(b, n);
    return ca <= cb + 1e-9 * std::max(std::fabs(ca), std::fabs(cb));
  };
  auto dearer_or_equal = [&](double n) {
    const double ca = cumulative(a, n), cb = cumulative(b, n);
    return ca >= cb - 1e-9 * std::max(std::fabs(ca), std::fabs(cb));
  };
  std::vector<double> ns = {1, 2, 3, 5, 10, 100, 1e4, 1e6};
  if (be.kind == BreakevenKind::AtRuns || be.kind == BreakevenKind::UntilRuns) {
    ASSERT_GT(be.runs, 1) << where;
    ASSERT_TRUE(std::isfinite(be.runs)) << where;
    for (double n : {std::floor(be.runs), std::ceil(be.runs), be.runs * 0.5, be.runs * 2, be.runs - 0.5, be.runs + 0.5})
      if (n >= 1) ns.push_back(n);
    // At the crossing both lines meet.
    const double ca = cumulative(a, be.runs), cb = cumulative(b, be.runs);
    EXPECT_NEAR(ca, cb, 1e-9 * std::max(ca, cb)) << where;
  }
  for (double n : ns) {
    // Which line must be lower after n runs: A (+1), B (-1), or either (0, at the crossing).
    int a_wins = 0;
    switch (be.kind) {
      case BreakevenKind::FromFirstRun: a_wins = 1; break;
      case BreakevenKind::Never: a_wins = -1; break;
      case BreakevenKind::AtRuns: a_wins = n < be.runs ? -1 : n > be.runs ? 1 : 0; break;
      case BreakevenKind::UntilRuns: a_wins = n < be.runs ? 1 : n > be.runs ? -1 : 0; break;
    }
    if (a_wins > 0) {
      EXPECT_TRUE(cheaper_or_equal(n)) << where << " at " << n << " runs";
    } else if (a_wins < 0) {
      EXPECT_TRUE(dearer_or_equal(n)) << where << " at " << n << " runs";
    }
  }
}

TEST(Invariants, BreakevenIsWhereTheCumulativeLinesCross) {
  int crossings = 0;
  for (size_t i = 0; i < scenarios().size(); ++i) {
    const Scenario& s = scenarios()[i];
    const Results res = test::run(s);
    for (size_t w = 0; w < res.workloads.size(); ++w) {
      const WorkloadResult& wr = res.workloads[w];
      const std::string where = "workload " + std::to_string(w) + ", " + describe(i, s);
      const Comparison& c = wr.comparison;
      if (c.cheapest >= 0 && c.runner_up >= 0) {
        const OptionResult& a = wr.options[static_cast<size_t>(c.cheapest)];
        const OptionResult& b = wr.options[static_cast<size_t>(c.runner_up)];
        expect_consistent(a, b, c.breakeven, "cheapest vs runner-up, " + where);
        // The cheapest per run at the expected runs is the cheaper line at that run count.
        const double runs = s.workloads[w].runs;
        EXPECT_LE(cumulative(a, runs), cumulative(b, runs) * (1 + 1e-12)) << where;
        crossings += c.breakeven.kind == BreakevenKind::AtRuns || c.breakeven.kind == BreakevenKind::UntilRuns;
      }
      const OptionResult& ref = wr.options[static_cast<size_t>(s.reference)];
      for (size_t o = 0; o < wr.options.size(); ++o)
        if (ref.feasible() && wr.options[o].feasible())
          expect_consistent(wr.options[o], ref, wr.options[o].vs_reference, "option " + std::to_string(o) + " vs reference, " + where);
    }
  }
  EXPECT_GT(crossings, 10);  // the generator makes real crossings, not only trivial cases
}

TEST(Invariants, JsonTextReadsBackToTheSameScenario) {
  for (size_t i = 0; i < scenarios().size(); ++i) {
    const Scenario& s = scenarios()[i];
    const std::string canonical = scenario_to_json(s).dump();
    for (const std::string& text : {scenario_to_text(s), scenario_to_json(s, JsonForm::Minimal).dump()}) {
      Problems problems;
      const std::optional<Scenario> back = parse_scenario(text, builtin_catalog(), problems);
      ASSERT_TRUE(back) << describe(i, s) << "\n" << to_string(problems);
      EXPECT_EQ(scenario_to_json(*back).dump(), canonical) << describe(i, s);
    }
  }
}

TEST(Invariants, LinkRoundTripIsTheIdentity) {
  for (size_t i = 0; i < scenarios().size(); ++i) {
    const Scenario& s = scenarios()[i];
    const std::string link = encode_link(s);
    Problems problems;
    const std::optional<Scenario> back = decode_link("#s=" + link, builtin_catalog(), problems);
    ASSERT_TRUE(back) << describe(i, s) << "\n" << to_string(problems);
    EXPECT_EQ(scenario_to_json(*back).dump(), scenario_to_json(s).dump()) << describe(i, s);
    EXPECT_EQ(encode_link(*back), link) << describe(i, s);
  }
}

// The analysis of every tenth scenario, with few samples: probabilities are probabilities and
// every percentile of a cost is a finite, positive number.
TEST(Invariants, AnalysisGivesProbabilitiesAndFinitePercentiles) {
  for (size_t i = 0; i < scenarios().size(); i += 10) {
    const Scenario& s = scenarios()[i];
    AnalyzeOptions options;
    options.samples = 200;
    options.seed = s.analysis.seed;
    const Analysis a = analyze(s, builtin_catalog(), options);
    const MonteCarlo& mc = a.monte_carlo;
    ASSERT_EQ(mc.options.size(), s.options.size()) << describe(i, s);
    double total = static_cast<double>(mc.infeasible_samples) / mc.samples;
    for (const OptionStats& st : mc.options) {
      EXPECT_GE(st.probability_cheapest, 0) << describe(i, s);
      EXPECT_LE(st.probability_cheapest, 1) << describe(i, s);
      total += st.probability_cheapest;
      if (st.probability_feasible == 1) {
        EXPECT_TRUE(std::isfinite(st.cost_per_run.p95)) << describe(i, s);
        EXPECT_GT(st.cost_per_run.p5, 0) << describe(i, s);
        EXPECT_LE(st.cost_per_run.p5, st.cost_per_run.p50) << describe(i, s);
        EXPECT_LE(st.cost_per_run.p50, st.cost_per_run.p95) << describe(i, s);
      }
    }
    EXPECT_NEAR(total, 1.0, 1e-12) << describe(i, s);
  }
}

// A loss range reaching just above the floor of a steep custom law samples targets of 1e300
// tokens: finite, but their FLOPs overflow, and the cost came out NaN (0 validation runs ×
// infinity) while the option still counted as feasible, which corrupted the percentiles (NaN
// breaks nth_element's ordering). Such samples are now infeasible, so the statistics stay
// consistent: with one workload, cheapest per run and cheapest over the horizon are one event.
TEST(Invariants, AnOverflowingSampledTargetIsInfeasibleNotNaN) {
  const Scenario s = test::scenario(R"({"version":1,
    "workloads":[{"model":{"params":8e9},"target":{"loss":2.8583,"scaling_law":{"E":1.7,"A":400,"B":1,"alpha":0.34,"beta":0.001}}}],
    "options":[{"label":"A","instance":"p5.48xlarge"},{"label":"B","instance":"trn2.48xlarge"}],
    "ranges":[{"input":"workloads[0].target.loss","low":1.9683,"high":2.8683,"dist":"uniform"}],
    "analysis":{"default_ranges":false}})");
  AnalyzeOptions options;
  options.samples = 2000;
  const MonteCarlo mc = analyze(s, builtin_catalog(), options).monte_carlo;
  for (const OptionStats& st : mc.options) {
    EXPECT_EQ(st.probability_cheapest, st.probability_cheapest_horizon);
    EXPECT_LT(st.probability_feasible, 1.0);  // the overflowing samples are infeasible
    for (const double v : {st.cost_per_run.p5, st.cost_per_run.p50, st.cost_per_run.p95}) EXPECT_FALSE(std::isnan(v));
    EXPECT_LE(st.cost_per_run.p5, st.cost_per_run.p50);
  }
  for (const double v : {mc.breakeven_runs.p5, mc.breakeven_runs.p50, mc.breakeven_runs.p95}) EXPECT_FALSE(std::isnan(v));
}

// The Monte Carlo percentiles come from sample_quantiles, which finds order statistics through
// sample-based brackets above 4,096 values: they must be exactly what sorting gives, for smooth
// data as for ties, infinities and constant vectors (the cases where a bracket can miss).
TEST(Invariants, SampleQuantilesAreExactOrderStatistics) {
  Random rng(99);
  const double inf = std::numeric_limits<double>::infinity();
  for (const size_t n : {size_t{1}, size_t{2}, size_t{4097}, size_t{20000}, size_t{100000}}) {
    for (int kind = 0; kind < 6; ++kind) {
      std::vector<double> v(n);
      for (size_t j = 0; j < n; ++j) {
        const double u = rng.uniform();
        switch (kind) {
          case 0: v[j] = u * 1e6; break;                                    // smooth
          case 1: v[j] = std::floor(u * 5); break;                          // five values
          case 2: v[j] = u < 0.3 ? inf : u; break;                          // 30% infeasible
          case 3: v[j] = 1.0; break;                                        // constant
          case 4: v[j] = u < 0.97 ? 1.0 : u < 0.99 ? inf : 2 + u; break;   // break-evens: mostly 1
          default: v[j] = j % 32 == 0 ? 0 : 1 + u; break;  // the sample sees only zeros: brackets miss
        }
      }
      std::vector<double> sorted = v;
      std::sort(sorted.begin(), sorted.end());
      const std::initializer_list<double> qs = {0.005, 0.05, 0.5, 0.95, 0.995};
      const std::vector<double> got = sample_quantiles(v, qs);
      size_t i = 0;
      for (const double q : qs) {
        // The definition: linear interpolation between the order statistics around q × (n - 1).
        const double pos = q * static_cast<double>(n - 1);
        const size_t k = static_cast<size_t>(pos);
        const double frac = pos - static_cast<double>(k), a = sorted[k];
        double expected = a;
        if (frac != 0 && k + 1 < n) {
          const double b = sorted[k + 1];
          expected = (a == b || std::isinf(b)) ? b : a + frac * (b - a);
        }
        EXPECT_EQ(got[i++], expected) << "n " << n << ", kind " << kind << ", q " << q;
      }
    }
  }
}

}  // namespace
}  // namespace traincost
