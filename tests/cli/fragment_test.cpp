// The fragment grammar through the CLI (issue row 15): `traincost evaluate --link TEXT` opens the
// scenario each case of tests/links/fragments.json names, or exits 2 with the problem it names,
// exactly as the core test and the page do.
#include <fstream>
#include <iterator>
#include <map>

#include <gtest/gtest.h>

#include "cli_support.hpp"
#include "traincost/base/json_text.hpp"

namespace traincost::test {
namespace {

TEST(Fragments, TheCliReadsEveryCaseOfTheCorpusAsTheCoreDoes) {
  const std::string root = TRAINCOST_SOURCE_DIR;
  std::ifstream f(root + "/tests/links/fragments.json", std::ios::binary);
  const Json corpus = Json::parse(std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()), nullptr, false);
  ASSERT_TRUE(corpus.is_object());
  std::map<std::string, std::string> payloads, results;
  for (const auto& item : corpus["payloads"].items()) {
    const std::string file = root + "/assets/scenarios/" + item.value().get<std::string>();
    const CliRun link = run_cli({"link", file});
    ASSERT_EQ(link.status, 0) << link.err;
    ASSERT_EQ(link.out.rfind("#s=", 0), 0u);
    payloads[item.key()] = link.out.substr(3, link.out.find('\n') - 3);
    results[item.key()] = run_cli({"evaluate", file, "--format", "json"}).out;
  }
  for (const Json& c : corpus["cases"]) {
    std::string text = c["text"].get<std::string>();
    for (const auto& [name, payload] : payloads)
      for (const std::string& key : {"{" + name + ".data}", "{" + name + "}"})
        for (size_t at; (at = text.find(key)) != std::string::npos;)
          text.replace(at, key.size(), key.find(".data") != std::string::npos ? payload.substr(2) : payload);
    const std::string name = c["name"].get<std::string>();
    const CliRun run = run_cli({"evaluate", "--link", text, "--format", "json"});
    if (c.contains("opens")) {
      EXPECT_EQ(run.status, 0) << name << ": " << run.err;
      EXPECT_EQ(run.out, results[c["opens"].get<std::string>()]) << name;
    } else {
      EXPECT_EQ(run.status, 2) << name;
      EXPECT_NE(run.err.find(c["problem"].get<std::string>()), std::string::npos) << name << ": " << run.err;
      EXPECT_TRUE(terminal_safe(run.err)) << name;
    }
  }
}

}  // namespace
}  // namespace traincost::test
