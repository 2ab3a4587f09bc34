// Share links: round trip, hostile input, and the corpus of released links.
#include "traincost/api/builtin.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/io/link.hpp"

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/output/report.hpp"

namespace traincost {
namespace {

using test::kExamples;

using test::example;

TEST(Link, RoundTripIsTheIdentity) {
  for (const char* name : kExamples) {
    const Scenario s = example(name);
    const std::string link = encode_link(s);
    Problems problems;
    const auto back = decode_link("#s=" + link, builtin_catalog(), problems);
    ASSERT_TRUE(back) << name << "\n" << to_string(problems);
    EXPECT_EQ(scenario_to_json(*back).dump(), scenario_to_json(s).dump()) << name;
  }
}

TEST(Link, ConstraintFieldsRoundTrip) {
  Scenario s = example("llama3-8b-pretrain");
  s.workloads[0].deadline_days = 21;
  s.workloads[0].budget_usd = 1.5e6;
  s.workloads[0].usd_per_day_of_delay = 20000;
  s.options[0].wait_days = 4;
  s.options[0].max_instances = 48;
  s.options[0].porting.report_probability_per_year = 0.75;
  s.options[1].porting.report_effort_share = 0.3;
  Problems problems;
  const auto back = decode_link(encode_link(s), builtin_catalog(), problems);
  ASSERT_TRUE(back) << to_string(problems);
  EXPECT_EQ(scenario_to_json(*back).dump(), scenario_to_json(s).dump());
  // Left out, they stay out: an old link decodes with none of them.
  const auto plain = decode_link(encode_link(example("llama3-8b-pretrain")), builtin_catalog(), problems);
  ASSERT_TRUE(plain);
  EXPECT_FALSE(plain->workloads[0].deadline_days || plain->workloads[0].budget_usd || plain->workloads[0].usd_per_day_of_delay ||
               plain->options[0].wait_days || plain->options[0].max_instances || plain->options[0].porting.report_probability_per_year);
}

TEST(Link, TypicalLinksAreShortAndLargeOnesStayUnder2000) {
  EXPECT_LT(encode_link(example("llama3-8b-pretrain")).size(), 250u);
  // A large scenario: 4 options, 6 workloads with overrides, ranges.
  Scenario big = example("portfolio-multicloud");
  big.options.push_back(big.options[0]);
  big.options.back().label = "Trn2 x32 reserved";
  big.options.back().instances = 32;
  for (int i = 0; i < 3; ++i) {
    big.workloads.push_back(big.workloads[static_cast<size_t>(i)]);
    big.workloads.back().name += " (next year)";
    big.workloads.back().runs *= 2;
  }
  big.ranges.push_back({"options[0].mfu", 0.2, 0.4, Distribution::Triangular});
  big.ranges.push_back({"options[1].porting.engineer_weeks", 1, 4, Distribution::LogNormal});
  const std::string link = encode_link(big);
  EXPECT_LT(link.size(), 2000u) << link.size();
  Problems problems;
  EXPECT_TRUE(decode_link(link, builtin_catalog(), problems)) << to_string(problems);
}

TEST(Link, AcceptsWholeUrlsAndFragments) {
  const std::string link = encode_link(example("mixtral-moe"));
  for (const std::string& form : {link, "s=" + link, "#s=" + link, "https://example.org/traincost/calculator.html?embed=1#s=" + link,
                                  link + "\n"}) {
    Problems problems;
    EXPECT_TRUE(decode_link(form, builtin_catalog(), problems)) << form << "\n" << to_string(problems);
  }
}

std::string decode_problem(const std::string& link) {
  Problems problems;
  EXPECT_FALSE(decode_link(link, builtin_catalog(), problems)) << link;
  return to_string(problems);
}

TEST(Link, BadLinksSayWhatIsWrong) {
  const std::string good = encode_link(example("llama3-8b-pretrain"));
  EXPECT_NE(decode_problem("").find("link: is empty"), std::string::npos);
  EXPECT_NE(decode_problem("hello").find("is not a TrainCost scenario link"), std::string::npos);
  EXPECT_NE(decode_problem("9." + good.substr(2)).find("newer TrainCost"), std::string::npos);
  EXPECT_NE(decode_problem(good.substr(0, good.size() - 7)).find("is damaged"), std::string::npos);
  EXPECT_NE(decode_problem(good.substr(0, 10) + "<script>" + good.substr(10)).find("cannot be in a link"), std::string::npos);
  std::string flipped = good;
  flipped[20] = flipped[20] == 'A' ? 'B' : 'A';
  EXPECT_NE(decode_problem(flipped).find("is damaged"), std::string::npos);
  EXPECT_NE(decode_problem("1." + std::string(20000, 'A')).find("characters long"), std::string::npos);
}

TEST(Link, ValidPayloadWithInvalidScenarioReportsScenarioFields) {
  // A well-formed link whose scenario has a negative price: the problem names the field.
  Scenario s = example("llama3-8b-pretrain");
  s.options[1].price_usd_per_hour = -3;
  Problems problems;
  EXPECT_FALSE(decode_link(encode_link(s), builtin_catalog(), problems));
  EXPECT_NE(to_string(problems).find("options[1].price_usd_per_hour: must be > 0, got -3"), std::string::npos)
      << to_string(problems);
}

TEST(Link, OldCatalogIsANoticeNotAnError) {
  Scenario s = example("mixtral-moe");
  s.catalog = "2020-01-01";
  Problems problems;
  std::vector<std::string> notices;
  EXPECT_TRUE(decode_link(encode_link(s), builtin_catalog(), problems, &notices));
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_NE(notices[0].find("2020-01-01"), std::string::npos);
}

TEST(Link, LzRoundTripsArbitraryBytesAndRejectsBadOffsets) {
  std::string bytes;
  for (int i = 0; i < 5000; ++i) bytes += static_cast<char>((i * 7919) % 251);
  bytes += std::string(300, 'x') + "abcabcabcabc";
  for (const std::string& dict : {std::string(), std::string("abc{\"x\":")}) {
    const auto back = lz_decompress(lz_compress(bytes, dict), dict, 1 << 20);
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, bytes);
  }
  EXPECT_FALSE(lz_decompress(std::string("\x80\x05", 2), "", 100));  // copy from before the start
  EXPECT_FALSE(lz_decompress(std::string("\x05" "ab", 3), "", 100));  // literal run past the end
  EXPECT_FALSE(lz_decompress(std::string("\x00" "a" "\xBF\x00", 4), "", 10));  // output cap
}

TEST(Link, Base64UrlRoundTrip) {
  for (const std::string& s : {std::string(), std::string("f"), std::string("fo"), std::string("foo"), std::string("\xff\x00\xfe", 3)}) {
    const auto back = base64url_decode(base64url_encode(s));
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, s);
  }
  size_t bad = 0;
  EXPECT_FALSE(base64url_decode("ab+c", &bad));
  EXPECT_EQ(bad, 2u);
}

// One fragment grammar for the page and the CLI (issue row 15): every case of
// tests/links/fragments.json opens the scenario it names or gives the problem it names. The CLI
// (tests/cli/fragment_test.cpp) and the page (tests/browser/hostile_input.test.mjs) run the same file.
TEST(Link, FragmentGrammarCorpus) {
  Problems problems;
  const auto corpus = parse_json(test::read_source_file("tests/links/fragments.json"), problems);
  ASSERT_TRUE(corpus) << to_string(problems);
  std::map<std::string, std::string> payloads;  // "A" -> "1.…"
  std::map<std::string, std::string> canonical;  // "A" -> its scenario, full JSON
  for (const auto& item : (*corpus)["payloads"].items()) {
    const Scenario s = test::scenario(test::read_source_file("assets/scenarios/" + item.value().get<std::string>()));
    payloads[item.key()] = encode_link(s);
    canonical[item.key()] = scenario_to_json(s).dump();
  }
  auto fill = [&](std::string text) {
    for (const auto& [name, payload] : payloads)
      for (const std::string& key : {"{" + name + ".data}", "{" + name + "}"})
        for (size_t at; (at = text.find(key)) != std::string::npos;)
          text.replace(at, key.size(), key.find(".data") != std::string::npos ? payload.substr(2) : payload);
    return text;
  };
  ASSERT_GE((*corpus)["cases"].size(), 30u);
  for (const Json& c : (*corpus)["cases"]) {
    const std::string name = c["name"].get<std::string>();
    const std::string text = fill(c["text"].get<std::string>());
    Problems p;
    const auto s = decode_link(text, builtin_catalog(), p);
    if (c.contains("opens")) {
      ASSERT_TRUE(s) << name << ": " << to_string(p);
      EXPECT_EQ(scenario_to_json(*s).dump(), canonical[c["opens"].get<std::string>()]) << name;
    } else {
      EXPECT_FALSE(s) << name << " opened a scenario";
      EXPECT_NE(to_string(p).find(c["problem"].get<std::string>()), std::string::npos) << name << ": " << to_string(p);
      for (const Problem& each : p) EXPECT_NE(each.message.back(), '.') << name;
    }
  }
}

// Links are forever: every released link must keep decoding to the same scenario. The corpus in
// tests/links/ holds links of every released format with the scenario they decode to and their
// results. Only the results may be refreshed (by scripts/update-golden) when the catalog changes.
// Format 1 writes the scenario's JSON with its keys sorted, which its preset dictionary is written
// for: reading the JSON into a type that keeps the document's order made every link longer and
// different from the one shared before for the same scenario (tried on 2026-12-05, caught then only
// by the browser's heavy-link test, which compares the page's link with this file).
TEST(Link, KeysAreWrittenSortedSoAScenarioKeepsItsLink) {
  EXPECT_EQ(compact_json(R"({"b": 1, "a": {"d": 2.5, "c": [3, {"z": 1, "y": 2}]}})"), R"({"a":{"c":[3,{"y":2,"z":1}],"d":2.5},"b":1})");
  std::string heavy = test::read_source_file("tests/links/heavy-moe.txt");
  while (!heavy.empty() && std::isspace(static_cast<unsigned char>(heavy.back()))) heavy.pop_back();
  Problems p;
  const auto s = decode_link(heavy, builtin_catalog(), p);
  ASSERT_TRUE(s) << to_string(p);
  EXPECT_EQ("#s=" + encode_link(*s), heavy);
}

TEST(Link, ReleasedLinksStillOpenTheSameScenario) {
  const std::string text = test::read_source_file("tests/links/corpus.json");
  Problems problems;
  auto corpus = parse_json(text, problems);
  ASSERT_TRUE(corpus && corpus->is_array()) << to_string(problems);
  ASSERT_GE(corpus->size(), 6u);
  const bool update = std::getenv("TRAINCOST_UPDATE_GOLDEN") != nullptr;
  for (Json& entry : *corpus) {
    const std::string link = entry["link"].get<std::string>();
    Problems p;
    const auto s = decode_link(link, builtin_catalog(), p);
    ASSERT_TRUE(s) << link << "\n" << to_string(p);
    // A new entry (scenario still null) records what its link decodes to, once; after that the
    // scenario is frozen and only compared.
    if (update && entry["scenario"].is_null()) entry["scenario"] = Json::parse(scenario_to_json(*s).dump());
    EXPECT_EQ(Json::parse(scenario_to_json(*s).dump()), entry["scenario"]) << link;
    const ResolvedScenario r = resolve(*s, builtin_catalog());
    const Results res = evaluate(r);
    Json costs = Json::array();
    for (const WorkloadResult& w : res.workloads)
      for (const OptionResult& o : w.options) costs.push_back(o.cost_per_run);
    if (update) entry["cost_per_run_usd"] = costs;
    else EXPECT_EQ(costs, entry["cost_per_run_usd"]) << link;
  }
  if (update) std::ofstream(std::string(TRAINCOST_SOURCE_DIR) + "/tests/links/corpus.json") << corpus->dump(2) << "\n";
}

}  // namespace
}  // namespace traincost
