// What the CLI writes, given hostile input (issue rows 3, 5, 6, 8, 9 and 11 end to end): nothing
// on stdout or stderr drives a terminal; refused input exits 2 with the field named; accepted
// names come out escaped for the format asked; an option that cannot run shows no time or cost.
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include "cli_support.hpp"
#include "traincost/base/json_text.hpp"

namespace traincost::test {
namespace {

struct OutputCase {
  std::string name;
  std::vector<std::string> args;  // "{file}" is replaced by a file holding `input`
  std::string input;              // the scenario (also sent on standard input)
  int status;
  std::string contains;           // on stdout (status 0) or stderr
  std::string absent = {};        // must not be on stdout or stderr
};
void PrintTo(const OutputCase& c, std::ostream* os) { *os << c.name; }

std::string scenario(const std::string& label_a, const std::string& label_b = "\"H100\"", const std::string& b_instances = "4") {
  return R"({"version":1,"name":)" + label_a + R"(,"workloads":[{"name":)" + label_a +
         R"(,"model":{"params":8e9},"target":{"tokens":1e11}}],"options":[{"instance":"trn2.48xlarge","instances":2,"label":)" + label_a +
         R"(},{"instance":"p5.48xlarge","instances":)" + b_instances + R"(,"label":)" + label_b + "}]}";
}

std::vector<OutputCase> output_cases() {
  const std::string nul(1, '\0');
  return {
      // Row 9: control characters never reach the terminal, whichever way they come in
      {"escape_in_a_label", {"evaluate", "{file}"}, scenario("\"\\u001b[2Jfake\""), 2,
       "options[0].label: must not contain control characters, line breaks, direction marks or invisible characters (U+001B at character 1)"},
      {"escape_in_an_instance", {"evaluate", "{file}"}, scenario("\"a\"").replace(scenario("\"a\"").find("p5.48xlarge"), 11, "\\u001b]0;pwned\\u0007"), 2,
       "options[1].instance: unknown instance", "\x1b"},
      {"raw_escape_bytes_in_an_unknown_key", {"evaluate", "{file}"}, "{\"version\":1,\"\x1b[2J\":1}", 2, "not valid JSON", "\x1b"},
      {"escape_in_a_file_name", {"evaluate", "/nonexistent/\x1b[2J\x1b[Hname.json"}, "", 2, "No such file or directory", "\x1b"},
      {"escape_in_a_link", {"evaluate", "--link", "#s=1.\x1b[2J"}, "", 2, "link: contains a character that cannot be in a link", "\x1b"},
      {"c1_csi_in_a_key", {"explain", "{file}"}, "{\"version\":1,\"a\xC2\x9B" "31m\":1}", 2, "unknown field", "\xC2\x9B"},
      {"newline_in_a_name", {"analyze", "{file}", "--samples", "100"}, scenario("\"a\\nfake line\""), 2, "name: must not contain control characters"},
      // Found by the cli_fuzzer: usage errors quoted the arguments raw
      {"invalid_utf8_command", {"\xFF~evaluate", "-"}, "", 1, "traincost: unknown command", "\xFF"},
      {"escape_in_a_command", {"\x1b[2Jevaluate"}, "", 1, "traincost: unknown command", "\x1b"},
      {"escape_in_an_option", {"evaluate", "{file}", "--\x1b[31mformat", "json"}, scenario("\"a\""), 1, "unknown option", "\x1b"},
      {"escape_in_an_extra_argument", {"evaluate", "{file}", "\x1b[2J"}, scenario("\"a\""), 1, "unexpected argument", "\x1b"},
      {"escape_in_a_flag_without_value", {"analyze", "{file}", "--seed"}, scenario("\"a\""), 1, "--seed needs a value"},
      {"right_to_left_override", {"evaluate", "{file}"}, scenario("\"a\\u202etxt.exe\""), 2, "(U+202E at character 2)"},
      // Row 6: a NUL in a name is refused, not cut at
      {"nul_in_a_label", {"evaluate", "{file}", "--format", "csv"}, scenario("\"Trn2\\u0000hidden\""), 2, "(U+0000 at character 5)"},
      {"nul_in_a_label_of_a_link", {"link", "-"}, scenario("\"a\\u0000b\""), 2, "must not contain control characters"},
      // Row 11: a NUL byte after a valid scenario, in a file and on a pipe
      {"nul_after_a_file", {"evaluate", "{file}"}, scenario("\"a\"") + nul + "garbage", 2, "a NUL byte (control character U+0000)"},
      {"nul_after_stdin", {"evaluate", "-"}, scenario("\"a\"") + nul + "{}", 2, "it follows a complete document"},
      {"nul_in_an_hf_config", {"import-hf", "-"}, "{\"hidden_size\":4096" + nul + "}", 2, "a NUL byte"},
      // Rows 5 and 8: names that are allowed come out escaped for the format
      {"markdown_html", {"evaluate", "{file}", "--format", "markdown"}, scenario("\"<img src=x onerror=alert(1)>\""), 0,
       "&lt;img src=x onerror=alert(1)&gt;", "<img"},
      {"markdown_link", {"evaluate", "{file}", "--format", "markdown"}, scenario("\"[x](javascript:alert(1))\""), 0,
       "\\[x\\](javascript\\:alert(1))", "| [x]"},
      {"markdown_pipe", {"analyze", "{file}", "--samples", "100", "--format", "markdown"}, scenario("\"a|b\""), 0, "| a\\|b |"},
      {"csv_formula", {"evaluate", "{file}", "--format", "csv"}, scenario("\"=HYPERLINK(1)\""), 0, "\"'=HYPERLINK(1)\"", ",\"=HYP"},
      {"csv_minus", {"evaluate", "{file}", "--format", "csv"}, scenario("\"-1+2\""), 0, "\"'-1+2\""},
      {"csv_fullwidth_equals", {"evaluate", "{file}", "--format", "csv"}, scenario("\"\\uff1d1+1\""), 0, "\"'\xEF\xBC\x9D" "1+1\""},
      // Row 3: an option that cannot run the job shows no time or cost, in every format
      {"json_withholds", {"evaluate", "{file}", "--format", "json"}, scenario("\"a\"", "\"big\"", "100000"), 0, "\"cost_per_run_usd\": null",
       "\"cost_per_run_usd\": -"},
      {"text_withholds", {"evaluate", "{file}"}, scenario("\"a\"", "\"big\"", "100000"), 0, "batch too small", "-$"},
      {"csv_withholds", {"evaluate", "{file}", "--format", "csv"}, scenario("\"a\"", "\"big\"", "100000"), 0, ",,,,,,,\"batch too small\"", ",-"},
      {"explain_withholds", {"explain", "{file}"}, scenario("\"a\"", "\"big\"", "100000"), 0, "no time or cost is given", "(goodput -"},
      {"markdown_withholds", {"evaluate", "{file}", "--format", "markdown"}, scenario("\"a\"", "\"big\"", "100000"), 0, "| big | – |", "-$"},
  };
}

class Output : public ::testing::TestWithParam<OutputCase> {};

TEST_P(Output, IsSafeForTheFormatAndTheTerminal) {
  const OutputCase& c = GetParam();
  const std::string file = write_file(temp_dir(), "scenario.json", c.input);
  std::vector<std::string> args;
  for (const std::string& a : c.args) args.push_back(a == "{file}" ? file : a);
  const CliRun run = run_cli(args, bytes(c.input));
  EXPECT_EQ(run.status, c.status) << run.err.substr(0, 1000);
  EXPECT_NE((c.status == 0 ? run.out : run.err).find(c.contains), std::string::npos) << run.out.substr(0, 2000) << run.err.substr(0, 1000);
  if (!c.absent.empty()) {
    EXPECT_EQ(run.out.find(c.absent), std::string::npos) << run.out.substr(0, 2000);
    EXPECT_EQ(run.err.find(c.absent), std::string::npos) << run.err.substr(0, 1000);
  }
  EXPECT_TRUE(terminal_safe(run.err)) << run.err;
  const bool csv = std::find(args.begin(), args.end(), "csv") != args.end();
  if (!csv) { EXPECT_TRUE(terminal_safe(run.out)) << run.out.substr(0, 2000); }
  if (c.status != 0) { EXPECT_EQ(run.out, ""); }
}

INSTANTIATE_TEST_SUITE_P(Table, Output, ::testing::ValuesIn(output_cases()),
                         [](const ::testing::TestParamInfo<OutputCase>& p) { return p.param.name; });

}  // namespace
}  // namespace traincost::test
