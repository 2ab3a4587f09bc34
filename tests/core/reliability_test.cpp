// The goodput model with the catalog's sourced defaults: Llama 3's 16,384 H100, the ends of the
// scale, overrides and the sensitivity the explain text prints.
#include "traincost/api/builtin.hpp"
#include "traincost/engine/reliability.hpp"

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/engine/evaluate.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/scenario/fields.hpp"
#include "traincost/engine/uncertainty.hpp"
#include "traincost/model/formulas.hpp"

namespace traincost {
namespace {

// A 405B dense model (Llama 3) on `instances` p5.48xlarge (8 H100 each), with the option's extra
// JSON fields.
struct Pair {
  Scenario scenario;
  ResolvedScenario resolved;
  const Workload& workload() const { return resolved.workloads[0]; }
  const PairInputs& inputs() const { return resolved.workloads[0].options[0]; }
  GoodputTerms terms() const { return goodput_terms(workload(), inputs()); }
};
Pair on_p5(const char* params, int instances, const std::string& extra = "") {
  Pair p;
  p.scenario = test::scenario(test::simple_scenario(
      std::string(R"("model":{"params":)") + params + R"(},"target":{"tokens":15.6e12})",
      R"("instance":"p5.48xlarge","instances":)" + std::to_string(instances) + extra));
  p.resolved = resolve(p.scenario, builtin_catalog());
  return p;
}
Pair llama3_405b(int instances, const std::string& extra = "") { return on_p5("405e9", instances, extra); }

TEST(Goodput, Llama3On16384H100IsAboveNinetyPercentAsMetaReported) {
  const GoodputTerms t = llama3_405b(2048).terms();
  // M = 50,000 h per H100 / 8 per instance / 2,048 instances = 3.0518 h
  EXPECT_NEAR(t.cluster_mtbf_hours, 50000.0 / 8 / 2048, 1e-12);
  // B = 405e9 × 14 = 5.67e12 bytes, written by 2,048 instances at 1 GB/s: 2.77 s = 7.6904e-4 h
  EXPECT_DOUBLE_EQ(t.checkpoint_bytes, 5.67e12);
  EXPECT_NEAR(t.checkpoint_transfer_hours, 7.6904297e-4, 1e-10);
  // synchronous: the pause is the whole write
  EXPECT_DOUBLE_EQ(t.checkpoint_pause_hours, t.checkpoint_transfer_hours);
  // R = (10 + 0.55 × 5) / 60 + 7.6904e-4 = 0.2132690 h
  EXPECT_NEAR(t.restart_hours, 0.2132690, 1e-7);
  // τ (Daly, δ = 7.6904e-4, M = 3.0518): √(2 × 7.6904e-4 × 3.0518) = 0.068513;
  //   × (1 + √(1.26e-4)/3 + 1.26e-4/9) = × 1.003756 = 0.068770; − δ = 0.068001 h
  EXPECT_NEAR(t.checkpoint_interval_hours, 0.068001, 1e-5);
  // g = 0.068001 / 0.068770 / (1 + (0.213269 + 0.068770 / 2) / 3.0518) = 0.988817 / 1.081152 = 0.914596
  EXPECT_NEAR(t.goodput, 0.914596, 1e-5);
  // Meta: "more than 90% effective training time" over 54 days.
  EXPECT_GT(t.goodput, 0.90);
  EXPECT_LT(t.goodput, 0.95);
  // The per-chip MTBF is Llama 3's own: 54 days × 24 h / M = 425 failures against the 419 reported.
  EXPECT_NEAR(54 * 24 / t.cluster_mtbf_hours, 419, 0.02 * 419);
}

TEST(Goodput, StaysSensibleFromAHundredToAHundredThousandChips) {
  // An 8B model on 104 chips (13 instances): M = 480 h, a 112 GB checkpoint in 8.6 s; goodput
  // near 1.
  EXPECT_GT(on_p5("8e9", 13).terms().goodput, 0.99);
  // Even a 405B model there loses only ~2%: its 5.7 TB checkpoint takes 7 minutes at 13 GB/s.
  EXPECT_GT(llama3_405b(13).terms().goodput, 0.97);
  // 100,000 chips (12,500 instances): a failure every 30 minutes, each costing ~13 minutes of
  // restart. M = 0.5 h, so g ≈ 1 / (1 + 0.2133/0.5 + ...) ≈ 0.67: much lower, still positive.
  const double huge = llama3_405b(12500).terms().goodput;
  EXPECT_GT(huge, 0.5);
  EXPECT_LT(huge, 0.8);
  // and it falls steadily in between
  double previous = 1;
  for (const int instances : {13, 125, 1250, 2048, 12500}) {
    const double g = llama3_405b(instances).terms().goodput;
    EXPECT_LT(g, previous) << instances;
    previous = g;
  }
}

TEST(Goodput, OverridesReplaceTheirDerivation) {
  const GoodputTerms t =
      llama3_405b(2048, R"(,"reliability":{"checkpoint_write_minutes":3,"restart_minutes":30,"checkpoint_interval_hours":1})").terms();
  EXPECT_DOUBLE_EQ(t.checkpoint_pause_hours, 0.05);
  EXPECT_DOUBLE_EQ(t.restart_hours, 0.5);
  EXPECT_DOUBLE_EQ(t.checkpoint_interval_hours, 1);
  // g = 1 / 1.05 / (1 + (0.5 + 1.05 / 2) / 3.0518) = 0.952381 / 1.335868 = 0.712932
  EXPECT_NEAR(t.goodput, 1 / 1.05 / (1 + (0.5 + 1.05 / 2) / (50000.0 / 8 / 2048)), 1e-12);
  // A restart of 0 minutes is a real value, not "derive it".
  EXPECT_DOUBLE_EQ(llama3_405b(2048, R"(,"reliability":{"restart_minutes":0})").terms().restart_hours, 0);
}

TEST(Goodput, AsynchronousCheckpointsAndInMemoryRecoveryLoseLess) {
  const double base = llama3_405b(2048).terms().goodput;
  const Pair async = llama3_405b(2048, R"(,"reliability":{"checkpoint_blocking_share":0.04})");
  EXPECT_NEAR(async.terms().checkpoint_pause_hours, 0.04 * async.terms().checkpoint_transfer_hours, 1e-15);
  EXPECT_GT(async.terms().goodput, base);
  EXPECT_GT(llama3_405b(2048, R"(,"reliability":{"lost_work_share":0.1})").terms().goodput, base);
  // Without a spare pool a replacement takes hours (OPT-175B): far lower.
  EXPECT_LT(llama3_405b(2048, R"(,"reliability":{"replacement_minutes":240})").terms().goodput, 0.6);
}

TEST(Goodput, SensitivitySpansTheCatalogRangesAndSkipsTheUsersOwnFigures) {
  const Pair p = llama3_405b(2048);
  const std::vector<GoodputSwing> swings =
      goodput_sensitivity(p.workload(), p.inputs(), p.scenario.options[0], builtin_catalog(), Family::Nvidia);
  const GoodputSwing* mtbf = nullptr;
  for (const GoodputSwing& s : swings)
    if (s.field == &fields::mtbf_hours_per_instance) mtbf = &s;
  ASSERT_TRUE(mtbf);
  // OPT-175B's failure rate: 13,600 GPU-hours = 1,700 h per 8-GPU instance.
  EXPECT_DOUBLE_EQ(mtbf->low, 1700);
  EXPECT_LT(mtbf->goodput_at_low, 0.8);
  EXPECT_GT(mtbf->goodput_at_high, p.terms().goodput);

  // The methodology page quotes these three.
  for (const GoodputSwing& s : swings) {
    const double quoted = s.field == &fields::mtbf_hours_per_instance ? s.goodput_at_low
                          : s.field == &fields::job_restart_minutes   ? s.goodput_at_high
                          : s.field == &fields::replacement_minutes   ? s.goodput_at_high
                                                                      : NAN;
    const double expected = s.field == &fields::mtbf_hours_per_instance ? 0.77 : s.field == &fields::job_restart_minutes ? 0.73 : 0.55;
    if (!std::isnan(quoted)) {
      EXPECT_NEAR(quoted, expected, 0.005) << s.field->path;
    }
  }

  const Pair own = llama3_405b(2048, R"(,"reliability":{"mtbf_hours_per_instance":5000})");
  for (const GoodputSwing& s : goodput_sensitivity(own.workload(), own.inputs(), own.scenario.options[0], builtin_catalog(),
                                                   Family::Nvidia))
    EXPECT_NE(s.field, &fields::mtbf_hours_per_instance);
}

TEST(Goodput, TheUncertaintyAnalysisVariesMtbfWhereFailuresCostTime) {
  auto has_mtbf_range = [](const Pair& p) {
    for (const RangedInput& in : ranged_inputs(p.scenario, p.resolved, builtin_catalog()))
      if (in.path == "options[0].reliability.mtbf_hours_per_instance") return in.default_range && in.low == 1700 && in.high == 8062.5;
    return false;
  };
  // 16,384 H100: goodput 91%, so MTBF ranges from 13,600 to 64,500 h per chip (÷ 8 per instance).
  EXPECT_TRUE(has_mtbf_range(llama3_405b(2048)));
  // 104 chips: failures cost under 3%; no range.
  EXPECT_FALSE(has_mtbf_range(on_p5("8e9", 13)));
}


// Spot reclaims (issue 29 item 4). Four p5en.48xlarge with the figures set by hand:
//   δ = 6 min = 0.1 h, R = 12 min = 0.2 h, M = 4,000 h per instance / 4 = 1,000 h, s = 1,
//   Λ₁ = 0.0025 per instance-hour: Λ = 4 × 0.0025 = 0.01 per hour of running,
//   capacity back in 0.8 h: R_spot = 0.8 + 0.2 = 1.0 h.
// Losses arrive at s/M + Λ = 0.001 + 0.01 = 0.011 per hour: Ms = 90.909 h.
// τ (Daly, δ = 0.1, Ms = 90.909): x = δ/(2 Ms) = 5.5e-4; √(2 × 0.1 × 90.909) = 4.264014;
//   × (1 + √x/3 + x/9) = × 1.0078786 = 4.297608; − δ = 4.197608 h.
// g = 4.197608 / 4.297608 / (1 + (0.2 + 4.297608/2)/1000 + 0.01 × (1.0 + 4.297608/2))
//   = 0.976731 / (1 + 0.002349 + 0.031488) = 0.944763.
// On-demand (Λ = 0): τ = √(2 × 0.1 × 1000)(1 + √5e-5/3 + 5e-5/9) − 0.1 = 14.075548 h,
//   g = 14.075548 / 14.175548 / (1 + (0.2 + 7.087774)/1000) = 0.985762.
// The unbilled wait: u = Λ × 0.8 × g × (τ + δ)/τ = 0.01 × 0.8 × 0.944763 × 1.023824 = 0.0077382.
std::string spot_option(const std::string& pricing, const std::string& reclaims, const std::string& instance = "p5en.48xlarge") {
  return R"("instance":")" + instance + R"(","instances":4,"pricing":")" + pricing +
         R"(","reliability":{"checkpoint_write_minutes":6,"restart_minutes":12,"mtbf_hours_per_instance":4000,"lost_work_share":1)" +
         (reclaims.empty() ? "" : R"(,"spot_interruptions_per_hour":)" + reclaims) + R"(,"spot_recovery_hours":0.8})";
}
ResolvedScenario resolved_with(const std::string& option) {
  return resolve(test::scenario(test::simple_scenario(R"("model":{"params":70e9},"target":{"tokens":1e12})", option)),
                 builtin_catalog());
}

TEST(Spot, ReclaimsLowerGoodputAsDerivedByHand) {
  const ResolvedScenario r = resolved_with(spot_option("spot", "0.0025"));
  const GoodputTerms t = goodput_terms(r.workloads[0], r.workloads[0].options[0]);
  EXPECT_DOUBLE_EQ(t.reclaims_per_hour, 0.01);
  EXPECT_NEAR(t.reclaim_restart_hours, 1.0, 1e-12);
  EXPECT_NEAR(t.mtbf_between_losses_hours, 90.909091, 1e-5);
  EXPECT_NEAR(t.checkpoint_interval_hours, 4.197608, 1e-5);
  EXPECT_NEAR(t.goodput, 0.944763, 1e-6);
  EXPECT_NEAR(t.reclaim_wait_share, 0.0077382, 1e-6);
  // The wait is in the wall clock but not in the bill.
  const Results res = evaluate(r);
  const OptionResult& o = res.workloads[0].options[0];
  EXPECT_NEAR(o.reclaim_wait_hours, o.training_hours * t.reclaim_wait_share, 1e-9 * o.training_hours);
  EXPECT_NEAR(o.compute_cost, (o.training_hours - o.reclaim_wait_hours) * 4 * o.price_usd_per_hour, 1e-9 * o.compute_cost);
  EXPECT_NEAR(o.reclaims, (o.training_hours - o.reclaim_wait_hours) * 0.01, 1e-9 * o.training_hours);
}

TEST(Spot, GoodputFallsWithTheReclaimRate) {
  double previous = 1;
  for (const char* rate : {"0", "0.0001", "0.001", "0.0025", "0.01"}) {
    const ResolvedScenario r = resolved_with(spot_option("spot", rate));
    const double g = goodput_terms(r.workloads[0], r.workloads[0].options[0]).goodput;
    EXPECT_LT(g, previous) << rate;
    previous = g;
  }
}

TEST(Spot, CapacityTheJobHoldsIsNotReclaimedAndReadsAsBefore) {
  // On-demand (like reserved and Capacity Blocks) defaults to no reclaims: the goodput of the hand case's Λ = 0.
  {
    const ResolvedScenario r = resolved_with(spot_option("on_demand", ""));
    const GoodputTerms t = goodput_terms(r.workloads[0], r.workloads[0].options[0]);
    EXPECT_EQ(t.reclaims_per_hour, 0);
    EXPECT_EQ(t.reclaim_wait_share, 0);
    EXPECT_NEAR(t.checkpoint_interval_hours, 14.075548, 1e-5);
    EXPECT_NEAR(t.goodput, 0.985762, 1e-6);
    // bit for bit the formula without reclaims
    EXPECT_EQ(t.goodput, goodput(t.checkpoint_interval_hours, 0.1, 0.2, 1, 1000));
  }
  // Spot without a figure, on a type the advisor snapshot does not list, takes the catalog's band
  // for the family: 0.000274 per instance-hour.
  const ResolvedScenario spot = resolved_with(spot_option("spot", "", "p6-b200.48xlarge"));
  EXPECT_DOUBLE_EQ(goodput_terms(spot.workloads[0], spot.workloads[0].options[0]).reclaims_per_hour, 4 * 0.000274);
}

// The catalog's per-type figures (instances[].defaults, AWS's Spot Instance Advisor feed of
// 2025-06-28, us-east-1 Linux) take the family's place. Same hand case as above (δ = 0.1 h,
// R = 0.2 h, M = 1,000 h, s = 1, R_spot = 1.0 h), four instances, the rate from the catalog:
//   p5en.48xlarge, band <5%: Λ₁ = 0.025 / 730 = 0.0000342; Λ = 0.0001368; Ms = 1/(0.001 + 0.0001368)
//     = 879.6622 h; x = 5.684e-5; √(2 × 0.1 × 879.6622) = 13.263953 × 1.0025194 − 0.1 = τ 13.197370;
//     g = (13.197370 / 13.297370) / (1 + (0.2 + 6.648685)/1000 + 0.0001368 × (1 + 6.648685))
//       = 0.9924797 / (1 + 0.0068487 + 0.0010463) = 0.984705.
//   p4d.24xlarge, band 10-15%: Λ₁ = 0.125 / 730 = 0.000171; Λ = 0.000684; Ms = 593.8242 h;
//     τ = 10.897929 × 1.0030680 − 0.1 = 10.831364; g = 0.9908520 / (1 + 0.0056657 + 0.0044225) = 0.980956.
//   p6-b200.48xlarge, not in the snapshot: the family's 0.000274; Λ = 0.001096; Ms = 477.0992 h;
//     τ = 9.768308 × 1.0034240 − 0.1 = 9.701755; g = 0.9897977 / (1 + 0.0051009 + 0.0064674) = 0.978478.
// Goodput falls as the type's band rises.
TEST(Spot, AnInstanceTypesOwnAdvisorBandTakesThePlaceOfTheFamilys) {
  struct Case {
    const char* instance;
    double per_instance_hour, goodput;
  };
  double previous = 1;
  for (const Case& c : {Case{"p5en.48xlarge", 0.0000342, 0.984705}, Case{"p4d.24xlarge", 0.000171, 0.980956},
                        Case{"p6-b200.48xlarge", 0.000274, 0.978478}}) {
    const ResolvedScenario r = resolved_with(spot_option("spot", "", c.instance));
    const GoodputTerms t = goodput_terms(r.workloads[0], r.workloads[0].options[0]);
    EXPECT_DOUBLE_EQ(t.reclaims_per_hour, 4 * c.per_instance_hour) << c.instance;
    EXPECT_NEAR(t.goodput, c.goodput, 1e-6) << c.instance;
    EXPECT_LT(t.goodput, previous) << c.instance;
    previous = t.goodput;
  }
  // The type's figure is the catalog's, sourced and dated; an instance without one has none.
  const Catalog& c = builtin_catalog();
  const Figure* p5en = c.default_for("spot_interruptions_per_instance_hour", "p5en.48xlarge", Family::Nvidia);
  ASSERT_NE(p5en, nullptr);
  EXPECT_EQ(p5en->source, "aws-spot-advisor-2025-06");
  EXPECT_EQ(p5en->as_of, "2025-06-28");
  EXPECT_EQ(c.default_for("spot_interruptions_per_instance_hour", "p6-b200.48xlarge", Family::Nvidia),
            c.defaults.find("spot_interruptions_per_instance_hour", Family::Nvidia));
}

TEST(Spot, TheCatalogRefusesAPerInstanceDefaultNoSourceGivesPerType) {
  std::string text = test::read_source_file("assets/catalog.json");
  const std::string anchor = R"("id": "p5.48xlarge",)";
  ASSERT_NE(text.find(anchor), std::string::npos);
  text.replace(text.find(anchor), anchor.size(),
               anchor + R"( "defaults": {"mtbf_hours_per_chip": {"value": 1, "source": "llama3", "as_of": "2024-07-23"}},)");
  Problems problems;
  EXPECT_FALSE(load_catalog(text, problems));
  bool named = false;
  for (const Problem& p : problems) named |= p.path.find("defaults.mtbf_hours_per_chip") != std::string::npos;
  EXPECT_TRUE(named);
}

TEST(Spot, TheAnalysisDrawsTheReclaimRateWithinItsBand) {
  const Scenario s = test::scenario(test::simple_scenario(R"("model":{"params":70e9},"target":{"tokens":1e12})",
                                                          R"("instance":"p6-b200.48xlarge","instances":4,"pricing":"spot")"));
  const std::vector<RangedInput> inputs = ranged_inputs(s, resolve(s, builtin_catalog()), builtin_catalog());
  bool rate = false, recovery = false;
  for (const RangedInput& in : inputs) {
    if (in.path == "options[0].reliability.spot_interruptions_per_hour") {
      rate = true;
      EXPECT_DOUBLE_EQ(in.low, 0.0000685);
      EXPECT_DOUBLE_EQ(in.high, 0.000685);
      EXPECT_DOUBLE_EQ(in.value, 0.000274);
    }
    if (in.path == "options[0].reliability.spot_recovery_hours") recovery = true;
  }
  EXPECT_TRUE(rate);
  EXPECT_TRUE(recovery);
  // A type with its own band draws within that: p5en.48xlarge, 0 to 50% a month (US regions' bands).
  const Scenario own = test::scenario(test::simple_scenario(R"("model":{"params":70e9},"target":{"tokens":1e12})",
                                                            R"("instance":"p5en.48xlarge","instances":4,"pricing":"spot")"));
  bool drawn = false;
  for (const RangedInput& in : ranged_inputs(own, resolve(own, builtin_catalog()), builtin_catalog()))
    if (in.path == "options[0].reliability.spot_interruptions_per_hour") {
      drawn = true;
      EXPECT_DOUBLE_EQ(in.low, 0);
      EXPECT_DOUBLE_EQ(in.high, 0.000685);
      EXPECT_DOUBLE_EQ(in.value, 0.0000342);
    }
  EXPECT_TRUE(drawn);
  // An on-demand option has no reclaims to draw.
  const Scenario od = test::scenario(test::simple_scenario(R"("model":{"params":70e9},"target":{"tokens":1e12})",
                                                           R"("instance":"p5en.48xlarge","instances":4)"));
  for (const RangedInput& in : ranged_inputs(od, resolve(od, builtin_catalog()), builtin_catalog()))
    EXPECT_EQ(in.path.find("spot_"), std::string::npos) << in.path;
}

}  // namespace
}  // namespace traincost
