// One table per class of input an adversarial pass found (issue "Hardening": the row numbers
// below are the issue's). Each row is a variant of the class, not only the case reported; every
// input is refused with a message naming the field, or accepted and shown safely.
// The CLI's input reader (rows 1, 2) is tested in tests/cli/input_test.cpp, the JS API (row 16)
// in tests/js/, escaping in reports (rows 5, 8, 9) in present_test.cpp and output_test.cpp.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/io/hf_config.hpp"
#include "traincost/io/link.hpp"
#include "traincost/output/present.hpp"
#include "traincost/engine/uncertainty.hpp"

namespace traincost {
namespace {

struct Row {
  std::string name;
  std::string input;
  std::string expected;  // "" when the input must be accepted; else must appear in the problems
};
void PrintTo(const Row& r, std::ostream* os) { *os << r.name; }
std::string row_name(const ::testing::TestParamInfo<Row>& p) { return p.param.name; }

const std::string kBase = test::simple_scenario();
std::string edit(const std::string& from, const std::string& to, std::string text = kBase) {
  const size_t at = text.find(from);
  if (at == std::string::npos) {
    ADD_FAILURE() << "\"" << from << "\" is not in " << text;
    return text;
  }
  return text.replace(at, from.size(), to);
}

void expect_row(const Row& r, const Problems& problems, bool accepted) {
  if (r.expected.empty()) {
    EXPECT_TRUE(accepted) << to_string(problems);
    return;
  }
  EXPECT_FALSE(accepted) << "accepted: " << r.input.substr(0, 300);
  const std::string all = to_string(problems);
  EXPECT_NE(all.find(r.expected), std::string::npos) << "expected: " << r.expected << "\ngot:\n" << all;
  for (const Problem& p : problems) EXPECT_NE(p.message.back(), '.') << p.message;
}

// ---- Row 6 (and 9): control characters in names are refused when the scenario is validated ----

struct TextField {
  const char* name;
  const char* path;
  std::string (*with)(const std::string& value);  // kBase with the field set to a JSON string
};
const TextField kTextFields[] = {
    {"name", "name", [](const std::string& v) { return edit(R"({"version":1,)", R"({"version":1,"name":)" + v + ","); }},
    {"catalog", "catalog", [](const std::string& v) { return edit(R"({"version":1,)", R"({"version":1,"catalog":)" + v + ","); }},
    {"workload_name", "workloads[0].name", [](const std::string& v) { return edit(R"("model")", R"("name":)" + v + R"(,"model")"); }},
    {"label", "options[0].label", [](const std::string& v) { return edit(R"("instances":2)", R"("instances":2,"label":)" + v); }},
    {"instance", "options[1].instance", [](const std::string& v) { return edit(R"("p5.48xlarge")", v); }},
    {"custom_chip", "options[0].custom.chip",
     [](const std::string& v) {
       return edit(R"("instance":"trn2.48xlarge")", R"("instance":"custom","price_usd_per_hour":20,"custom":{"chip":)" + v + "}");
     }},
    {"range_input", "ranges[0].input",
     [](const std::string& v) { return edit(R"({"version":1,)", R"({"version":1,"ranges":[{"input":)" + v + R"(,"low":0.2,"high":0.4}],)"); }},
};

struct Character {
  const char* name;
  const char* json;  // the character as written inside a JSON string
  const char* code;  // as the message names it
};
const Character kControls[] = {
    {"nul", "\\u0000", "U+0000"},       {"tab", "\\t", "U+0009"},         {"line_feed", "\\n", "U+000A"},
    {"carriage_return", "\\r", "U+000D"}, {"escape", "\\u001b", "U+001B"}, {"delete", "\\u007f", "U+007F"},
    {"next_line", "\\u0085", "U+0085"},  {"csi", "\\u009b", "U+009B"},     {"line_separator", "\\u2028", "U+2028"},
    {"paragraph_separator", "\\u2029", "U+2029"}, {"right_to_left_override", "\\u202e", "U+202E"},
    {"left_to_right_isolate", "\\u2066", "U+2066"},
    // Issue 33, item 14: direction marks reorder neutral characters in a bidi-aware terminal, and
    // invisible characters make two names that read the same differ.
    {"left_to_right_mark", "\\u200e", "U+200E"}, {"right_to_left_mark", "\\u200f", "U+200F"},
    {"arabic_letter_mark", "\\u061c", "U+061C"}, {"zero_width_space", "\\u200b", "U+200B"},
    {"zero_width_non_joiner_in_latin", "\\u200c", "U+200C"}, {"zero_width_joiner_in_latin", "\\u200d", "U+200D"},
    {"word_joiner", "\\u2060", "U+2060"},       {"byte_order_mark", "\\ufeff", "U+FEFF"},
    {"soft_hyphen", "\\u00ad", "U+00AD"},       {"invisible_times", "\\u2062", "U+2062"},
    {"mongolian_vowel_separator", "\\u180e", "U+180E"},
    // The adversarial pass after issue 33: noncharacters (U+FFFE and U+FFFF broke the SVG card's
    // XML), the Hangul fillers and the other invisible default-ignorable characters, and the
    // variation selectors and tag characters where they modify nothing (after a Latin letter).
    {"noncharacter_ffff", "\\uffff", "U+FFFF"},    {"noncharacter_fffe", "\\ufffe", "U+FFFE"},
    {"noncharacter_fdd0", "\\ufdd0", "U+FDD0"},    {"noncharacter_plane_1", "\\ud83f\\udfff", "U+1FFFF"},
    {"hangul_filler", "\\u3164", "U+3164"},        {"halfwidth_hangul_filler", "\\uffa0", "U+FFA0"},
    {"hangul_choseong_filler", "\\u115f", "U+115F"}, {"combining_grapheme_joiner", "\\u034f", "U+034F"},
    {"khmer_inherent_vowel", "\\u17b4", "U+17B4"}, {"shorthand_format_control", "\\ud82f\\udca0", "U+1BCA0"},
    {"language_tag", "\\udb40\\udc01", "U+E0001"}, {"tag_after_a_letter", "\\udb40\\udc41", "U+E0041"},
    {"variation_selector_after_a_letter", "\\ufe0f", "U+FE0F"}, {"ideographic_variation_selector_after_a_letter", "\\udb40\\udd00", "U+E0100"},
};

std::vector<Row> control_rows() {
  std::vector<Row> rows;
  for (const TextField& f : kTextFields)
    for (const Character& c : kControls) {
      // In the middle of text ("a<c>b"): the second character.
      rows.push_back({std::string(f.name) + "_" + c.name, f.with(std::string("\"a") + c.json + "b\""),
                      std::string(f.path) + ": must not contain control characters, line breaks, direction marks or invisible characters (" +
                          c.code + " at character 2)"});
    }
  // A joiner anywhere but inside a word of a script that needs it: at either end, beside a space.
  const std::pair<const char*, const char*> joiners[] = {
      {"\"\\u200dab\"", "U+200D at character 1"}, {"\"\\u05e2\\u200c\"", "U+200C at character 2"},
      {"\"\\u0645\\u200c \\u0627\"", "U+200C at character 2"}, {"\"\\ud83d\\udc69\\u200d\\u200d\\ud83d\\udcbb\"", "U+200D at character 2"},
      // A variation selector at the start, after a space, after another, on a digit with no keycap;
      // a tag with no flag before it.
      {"\"\\ufe0fab\"", "U+FE0F at character 1"}, {"\"a \\ufe0f\"", "U+FE0F at character 3"},
      {"\"\\u2764\\ufe0f\\ufe0f\"", "U+FE0F at character 3"}, {"\"1\\ufe0f\"", "U+FE0F at character 2"},
      {"\"\\ud83d\\ude00\\udb40\\udc67\"", "U+E0067 at character 2"}};
  for (const auto& [json, where] : joiners)
    rows.push_back({std::string("label_joiner_") + std::to_string(rows.size()), kTextFields[3].with(json),
                    std::string(kTextFields[3].path) + ": must not contain control characters, line breaks, direction marks or invisible characters (" +
                        where + ")"});
  // Text that is fine: accents, CJK, emoji (with a zero-width joiner), right-to-left script, a
  // Persian word with its non-joiner (U+200C), Devanagari with a joiner.
  // Variation selectors and tags where they modify something: an emoji's U+FE0F, a keycap (digit,
  // U+FE0F, U+20E3), a CJK ideograph's variant (U+E0100), the flag of Scotland (U+1F3F4 and tags).
  for (const char* ok : {"\"\\u0645\\u06cc\\u200c\\u062e\\u0648\\u0627\\u0647\\u0645\"", "\"\\u0915\\u094d\\u200d\\u0937\"",
                         "\"\\u2764\\ufe0f\\u200d\\ud83d\\udd25\"", "\"Trn2 1\\ufe0f\\u20e3\"", "\"\\u845b\\udb40\\udd00 x8\"",
                         "\"\\ud83c\\udff4\\udb40\\udc67\\udb40\\udc62\\udb40\\udc73\\udb40\\udc63\\udb40\\udc74\\udb40\\udc7f team\""})
    rows.push_back({std::string("label_accepts_") + std::to_string(rows.size()), kTextFields[3].with(ok), ""});
  for (const char* ok : {"\"Trn2 \\u00e9t\\u00e9\"", "\"\\u8bad\\u7ec3\"", "\"\\ud83d\\udc69\\u200d\\ud83d\\udcbb x8\"", "\"\\u05e2\\u05d1\\u05e8\\u05d9\\u05ea\"",
                         "\"<b>|[x](y)|=1+1\""})
    rows.push_back({std::string("label_accepts_") + std::to_string(rows.size()), kTextFields[3].with(ok), ""});
  return rows;
}

class ControlCharacters : public ::testing::TestWithParam<Row> {};
TEST_P(ControlCharacters, AreRefusedInNamesAtValidation) {
  Problems problems;
  const bool ok = parse_scenario(GetParam().input, builtin_catalog(), problems).has_value();
  expect_row(GetParam(), problems, ok);
}
INSTANTIATE_TEST_SUITE_P(Row6, ControlCharacters, ::testing::ValuesIn(control_rows()), row_name);

// The page edits a scenario in place and validates it without reading JSON: the same rule.
TEST(ControlCharacters, AreRefusedInAnEditedScenarioToo) {
  Scenario s = test::scenario(kBase);
  s.options[0].label = std::string("a\0b", 3);
  const Problems problems = validate(s, builtin_catalog());
  EXPECT_NE(to_string(problems).find("options[0].label: must not contain control characters"), std::string::npos) << to_string(problems);
}

// ---- Row 11: a NUL byte anywhere in JSON text --------------------------------------------------

std::vector<Row> nul_rows() {
  const std::string nul(1, '\0');
  const std::string example = test::read_source_file("assets/scenarios/finetune-1b.json");
  return {
      {"after_a_valid_scenario", kBase + nul + "garbage", "not valid JSON: line 1, column " + std::to_string(kBase.size() + 1) + ": a NUL byte"},
      {"after_an_example_file", example + nul + "{\"version\":2}", "it follows a complete document"},
      {"alone_after_the_document", kBase + nul, "it follows a complete document"},
      {"two_after_the_document", kBase + nul + nul, "a NUL byte"},
      {"after_a_newline", kBase + "\n" + nul, "not valid JSON: line 2, column 1: a NUL byte"},
      {"before_the_document", nul + kBase, "not valid JSON: line 1, column 1: a NUL byte"},
      {"inside_a_label", edit(R"("instances":2)", R"("instances":2,"label":"a)" + nul + R"(b")"), "options[0].label: not valid JSON"},
      {"between_keys", edit(R"("instances":2)", R"("instances":2,)" + nul), "options[0]: not valid JSON"},
      {"inside_a_number", edit(R"("instances":2)", R"("instances":2)" + nul + "0"), "options[0]: not valid JSON: line 1, column"},
      {"instead_of_a_comma", edit(R"(,"options")", nul + R"("options")"), "not valid JSON"},
      {"only_nul", nul, "not valid JSON: line 1, column 1: a NUL byte"},
  };
}

class NulBytes : public ::testing::TestWithParam<Row> {};
TEST_P(NulBytes, AreRefusedInScenarios) {
  Problems problems;
  const bool ok = parse_scenario(GetParam().input, builtin_catalog(), problems).has_value();
  expect_row(GetParam(), problems, ok);
}
INSTANTIATE_TEST_SUITE_P(Row11, NulBytes, ::testing::ValuesIn(nul_rows()), row_name);

TEST(NulBytes, AreRefusedInConfigsAndLinks) {
  Problems problems;
  const std::string config = test::read_source_file("tests/cli/data/llama3-8b-config.json");
  EXPECT_TRUE(model_from_hf_config(config, problems)) << to_string(problems);
  EXPECT_FALSE(model_from_hf_config(config + std::string(1, '\0') + "x", problems));
  EXPECT_NE(to_string(problems).find("a NUL byte"), std::string::npos) << to_string(problems);
  problems.clear();
  const std::string link = "#s=" + encode_link(test::scenario(kBase));
  EXPECT_FALSE(decode_link(link + std::string(1, '\0') + "AAAA", builtin_catalog(), problems));
  EXPECT_FALSE(decode_link(link.substr(0, 10) + std::string(1, '\0') + link.substr(10), builtin_catalog(), problems));
}

// ---- Row 14: messages say what was written and what is wrong ------------------------------------

std::vector<Row> message_rows() {
  const std::string e_acute = "\xC3\xA9", euro = "\xE2\x82\xAC";
  auto repeat = [](const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
  };
  auto with_seed = [](const std::string& v) { return edit(R"({"version":1,)", R"({"version":1,"analysis":{"seed":)" + v + "},"); };
  return {
      {"version_max_unsigned", edit(R"("version":1)", R"("version":18446744073709551615)"),
       "version: is 18446744073709551615: this scenario was made by a newer TrainCost; this one reads format 1 (open it in the current calculator)"},
      {"version_above_int64", edit(R"("version":1)", R"("version":9223372036854775808)"), "version: is 9223372036854775808: this scenario was made by a newer"},
      {"version_min_int64", edit(R"("version":1)", R"("version":-9223372036854775808)"), "version: must be 1 or more, got -9223372036854775808"},
      {"version_minus_one", edit(R"("version":1)", R"("version":-1)"), "version: must be 1 or more, got -1"},
      {"version_zero", edit(R"("version":1)", R"("version":0)"), "version: must be 1 or more, got 0"},
      {"version_two", edit(R"("version":1)", R"("version":2)"), "version: is 2: this scenario was made by a newer TrainCost"},
      {"version_one_point_zero", edit(R"("version":1)", R"("version":1.0)"), "version: must be written as an integer (1, not 1.0), got 1.0"},
      {"version_one_and_a_half", edit(R"("version":1)", R"("version":1.5)"), "version: must be a whole number, got 1.5"},
      {"seed_two_to_the_53_plus_one", with_seed("9007199254740993"), "analysis.seed: must be between 0 and 9007199254740991, got 9007199254740993"},
      {"seed_two_to_the_53", with_seed("9007199254740992"), "analysis.seed: must be between 0 and 9007199254740991, got 9007199254740992"},
      {"seed_max_unsigned", with_seed("18446744073709551615"), "analysis.seed: must be between 0 and 9007199254740991, got 18446744073709551615"},
      {"seed_as_a_float", with_seed("9.007199254740993e15"), "analysis.seed: must be between 0 and 9007199254740991, got 9007199254740992"},
      {"seed_largest_accepted", with_seed("9007199254740991"), ""},
      {"instances_just_above", edit(R"("instances":2)", R"("instances":100001)"), "options[0].instances: must be between 1 and 100000, got 100001"},
      {"mfu_a_hair_above_one", edit(R"("instances":2)", R"("instances":2,"mfu":1.0000000000000002)"),
       "options[0].mfu: must be between 0.01 and 1, got 1.0000000000000002"},
      {"label_of_21_e_acute", edit(R"("instances":2)", R"("instances":2,"label":")" + repeat(e_acute, 21) + "\""),
       "options[0].label: must be at most 40 bytes of UTF-8, got 42 (21 characters; each one beyond ASCII takes 2 to 4 bytes)"},
      {"label_of_20_e_acute", edit(R"("instances":2)", R"("instances":2,"label":")" + repeat(e_acute, 20) + "\""), ""},
      {"label_of_41_letters", edit(R"("instances":2)", R"("instances":2,"label":")" + std::string(41, 'x') + "\""),
       "options[0].label: must be at most 40 characters, got 41"},
      {"name_of_41_euro_signs", edit(R"({"version":1,)", R"({"version":1,"name":")" + repeat(euro, 41) + "\","),
       "name: must be at most 120 bytes of UTF-8, got 123 (41 characters"},
      {"workload_name_of_emoji", edit(R"("model")", R"("name":")" + repeat("\xF0\x9F\x98\x80", 21) + R"(","model")"),
       "workloads[0].name: must be at most 80 bytes of UTF-8, got 84 (21 characters"},
  };
}

class Messages : public ::testing::TestWithParam<Row> {};
TEST_P(Messages, SayWhatWasWrittenAndWhatIsWrong) {
  Problems problems;
  const bool ok = parse_scenario(GetParam().input, builtin_catalog(), problems).has_value();
  expect_row(GetParam(), problems, ok);
}
INSTANTIATE_TEST_SUITE_P(Row14, Messages, ::testing::ValuesIn(message_rows()), row_name);

// A link from a newer TrainCost: the page writes "This link could not be opened: <message>. You
// are looking at ..."; the message used to end in "calculator." and the banner read "calculator..".
TEST(Messages, ANewerLinkEndsWithoutAPeriod) {
  const std::string link = encode_link(test::scenario(kBase));
  Problems problems;
  EXPECT_FALSE(decode_link("#s=2" + link.substr(1), builtin_catalog(), problems));
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].message,
            "was made by a newer TrainCost (link format 2; this page reads up to 1): open it in the current calculator");
  const std::string banner = "This link could not be opened: " + to_string(problems[0]) + ". You are looking at";
  EXPECT_EQ(banner.find(".."), std::string::npos) << banner;
}

// ---- Row 10: one spelling per range input, duplicates found on the parsed path ------------------

std::vector<Row> range_path_rows() {
  auto ranges = [](const std::string& list) { return edit(R"({"version":1,)", R"({"version":1,"ranges":[)" + list + "],"); };
  auto range = [](const std::string& input, const std::string& low = "0.2", const std::string& high = "0.4") {
    return R"({"input":")" + input + R"(","low":)" + low + R"(,"high":)" + high + "}";
  };
  const std::string zeros = " is not a numeric input that can carry a range (write indices without leading zeros: [0], [1], ...)";
  const std::string not_input = " is not a numeric input that can carry a range";
  return {
      {"double_zero", ranges(range("options[00].mfu")), R"(ranges[0].input: "options[00].mfu")" + zeros},
      {"leading_zero_one", ranges(range("options[01].mfu")), R"(ranges[0].input: "options[01].mfu")" + zeros},
      {"triple_zero", ranges(range("options[000].mfu")), R"(ranges[0].input: "options[000].mfu")" + zeros},
      {"workload_leading_zero", ranges(range("workloads[00].runs", "1", "4")), R"(ranges[0].input: "workloads[00].runs")" + zeros},
      {"the_issue_pair", ranges(range("options[0].mfu") + "," + range("options[00].mfu")), R"(ranges[1].input: "options[00].mfu")" + zeros},
      {"plus_sign", ranges(range("options[+0].mfu")), R"(ranges[0].input: "options[+0].mfu")" + not_input},
      {"space_in_index", ranges(range("options[ 0].mfu")), R"(ranges[0].input: "options[ 0].mfu")" + not_input},
      {"hex_index", ranges(range("options[0x0].mfu")), R"(ranges[0].input: "options[0x0].mfu")" + not_input},
      {"upper_case_name", ranges(range("options[0].MFU")), R"(ranges[0].input: "options[0].MFU")" + not_input},
      {"double_dot", ranges(range("options[0]..mfu")), R"(ranges[0].input: "options[0]..mfu")" + not_input},
      {"dotted_index", ranges(range("options.0.mfu")), R"(ranges[0].input: "options.0.mfu")" + not_input},
      {"trailing_space", ranges(range("options[0].mfu ")), R"(ranges[0].input: "options[0].mfu ")" + not_input},
      {"three_digit_index", ranges(range("options[100].mfu")), R"(ranges[0].input: "options[100].mfu")" + not_input},
      {"same_path_twice", ranges(range("options[0].mfu") + "," + range("options[0].mfu", "0.1", "0.5")),
       R"(ranges[1].input: "options[0].mfu" already has a range (ranges[0]))"},
      {"nested_path_twice", ranges(range("options[1].porting.engineer_weeks", "1", "4") + "," + range("options[1].porting.engineer_weeks", "2", "5")),
       R"(ranges[1].input: "options[1].porting.engineer_weeks" already has a range (ranges[0]))"},
      {"workload_path_thrice", ranges(range("workloads[0].runs", "1", "4") + "," + range("options[0].mfu") + "," + range("workloads[0].runs", "2", "3")),
       R"(ranges[2].input: "workloads[0].runs" already has a range (ranges[0]))"},
      {"two_options_same_field", ranges(range("options[0].mfu") + "," + range("options[1].mfu")), ""},
      {"index_ten_is_past_the_end", ranges(range("options[10].mfu")), R"(ranges[0].input: "options[10].mfu" points past the last entry)"},
  };
}

class RangePaths : public ::testing::TestWithParam<Row> {};
TEST_P(RangePaths, HaveOneSpellingAndDuplicatesAreFound) {
  Problems problems;
  const bool ok = parse_scenario(GetParam().input, builtin_catalog(), problems).has_value();
  expect_row(GetParam(), problems, ok);
}
INSTANTIATE_TEST_SUITE_P(Row10, RangePaths, ::testing::ValuesIn(range_path_rows()), row_name);

// Every path the parser accepts is its own canonical spelling, so comparing paths finds every
// duplicate: the analysis lists each ranged input once, and the Monte Carlo varies that one.
TEST(RangePaths, EveryAcceptedPathIsCanonical) {
  for (const InputKind& kind : rangeable_inputs())
    for (int index : {0, 1, 7, 15, 99}) {
      const std::string canonical = InputRef{&kind, index}.path();
      const auto parsed = parse_input_path(canonical);
      ASSERT_TRUE(parsed) << canonical;
      EXPECT_EQ(parsed->path(), canonical);
      std::string padded = canonical;
      padded.insert(padded.find('[') + 1, "0");
      EXPECT_FALSE(parse_input_path(padded)) << padded;
    }
}

TEST(RangePaths, TheAnalysisListsEachInputOnce) {
  const Scenario s = test::scenario(edit(R"({"version":1,)",
                                         R"({"version":1,"ranges":[{"input":"options[0].mfu","low":0.2,"high":0.4},)"
                                         R"({"input":"options[1].mfu","low":0.3,"high":0.5}],)"));
  AnalyzeOptions options;
  options.samples = 200;
  const Analysis a = analyze(s, builtin_catalog(), options);
  std::vector<std::string> seen;
  for (const SensitivityRow& row : a.sensitivity) {
    EXPECT_EQ(std::count(seen.begin(), seen.end(), row.input), 0) << row.input;
    seen.push_back(row.input);
  }
  EXPECT_EQ(a.sensitivity.size(), a.inputs.size());
}

// ---- Row 13: a Hugging Face config whose counts contradict each other -------------------------

const std::string kLlama = R"({"hidden_size":4096,"intermediate_size":14336,"num_attention_heads":32,"num_hidden_layers":32,)"
                           R"("num_key_value_heads":8,"vocab_size":128256,"max_position_embeddings":8192})";
const std::string kMixtral = R"({"hidden_size":4096,"intermediate_size":14336,"num_attention_heads":32,"num_hidden_layers":32,)"
                             R"("num_key_value_heads":8,"vocab_size":32000,"num_local_experts":8,"num_experts_per_tok":2})";

std::vector<Row> hf_rows() {
  auto llama = [](const std::string& from, const std::string& to) { return edit(from, to, kLlama); };
  auto mixtral = [](const std::string& from, const std::string& to) { return edit(from, to, kMixtral); };
  return {
      {"kv_heads_a_million", llama(R"("num_key_value_heads":8)", R"("num_key_value_heads":1000000)"),
       "num_key_value_heads: must not exceed num_attention_heads (32), got 1,000,000"},
      {"kv_heads_one_more", llama(R"("num_key_value_heads":8)", R"("num_key_value_heads":33)"),
       "num_key_value_heads: must not exceed num_attention_heads (32), got 33"},
      {"kv_heads_not_dividing", llama(R"("num_key_value_heads":8)", R"("num_key_value_heads":5)"),
       "num_key_value_heads: must divide num_attention_heads (32) into equal groups, got 5"},
      {"kv_heads_synonym", llama(R"("num_key_value_heads":8)", R"("num_kv_heads":64)"), "num_kv_heads: must not exceed num_attention_heads (32), got 64"},
      {"kv_heads_zero", llama(R"("num_key_value_heads":8)", R"("num_key_value_heads":0)"), "num_key_value_heads: must be a positive whole number, got 0"},
      {"kv_heads_equal_heads", llama(R"("num_key_value_heads":8)", R"("num_key_value_heads":32)"), ""},
      {"kv_heads_one", llama(R"("num_key_value_heads":8)", R"("num_key_value_heads":1)"), ""},
      {"experts_per_token_a_thousand", mixtral(R"("num_experts_per_tok":2)", R"("num_experts_per_tok":1000)"),
       "num_experts_per_tok: must not exceed num_local_experts (8), got 1000"},
      {"experts_per_token_one_more", mixtral(R"("num_experts_per_tok":2)", R"("num_experts_per_tok":9)"),
       "num_experts_per_tok: must not exceed num_local_experts (8), got 9"},
      {"top_k_synonym", mixtral(R"("num_experts_per_tok":2)", R"("moe_top_k":16)"), "moe_top_k: must not exceed num_local_experts (8), got 16"},
      {"routed_experts_synonym", mixtral(R"("num_local_experts":8,"num_experts_per_tok":2)", R"("n_routed_experts":4,"num_experts_per_tok":6)"),
       "num_experts_per_tok: must not exceed n_routed_experts (4), got 6"},
      {"every_expert_per_token", mixtral(R"("num_experts_per_tok":2)", R"("num_experts_per_tok":8)"), ""},
      {"vocab_a_billion", llama(R"("vocab_size":128256)", R"("vocab_size":1000000000)"),
       "vocab_size: must be between 1 and 1e+07, got 1e+09 (the limit of workloads[].model.vocab)"},
      {"vocab_one_past_the_limit", llama(R"("vocab_size":128256)", R"("vocab_size":10000001)"), "vocab_size: must be between 1 and 1e+07, got 10000001"},
      {"vocab_at_the_limit", llama(R"("vocab_size":128256)", R"("vocab_size":10000000)"), ""},
      {"vocab_past_a_billion", llama(R"("vocab_size":128256)", R"("vocab_size":1000000000000)"), "vocab_size: must be at most 1,000,000,000, got 1000000000000"},
      {"mlp_a_billion_wide", llama(R"("intermediate_size":14336)", R"("intermediate_size":1000000000)"),
       "the config describes 393T parameters (393,218,393,116,672), outside what TrainCost models (1.0M to 100T)"},
      {"a_million_experts", mixtral(R"("num_local_experts":8)", R"("num_local_experts":1000000)"), "the config describes 5.6e+15 parameters (5,637,277,252,587,520), outside what TrainCost models"},
  };
}

class HfConfigs : public ::testing::TestWithParam<Row> {};
TEST_P(HfConfigs, AreImportedConsistentOrRefused) {
  Problems problems;
  const auto m = model_from_hf_config(GetParam().input, problems);
  expect_row(GetParam(), problems, m.has_value());
  if (!m) return;
  // What is imported is what was counted: active never above total, the vocabulary as given, and
  // the block reads back as a scenario's model.
  EXPECT_LE(m->active(), m->params);
  const Json config = Json::parse(GetParam().input);
  EXPECT_EQ(m->vocab, config["vocab_size"].get<int>());
  Problems again;
  const std::string scenario = test::simple_scenario(R"("model":)" + model_to_json(*m).dump() + R"(,"target":{"tokens":1e11})");
  EXPECT_TRUE(parse_scenario(scenario, builtin_catalog(), again)) << to_string(again);
}
INSTANTIATE_TEST_SUITE_P(Row13, HfConfigs, ::testing::ValuesIn(hf_rows()), row_name);

}  // namespace
}  // namespace traincost
