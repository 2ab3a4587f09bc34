// The cluster-size sweep: its sizes, and every point equal to evaluating the option at that size.
#include "traincost/api/builtin.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/engine/sweep.hpp"

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/api/api.hpp"

namespace traincost {
namespace {

TEST(Sweep, SizesArePowersOfTwoAndOneAndAHalfTimesThem) {
  EXPECT_EQ(sweep_sizes(10, 9), (std::vector<double>{1, 2, 3, 4, 6, 8, 9, 10}));
  EXPECT_EQ(sweep_sizes(4, 0), (std::vector<double>{1, 2, 3, 4}));
  const std::vector<double> all = sweep_sizes(kDefaultMaxInstances, 0);
  // 13 powers of two from 1 to 4,096 and 11 of 1.5 times them (3 to 3,072)
  EXPECT_EQ(all.size(), 24u);
  EXPECT_EQ(all.back(), 4096);
}

TEST(Sweep, EachPointIsTheOptionEvaluatedAtThatSize) {
  const std::string text = test::simple_scenario(R"("model":{"params":8e9},"target":{"tokens":1e11},"deadline_days":4)",
                                                 R"("instance":"trn2.48xlarge","instances":2,"max_instances":24)",
                                                 R"("instance":"p5.48xlarge","instances":4,"max_instances":16,"wait_days":1)");
  const Scenario s = test::scenario(text);
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Sweep sw = sweep(s, r, builtin_catalog(), 0);
  ASSERT_EQ(sw.options.size(), 2u);
  EXPECT_EQ(sw.deadline_days, 4);
  EXPECT_EQ(sw.options[0].limit, 24);
  for (size_t o = 0; o < 2; ++o) {
    const OptionSweep& os = sw.options[o];
    EXPECT_EQ(os.evaluated_instances, r.workloads[0].options[o].deadline.instances);
    bool has_evaluated = false;
    for (const SweepPoint& point : os.points) {
      Scenario fixed = s;
      fixed.workloads[0].deadline_days.reset();
      fixed.options[o].instances = static_cast<int>(point.instances);
      const OptionResult at = test::run(fixed).workloads[0].options[o];
      EXPECT_EQ(point.feasible, at.feasible()) << o << " " << point.instances;
      if (!at.feasible()) continue;
      EXPECT_EQ(point.cost_per_run, at.cost_per_run) << o << " " << point.instances;
      EXPECT_EQ(point.days_to_model, at.days_to_model);
      EXPECT_EQ(point.in_time, at.days_to_model <= 4);
      has_evaluated |= point.instances == os.evaluated_instances;
    }
    EXPECT_TRUE(has_evaluated) << o;
  }
}

TEST(Sweep, TheApiAndItsOptions) {
  const std::string text = test::read_source_file("assets/scenarios/llama3-8b-pretrain.json");
  const ApiReply reply = api_call("sweep", text, "{}");
  ASSERT_TRUE(reply.ok) << reply.json;
  const Json j = Json::parse(reply.json);
  EXPECT_EQ(j["options"].size(), 2u);
  EXPECT_EQ(j["options"][0]["evaluated_instances"], 16);
  EXPECT_TRUE(j["deadline_days"].is_null());
  const ApiReply bad = api_call("sweep", text, R"({"workload":3})");
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.json.find("options.workload"), std::string::npos) << bad.json;
  EXPECT_NE(api_call("sweep", text, R"({"samples":3})").json.find("unknown option (workload)"), std::string::npos);
}

}  // namespace
}  // namespace traincost
