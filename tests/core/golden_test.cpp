// Native/WebAssembly parity: the results, the Monte Carlo and the pilot plan (its value of
// information is a Monte Carlo too) of every example scenario, as JSON text, equal the files in
// tests/golden/ to the last character. Both CTest presets run this test
// against the same files, so passing in both means the two builds compute identical bits.
// After a deliberate change of the model or the catalog, regenerate with scripts/update-golden
// and review the diff.
#include <cstdlib>
#include <fstream>

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/engine/pilot.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/output/analysis_report.hpp"
#include "traincost/output/report.hpp"
#include "traincost/engine/uncertainty.hpp"

namespace traincost {
namespace {

class Golden : public ::testing::TestWithParam<const char*> {};

void compare_or_update(const std::string& relative, const std::string& actual) {
  if (std::getenv("TRAINCOST_UPDATE_GOLDEN")) {
    std::ofstream(std::string(TRAINCOST_SOURCE_DIR) + "/" + relative) << actual;
    return;
  }
  const std::string expected = test::read_source_file(relative);
  EXPECT_EQ(actual, expected) << relative << " differs (run scripts/update-golden after a deliberate change)";
}

TEST_P(Golden, ResultsMonteCarloAndPilotMatchToTheBit) {
  const std::string name = GetParam();
  const Scenario s = test::scenario(test::read_source_file("assets/scenarios/" + name + ".json"));
  const ResolvedScenario r = resolve(s, builtin_catalog());
  compare_or_update("tests/golden/" + name + ".results.json", results_to_json(s, r, evaluate(r)).dump(1) + "\n");
  AnalyzeOptions options;
  options.samples = 4000;
  options.seed = 2026;
  compare_or_update("tests/golden/" + name + ".analysis.json",
                    analysis_to_json(s, r, analyze(s, builtin_catalog(), options)).dump(1) + "\n");
  PilotOptions pilot;
  pilot.samples = 4000;
  pilot.seed = 2026;
  compare_or_update("tests/golden/" + name + ".pilot.json", pilot_to_json(s, r, plan_pilot(s, r, builtin_catalog(), pilot)).dump(1) + "\n");
}

INSTANTIATE_TEST_SUITE_P(Scenarios, Golden,
                         ::testing::ValuesIn(test::kExamples));

}  // namespace
}  // namespace traincost
