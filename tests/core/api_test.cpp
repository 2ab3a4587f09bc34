// The JSON-text API every binding uses (api.hpp): replies equal the documents the CLI prints,
// errors carry every problem, every function is reachable by name, and the analyze options are
// checked with the messages the CLI and the packages share.
#include <string>

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/api/api.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/output/report.hpp"

namespace traincost {
namespace {

Json reply_json(const ApiReply& reply) {
  Problems problems;
  const auto j = parse_json(reply.json, problems);
  EXPECT_TRUE(j) << reply.json;
  return j ? *j : Json();
}

TEST(Api, EvaluateRepliesWithTheResultsJson) {
  const std::string text = test::read_source_file("assets/scenarios/llama3-8b-pretrain.json");
  const ApiReply reply = api_evaluate(text);
  ASSERT_TRUE(reply.ok) << reply.json;
  const Scenario s = test::scenario(text);
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const Results res = evaluate(r);
  EXPECT_EQ(reply.json, results_to_json(s, r, res, quick_odds(s, builtin_catalog(), res)).dump());  // with the odds, as the CLI
}

TEST(Api, ErrorsListEveryProblemWithItsPath) {
  const ApiReply reply = api_evaluate(test::simple_scenario(R"("model":{"params":-1},"target":{"tokens":1e11},"runs":0)"));
  ASSERT_FALSE(reply.ok);
  const Json j = reply_json(reply);
  EXPECT_EQ(j["error"], "invalid scenario");
  ASSERT_EQ(j["problems"].size(), 2u) << reply.json;
  EXPECT_EQ(j["problems"][0]["path"], "workloads[0].model.params");
  EXPECT_EQ(j["problems"][1]["path"], "workloads[0].runs");
}

TEST(Api, EveryFunctionIsReachableByName) {
  const std::string text = test::read_source_file("assets/scenarios/mixtral-moe.json");
  for (const ApiFunction& f : api_functions()) {
    const std::string name = f.name;
    const std::string first = name == "decode_link" ? "#s=1.x"
                              : name == "import_hf" ? test::read_source_file("tests/cli/data/llama3-8b-config.json")
                                                    : text;
    const ApiReply by_name = api_call(f.name, first, R"({"samples": 100})");
    const ApiReply direct = f.call(first, R"({"samples": 100})");
    EXPECT_EQ(by_name.json, direct.json) << f.name;
    EXPECT_FALSE(by_name.json.empty()) << f.name;
  }
  const ApiReply unknown = api_call("frobnicate");
  EXPECT_FALSE(unknown.ok);
  EXPECT_EQ(reply_json(unknown)["problems"][0]["message"], "no API function named \"frobnicate\"");
}

TEST(Api, LinksRoundTrip) {
  const std::string text = test::read_source_file("assets/scenarios/portfolio-multicloud.json");
  const ApiReply link = api_encode_link(text);
  ASSERT_TRUE(link.ok);
  const Json l = reply_json(link);
  EXPECT_EQ(l["link"].get<std::string>(), "#" + l["fragment"].get<std::string>());
  const ApiReply decoded = api_decode_link(l["link"].get<std::string>());
  ASSERT_TRUE(decoded.ok) << decoded.json;
  const Json d = reply_json(decoded);
  EXPECT_EQ(api_evaluate(d["scenario"].dump()).json, api_evaluate(text).json);
  EXPECT_FALSE(api_decode_link("#s=1.xyz").ok);
}

TEST(Api, AnalyzeOptionsAreChecked) {
  const std::string text = test::read_source_file("assets/scenarios/llama3-8b-pretrain.json");
  EXPECT_TRUE(api_analyze(text, R"({"samples": 100, "seed": 9007199254740991, "workload": 0})").ok);
  EXPECT_EQ(api_analyze(text, "").json, api_analyze(text, "{}").json);
  const struct {
    const char* options;
    const char* problem;
  } cases[] = {
      {R"({"samples": 99})", "options.samples: must be a whole number from 100 to 1000000"},
      {R"({"samples": 1e3})", "options.samples: must be a whole number from 100 to 1000000"},
      {R"({"seed": -1})", "options.seed: must be a whole number from 0 to 2^53-1"},
      {R"({"seed": 18446744073709551615})", "options.seed: must be a whole number from 0 to 2^53-1"},
      {R"({"workload": 1})", "options.workload: must be a workload index from 0 to 0"},
      {R"({"bogus": 1})", "options.bogus: unknown option (samples, seed or workload)"},
      {"[]", "options: must be a JSON object"},
  };
  for (const auto& c : cases) {
    const ApiReply reply = api_analyze(text, c.options);
    ASSERT_FALSE(reply.ok) << c.options;
    const Json p = reply_json(reply)["problems"][0];
    EXPECT_EQ(p["path"].get<std::string>() + ": " + p["message"].get<std::string>(), c.problem);
  }
  const ApiReply broken = api_analyze(text, "{");
  ASSERT_FALSE(broken.ok);
  EXPECT_EQ(reply_json(broken)["problems"][0]["path"], "options");
}

TEST(Api, PilotOptionsAreChecked) {
  const std::string text = test::read_source_file("assets/scenarios/llama3-8b-pretrain.json");
  const ApiReply plan = api_pilot(text, R"({"samples": 200, "seed": 3, "fraction": 0.02, "instances": 8, "candidate": 0, "against": 1})");
  ASSERT_TRUE(plan.ok) << plan.json;
  const Json j = reply_json(plan);
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["run"]["fraction"], 0.02);
  EXPECT_EQ(j["run"]["instances"], 8);
  EXPECT_EQ(j["value"]["samples"], 200);
  const struct {
    const char* options;
    const char* problem;
  } cases[] = {
      {R"({"candidate": 2})", "options.candidate: must be an option index from 0 to 1"},
      {R"({"against": -1})", "options.against: must be an option index from 0 to 1"},
      {R"({"candidate": 1, "against": 1})", "options.against: must be another option than the candidate"},
      {R"({"fraction": 0})", "options.fraction: must be a number from 0.001 to 1 (a share of a full run; a shorter pilot measures its warm-up)"},
      {R"({"fraction": "half"})", "options.fraction: must be a number from 0.001 to 1 (a share of a full run; a shorter pilot measures its warm-up)"},
      {R"({"fraction": 1e-300})", "options.fraction: must be a number from 0.001 to 1 (a share of a full run; a shorter pilot measures its warm-up)"},
      {R"({"fraction": 0.000999})", "options.fraction: must be a number from 0.001 to 1 (a share of a full run; a shorter pilot measures its warm-up)"},
      {R"({"fraction": -0.5})", "options.fraction: must be a number from 0.001 to 1 (a share of a full run; a shorter pilot measures its warm-up)"},
      {R"({"instances": 0.5})", "options.instances: must be a whole number from 1 to 100000"},
      {R"({"samples": 99})", "options.samples: must be a whole number from 100 to 1000000"},
      {R"({"bogus": 1})", "options.bogus: unknown option (workload, candidate, against, fraction, instances, samples or seed)"},
  };
  for (const auto& c : cases) {
    const ApiReply reply = api_pilot(text, c.options);
    ASSERT_FALSE(reply.ok) << c.options;
    const Json p = reply_json(reply)["problems"][0];
    EXPECT_EQ(p["path"].get<std::string>() + ": " + p["message"].get<std::string>(), c.problem);
  }
  // A plan that cannot be made is an answer, not an error.
  const Json none = reply_json(api_pilot(text, R"({"instances": 17})"));
  EXPECT_EQ(none["ok"], false);
  EXPECT_EQ(none["recommendation"], "no plan");
}

TEST(Api, CatalogSchemaAndVersion) {
  const Json catalog = reply_json(api_catalog());
  EXPECT_EQ(catalog["catalog_version"], builtin_catalog().version);
  EXPECT_EQ(catalog["chips"].size(), builtin_catalog().chips.size());
  const Json schema = reply_json(api_schema());
  EXPECT_EQ(schema["scenario_format"], kScenarioVersion);
  EXPECT_FALSE(schema["fields"].empty());
  const Json version = reply_json(api_version());
  EXPECT_EQ(version["traincost"], TRAINCOST_VERSION);
}

TEST(Api, ExplainHasTheStepsAndTheText) {
  const std::string text = test::read_source_file("assets/scenarios/finetune-1b.json");
  const Json e = reply_json(api_explain(text));
  const Json& steps = e["workloads"][0]["options"][0]["steps"];
  ASSERT_FALSE(steps.empty());
  EXPECT_NE(e["text"].get<std::string>().find(steps[0]["formula"].get<std::string>()), std::string::npos);
}

TEST(Api, NothingAbortsOnBytesThatAreNotText) {
  static constexpr char kBytes[] = "{\"name\": \"\xff\xfe\", \0 }";  // invalid UTF-8 and a NUL
  const std::string bytes(kBytes, sizeof kBytes - 1);
  EXPECT_FALSE(api_evaluate(bytes).ok);
  EXPECT_FALSE(api_import_hf(bytes).ok);
  EXPECT_FALSE(api_decode_link(bytes).ok);
  EXPECT_FALSE(api_analyze("{}", bytes).ok);
  EXPECT_FALSE(api_pilot("{}", bytes).ok);
}

}  // namespace
}  // namespace traincost
