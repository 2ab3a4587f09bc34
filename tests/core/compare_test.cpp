// The chip-by-chip view (output/compare.hpp) and the two prices of a token: every catalog
// instance and pricing appears, each row is the evaluation of that option alone (to the bit), one
// row derived by hand, and the sorts.
#include "traincost/output/compare.hpp"

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/api/api.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/engine/evaluate.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/output/present.hpp"
#include "traincost/scenario/labels.hpp"
#include "traincost/base/format.hpp"

namespace traincost {
namespace {

// The Llama-3-8B-class preset: 8.03B parameters, 32 layers, hidden 4,096, sequences of 8,192, 2T tokens.
Workload llama8b() {
  Workload w;
  w.model.params = 8.03e9;
  w.model.layers = 32;
  w.model.hidden = 4096;
  w.model.heads = 32;
  w.model.seq_len = 8192;
  w.model.vocab = 128256;
  w.target.tokens = 2e12;
  w.runs = 6;
  return w;
}

const CompareRow& row_of(const ChipComparison& c, const std::string& instance, PricingModel pricing) {
  for (const CompareRow& r : c.rows)
    if (r.instance == instance && r.pricing == pricing) return r;
  ADD_FAILURE() << "no row for " << instance;
  return c.rows.front();
}

TEST(Compare, EveryInstanceAndPricingOfTheCatalogIsARow) {
  const Catalog& catalog = builtin_catalog();
  CompareOptions options;
  options.instances = 4;
  const ChipComparison c = compare_chips(llama8b(), catalog, options);
  size_t priced = 0;
  for (const Instance& inst : catalog.instances)
    for (const Figure& price : inst.prices) priced += price.present();
  EXPECT_EQ(c.rows.size(), priced) << "no option limit: every (instance, pricing) the catalog holds";
  EXPECT_GT(priced, 8u);
  for (const Instance& inst : catalog.instances)
    for (int m = 0; m < kPricingModels; ++m)
      if (inst.prices[static_cast<size_t>(m)].present()) (void)row_of(c, inst.id, static_cast<PricingModel>(m));
}

TEST(Compare, ARunSlicedAnyWayGivesTheSameTableToTheBit) {
  // The page computes the table a few rows a frame (ComparisonRun); the CLI in one go. Same text,
  // same JSON, whatever the slice, and the counts say how far the run is.
  CompareOptions options;
  options.sort = CompareSort::Time;
  const ChipComparison whole = compare_chips(llama8b(), builtin_catalog(), options);
  for (size_t slice : {size_t{1}, size_t{7}, whole.rows.size()}) {
    ComparisonRun run(llama8b(), builtin_catalog(), options);
    EXPECT_EQ(run.total(), whole.rows.size());
    EXPECT_EQ(run.done(), 0u) << "nothing is evaluated before the first slice";
    size_t slices = 0;
    while (!run.advance(slice)) {
      ++slices;
      EXPECT_EQ(run.done(), slices * slice) << "a slice evaluates exactly its rows";
    }
    EXPECT_EQ(slices, (whole.rows.size() + slice - 1) / slice - 1);
    const ChipComparison sliced = run.finish();
    EXPECT_EQ(comparison_text(sliced), comparison_text(whole)) << "slice " << slice;
    EXPECT_EQ(comparison_to_json(sliced).dump(), comparison_to_json(whole).dump()) << "slice " << slice;
  }
}

TEST(Compare, TheTitleStatesTheSizeOnceWhetherTheWorkloadIsNamedOrNot) {
  CompareOptions options;
  options.instances = 2;
  Workload w = llama8b();
  std::string text = comparison_text(compare_chips(w, builtin_catalog(), options));
  EXPECT_EQ(text.rfind("Chip by chip: 8B, 2T tokens, on 2 instances each;", 0), 0u) << text.substr(0, 120);
  w.name = "Nightly";
  text = comparison_text(compare_chips(w, builtin_catalog(), options));
  EXPECT_EQ(text.rfind("Chip by chip: Nightly (8.0B parameters, 2.0T tokens), on 2 instances each;", 0), 0u) << text.substr(0, 120);
}

TEST(Compare, ARowIsTheOptionEvaluatedAlone) {
  // The same option in a one-option scenario gives the same figures, to the bit.
  CompareOptions options;
  options.instances = 16;
  const ChipComparison c = compare_chips(llama8b(), builtin_catalog(), options);
  for (const CompareRow& row : c.rows) {
    Scenario s;
    s.workloads = {llama8b()};
    Option o;
    o.instance = row.instance;
    o.pricing = row.pricing;
    o.instances = 16;
    s.options = {o};
    const ResolvedScenario r = resolve(s, builtin_catalog());
    const OptionResult x = evaluate(r).workloads[0].options[0];
    EXPECT_EQ(row.feasible, x.feasible()) << row.label;
    EXPECT_EQ(row.wall_clock_hours, x.wall_clock_hours) << row.label;
    EXPECT_EQ(row.compute_usd_per_m_tokens, x.compute_cost_per_million_tokens) << row.label;
    EXPECT_EQ(row.hardware_cost_per_run, x.hardware_cost_per_run) << row.label;
    EXPECT_EQ(row.label, r.options[0].label);
  }
}

TEST(Compare, OneRowByHand) {
  // p5.48xlarge on demand, 16 instances (128 H100s) for the 8B on 2T tokens:
  //   FLOPs per token 6N + 12·l·h·s = 6 × 8.03e9 + 12 × 32 × 4,096 × 8,192 = 61,064,901,888;
  //   tokens/s per chip = MFU × 989 TFLOP/s ÷ that: at the model's MFU 0.51445 that is 8,332.0
  //   (the step-time model's H100 prediction; 0.51264 before NVIDIA's gradients were reduced in FP32
  //   and its factors refitted: matmul efficiency 0.8135 → 0.8269 of MAMF);
  //   training hours 2e12 ÷ (8,332.0 × 128) ÷ 3,600 = 520.9 h, ÷ goodput plus compilation → 522.9 h;
  //   hardware 522.9 h × 16 × $55.04 (= 8 × $6.88 a chip-hour) = $460,443;
  //   compute only $/M tokens = $460,443 ÷ (2e12 ÷ 1e6) = $0.2302.
  CompareOptions options;
  options.instances = 16;
  const ChipComparison c = compare_chips(llama8b(), builtin_catalog(), options);
  const CompareRow& r = row_of(c, "p5.48xlarge", PricingModel::OnDemand);
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(r.chips, 128);
  EXPECT_DOUBLE_EQ(r.price_usd_per_instance_hour, 55.04);
  EXPECT_DOUBLE_EQ(r.price_usd_per_chip_hour, 6.88);
  EXPECT_NEAR(r.tokens_per_sec_per_chip, r.mfu * 989e12 / 61064901888.0, 1e-6 * r.tokens_per_sec_per_chip);
  EXPECT_NEAR(r.mfu, 0.5145, 0.01) << "the step-time model's H100 prediction for this job";
  const double training_hours = 2e12 / (r.tokens_per_sec_per_chip * 128) / 3600;
  EXPECT_GT(r.wall_clock_hours, training_hours);            // goodput losses and compilation come on top
  EXPECT_LT(r.wall_clock_hours, training_hours * 1.02);     // and they are small here
  EXPECT_NEAR(r.hardware_cost_per_run, r.wall_clock_hours * 16 * 55.04, 1e-6 * r.hardware_cost_per_run);
  EXPECT_NEAR(r.compute_usd_per_m_tokens, r.hardware_cost_per_run / 2e6, 1e-12);
  EXPECT_NEAR(r.compute_usd_per_m_tokens, 0.2330, 0.005);
  EXPECT_EQ(r.evidence, Evidence::Validated);
  const std::vector<std::string> cells = compare_cells(r);
  ASSERT_EQ(cells.size(), compare_columns().size());
  EXPECT_EQ(cells[3], "$6.880");
  EXPECT_EQ(cells[4], "16 (128 chips)");
  EXPECT_EQ(cells[8], fmt::printf_c("$%.3f", r.compute_usd_per_m_tokens));  // the compute $/M tokens above (0.2330 ± 0.005), printed to the tenth of a cent
  EXPECT_EQ(cells[9], "validated");
}

TEST(Compare, SortsAndPutsRowsThatCannotRunLast) {
  for (CompareSort sort : {CompareSort::Cost, CompareSort::Time, CompareSort::Throughput}) {
    CompareOptions options;
    options.chips = 16;  // too few chips for some instances' memory is fine: those rows come last
    options.sort = sort;
    const ChipComparison c = compare_chips(llama8b(), builtin_catalog(), options);
    bool seen_infeasible = false;
    for (size_t i = 0; i < c.rows.size(); ++i) {
      const CompareRow& r = c.rows[i];
      EXPECT_GE(r.chips, 16) << r.label << ": the fewest instances with at least 16 chips";
      if (!r.feasible) {
        seen_infeasible = true;
      } else {
        EXPECT_FALSE(seen_infeasible) << r.label << " runs but comes after a row that cannot";
      }
      if (i == 0 || !r.feasible || !c.rows[i - 1].feasible) continue;
      const CompareRow& p = c.rows[i - 1];
      if (sort == CompareSort::Cost) {
        EXPECT_LE(p.compute_usd_per_m_tokens, r.compute_usd_per_m_tokens);
      } else if (sort == CompareSort::Time) {
        EXPECT_LE(p.wall_clock_hours, r.wall_clock_hours);
      } else {
        EXPECT_GE(p.tokens_per_sec_per_chip, r.tokens_per_sec_per_chip);
      }
    }
  }
}

TEST(Compare, EvidenceFollowsTheStepTimeModelsBand) {
  CompareOptions options;
  options.instances = 16;
  const ChipComparison c = compare_chips(llama8b(), builtin_catalog(), options);
  // Trainium2's calibration rests on a handful of published rows: predicted, and its figures marked.
  const CompareRow& trn2 = row_of(c, "trn2.48xlarge", PricingModel::OnDemand);
  EXPECT_EQ(trn2.evidence, Evidence::Predicted);
  EXPECT_EQ(compare_cells(trn2)[8].rfind(kEstimateMark, 0), 0u) << compare_cells(trn2)[8];
  EXPECT_FALSE(trn2.reasons.empty());
  for (const std::string& reason : trn2.reasons) EXPECT_EQ(reason.find("porting"), std::string::npos) << "no one-time costs here";
}

TEST(Compare, TheApiReadsAPresetAScenarioAndAConfig) {
  // A preset by a unique part of its name; tokens replace its target and its name follows them.
  ApiReply reply = api_compare("\"mixtral\"", R"({"tokens": 1e11, "instances": 2, "sort": "time"})");
  ASSERT_TRUE(reply.ok) << reply.json;
  Json j = Json::parse(reply.json);
  EXPECT_EQ(j["workload"], "MoE 47B total / 13B active, 100B tokens, quarterly");  // the preset runs 4 times a year
  EXPECT_EQ(j["target_tokens"], 1e11);
  EXPECT_EQ(j["sort"], "time");
  EXPECT_EQ(j["columns"].size(), compare_columns().size());
  // A scenario: its workload, and the CLI's rows.
  reply = api_compare(test::read_source_file("assets/scenarios/llama3-8b-pretrain.json"), R"({"instances": 16})");
  ASSERT_TRUE(reply.ok) << reply.json;
  j = Json::parse(reply.json);
  EXPECT_EQ(j["target_tokens"], 2e12);
  // A Hugging Face config needs the tokens.
  const char* config = R"({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
      "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256, "max_position_embeddings": 8192})";
  reply = api_compare(config, "{}");
  EXPECT_FALSE(reply.ok);
  EXPECT_NE(reply.json.find("options.tokens"), std::string::npos) << reply.json;
  reply = api_compare(config, R"({"tokens": 2e12, "chips": 64})");
  ASSERT_TRUE(reply.ok) << reply.json;
  // Bad input names the field.
  reply = api_compare("\"no such preset\"", "{}");
  EXPECT_FALSE(reply.ok);
  EXPECT_NE(reply.json.find("no preset is called"), std::string::npos) << reply.json;
  reply = api_compare("\"llama\"", "{}");  // three presets hold "llama"
  EXPECT_NE(reply.json.find("more than one preset"), std::string::npos) << reply.json;
  reply = api_compare("\"mixtral\"", R"({"instances": 2, "chips": 16})");
  EXPECT_NE(reply.json.find("not both"), std::string::npos) << reply.json;
  reply = api_compare("\"mixtral\"", R"({"sort": "price"})");
  EXPECT_NE(reply.json.find("options.sort"), std::string::npos) << reply.json;
}

TEST(TokenPrices, ComputeOnlyIsTheHardwareAllInTheFullyLoadedCost) {
  // Hardware $100k a run and one-time $60k over 6 runs on 2T tokens: compute only $100k ÷ 2e6 =
  // $0.05 per M tokens; all-in ($100k + $60k ÷ 6) ÷ 2e6 = $0.055.
  Scenario s;
  s.workloads = {llama8b()};
  Option o;
  o.instance = "p5.48xlarge";
  o.instances = 16;
  s.options = {o};
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const OptionResult x = evaluate(r).workloads[0].options[0];
  EXPECT_DOUBLE_EQ(x.compute_cost_per_million_tokens, x.hardware_cost_per_run / 2e6);
  EXPECT_DOUBLE_EQ(x.cost_per_million_tokens, x.cost_per_run / 2e6);
  EXPECT_LE(x.compute_cost_per_million_tokens, x.cost_per_million_tokens);
  const std::vector<std::string> cells = result_cells("x", x);
  EXPECT_EQ(cells[column_index(ResultCol::ComputeUsdPerMTokens)], fmt::usd_rate(x.compute_cost_per_million_tokens));
  EXPECT_EQ(cells[column_index(ResultCol::UsdPerMTokens)], fmt::usd_rate(x.cost_per_million_tokens));
}

TEST(WorkloadNames, AnAutomaticNameFollowsTheNumbersATypedOneIsKept) {
  Workload w = llama8b();
  EXPECT_EQ(workload_title(w, 0), "8B, 2T tokens");
  w.target.tokens = 5e11;
  EXPECT_EQ(workload_title(w, 0), "8B, 500B tokens");
  w.model.params = 4.67e10;
  w.model.active_params = 1.29e10;
  EXPECT_EQ(workload_title(w, 0), "MoE 47B total / 13B active, 500B tokens");
  w.deadline_days = 10;
  EXPECT_EQ(workload_title(w, 0), "MoE 47B total / 13B active, 500B tokens, within 10 days");
  w.deadline_days = 1;
  EXPECT_EQ(workload_title(w, 0), "MoE 47B total / 13B active, 500B tokens, within 1 day");
  w = llama8b();
  w.model.params = 1.24e9;
  w.target.tokens = 2e10;
  w.runs = 52;
  EXPECT_EQ(workload_title(w, 0), "1.2B, 20B tokens, weekly");
  w.runs = 12;
  w.fine_tune.mode = FineTuneMode::Lora;
  EXPECT_EQ(workload_title(w, 0), "1.2B LoRA, 20B tokens, monthly");
  w.target.kind = TargetKind::Loss;
  w.target.loss = 1.95;
  w.runs = 4;
  EXPECT_EQ(workload_title(w, 0), "1.2B LoRA, to loss 1.95, quarterly");
  w.name = "My run";
  EXPECT_EQ(workload_title(w, 0), "My run") << "a typed name is kept";
  w.target.loss = 2.1;
  EXPECT_EQ(workload_title(w, 0), "My run");
}

TEST(WorkloadNames, OldLinksKeepTheirNames) {
  // A link made when the examples carried typed names decodes with that name: same meaning.
  const Scenario s = test::scenario(R"({"version": 1, "workloads": [{"name": "MoE 47B total / 13B active, 500B tokens", "model": {"params": 4.67e10,
        "active_params": 1.29e10}, "target": {"tokens": 1e11}}], "options": [{"instance": "p5.48xlarge", "instances": 4}]})");
  EXPECT_EQ(workload_title(s.workloads[0], 0), "MoE 47B total / 13B active, 500B tokens");
}

}  // namespace
}  // namespace traincost
