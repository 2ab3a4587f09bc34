#include "traincost/base/text.hpp"

#include <cctype>
#include <cstring>

namespace traincost {

namespace {

constexpr const char* kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The code point at text[i] (UTF-8) and its length in bytes. A byte that does not start a
// well-formed sequence (a stray continuation byte, a truncated or overlong sequence, a surrogate,
// anything past U+10FFFF) is invalid: length 1, and `valid` false.
unsigned code_point(std::string_view text, size_t i, size_t& length, bool& valid) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned c = byte(i);
  length = 1;
  valid = true;
  if (c < 0x80) return c;
  const size_t n = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  valid = false;
  if (n == 0 || i + n > text.size()) return 0xFFFD;
  unsigned cp = n == 2 ? (c & 0x1Fu) : n == 3 ? (c & 0x0Fu) : (c & 0x07u);
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0xFFFD;
    cp = (cp << 6) | (byte(i + k) & 0x3Fu);
  }
  if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
      (cp >= 0xD800 && cp <= 0xDFFF))
    return 0xFFFD;
  length = n;
  valid = true;
  return cp;
}

// Characters that change how text is laid out rather than being text: C0 controls (tab, line
// feed, carriage return, escape), DEL, C1 controls (CSI 0x9B starts an escape sequence in some
// terminals), the Unicode line and paragraph separators, the bidirectional embeddings, overrides
// and isolates (which can make text display in another order than it is stored), the direction
// marks (LRM U+200E, RLM U+200F, ALM U+061C: they reorder the neutral characters around them in
// a bidi-aware terminal), and the invisible format characters, which make two names that read
// the same differ (soft hyphen U+00AD, combining grapheme joiner U+034F, Mongolian vowel
// separator U+180E, zero-width space U+200B, word joiner and invisible operators U+2060-U+2064,
// deprecated format controls U+206A-U+206F, the byte-order mark U+FEFF, interlinear annotation
// U+FFF9-U+FFFB, the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, the Khmer inherent vowels
// U+17B4 and U+17B5, the shorthand format controls U+1BCA0-U+1BCA3, and the plane-14 code points
// that are neither tags nor variation selectors). So are the noncharacters (U+FDD0-U+FDEF and the
// last two code points of every plane, U+FFFE, U+FFFF, U+1FFFE...): never text by definition, and
// U+FFFE and U+FFFF are not allowed in XML, which the SVG card is.
// The zero-width non-joiner and joiner (U+200C, U+200D), the variation selectors and the tag
// characters are text only beside what they modify (find_control_character): they are not
// controls here, so escaping keeps them, and validation refuses them anywhere else.
bool is_noncharacter(unsigned cp) { return (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFEu) == 0xFFFEu; }

bool is_control(unsigned cp) {
  return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) || cp == 0xAD || cp == 0x34F || cp == 0x61C || cp == 0x115F ||
         cp == 0x1160 || cp == 0x17B4 || cp == 0x17B5 || cp == 0x180E || cp == 0x200B || cp == 0x200E || cp == 0x200F ||
         cp == 0x2028 || cp == 0x2029 || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x2064) ||
         (cp >= 0x2066 && cp <= 0x206F) || cp == 0x3164 || cp == 0xFEFF || (cp >= 0xFFF9 && cp <= 0xFFFB) || cp == 0xFFA0 ||
         (cp >= 0x1BCA0 && cp <= 0x1BCA3) || (cp >= 0xE0000 && cp <= 0xE001F) || (cp >= 0xE0080 && cp <= 0xE00FF) ||
         (cp >= 0xE01F0 && cp <= 0xE0FFF) || is_noncharacter(cp);
}

bool is_joiner(unsigned cp) { return cp == 0x200C || cp == 0x200D; }

// Variation selectors (U+FE00-U+FE0F, U+E0100-U+E01EF) and the Mongolian free variation
// selectors (U+180B-U+180D, U+180F): they choose a glyph for the character before them.
bool is_selector(unsigned cp) {
  return (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0xE0100 && cp <= 0xE01EF) || (cp >= 0x180B && cp <= 0x180D) || cp == 0x180F;
}

// Tag characters (U+E0020-U+E007F): they spell a subdivision flag after the black flag U+1F3F4.
bool is_tag(unsigned cp) { return cp >= 0xE0020 && cp <= 0xE007F; }

// A character of a script beyond Latin (from the combining marks U+0300 on: Arabic letters,
// Devanagari, CJK, emoji, the variation selector U+FE0F of an emoji), neither itself invisible
// nor a space.
bool script_character(unsigned cp) {
  return cp >= 0x300 && !is_control(cp) && !is_joiner(cp) && !(cp >= 0x2000 && cp <= 0x200A) && cp != 0x202F && cp != 0x205F &&
         cp != 0x3000;
}

// A joiner joins two such characters.
bool joins(unsigned before, unsigned after) { return script_character(before) && script_character(after); }

// A variation selector follows such a character (an emoji's U+FE0F, a CJK ideograph's variant),
// or a digit, # or * that a keycap U+20E3 follows ("1️⃣"); never a Latin letter, where it is invisible.
bool selects(unsigned before, unsigned after) {
  const bool keycap_base = (before >= '0' && before <= '9') || before == '#' || before == '*';
  return keycap_base ? after == 0x20E3 : script_character(before) && !is_selector(before);
}

// Whether `cp` stands where it is text: a joiner, a variation selector or a tag character only
// beside what it modifies (`before` and `after` are the code points around it, 0 at an end);
// every other character that is not a control.
bool in_place(unsigned cp, unsigned before, unsigned after) {
  if (is_joiner(cp)) return joins(before, after);
  if (is_selector(cp)) return selects(before, after);
  if (is_tag(cp)) return before == 0x1F3F4 || is_tag(before);
  return !is_control(cp);
}

// The code point at text[i], or 0 past the end.
unsigned code_point_at(std::string_view text, size_t i) {
  size_t length = 0;
  bool valid = true;
  return i < text.size() ? code_point(text, i, length, valid) : 0;
}

// Walks `text` character by character: `keep(cp, bytes)` appends what to write for a valid
// character in place; the others (controls, and what find_control_character refuses beside its
// neighbours) become `control`, invalid bytes U+FFFD. So escaped text passes that check.
template <typename Keep>
std::string rewrite(std::string_view text, const char* control, Keep keep) {
  std::string out;
  out.reserve(text.size());
  unsigned before = 0;
  for (size_t i = 0, n = 0; i < text.size(); i += n) {
    bool valid = true;
    const unsigned cp = code_point(text, i, n, valid);
    if (!valid) out += kReplacement;
    else if (!in_place(cp, before, code_point_at(text, i + n))) out += control;
    else keep(out, cp, text.substr(i, n));
    before = cp;
  }
  return out;
}

}  // namespace

std::optional<ControlCharacter> find_control_character(std::string_view text) {
  size_t characters = 0;
  unsigned before = 0;
  for (size_t i = 0, n = 0; i < text.size(); i += n, ++characters) {
    bool valid = true;
    const unsigned cp = code_point(text, i, n, valid);
    if (!valid || !in_place(cp, before, code_point_at(text, i + n))) return ControlCharacter{cp, characters, !valid};
    before = cp;
  }
  return std::nullopt;
}

bool has_control_characters(std::string_view text) { return find_control_character(text).has_value(); }

size_t character_count(std::string_view text) {
  size_t characters = 0;
  for (size_t i = 0, n = 0; i < text.size(); i += n, ++characters) {
    bool valid = true;
    code_point(text, i, n, valid);
  }
  return characters;
}

std::string escape_terminal(std::string_view text) {
  return rewrite(text, kReplacement, [](std::string& out, unsigned, std::string_view bytes) { out += bytes; });
}

std::string escape_terminal_text(std::string_view text) {
  std::string out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = text.find('\n', start);
    out += escape_terminal(text.substr(start, (end == std::string_view::npos ? text.size() : end) - start));
    if (end == std::string_view::npos) break;
    out += '\n';
    start = end + 1;
  }
  return out;
}

std::string escape_markdown(std::string_view text) {
  return rewrite(text, " ", [](std::string& out, unsigned cp, std::string_view bytes) {
    // GitHub's autolinks (cmark-gfm's extension) are not syntax that escaping turns off as a
    // whole; each is broken where it is recognised. An address (http://, https://, ftp://) is
    // found at "://" as the text is parsed, so an escaped ":" hides it; "www." likewise at the
    // escaped ".". An e-mail address (also mailto: and xmpp:) is found after parsing, in the text
    // as it reads, where no escape is left: a word joiner (U+2060, invisible) after the "@" ends
    // the domain before it starts (issue 33, item 8).
    const auto after_www = [&out] {
      const size_t n = out.size();
      if (n < 3) return false;
      for (size_t k = n - 3; k < n; ++k)
        if (out[k] != 'w' && out[k] != 'W') return false;
      return true;
    };
    if (cp == '&') out += "&amp;";
    else if (cp == '<') out += "&lt;";
    else if (cp == '>') out += "&gt;";
    else if (cp < 0x80 && std::strchr("\\`*_[]!#|~:", static_cast<int>(cp))) out += std::string("\\") + static_cast<char>(cp);
    else if (cp == '.' && after_www()) out += "\\.";
    else if (cp == '@' && !out.empty() && (std::isalnum(static_cast<unsigned char>(out.back())) || std::strchr("._+-", out.back())))
      out += "@\xE2\x81\xA0";  // after what can end an address's local part
    else out += bytes;
  });
}

std::string markdown_url(std::string_view url) {
  std::string out;
  for (const char ch : url) {
    const auto c = static_cast<unsigned char>(ch);
    if (c > 0x20 && c < 0x7F && !std::strchr("()<>\\\"`[]| ", ch)) {
      out += ch;
    } else {
      static const char hex[] = "0123456789ABCDEF";
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 0xF];
    }
  }
  return out;
}

std::string escape_csv(std::string_view text) {
  std::string out = "\"";
  // What a spreadsheet reads as a formula: = + - @ first, or a tab, a line break or a fullwidth
  // = + - @ (U+FF1D, U+FF0B, U+FF0D, U+FF20) that some versions normalise to them.
  static const char* const kFormula[] = {"=", "+", "-", "@", "\t", "\r", "\n",
                                         "\xEF\xBC\x9D", "\xEF\xBC\x8B", "\xEF\xBC\x8D", "\xEF\xBC\xA0"};
  for (const char* start : kFormula)
    if (text.substr(0, std::strlen(start)) == start) {
      out += '\'';
      break;
    }
  for (size_t i = 0, n = 0; i < text.size(); i += n) {
    bool valid = true;
    code_point(text, i, n, valid);
    if (!valid) out += kReplacement;
    else if (text[i] == '"') out += "\"\"";
    else out += text.substr(i, n);
  }
  return out + "\"";
}

std::string escape_html(std::string_view text) {
  return rewrite(text, kReplacement, [](std::string& out, unsigned cp, std::string_view bytes) {
    switch (cp) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      // Braces too: a card pasted into a wiki or a template engine cannot form a {{template}}.
      case '{': out += "&#123;"; break;
      case '}': out += "&#125;"; break;
      default: out += bytes;
    }
  });
}

}  // namespace traincost
