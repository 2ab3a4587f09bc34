// The scenario format: reading, validation messages, and writing back.
#include "traincost/io/scenario_json.hpp"

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace traincost {
namespace {

using test::problems_of;
using test::simple_scenario;

bool mentions(const std::string& haystack, const std::string& needle) { return haystack.find(needle) != std::string::npos; }

TEST(ScenarioJson, ReadsEveryDocumentedName) {
  const Scenario s = test::scenario(R"({"version":1,"name":"n","reference":1,
    "workloads":[{"name":"w","model":{"params":8e9,"active_params":2e9,"layers":32,"hidden":4096,"heads":32,"seq_len":8192,"vocab":128256},
                  "target":{"loss":2.5,"scaling_law":"besiroglu2024"},"recompute":true,
                  "memory":{"bytes_per_param":18,"micro_batch":2,"tensor_parallel":4,"flash_attention":false,"usable_fraction":0.85},
                  "runs":12,"horizon_months":24,"overrides":[{"option":1,"engineer_weeks":3}]}],
    "options":[{"label":"A","instance":"trn2.48xlarge","instances":4,"pricing":"spot","discount":0.1,"precision":"fp8","mfu":0.33,
                "scaling_reference_chips":64,"scaling_per_doubling":0.97,
                "reliability":{"mtbf_hours_per_instance":4000,"checkpoint_write_minutes":3,"restart_minutes":10,"checkpoint_interval_hours":2},
                "porting":{"engineer_weeks":6,"usd_per_engineer_week":7000,"validation_runs":1,"validation_run_fraction":0.1,
                           "convergence_penalty":0.01,"compile_hours_per_run":0.5,"maintenance_usd_per_year":10000,
                           "egress_tb_per_run":5,"egress_usd_per_tb":80}},
               {"label":"B","instance":"p5.48xlarge","price_usd_per_hour":50,"measured_tokens_per_sec_per_chip":9000}],
    "ranges":[{"input":"options[0].mfu","low":0.2,"high":0.4,"dist":"uniform"}],
    "analysis":{"samples":5000,"seed":42,"default_ranges":false}})");
  ASSERT_EQ(s.workloads.size(), 1u);
  const Workload& w = s.workloads[0];
  EXPECT_EQ(w.model.active(), 2e9);
  EXPECT_EQ(w.target.kind, TargetKind::Loss);
  EXPECT_EQ(w.target.law, ScalingLawKind::Besiroglu2024);
  EXPECT_EQ(w.memory.tensor_parallel, 4);
  EXPECT_FALSE(w.memory.flash_attention);
  EXPECT_EQ(w.overrides[0].costs.engineer_weeks, 3);
  const Option& a = s.options[0];
  EXPECT_EQ(a.pricing, PricingModel::Spot);
  EXPECT_EQ(a.precision, Precision::FP8);
  EXPECT_EQ(*a.reliability.checkpoint_interval_hours, 2);
  EXPECT_EQ(*a.porting.egress_usd_per_tb, 80);
  EXPECT_EQ(*s.options[1].measured_tokens_per_sec_per_chip, 9000);
  EXPECT_EQ(s.ranges[0].dist, Distribution::Uniform);
  EXPECT_EQ(s.analysis.seed, 42u);
  EXPECT_FALSE(s.analysis.default_ranges);
}

TEST(ScenarioJson, WritingAndReadingBackIsTheIdentity) {
  for (const char* name : test::kExamples) {
    const Scenario s = test::scenario(test::read_source_file(std::string("assets/scenarios/") + name + ".json"));
    for (const JsonForm form : {JsonForm::Full, JsonForm::Minimal}) {
      const std::string text = scenario_to_json(s, form).dump();
      const Scenario back = test::scenario(text);
      EXPECT_EQ(scenario_to_json(back, form).dump(), text) << name;
    }
  }
}

TEST(ScenarioJson, MinimalFormLeavesOutDefaults) {
  const Scenario s = test::scenario(simple_scenario());
  const std::string minimal = scenario_to_json(s, JsonForm::Minimal).dump();
  EXPECT_FALSE(mentions(minimal, "horizon_months")) << minimal;
  EXPECT_FALSE(mentions(minimal, "pricing")) << minimal;
  EXPECT_TRUE(mentions(scenario_to_json(s, JsonForm::Full).dump(), "\"horizon_months\":12.0"));
}

TEST(ScenarioJson, MessagesNameTheFieldAndTheValue) {
  EXPECT_TRUE(mentions(problems_of(simple_scenario(R"("model":{"params":8e9},"target":{"tokens":1e11})",
                                                   R"("instance":"trn2.48xlarge")",
                                                   R"("instance":"p5.48xlarge","price_usd_per_hour":-3)")),
                       "options[1].price_usd_per_hour: must be > 0, got -3"));
  EXPECT_TRUE(mentions(problems_of(simple_scenario(R"("model":{"params":8e9},"target":{"tokens":1e11})",
                                                   R"("instance":"trn2.48xlarge","mfu":1.5)")),
                       "options[0].mfu: must be between 0.01 and 1, got 1.5"));
  EXPECT_TRUE(mentions(problems_of(simple_scenario(R"("model":{"params":"8e9"},"target":{"tokens":1e11})")),
                       "workloads[0].model.params: must be a number, got a string (\"8e9\")"));
  EXPECT_TRUE(mentions(problems_of(simple_scenario(R"("model":{"params":8e9},"target":{"tokens":1e11},"runs":"NaN")")),
                       "workloads[0].runs: must be a finite number, got \"NaN\""));
  EXPECT_TRUE(mentions(problems_of(simple_scenario(R"("model":{"params":8e9},"target":{"tokens":1e11})",
                                                   R"("instance":"trn2.48xlarge","instances":2.5)")),
                       "options[0].instances: must be a whole number, got 2.5"));
  EXPECT_TRUE(mentions(problems_of(simple_scenario(R"("model":{"params":8e9},"target":{"tokens":1e11},"colour":"red")")),
                       "workloads[0].colour: unknown field"));
}

TEST(ScenarioJson, ConstraintsAreCheckedWithTheFieldsNamed) {
  const std::string model = R"("model":{"params":8e9},"target":{"tokens":1e11})";
  const std::string trn = R"("instance":"trn2.48xlarge")", gpu = R"("instance":"p5.48xlarge")";
  EXPECT_TRUE(mentions(problems_of(simple_scenario(model + R"(,"deadline_days":-3)")), "workloads[0].deadline_days: must be > 0, got -3"));
  EXPECT_TRUE(mentions(problems_of(simple_scenario(model + R"(,"budget_usd":0)")), "workloads[0].budget_usd: must be > 0, got 0"));
  EXPECT_TRUE(mentions(problems_of(simple_scenario(model + R"(,"usd_per_day_of_delay":-5)")),
                       "workloads[0].usd_per_day_of_delay: must be >= 0, got -5"));
  EXPECT_TRUE(mentions(problems_of(simple_scenario(model, trn + R"(,"wait_days":-1)")), "options[0].wait_days: must be >= 0, got -1"));
  EXPECT_TRUE(mentions(problems_of(simple_scenario(model, trn + R"(,"max_instances":0)")),
                       "options[0].max_instances: must be between 1 and 100000, got 0"));
  EXPECT_TRUE(mentions(problems_of(simple_scenario(model, trn + R"(,"porting":{"report_probability_per_year":1.5})")),
                       "options[0].porting.report_probability_per_year: must be between 0 and 1, got 1.5"));
  // Relations between fields.
  EXPECT_TRUE(mentions(problems_of(simple_scenario(model, trn + R"(,"instances":4,"max_instances":2)")),
                       "options[0].max_instances: is below instances (4)"));
  EXPECT_TRUE(mentions(problems_of(simple_scenario(model + R"(,"deadline_days":3)", trn + R"(,"wait_days":5)", gpu + R"(,"wait_days":7)")),
                       "workloads[0].deadline_days: leaves no time to train: every option waits at least 5 days for capacity"));
  EXPECT_EQ(problems_of(simple_scenario(model + R"(,"deadline_days":6)", trn + R"(,"wait_days":5)", gpu + R"(,"wait_days":7)")), "");
}

TEST(ScenarioJson, ConstraintFieldsAreWrittenOnlyWhenSet) {
  const Scenario plain = test::scenario(simple_scenario());
  for (const JsonForm form : {JsonForm::Minimal, JsonForm::Full}) {
    const std::string text = scenario_to_json(plain, form).dump();
    for (const char* key : {"deadline_days", "budget_usd", "usd_per_day_of_delay", "wait_days", "max_instances", "report_"})
      EXPECT_FALSE(mentions(text, key)) << key << " in " << text;
  }
  const Scenario s = test::scenario(simple_scenario(
      R"("model":{"params":8e9},"target":{"tokens":1e11},"deadline_days":30,"budget_usd":2e6,"usd_per_day_of_delay":0)",
      R"("instance":"trn2.48xlarge","wait_days":3,"max_instances":64,"porting":{"report_probability_per_year":0.2,"report_effort_share":0.3})"));
  const std::string minimal = scenario_to_json(s, JsonForm::Minimal).dump();
  for (const char* part : {"\"deadline_days\":30.0", "\"budget_usd\":2000000.0", "\"usd_per_day_of_delay\":0.0", "\"wait_days\":3.0",
                           "\"max_instances\":64", "\"report_probability_per_year\":0.2", "\"report_effort_share\":0.3"})
    EXPECT_TRUE(mentions(minimal, part)) << part << " not in " << minimal;
  EXPECT_EQ(test::scenario(minimal).workloads[0].deadline_days, 30);
}

TEST(ScenarioJson, ReportsEveryProblemNotJustTheFirst) {
  const std::string all = problems_of(simple_scenario(R"("model":{"params":-1},"target":{"tokens":0})",
                                                      R"("instance":"trn2.48xlarge","instances":0)",
                                                      R"("instance":"p5.48xlarge","discount":2)"));
  EXPECT_TRUE(mentions(all, "workloads[0].model.params")) << all;
  EXPECT_TRUE(mentions(all, "workloads[0].target.tokens")) << all;
  EXPECT_TRUE(mentions(all, "options[0].instances")) << all;
  EXPECT_TRUE(mentions(all, "options[1].discount")) << all;
}

TEST(ScenarioJson, CatalogChecks) {
  EXPECT_TRUE(mentions(problems_of(simple_scenario(R"("model":{"params":8e9},"target":{"tokens":1e11})",
                                                   R"("instance":"p9.96xlarge")")),
                       "options[0].instance: unknown instance \"p9.96xlarge\""));
  // p5.48xlarge has no 3-year price in the catalog
  EXPECT_TRUE(mentions(problems_of(simple_scenario(R"("model":{"params":8e9},"target":{"tokens":1e11})",
                                                   R"("instance":"p5.48xlarge","pricing":"reserved_3yr")")),
                       "options[0].pricing: the catalog has no reserved_3yr price for p5.48xlarge"));
  EXPECT_TRUE(mentions(problems_of(simple_scenario(R"("model":{"params":8e9},"target":{"tokens":1e11})",
                                                   R"("instance":"p4d.24xlarge","precision":"fp8")")),
                       "options[0].precision: NVIDIA A100 SXM 40GB has no FP8 support"));
  EXPECT_TRUE(mentions(problems_of(simple_scenario(R"("model":{"params":8e9},"target":{"tokens":1e11})",
                                                   R"("instance":"custom","custom":{"chips":8})")),
                       "options[0].custom.peak_tflops: is required without a catalog chip"));
}

TEST(ScenarioJson, UnreachableLossSaysTheSmallestReachableLoss) {
  // Hoffmann 2022 floor for 7e10 parameters is 1.7735 (see formulas_test)
  const std::string all = problems_of(simple_scenario(R"("model":{"params":7e10},"target":{"loss":1.7})"));
  EXPECT_TRUE(mentions(all, "workloads[0].target.loss: is unreachable")) << all;
  EXPECT_TRUE(mentions(all, "cannot get below 1.773")) << all;
}

TEST(ScenarioJson, TargetNeedsExactlyOneKind) {
  EXPECT_TRUE(mentions(problems_of(simple_scenario(R"("model":{"params":8e9},"target":{"tokens":1e11,"loss":2})")),
                       "workloads[0].target: needs exactly one of"));
  EXPECT_TRUE(mentions(problems_of(simple_scenario(R"("model":{"params":8e9},"target":{"steps":100})")),
                       "workloads[0].target.tokens_per_step: is required"));
}

TEST(ScenarioJson, VersionIsCheckedFirst) {
  EXPECT_TRUE(mentions(problems_of(R"({"workloads":[]})"), "version: is required"));
  EXPECT_TRUE(mentions(problems_of(R"({"version":2,"workloads":[],"hologram":true})"), "newer TrainCost"));
  EXPECT_TRUE(mentions(problems_of(R"({"version":"1"})"), "version: must be a whole number"));
}

TEST(ScenarioJson, RangesMustPointAtUsedNumericInputs) {
  const std::string base = R"({"version":1,"workloads":[{"model":{"params":8e9},"target":{"tokens":1e11}}],
    "options":[{"instance":"trn2.48xlarge"},{"instance":"p5.48xlarge"}],"ranges":[)";
  EXPECT_TRUE(mentions(problems_of(base + R"({"input":"options[0].label","low":0,"high":1}]})"),
                       "ranges[0].input: \"options[0].label\" is not a numeric input"));
  EXPECT_TRUE(mentions(problems_of(base + R"({"input":"options[5].mfu","low":0.1,"high":0.2}]})"), "points past the last entry"));
  EXPECT_TRUE(mentions(problems_of(base + R"({"input":"options[0].mfu","low":0.4,"high":0.2}]})"), "low must not exceed high"));
  EXPECT_TRUE(mentions(problems_of(base + R"({"input":"workloads[0].target.loss","low":2,"high":3}]})"),
                       "is not how this workload's target is given"));
  // A range on a field that changes nothing: a wait when no workload values time, a re-port where
  // there is no one-time cost to repeat (CUDA's defaults).
  EXPECT_TRUE(mentions(problems_of(base + R"({"input":"options[0].wait_days","low":0,"high":5}]})"),
                       "ranges[0].input: \"options[0].wait_days\" has no effect: no workload has a deadline_days or a usd_per_day_of_delay"));
  EXPECT_TRUE(mentions(problems_of(base + R"({"input":"options[1].porting.report_probability_per_year","low":0,"high":0.5}]})"),
                       "ranges[0].input: \"options[1].porting.report_probability_per_year\" has no effect: the option has no one-time cost"));
  EXPECT_EQ(problems_of(base + R"({"input":"options[0].porting.report_probability_per_year","low":0,"high":0.5},
                                  {"input":"workloads[0].usd_per_day_of_delay","low":0,"high":1000}]})"),
            "");
}

}  // namespace
}  // namespace traincost
