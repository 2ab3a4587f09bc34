// One escaping rule per output format, applied on every output path (issue rows 5, 8 and 9).
// Hostile names are put straight into the Scenario (as if validation had let them through) so
// that every report proves it escapes by itself: text, Markdown and CSV reports, the analysis in
// text and Markdown, explain, and the JSON the API returns.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/output/analysis_report.hpp"
#include "traincost/output/explain.hpp"
#include "traincost/output/present.hpp"
#include "traincost/output/report.hpp"
#include "traincost/engine/uncertainty.hpp"

namespace traincost {
namespace {

struct Hostile {
  const char* name;
  std::string text;
};
void PrintTo(const Hostile& h, std::ostream* os) { *os << h.name; }

const std::vector<Hostile>& hostile() {
  static const std::vector<Hostile> all = {
      // Row 5: HTML, links and table structure in Markdown
      {"img_onerror", "<img src=x onerror=alert(1)>"},
      {"javascript_link", "[x](javascript:alert(1))"},
      {"image", "![i](http://e.example/x.png)"},
      {"script_tag", "<script>alert(1)</script>"},
      {"autolink", "<https://evil.example>"},
      {"pipe", "a|b"},
      {"escaped_pipe", "a\\|b"},
      {"newline_forging_a_row", "a\n| forged | row | 1 | 2 | 3 | 4 | 5 | fits |"},
      {"carriage_return_row", "a\r\n| forged |"},
      {"code_and_emphasis", "`rm -rf` *b* _i_ ~~s~~"},
      {"heading", "# Heading"},
      {"entities", "&lt;&amp;&#x3C;"},
      {"reference_link", "[x]: javascript:alert(1)"},
      {"html_comment", "<!-- hide the rest"},
      // Row 8: formulas in CSV
      {"formula_equals", "=HYPERLINK(\"http://e.example\",\"x\")"},
      {"formula_plus", "+SUM(1,2)"},
      {"formula_minus", "-2+3"},
      {"formula_at", "@SUM(A1)"},
      {"formula_after_tab", "\t=1+1"},
      {"formula_after_cr", "\r=1+1"},
      {"formula_after_lf", "\n=1+1"},
      {"formula_fullwidth", "\xEF\xBC\x9D" "1+1"},
      {"quote_in_text", "say \"=1\""},
      // Row 9: the terminal
      {"clear_screen", "\x1b[2J\x1b[Hfake prompt"},
      {"window_title", "\x1b]0;pwned\x07"},
      {"csi_c1", "a\xC2\x9B" "31mred"},
      {"delete", "a\x7F"},
      {"backspaces", "safe\b\b\b\bevil"},
      {"right_to_left_override", "a\xE2\x80\xAE" "txt.exe"},
      {"line_separator", "a\xE2\x80\xA8" "b"},
      {"nul", std::string("a\0b", 3)},
      {"invalid_utf8", "a\xFF\xFE" "b"},
  };
  return all;
}

// A scenario with the hostile text as its name, a workload's name and both options' labels.
struct Fixture {
  Scenario s;
  ResolvedScenario r;
  Results res;
  Analysis a;
  explicit Fixture(const std::string& text) {
    s = test::scenario(test::simple_scenario(R"("model":{"params":8e9},"target":{"tokens":1e11},"runs":3)"));
    s.name = text;
    s.workloads[0].name = text;
    s.options[0].label = text;
    s.options[1].label = text + "2";
    r = resolve(s, builtin_catalog());
    res = evaluate(r);
    AnalyzeOptions options;
    options.samples = 200;
    a = analyze(s, builtin_catalog(), options);
  }
};

size_t unescaped(const std::string& line, char c) {
  size_t n = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\') ++i;
    else n += line[i] == c;
  }
  return n;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) lines.push_back(text.substr(start, end - start));
  if (start < text.size()) lines.push_back(text.substr(start));
  return lines;
}

// Markdown: table rows have their own columns only, nothing becomes HTML, a link or an image.
void expect_safe_markdown(const std::string& md, const std::vector<size_t>& table_widths, const std::string& label) {
  EXPECT_TRUE(test::terminal_safe(md)) << label;
  size_t table_lines = 0;
  for (const std::string& line : lines_of(md)) {
    EXPECT_EQ(line.find('<'), std::string::npos) << label << ": " << line;
    EXPECT_EQ(line.find('\r'), std::string::npos) << label;
    EXPECT_EQ(unescaped(line, '`'), 0u) << label << ": " << line;
    for (const char* opener : {"](", "![", "]:"})
      if (line.find("Open this scenario") == std::string::npos) {
        const size_t at = line.find(opener);
        EXPECT_TRUE(at == std::string::npos || (at > 0 && line[at - 1] == '\\') || (opener[0] == ']' && line[at - 1] == '\\'))
            << label << ": " << line;
      }
    if (line.rfind("|", 0) == 0) {
      ++table_lines;
      const size_t pipes = unescaped(line, '|');
      bool known = false;
      for (size_t w : table_widths) known = known || pipes == w + 1;
      EXPECT_TRUE(known) << label << ": " << pipes << " pipes in " << line;
    } else {
      EXPECT_EQ(unescaped(line, '|'), 0u) << label << ": " << line;
    }
  }
  EXPECT_GT(table_lines, 0u);
}

// RFC 4180 records.
std::vector<std::vector<std::string>> parse_csv(const std::string& csv) {
  std::vector<std::vector<std::string>> records(1);
  std::string field;
  bool quoted = false, was_quoted = false;
  for (size_t i = 0; i < csv.size(); ++i) {
    const char c = csv[i];
    if (quoted) {
      if (c == '"' && i + 1 < csv.size() && csv[i + 1] == '"') field += csv[++i];
      else if (c == '"') quoted = false;
      else field += c;
    } else if (c == '"') {
      quoted = was_quoted = true;
    } else if (c == ',' || c == '\n') {
      records.back().push_back(field);
      field.clear();
      was_quoted = false;
      if (c == '\n') records.emplace_back();
    } else {
      field += c;
    }
  }
  (void)was_quoted;
  if (records.back().empty()) records.pop_back();
  return records;
}

class Outputs : public ::testing::TestWithParam<Hostile> {};

TEST_P(Outputs, EscapeHostileNamesInEveryFormat) {
  const Fixture f(GetParam().text);
  const std::string label = GetParam().name;
  // With the odds the CLI prints beside the point estimates: their sentences name the options too.
  const QuickOdds odds = quick_odds(f.s, builtin_catalog(), f.res);

  // Row 9: text for a terminal (report, analysis, explain)
  for (const std::string& text : {report_text(f.s, f.r, f.res, odds), analysis_text(f.r, f.a), explain_text(f.s, f.r, f.res)})
    EXPECT_TRUE(test::terminal_safe(text)) << label << ":\n" << text.substr(0, 400);

  // Row 5: Markdown (report and analysis; the page's Share dialog and export use report_markdown)
  expect_safe_markdown(report_markdown(f.s, f.r, f.res, "https://example.org/calculator.html#s=1.abc", odds), {column_index(ResultCol::Count)}, label);
  expect_safe_markdown(analysis_markdown(f.r, f.a), {5, 4}, label);
  // Exactly the table rows of the report: a header, a rule and one per option.
  size_t rows = 0;
  for (const std::string& line : lines_of(report_markdown(f.s, f.r, f.res, ""))) rows += line.rfind("|", 0) == 0;
  EXPECT_EQ(rows, 2 + f.s.options.size()) << label;

  // Row 8: CSV: one record per option, 24 fields each (20 with both prices of a token, then the 4 of
  // the odds), no text field
  // a spreadsheet runs
  const auto records = parse_csv(report_csv(f.s, f.r, f.res, odds));
  ASSERT_EQ(records.size(), 1 + f.s.options.size()) << label;
  for (size_t i = 1; i < records.size(); ++i) {
    ASSERT_EQ(records[i].size(), 24u) << label;
    for (size_t c : {size_t{0}, size_t{1}, size_t{2}, size_t{18}, size_t{19}}) {
      const std::string& v = records[i][c];
      for (const char* formula : {"=", "+", "-", "@", "\t", "\r", "\n", "\xEF\xBC\x9D"})
        EXPECT_NE(v.rfind(formula, 0), 0u) << label << ": field " << c << " = " << v;
    }
  }

  // JSON (the API): the names round-trip exactly when they are valid UTF-8.
  if (find_control_character(GetParam().text) && find_control_character(GetParam().text)->invalid_utf8) return;
  const Json j = Json::parse(results_to_json(f.s, f.r, f.res).dump());
  EXPECT_EQ(j["workloads"][0]["name"].get<std::string>(), GetParam().text);
  EXPECT_EQ(j["workloads"][0]["options"][0]["label"].get<std::string>(), GetParam().text);
  EXPECT_FALSE(Json::parse(analysis_to_json(f.s, f.r, f.a).dump()).is_discarded());
}

INSTANTIATE_TEST_SUITE_P(Rows5_8_9, Outputs, ::testing::ValuesIn(hostile()),
                         [](const ::testing::TestParamInfo<Hostile>& p) { return std::string(p.param.name); });

// The same texts through the validator: each is either accepted (and shown escaped, above) or
// refused with a message that names the field; none is accepted with a control character.
TEST(Outputs, TheValidatorRefusesTheControlCharacters) {
  for (const Hostile& h : hostile()) {
    Scenario s = test::scenario(test::simple_scenario());
    s.options[0].label = h.text;
    const Problems problems = validate(s, builtin_catalog());
    EXPECT_EQ(problems.empty(), !has_control_characters(h.text)) << h.name << ": " << to_string(problems);
  }
}

}  // namespace
}  // namespace traincost
