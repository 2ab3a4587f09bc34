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
  EXPECT_EQ(schema["total_formula"], "total = (Hc + Hk + E + Dl) + (Op + Ov + Mt + Rp) / runs");
  EXPECT_EQ(total_formula(false), "total = (Hc + Hk + E) + (Op + Ov + Mt + Rp) / runs");
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

}  // namespace
}  // namespace traincost
