#pragma once
// Text from users (scenario and workload names, option labels) as every output format may show it:
// the one escaping rule of each format, and the checks of what a name may hold. The reports, the
// explain text, the CLI and the page's exports apply these where they put their output together.
#include <optional>
#include <string>
#include <string_view>

namespace traincost {

// ---- Escaping: one rule per output format ------------------------------------------------------
//
// User text (scenario and workload names, option labels) reaches four kinds of output; each
// has one function here, applied where the output is put together (report.cpp, uncertainty.cpp,
// explain.cpp, the CLI, the page's exports). "Control characters" below are those of
// find_control_character(). Bytes that are not well-formed UTF-8 become U+FFFD in every format.
// docs/input-output.md lists the rules.

// Markdown (and the HTML a Markdown renderer makes of it): control characters and line breaks
// become spaces, so text cannot start a new line or table row; HTML's & < > become entities, so
// no tag passes; the characters that make links, images, code, emphasis, headings and table
// cells (\ ` * _ [ ] ! # | ~) are backslash-escaped; and no GitHub autolink fires: ":" is escaped
// (http://, https://, ftp://), so is the "." of "www.", and "@" is followed by a word joiner
// (U+2060) so no e-mail address (nor mailto:, xmpp:) is recognised. User text never starts a line in
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
// HTML text and attribute values: & < > " ' and the braces { } become entities, control characters U+FFFD.
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
