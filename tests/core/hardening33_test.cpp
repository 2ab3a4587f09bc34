// Issue 33, second hardening pass: the classes whose rule lives in the core. Each test holds
// variants of the class, not only the case reported. The Python package's reader, locale and
// errors are tested in python/tests/test_hardening.py, npm's in npm/test/errors.test.mjs, failed
// writes in tests/cli/write_errors.sh.
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/api/api.hpp"
#include "traincost/base/format.hpp"
#include "traincost/base/json_text.hpp"
#include "traincost/base/text.hpp"
#include "traincost/scenario/labels.hpp"

namespace traincost {
namespace {

Json reply_of(const ApiReply& reply) { return Json::parse(reply.json); }

std::string scenario(const std::string& options, const std::string& workload = R"({"model":{"params":8e9},"target":{"tokens":1e11}})") {
  return R"({"version":1,"workloads":[)" + workload + R"(],"options":)" + options + "}";
}

// ---- Item 7: explain says why there is no time or cost, with no inf or n/a arithmetic ---------

// A word "inf", "nan" or "n/a" anywhere in a step: the arithmetic of a figure that does not exist.
bool shows_non_finite(const std::string& text) {
  static const std::regex word(R"((^|[^A-Za-z])(inf|nan|n/a)([^A-Za-z]|$))", std::regex::icase);
  return std::regex_search(text, word);
}

TEST(Explain33, AnOptionThatCannotRunShowsNoInfiniteArithmetic) {
  const std::vector<std::pair<const char*, std::string>> cases = {
      // The issue's case: 100,000 instances, no layout can spread the batch: no FLOP/s at all.
      {"no_layout", scenario(R"([{"instance":"trn2.48xlarge","instances":100000,"reliability":{"mtbf_hours_per_instance":1}},
                                  {"instance":"p5.48xlarge","instances":4}])")},
      // Fails faster than it can checkpoint: goodput near 0.
      {"fails_too_often", scenario(R"([{"instance":"trn2.48xlarge","instances":2000,"reliability":{"mtbf_hours_per_instance":1}},
                                        {"instance":"p5.48xlarge","instances":4}])")},
      // A job no layout fits in memory.
      {"does_not_fit", scenario(R"([{"instance":"trn2.48xlarge","instances":1},{"instance":"p5.48xlarge","instances":1}])",
                                R"({"model":{"params":2e12},"target":{"tokens":1e11}})")},
      // Both options unable to run, one by memory, one by goodput, with a measured throughput.
      {"measured_and_failing", scenario(R"([{"instance":"p5.48xlarge","instances":4000,"measured_tokens_per_sec_per_chip":3000,
                                              "reliability":{"mtbf_hours_per_instance":1}},{"instance":"p5.48xlarge","instances":4}])")},
  };
  for (const auto& [name, text] : cases) {
    SCOPED_TRACE(name);
    const ApiReply reply = api_explain(text);
    ASSERT_TRUE(reply.ok) << reply.json;
    const Json j = reply_of(reply);
    bool some_cannot_run = false;
    for (const Json& w : j["workloads"])
      for (const Json& o : w["options"]) {
        const Json& steps = o["steps"];
        ASSERT_FALSE(steps.empty());
        const bool cannot = steps.back()["quantity"] == "Cannot run the job";
        some_cannot_run = some_cannot_run || cannot;
        if (!cannot) continue;
        EXPECT_EQ(steps.back()["substituted"], "no time or cost is given");
        EXPECT_FALSE(steps.back()["formula"].get<std::string>().empty());  // the reason
        for (const Json& s : steps) {
          const std::string line = s["substituted"].get<std::string>() + " " + s["result"].get<std::string>();
          EXPECT_FALSE(shows_non_finite(line)) << s["quantity"] << ": " << line;
        }
      }
    EXPECT_TRUE(some_cannot_run);
    EXPECT_FALSE(shows_non_finite(j["text"].get<std::string>())) << j["text"].get<std::string>();
  }
}

// ---- Item 8: no autolink in Markdown -----------------------------------------------------------

TEST(Markdown33, NoAddressOrEmailIsLeftAutolinkable) {
  const std::string wj = "\xE2\x81\xA0";  // U+2060 word joiner
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"https://evil.example/p", "https\\://evil.example/p"},
      {"http://evil.example", "http\\://evil.example"},
      {"ftp://evil.example/x", "ftp\\://evil.example/x"},
      {"www.evil.example", "www\\.evil.example"},
      {"go WWW.evil.example", "go WWW\\.evil.example"},
      {"(www.evil.example)", "(www\\.evil.example)"},
      {"mailto:me@evil.example", "mailto\\:me@" + wj + "evil.example"},
      {"me@evil.example", "me@" + wj + "evil.example"},
      {"xmpp:me@evil.example/r", "xmpp\\:me@" + wj + "evil.example/r"},
      {"Trn2 x16 (1-yr)", "Trn2 x16 (1-yr)"},  // ordinary labels unchanged
  };
  for (const auto& [label, escaped] : cases) EXPECT_EQ(escape_markdown(label), escaped) << label;
}

// ---- Item 9: impossible inputs are refused, naming the field -----------------------------------

std::vector<std::string> problems_of(const std::string& text) {
  const ApiReply reply = api_evaluate(text);
  std::vector<std::string> out;
  if (reply.ok) return out;
  const Json j = reply_of(reply);  // kept: a loop over a temporary's member reads freed memory
  for (const Json& p : j["problems"]) out.push_back(p["path"].get<std::string>() + ": " + p["message"].get<std::string>());
  return out;
}

TEST(Impossible33, ArchitecturesThatCannotExist) {
  const std::string options = R"([{"instance":"trn2.48xlarge","instances":16},{"instance":"p5.48xlarge","instances":32}])";
  const auto model = [&](const std::string& fields) {
    return scenario(options, R"({"model":{"params":8e9,"layers":32,"hidden":4096,"seq_len":8192,)" + fields + R"(},"target":{"tokens":1e11}})");
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"("heads":32,"kv_heads":64)", "workloads[0].model.kv_heads: must not exceed heads (32), got 64"},
      {R"("heads":32,"kv_heads":33)", "workloads[0].model.kv_heads: must not exceed heads (32), got 33"},
      {R"("heads":32,"kv_heads":12)", "workloads[0].model.kv_heads: must divide heads (32: each key/value head serves the same number of heads), got 12"},
      {R"("heads":32,"experts":8,"experts_per_token":9,"active_params":2e9)", "workloads[0].model.experts_per_token: must not exceed experts (8), got 9"},
      {R"("heads":32,"experts":2,"experts_per_token":64,"active_params":2e9)", "workloads[0].model.experts_per_token: must not exceed experts (2), got 64"},
  };
  for (const auto& [fields, message] : cases) {
    const std::vector<std::string> p = problems_of(model(fields));
    EXPECT_NE(std::find(p.begin(), p.end(), message), p.end()) << fields << " gave: " << (p.empty() ? "accepted" : p[0]);
  }
  for (const char* fine : {R"("heads":32,"kv_heads":8)", R"("heads":32,"kv_heads":32)", R"("heads":32,"experts":8,"experts_per_token":8,"active_params":8e9)"})
    EXPECT_TRUE(problems_of(model(fine)).empty()) << fine;
}

TEST(Impossible33, ALayoutWiderThanTheCluster) {
  const std::string options = R"([{"instance":"trn2.48xlarge","instances":2},{"instance":"p5.48xlarge","instances":4}])";
  const auto with = [&](const std::string& overrides) {
    return scenario(options, R"({"model":{"params":8e9},"target":{"tokens":1e11},"overrides":[)" + overrides + "]}");
  };
  // p5: 4 × 8 = 32 chips; trn2: 2 × 16 = 32 chips.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"option":1,"parallelism":{"tensor":64}})",
       "workloads[0].overrides[0].parallelism.tensor: is 64, more chips than options[1] has 32 chips (4 instances of 8)"},
      {R"({"option":0,"parallelism":{"tensor":8,"pipeline":8}})",
       "workloads[0].overrides[0].parallelism: tensor × pipeline × context × data is 64 chips, more than options[0] has 32 chips (2 instances of 16)"},
      {R"({"option":1,"parallelism":{"tensor":4,"data":16}})",
       "workloads[0].overrides[0].parallelism: tensor × pipeline × context × data is 64 chips, more than options[1] has 32 chips (4 instances of 8)"},
  };
  for (const auto& [pin, message] : cases) {
    const std::vector<std::string> p = problems_of(with(pin));
    EXPECT_NE(std::find(p.begin(), p.end(), message), p.end()) << pin << " gave: " << (p.empty() ? "accepted" : p[0]);
  }
  EXPECT_TRUE(problems_of(with(R"({"option":1,"parallelism":{"tensor":8,"pipeline":4}})")).empty());
  // A deadline sizes the cluster itself: no fixed size to compare with.
  EXPECT_TRUE(problems_of(scenario(options, R"({"model":{"params":8e9},"target":{"tokens":1e11},"deadline_days":30,
                                                "overrides":[{"option":1,"parallelism":{"tensor":64}}]})")).empty());
}

TEST(Impossible33, LabelsThatReadAlikeAreToldApart) {
  const std::vector<std::vector<std::string>> cases = {
      {"Same", "Same"}, {"Same", "Same "}, {"Same", " Same"}, {"Same", "same"}, {"Same", "SAME"},
      {"Same x", "Same  x"}, {"Same", "Same\xC2\xA0"}, {"Same", "Same\xE3\x80\x80"}};
  for (const auto& labels : cases) {
    const std::vector<std::string> out = distinct_labels(labels);
    EXPECT_EQ(out[0], labels[0]);
    EXPECT_NE(out[1], labels[1]) << labels[1];
    EXPECT_EQ(out[1].substr(out[1].size() - 3), " #2") << out[1];
  }
  EXPECT_EQ(distinct_labels({"Same", "Same "})[1], "Same #2");
  EXPECT_EQ(distinct_labels({"Same", "Sane"})[1], "Sane");
  // The verdict names two different options.
  const ApiReply reply = api_evaluate(scenario(R"([{"instance":"trn2.48xlarge","instances":4,"label":"Same"},
                                                   {"instance":"p5.48xlarge","instances":4,"label":"Same "}])"));
  ASSERT_TRUE(reply.ok);
  const std::string verdict = reply_of(reply)["workloads"][0]["verdict"];
  EXPECT_EQ(verdict.find("Same is"), std::string::npos);
  EXPECT_NE(verdict.find("Same #2"), std::string::npos) << verdict;
}

// ---- Item 3: numbers do not depend on the C locale (the Python test sets a real one) ------------

TEST(Locale33, FormattingAndParsingMatchPrintfInTheCLocale) {
  const std::vector<std::pair<const char*, double>> cases = {
      {"%.2f", 54.14}, {"%.0f", 2750}, {"%.3g", 0.000123456}, {"%.10g", 1.0 / 3}, {"%+.0f%%", 12.5}, {"%.1f h", 7.25},
      {"%.3g years", 1.5e300}, {"%.0f", 1e20}, {"%.4g", -0.5}, {"%.2g", 3.1e161}, {"x%%y%.1fz", 2.0}};
  for (const auto& [format, v] : cases) {
    char expected[512];
    std::snprintf(expected, sizeof expected, format, v);  // the test process runs in the C locale
    EXPECT_EQ(fmt::printf_c(format, v), expected) << format;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    char expected[64];
    std::snprintf(expected, sizeof expected, "%.*g", precision, 0.1);
    EXPECT_EQ(fmt::printf_c("%.*g", 0.1, precision), expected);
  }
  for (const char* text : {"0.1", "1e16", "-2.5e-300", "9007199254740993", "54.14"})
    EXPECT_EQ(fmt::parse_c(text), std::strtod(text, nullptr)) << text;
}

}  // namespace
}  // namespace traincost
