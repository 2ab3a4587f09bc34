// Scenario edits (core/include/traincost/api/edit.hpp): each keeps the scenario valid and its
// cross-references (overrides, ranges, the reference option) pointing at the same things.
#include "traincost/api/builtin.hpp"
#include "traincost/api/edit.hpp"
#include "traincost/scenario/labels.hpp"

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/model/formulas.hpp"
#include "traincost/output/present.hpp"
#include "traincost/evidence/published_runs.hpp"
#include "traincost/engine/evaluate.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/output/verdict.hpp"

namespace traincost {
namespace {

// Three options, two workloads, and ranges and overrides on the later ones.
Scenario three_by_two() {
  return test::scenario(R"({"version":1,
    "workloads":[{"name":"A","model":{"params":8e9},"target":{"tokens":1e11},"runs":4},
                 {"name":"B","model":{"params":1e9},"target":{"tokens":2e10},"runs":10,
                  "overrides":[{"option":2,"engineer_weeks":3}]}],
    "options":[{"label":"t","instance":"trn2.48xlarge","instances":1},{"label":"p","instance":"p5.48xlarge","instances":1},
               {"label":"q","instance":"p4d.24xlarge","instances":4}],
    "reference":2,
    "ranges":[{"input":"workloads[1].runs","low":5,"high":20},
              {"input":"options[2].mfu","low":0.3,"high":0.6},
              {"input":"options[1].discount","low":0,"high":0.3}]})");
}

TEST(Edit, RemovingAWorkloadMovesTheRangesOfTheLaterOnes) {
  Scenario s = three_by_two();
  ASSERT_TRUE(edit::remove_workload(s, 0));
  ASSERT_EQ(s.workloads.size(), 1u);
  EXPECT_EQ(s.workloads[0].name, "B");
  // The range on B's runs now says workloads[0], and still names B.
  ASSERT_EQ(s.ranges.size(), 3u);
  EXPECT_EQ(s.ranges[0].input, "workloads[0].runs");
  EXPECT_TRUE(validate(s, builtin_catalog()).empty()) << to_string(validate(s, builtin_catalog()));
}

TEST(Edit, RemovingAWorkloadDropsItsOwnRanges) {
  Scenario s = three_by_two();
  ASSERT_TRUE(edit::remove_workload(s, 1));
  for (const Range& r : s.ranges) EXPECT_EQ(r.input.find("workloads["), std::string::npos) << r.input;
  EXPECT_TRUE(validate(s, builtin_catalog()).empty());
  // The last workload cannot go.
  EXPECT_FALSE(edit::remove_workload(s, 0));
  EXPECT_FALSE(edit::remove_workload(s, 5));
}

TEST(Edit, RemovingAnOptionFixesOverridesRangesAndTheReference) {
  Scenario s = three_by_two();
  ASSERT_TRUE(edit::remove_option(s, 0));
  // q (was 2) is now 1: its override, its range and the reference follow it.
  EXPECT_EQ(s.options[1].label, "q");
  ASSERT_EQ(s.workloads[1].overrides.size(), 1u);
  EXPECT_EQ(s.workloads[1].overrides[0].option, 1);
  EXPECT_EQ(s.reference, 1);
  EXPECT_EQ(s.ranges[1].input, "options[1].mfu");
  EXPECT_EQ(s.ranges[2].input, "options[0].discount");
  EXPECT_TRUE(validate(s, builtin_catalog()).empty());
}

TEST(Edit, RemovingTheReferenceOptionFallsBackToTheFirst) {
  Scenario s = three_by_two();
  ASSERT_TRUE(edit::remove_option(s, 2));
  EXPECT_EQ(s.reference, 0);
  EXPECT_TRUE(s.workloads[1].overrides.empty());  // it was about the removed option
  for (const Range& r : s.ranges) EXPECT_NE(r.input, "options[2].mfu");
  EXPECT_TRUE(validate(s, builtin_catalog()).empty());
}

TEST(Edit, DuplicatingAnOptionInsertsAfterItAndShiftsTheRest) {
  Scenario s = three_by_two();
  ASSERT_TRUE(edit::duplicate_option(s, 0));
  ASSERT_EQ(s.options.size(), 4u);
  EXPECT_EQ(s.options[1].label, "t (2)");
  EXPECT_EQ(s.options[3].label, "q");
  EXPECT_EQ(s.workloads[1].overrides[0].option, 3);
  EXPECT_EQ(s.reference, 3);
  EXPECT_EQ(s.ranges[1].input, "options[3].mfu");
  EXPECT_EQ(s.ranges[2].input, "options[2].discount");
  EXPECT_TRUE(validate(s, builtin_catalog()).empty());
  // Up to the maximum, and not past it.
  while (edit::duplicate_option(s, 0)) {
  }
  EXPECT_EQ(s.options.size(), static_cast<size_t>(kMaxOptions));
}

TEST(Edit, AChipComparisonRowIsUsedWithItsInstancePricingAndSize) {
  // The page's "By chip" tab puts a row into an option, or appends it as a new one: the option
  // then evaluates to the row's figures (the same instance, pricing and count).
  Scenario s = three_by_two();
  const Catalog& c = builtin_catalog();
  ASSERT_TRUE(edit::use_row(s.options[0], c, "p5en.48xlarge", PricingModel::Spot, 12));
  EXPECT_EQ(s.options[0].instance, "p5en.48xlarge");
  EXPECT_EQ(s.options[0].pricing, PricingModel::Spot);
  EXPECT_EQ(s.options[0].instances, 12);
  EXPECT_FALSE(s.options[0].instances_default);
  EXPECT_EQ(s.options[0].label, "t") << "a typed label is the user's";
  // A pricing the instance lacks, or a size out of bounds, changes nothing.
  const Option before = s.options[1];
  EXPECT_FALSE(edit::use_row(s.options[1], c, "lambda-8x-h100-sxm", PricingModel::Reserved3yr, 4));
  EXPECT_FALSE(edit::use_row(s.options[1], c, "p5.48xlarge", PricingModel::OnDemand, 0));
  EXPECT_FALSE(edit::use_row(s.options[1], c, "no-such-instance", PricingModel::OnDemand, 4));
  EXPECT_EQ(s.options[1].instance, before.instance);
  EXPECT_EQ(s.options[1].instances, before.instances);
  // Appended at the end: the overrides and ranges of the others still name the same options.
  Option o;
  ASSERT_TRUE(edit::use_row(o, c, "trn2.48xlarge", PricingModel::OnDemand, 16));
  ASSERT_TRUE(edit::add_option(s, o));
  ASSERT_EQ(s.options.size(), 4u);
  EXPECT_EQ(s.options[3].instance, "trn2.48xlarge");
  EXPECT_EQ(s.workloads[1].overrides[0].option, 2);
  EXPECT_EQ(s.ranges[1].input, "options[2].mfu");
  while (s.options.size() < static_cast<size_t>(kMaxOptions)) ASSERT_TRUE(edit::add_option(s, o));
  EXPECT_FALSE(edit::add_option(s, o)) << "no more than kMaxOptions";
}

TEST(Edit, SetInstancePicksAPriceTheInstanceHasAndAPrecisionItsChipHas) {
  Option o;
  o.instance = "p5.48xlarge";
  o.precision = Precision::FP8;
  o.pricing = PricingModel::Reserved3yr;  // p4d has no 3-year price in the catalog
  ASSERT_TRUE(edit::set_instance(o, builtin_catalog(), "p4d.24xlarge"));
  EXPECT_EQ(o.instance, "p4d.24xlarge");
  EXPECT_EQ(o.pricing, PricingModel::OnDemand);  // the first pricing model it has
  EXPECT_EQ(o.precision, Precision::BF16);       // A100 has no FP8
  EXPECT_FALSE(edit::set_instance(o, builtin_catalog(), "no-such-instance"));
}

TEST(Edit, MakingACustomInstanceChangesNoResult) {
  Scenario s = three_by_two();
  const Results before = test::run(s);
  ASSERT_TRUE(edit::make_custom(s.options[0], builtin_catalog()));
  ASSERT_TRUE(validate(s, builtin_catalog()).empty()) << to_string(validate(s, builtin_catalog()));
  EXPECT_EQ(s.options[0].instance, "custom");
  const Results after = test::run(s);
  EXPECT_EQ(after.workloads[0].options[0].cost_per_run, before.workloads[0].options[0].cost_per_run);
  // Own figures start from the chip's, and the MFU it runs at: still the same result.
  const double mfu = resolve(s, builtin_catalog()).workloads[0].options[0].mfu;
  ASSERT_TRUE(edit::set_custom_chip(s.options[0], builtin_catalog(), "", mfu));
  ASSERT_TRUE(validate(s, builtin_catalog()).empty()) << to_string(validate(s, builtin_catalog()));
  EXPECT_DOUBLE_EQ(test::run(s).workloads[0].options[0].compute_hours, before.workloads[0].options[0].compute_hours);
}

TEST(Edit, SwitchingToMeasuredThroughputKeepsTheSpeed) {
  Scenario s = three_by_two();
  const double before = test::run(s).workloads[0].options[1].tokens_per_sec;
  const Results now = test::run(s);
  const double per_chip = now.workloads[0].options[1].tokens_per_sec / now.workloads[0].options[1].chips;
  ASSERT_TRUE(edit::use_measured_throughput(s.options[1], per_chip, true));
  ASSERT_TRUE(s.options[1].measured_tokens_per_sec_per_chip);
  // The rate is rounded to a whole token per second: within 0.5 / rate of the MFU's speed.
  EXPECT_NEAR(test::run(s).workloads[0].options[1].tokens_per_sec / before, 1.0, 1e-3);
  ASSERT_TRUE(edit::use_measured_throughput(s.options[1], per_chip, false));
  EXPECT_FALSE(s.options[1].measured_tokens_per_sec_per_chip);
  EXPECT_EQ(test::run(s).workloads[0].options[1].tokens_per_sec, before);
}

TEST(Edit, MeasuredThroughputFallsBackWhenNoRateCanBeDerived) {
  Option o;  // an option that cannot run has no rate (0, or NaN) to start from
  ASSERT_TRUE(edit::use_measured_throughput(o, 0, true));
  EXPECT_EQ(*o.measured_tokens_per_sec_per_chip, edit::kFallbackTokensPerSec);
  ASSERT_TRUE(edit::use_measured_throughput(o, NAN, true));
  EXPECT_EQ(*o.measured_tokens_per_sec_per_chip, edit::kFallbackTokensPerSec);
}

TEST(Edit, ARunsRealizedMfuReplacesTheOptionsOwn) {
  Scenario s = three_by_two();
  s.options[0].measured_tokens_per_sec_per_chip = 3000;
  const double realized = realized_mfu_of(*builtin_published_runs().find("rinna-nekomata-14b"), builtin_catalog());
  ASSERT_GT(realized, 0);
  ASSERT_TRUE(edit::use_run_mfu(s.options[0], "rinna-nekomata-14b"));  // a Trainium1 run for a Trainium2 option
  EXPECT_EQ(s.options[0].mfu_from_run, "rinna-nekomata-14b");
  EXPECT_FALSE(s.options[0].measured_tokens_per_sec_per_chip);
  ASSERT_TRUE(validate(s, builtin_catalog()).empty()) << to_string(validate(s, builtin_catalog()));
  EXPECT_DOUBLE_EQ(resolve(s, builtin_catalog()).workloads[0].options[0].mfu, realized);
  // A typed MFU goes too; an unknown id changes nothing.
  s.options[1].mfu = 0.4;
  ASSERT_TRUE(edit::use_run_mfu(s.options[1], "llama3-8b"));
  EXPECT_FALSE(s.options[1].mfu);
  EXPECT_FALSE(edit::use_run_mfu(s.options[1], "no-such-run"));
  EXPECT_EQ(s.options[1].mfu_from_run, "llama3-8b");
}

TEST(Edit, TargetKindsConvertKeepingTheTokens) {
  Workload w;
  w.model.params = 8e9;
  w.target.kind = TargetKind::Tokens;
  w.target.tokens = 1e12;
  ASSERT_TRUE(edit::set_target_kind(w, TargetKind::Steps));
  // 1e12 / 4,194,304 = 238,418.58 -> 238,419 steps of 4M tokens
  EXPECT_EQ(w.target.tokens_per_step, 4194304);
  EXPECT_EQ(w.target.steps, 238419);
  ASSERT_TRUE(edit::set_target_kind(w, TargetKind::Tokens));
  // 238,419 × 4,194,304 = 1,000,001,765,376
  EXPECT_EQ(w.target.tokens, 1000001765376.0);
  EXPECT_FALSE(edit::set_target_kind(w, TargetKind::Tokens));  // already tokens
}

TEST(Edit, ALossTargetStartsJustAboveTheFloor) {
  Workload w;
  w.model.params = 7e10;
  w.target.tokens = 1e12;
  ASSERT_TRUE(edit::set_target_kind(w, TargetKind::Loss));
  // Hoffmann floor for 7e10 = 1.773487 (formulas_test); + 0.15 = 1.923487 -> 1.92
  EXPECT_DOUBLE_EQ(w.target.loss, 1.92);
  // Back to tokens: the scaling law's tokens for that loss.
  ASSERT_TRUE(edit::set_target_kind(w, TargetKind::Tokens));
  EXPECT_DOUBLE_EQ(w.target.tokens, tokens_for_loss(scaling_law_constants(ScalingLawKind::Hoffmann2022, {}), 7e10, 1.92));
}

TEST(Edit, TokensFromNothingAreChinchillaOptimal) {
  Workload w;
  w.model.params = 1e9;
  w.target.kind = TargetKind::Loss;
  w.target.loss = 0.5;  // below any floor: no finite token count
  ASSERT_TRUE(edit::set_target_kind(w, TargetKind::Tokens));
  EXPECT_EQ(w.target.tokens, 2e10);  // 20 × 1e9
}

TEST(Edit, CustomLawStartsFromTheLawInUse) {
  Workload w;
  w.target.kind = TargetKind::Loss;
  w.target.law = ScalingLawKind::Besiroglu2024;
  ASSERT_TRUE(edit::set_scaling_law(w, ScalingLawKind::Custom));
  EXPECT_EQ(w.target.custom_law.E, 1.8172);
  EXPECT_EQ(w.target.custom_law.beta, 0.3658);
}

TEST(Edit, MixtureOfExpertsStartsWithAQuarterActive) {
  Workload w;
  w.model.params = 4.67e10;
  ASSERT_TRUE(edit::set_mixture_of_experts(w, true));
  EXPECT_DOUBLE_EQ(*w.model.active_params, 1.1675e10);
  ASSERT_TRUE(edit::set_mixture_of_experts(w, false));
  EXPECT_FALSE(w.model.active_params);
}

TEST(Edit, AddingARangeStartsTwentyPercentAroundTheValueWithinTheFieldsBounds) {
  Scenario s = three_by_two();
  ASSERT_TRUE(edit::add_range(s, "options[0].mfu", 0.3));
  EXPECT_EQ(s.ranges.back().input, "options[0].mfu");
  EXPECT_DOUBLE_EQ(s.ranges.back().low, 0.24);   // 0.3 × 0.8
  EXPECT_DOUBLE_EQ(s.ranges.back().high, 0.36);  // 0.3 × 1.2
  // The discount's bounds (0 to 0.95) cap the high end: 0.9 × 1.2 = 1.08 -> 0.95.
  ASSERT_TRUE(edit::add_range(s, "options[0].discount", 0.9));
  EXPECT_DOUBLE_EQ(s.ranges.back().high, 0.95);
  // One range per input; unknown inputs are refused.
  EXPECT_FALSE(edit::add_range(s, "options[0].mfu", 0.3));
  EXPECT_FALSE(edit::add_range(s, "options[0].colour", 1));
  EXPECT_TRUE(validate(s, builtin_catalog()).empty()) << to_string(validate(s, builtin_catalog()));
  ASSERT_TRUE(edit::remove_range(s, 0));
  EXPECT_FALSE(edit::remove_range(s, 99));
}

TEST(Edit, StampCatalogOnlyWhenUnset) {
  Scenario s;
  edit::stamp_catalog(s, builtin_catalog());
  EXPECT_EQ(s.catalog, builtin_catalog().version);
  s.catalog = "2020-01-01";
  edit::stamp_catalog(s, builtin_catalog());
  EXPECT_EQ(s.catalog, "2020-01-01");
}

TEST(Edit, AnAutomaticLabelFollowsTheInstanceAndItsCount) {
  Scenario s = three_by_two();
  const Catalog& c = builtin_catalog();
  Option& o = s.options[0];
  o.label = "Trn2 x1";  // stored, but the automatic label of what the option is
  ASSERT_EQ(automatic_label(o, c), "Trn2 x1");
  ASSERT_TRUE(edit::set_instances(o, c, 32));
  EXPECT_EQ(o.label, "");
  EXPECT_EQ(automatic_label(o, c), "Trn2 x32");
  ASSERT_TRUE(edit::set_instance(o, c, "p5.48xlarge"));
  EXPECT_EQ(automatic_label(o, c), "H100 x32 (p5)");
  // A label of the user's own stays.
  o.label = "our cluster";
  ASSERT_TRUE(edit::set_instances(o, c, 64));
  ASSERT_TRUE(edit::set_instance(o, c, "trn2.48xlarge"));
  EXPECT_EQ(o.label, "our cluster");
  // Out of bounds: nothing changes.
  EXPECT_FALSE(edit::set_instances(o, c, 0));
  EXPECT_EQ(o.instances, 64);
}

TEST(Edit, AutomaticLabelsNameChipCountAndWhere) {
  const Catalog& c = builtin_catalog();
  Option o;
  o.instance = "trn1n.32xlarge";
  o.instances = 32;
  EXPECT_EQ(automatic_label(o, c), "Trn1n x32");
  o.instance = "p6-b200.48xlarge";
  o.instances = 64;
  EXPECT_EQ(automatic_label(o, c), "B200 x64 (p6)");
  o.instance = "lambda-8x-h100-sxm";
  o.instances = 32;
  EXPECT_EQ(automatic_label(o, c), "H100 x32 (Lambda)");
  ASSERT_TRUE(edit::make_custom(o, c));
  EXPECT_EQ(automatic_label(o, c), "H100 x32 (custom)");
}

TEST(Edit, AnInputIsNamedByItsOwnerThenItself) {
  const Catalog& c = builtin_catalog();
  Scenario s;
  Option o;
  o.instance = "p5.48xlarge";
  o.instances = 4;
  s.options.push_back(o);  // no label of its own: the automatic one
  o.label = "our cluster";
  s.options.push_back(o);
  Workload w;
  w.name = "pretrain";
  s.workloads.push_back(w);
  const auto title = [&](const char* path) { return input_title(s, *parse_input_path(path), c); };
  EXPECT_EQ(title("options[0].mfu"), "H100 x4 (p5): MFU");
  EXPECT_EQ(title("options[1].mfu"), "our cluster: MFU");
  EXPECT_EQ(title("workloads[0].runs"), "pretrain: " + std::string(parse_input_path("workloads[0].runs")->kind->label));
  // A range kept in a link after its option was removed still reads as something.
  EXPECT_EQ(title("options[5].mfu"), "option 6: MFU");
  EXPECT_EQ(title("workloads[2].runs").rfind("workload 3: ", 0), 0u);
}

TEST(Edit, AnAutomaticLabelSaysHowTheOptionIsPaidFor) {
  const Catalog& c = builtin_catalog();
  Option o;
  o.instance = "p5en.48xlarge";
  o.instances = 2;
  EXPECT_EQ(automatic_label(o, c), "H200 x2 (p5en)");  // on demand, the usual case, says nothing
  edit::set_pricing(o, c, PricingModel::Spot);
  EXPECT_EQ(automatic_label(o, c), "H200 x2 (p5en, spot)");
  o.instance = "trn2.48xlarge";
  EXPECT_EQ(automatic_label(o, c), "Trn2 x2 (spot)");
  o.pricing = PricingModel::Reserved3yr;
  EXPECT_EQ(automatic_label(o, c), "Trn2 x2 (3-yr)");
  // A label stored as the automatic text follows a change of pricing, as it follows the instance.
  o.label = "Trn2 x2 (3-yr)";
  edit::set_pricing(o, c, PricingModel::OnDemand);
  EXPECT_EQ(o.label, "");
  EXPECT_EQ(automatic_label(o, c, std::nullopt), "Trn2");  // no count when the workloads used different ones
}

TEST(Edit, ACopiedOptionKeepsAnAutomaticLabelAndNeverReadsTheSame) {
  // The issue this guards: a copy labelled "p5en.48xlarge (2)" kept that label after it was
  // switched to another instance, and the verdict compared an option with a name not its own.
  Scenario s = test::scenario(R"({"version":1,"workloads":[{"model":{"params":8e9},"target":{"tokens":1e11}}],
    "options":[{"instance":"p5en.48xlarge","instances":2}]})");
  const Catalog& c = builtin_catalog();
  ASSERT_TRUE(edit::duplicate_option(s, 0));
  EXPECT_EQ(s.options[1].label, "");
  ResolvedScenario r = resolve(s, c);
  EXPECT_EQ(r.options[0].label, "H200 x2 (p5en)");
  EXPECT_EQ(r.options[1].label, "H200 x2 (p5en) #2");  // identical options: the second says its number
  const std::string verdict = workload_verdict(r, evaluate(r), 0);
  EXPECT_NE(verdict.find("H200 x2 (p5en) and H200 x2 (p5en) #2 cost the same per run (within 0.5%) at 1 run"), std::string::npos)
      << verdict;  // not "0% cheaper"
  edit::set_pricing(s.options[1], c, PricingModel::Spot);
  r = resolve(s, c);
  EXPECT_EQ(r.options[1].label, "H200 x2 (p5en, spot)");
  ASSERT_TRUE(edit::set_instance(s.options[1], c, "lambda-8x-h100-sxm"));
  EXPECT_EQ(resolve(s, c).options[1].label.rfind("H100 x2 (Lambda", 0), 0u) << resolve(s, c).options[1].label;
  // Typed labels are the user's, and still never read the same.
  s.options[0].label = "ours";
  s.options[1].label = "ours";
  r = resolve(s, c);
  EXPECT_EQ(r.options[0].label, "ours");
  EXPECT_EQ(r.options[1].label, "ours #2");
  ASSERT_TRUE(edit::duplicate_option(s, 0));
  EXPECT_EQ(s.options[1].label, "ours (2)");
}

TEST(Edit, AnAutomaticLabelNamesTheInstanceCountTheRunUsed) {
  // A deadline sizes the option away from its configured count: the label follows what ran
  // (it once read "H200 x16 (p5en)" beside "on 1 instances").
  Scenario s = test::scenario(test::read_source_file("assets/scenarios/llama3-8b-pretrain.json"));
  for (Option& o : s.options) o.label.clear();
  s.workloads[0].deadline_days = 60;
  const ResolvedScenario r = resolve(s, builtin_catalog());
  for (size_t o = 0; o < s.options.size(); ++o) {
    const int used = static_cast<int>(r.workloads[0].options[o].instances);
    EXPECT_EQ(r.options[o].label, automatic_label(s.options[o], builtin_catalog(), used));
    EXPECT_NE(r.options[o].label.find(" x" + std::to_string(used)), std::string::npos) << r.options[o].label;
  }
}

TEST(Edit, OverridesAreMadeAndRemovedWithTheirValues) {
  Scenario s = three_by_two();
  Workload& w = s.workloads[0];
  ASSERT_TRUE(edit::set_override(w, 1, fields::engineer_weeks, 4.0));
  ASSERT_EQ(w.overrides.size(), 1u);
  EXPECT_EQ(w.overrides[0].option, 1);
  EXPECT_EQ(w.overrides[0].costs.engineer_weeks, 4.0);
  ASSERT_TRUE(edit::set_override(w, 1, fields::egress_tb_per_run, 2.0));
  EXPECT_EQ(w.overrides.size(), 1u);
  EXPECT_TRUE(validate(s, builtin_catalog()).empty()) << to_string(validate(s, builtin_catalog()));
  ASSERT_TRUE(edit::set_override(w, 1, fields::engineer_weeks, std::nullopt));
  EXPECT_FALSE(w.overrides[0].costs.engineer_weeks);
  ASSERT_TRUE(edit::set_override(w, 1, fields::egress_tb_per_run, std::nullopt));
  EXPECT_TRUE(w.overrides.empty());  // nothing left to override
  // Only platform costs, within their bounds.
  EXPECT_FALSE(edit::set_override(w, 1, fields::mfu, 0.3));
  EXPECT_FALSE(edit::set_override(w, 1, fields::engineer_weeks, -1.0));
  EXPECT_TRUE(w.overrides.empty());
  // Resetting what is not there changes nothing.
  EXPECT_TRUE(edit::set_override(w, 2, fields::engineer_weeks, std::nullopt));
  EXPECT_TRUE(w.overrides.empty());
}

// A pinned layout key lives in the workload's override for the option, beside its platform costs;
// unpinning the last key (and no cost left) removes the override.
TEST(Edit, LayoutKeysArePinnedAndUnpinned) {
  Scenario s = three_by_two();
  Workload& w = s.workloads[0];
  ASSERT_TRUE(edit::set_pin(w, 1, fields::pin_tensor, 4.0));
  ASSERT_EQ(w.overrides.size(), 1u);
  EXPECT_EQ(w.overrides[0].option, 1);
  EXPECT_EQ(w.overrides[0].parallelism.tensor, 4);
  ASSERT_TRUE(edit::set_override(w, 1, fields::engineer_weeks, 3.0));
  ASSERT_TRUE(edit::set_recompute_pin(w, 1, Recompute::Selective));
  ASSERT_TRUE(edit::set_sequence_parallel_pin(w, 1, false));
  EXPECT_EQ(w.overrides.size(), 1u);
  EXPECT_TRUE(validate(s, builtin_catalog()).empty()) << to_string(validate(s, builtin_catalog()));
  // The cost goes, the pins keep the override.
  ASSERT_TRUE(edit::set_override(w, 1, fields::engineer_weeks, std::nullopt));
  ASSERT_EQ(w.overrides.size(), 1u);
  ASSERT_TRUE(edit::set_pin(w, 1, fields::pin_tensor, std::nullopt));
  ASSERT_TRUE(edit::set_recompute_pin(w, 1, std::nullopt));
  ASSERT_EQ(w.overrides.size(), 1u);
  ASSERT_TRUE(edit::set_sequence_parallel_pin(w, 1, std::nullopt));
  EXPECT_TRUE(w.overrides.empty());
  // Only layout keys, within their bounds.
  EXPECT_FALSE(edit::set_pin(w, 1, fields::engineer_weeks, 3.0));
  EXPECT_FALSE(edit::set_pin(w, 1, fields::pin_zero, 4.0));
  EXPECT_FALSE(edit::set_pin(w, 1, fields::pin_tensor, 2.5));
  EXPECT_TRUE(w.overrides.empty());
}

}  // namespace
}  // namespace traincost
