// The cost-part table (core/include/traincost/engine/cost_parts.hpp) is complete: the recipe "add a
// cost part" (docs/architecture.md) in tests. Each part has its words, a formula with a symbol,
// its place in `traincost schema` (from which the site, the npm types' test and the browser tests
// read the parts), and its step in explain wherever it costs something. That the parts add up to
// the cost per run is tested on every example in examples_test.cpp (breakdown() and the JSON) and
// in the page's chart by tests/browser/calculator.test.mjs.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/api/api.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/engine/cost_parts.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/output/explain.hpp"

namespace traincost {
namespace {

TEST(CostParts, EachRowIsComplete) {
  std::set<std::string> keys, symbols;
  for (size_t i = 0; i < kCostPartCount; ++i) {
    const CostPart& part = kCostParts[i];
    SCOPED_TRACE(part.key);
    EXPECT_NE(std::string(part.key), "");
    EXPECT_NE(std::string(part.label), "");
    EXPECT_NE(std::string(part.meaning), "");
    ASSERT_NE(part.member, nullptr);
    ASSERT_NE(part.formula, nullptr);
    EXPECT_NE(std::string(part.formula->symbol), "");
    EXPECT_TRUE(keys.insert(part.key).second) << "two parts with one key";
    EXPECT_TRUE(symbols.insert(part.formula->symbol).second) << "two parts with one symbol";
    EXPECT_EQ(cost_part_index(part.key), i);
  }
}

TEST(CostParts, EachIsInTheSchemaWithItsSymbol) {
  const OrderedJson schema = schema_json();
  ASSERT_EQ(schema["cost_parts"].size(), kCostPartCount);
  for (size_t i = 0; i < kCostPartCount; ++i) {
    const OrderedJson& row = schema["cost_parts"][i];
    EXPECT_EQ(row["key"], kCostParts[i].key);
    EXPECT_EQ(row["label"], kCostParts[i].label);
    EXPECT_EQ(row["symbol"], kCostParts[i].formula->symbol);
    EXPECT_EQ(row["recurrence"], kCostParts[i].recurrence == Recurrence::PerRun ? "per_run" : "fixed");
  }
  // The cost per run in their symbols, per-run parts first (today's parts, in the table's order).
  EXPECT_EQ(schema["total_formula"], "total = (Hc + Hk + E + St + Dl) + (Op + Ov + Mt + Rp) / runs");
  EXPECT_EQ(total_formula(false), "total = (Hc + Hk + E + St) + (Op + Ov + Mt + Rp) / runs");
}

// Explain shows the formula of every part that costs something, with the example's numbers, and
// names each in its total (the cost of delay when the workload values a day).
TEST(CostParts, EachPartThatCostsSomethingHasItsExplainStep) {
  int checked = 0;
  for (const char* name : test::kExamples) {
    const Scenario s = test::example(name);
    const ResolvedScenario r = resolve(s, builtin_catalog());
    const Results res = evaluate(r);
    for (size_t w = 0; w < res.workloads.size(); ++w)
      for (size_t o = 0; o < res.workloads[w].options.size(); ++o) {
        const OptionResult& x = res.workloads[w].options[o];
        if (!x.feasible()) continue;
        std::set<std::string> quantities;
        std::string total;
        for (const ExplainStep& step :
             explain_pair(r.workloads[w], r.workloads[w].options[o], x, res.workloads[w].target_tokens, builtin_catalog())) {
          quantities.insert(step.quantity);
          if (step.formula.rfind("total = ", 0) == 0) total = step.formula + " ";
        }
        const bool delay_valued = s.workloads[w].usd_per_day_of_delay.value_or(0) > 0;
        for (const CostPart& part : kCostParts) {
          const std::string term = std::string(part.formula->symbol) + " ";
          const bool named = total.find("(" + term) != std::string::npos || total.find("+ " + term) != std::string::npos ||
                             total.find(" " + std::string(part.formula->symbol) + ")") != std::string::npos;
          EXPECT_EQ(named, part.cash || delay_valued) << name << " " << w << "/" << o << ": " << part.key << " in " << total;
          if (x.*part.member == 0) continue;
          EXPECT_TRUE(quantities.count(part.formula->quantity)) << name << " " << w << "/" << o << ": no step for " << part.key;
          ++checked;
        }
      }
  }
  EXPECT_GT(checked, 40);
}

// Storage during the run (issue 29 item 7), a per-run part priced per TB-month for the training
// hours. By hand: 10 TB held for 73 h, a tenth of a 730-hour month, at FSx for Lustre's $145 per
// TB-month (125 MB/s per TiB) is 10 × 145 × 0.1 = $145.
TEST(CostParts, StorageIsPricedPerTbMonthForTheTrainingHours) {
  EXPECT_DOUBLE_EQ(storage_cost(10, 145, 73), 145);
  EXPECT_DOUBLE_EQ(storage_cost(10, 23, 730), 230);  // S3 Standard, $0.023 per GB-month, for a month

  // Off by default: no storage_tb, no cost and no explain step.
  const auto run = [](const std::string& porting) {
    const Scenario s = test::scenario(test::simple_scenario(R"("model":{"params":8e9},"target":{"tokens":1e11})",
                                                            R"("instance":"trn2.48xlarge","instances":2)" + porting,
                                                            R"("instance":"p5.48xlarge","instances":4)"));
    const ResolvedScenario r = resolve(s, builtin_catalog());
    const Results res = evaluate(r);
    bool step = false;
    for (const ExplainStep& x : explain_pair(r.workloads[0], r.workloads[0].options[0], res.workloads[0].options[0],
                                             res.workloads[0].target_tokens, builtin_catalog()))
      step = step || x.quantity == kStorageCost.quantity;
    return std::make_pair(res.workloads[0].options[0], step);
  };
  const auto [off, off_step] = run("");
  EXPECT_EQ(off.storage_cost_per_run, 0);
  EXPECT_FALSE(off_step);
  // 50 TB (a 15T-token dataset's copy and a few checkpoints) at the catalog's $145 per TB-month.
  const auto [on, on_step] = run(R"(,"porting":{"storage_tb":50})");
  EXPECT_TRUE(on_step);
  EXPECT_DOUBLE_EQ(on.storage_cost_per_run, 50 * 145 * on.training_hours / 730);
  EXPECT_NEAR(on.cost_per_run - off.cost_per_run, on.storage_cost_per_run, 1e-6 * on.cost_per_run);
  const auto [s3, s3_step] = run(R"(,"porting":{"storage_tb":50,"storage_usd_per_tb_month":23})");
  EXPECT_DOUBLE_EQ(s3.storage_cost_per_run, 50 * 23 * s3.training_hours / 730);
}

}  // namespace
}  // namespace traincost
