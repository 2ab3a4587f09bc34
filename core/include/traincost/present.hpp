#pragma once
// How results read, wherever they are shown: the cells of the results table (the CLI's text,
// Markdown and CSV reports, the page's canvas table and its text mirror all use these), the one
// word saying whether an option can run the job, figure citations, and the escaping rule of each
// output format.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traincost/catalog.hpp"
#include "traincost/evaluate.hpp"
#include "traincost/fields.hpp"

namespace traincost {

// The results table: one row per option.
struct ResultColumn {
  const char* header;        // "Fully loaded per run"
  const char* short_header;  // "All-in / run", where space is short (the page's canvas)
  const char* tip;           // what the column means
};
const std::vector<ResultColumn>& result_columns();

// The row of an option, in column order; the first cell is the option's label (unescaped).
std::vector<std::string> result_cells(const std::string& label, const OptionResult& result);

// The status column, one word or phrase: "fits" when the option can run the job; otherwise why
// not: "needs 4+ instances", "does not fit", "fails too often", "target unreachable".
std::string status_text(const OptionResult& result);
// A sentence for a tooltip: the memory figures when it runs, the reason when it cannot.
std::string status_detail(const OptionResult& result);

// The label an option shows when it has none of its own: its chip, how many instances, and where
// ("Trn2 x16", "H100 x32 (p5)", "H100 x32 (Lambda)"). It follows the instance and its count.
std::string automatic_label(const Option& option, const Catalog& catalog);

// ---- Estimates ---------------------------------------------------------------------------------

// Which of an option's results rest on an estimate, and why: its MFU is predicted for a chip with
// no published measurement, its hourly price is a catalog figure marked as an estimate, its price
// is for another region than the reference
// option's (prices differ by region), or its porting effort is the catalog's estimated default.
struct EstimateFlags {
  bool speed = false;     // MFU: time, chip-hours and every cost
  bool price = false;     // price: every cost
  bool one_time = false;  // porting effort: one-time and fully loaded costs
  std::vector<std::string> reasons;  // one sentence each, naming the option
  bool any() const { return speed || price || one_time; }
};
// The mark put before a figure that rests on an estimate.
inline constexpr const char* kEstimateMark = "≈";
EstimateFlags estimate_flags(const Scenario& scenario, const ResolvedScenario& resolved, size_t workload, size_t option,
                             const Catalog& catalog);
// result_cells() with kEstimateMark before each figure that rests on an estimate.
std::vector<std::string> result_cells(const std::string& label, const OptionResult& result, const EstimateFlags& flags);
// Whether each column (in result_columns() order) rests on an estimate under `flags`.
bool column_is_estimate(size_t column, const EstimateFlags& flags);
// "≈ rests on an estimate: …" for a table's footnote, or "" when nothing does.
std::string estimate_footnote(const Scenario& scenario, const ResolvedScenario& resolved, size_t workload, const Catalog& catalog);

// A field's name in a form: its label, capitalized, with its unit when the value alone does not
// say it ("Porting effort (engineer-weeks)", "Discount", "Price").
std::string field_label(const FieldSpec& field);
// A value of a scenario field as people read it, by the field's display style: "$35.76", "30%",
// "8.0B", "0.35".
std::string field_value_text(const FieldSpec& field, double value);

// "AWS Neuron docs: Trainium2 architecture, 2025-12-02 (estimate). Note…", or "" for an absent figure.
std::string citation(const Figure& figure, const Catalog& catalog);

// ---- Escaping: one rule per output format ------------------------------------------------------
//
// User text (scenario and workload names, option labels) reaches four kinds of output; each
// has one function here, applied where the output is put together (report.cpp, uncertainty.cpp,
// explain.cpp, the CLI, the page's exports). "Control characters" below are those of
// find_control_character(). Bytes that are not well-formed UTF-8 become U+FFFD in every format.
// docs/input-output.md lists the rules.

// Markdown (and the HTML a Markdown renderer makes of it): control characters and line breaks
// become spaces, so text cannot start a new line or table row; HTML's & < > become entities, so
// no tag or autolink passes; and the characters that make links, images, code, emphasis, headings
// and table cells (\ ` * _ [ ] ! # | ~) are backslash-escaped. User text never starts a line in
// TrainCost's Markdown, so line-start markers (- + 1.) need no escaping.
std::string escape_markdown(std::string_view text);
// A URL as the target of a Markdown link, [text](url): characters that could end or break the
// target (spaces, ( ) < > [ ] | " ` \ and anything outside printable ASCII) are percent-encoded.
std::string markdown_url(std::string_view url);
// A CSV field: always quoted, quotes doubled; a field a spreadsheet would read as a formula
// (starting with = + - @, a tab, a carriage return or line feed, or a fullwidth = + - @) is
// defused with a leading apostrophe.
std::string escape_csv(std::string_view text);
// Terminal text: control characters (C0, DEL, C1: escape sequences, carriage returns, line breaks;
// Unicode line separators and bidirectional overrides) become U+FFFD, so text cannot move the
// cursor, clear the screen, reorder what is shown or forge lines.
std::string escape_terminal(std::string_view text);
// A whole text report for a terminal: each line escaped by escape_terminal(), the report's own
// line breaks kept.
std::string escape_terminal_text(std::string_view text);
// HTML text and attribute values: & < > " ' become entities, control characters U+FFFD.
std::string escape_html(std::string_view text);

// ---- Checking text -----------------------------------------------------------------------------

// The first control character of `text` (or its first byte that is not well-formed UTF-8): what
// the escaping functions above replace, and what validate() refuses in names and labels.
struct ControlCharacter {
  unsigned code_point;  // U+FFFD for an invalid byte
  size_t position;      // in characters (code points), from 0
  bool invalid_utf8;
};
std::optional<ControlCharacter> find_control_character(std::string_view text);
bool has_control_characters(std::string_view text);
// Characters (code points) in UTF-8 text; an invalid byte counts as one.
size_t character_count(std::string_view text);

}  // namespace traincost
