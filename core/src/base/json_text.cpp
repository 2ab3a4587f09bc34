#include "traincost/base/json_text.hpp"

#include <cctype>
#include <set>
#include <string>
#include <vector>

namespace traincost {

std::string to_string(const Problem& problem) {
  return problem.path.empty() ? problem.message : problem.path + ": " + problem.message;
}

std::string to_string(const Problems& problems) {
  std::string out;
  for (const Problem& p : problems) out += to_string(p) + "\n";
  return out;
}

std::string shorten(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  // Never inside a UTF-8 character: half of one makes the message invalid UTF-8, and nlohmann's
  // dump() aborts on that (the JS API returns problems as JSON).
  size_t end = max_bytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return std::string(text.substr(0, end)) + "...";
}

namespace {

// A SAX consumer that builds nothing: it checks syntax, depth and duplicate keys, keeps the
// first error, and follows where it is in the document so that the error names the field
// ("options[1].mfu: not valid JSON: ..." for a bare NaN) instead of only a line and column.
struct SyntaxCheck {
  struct Level {
    bool array = false;
    size_t next_index = 0;        // array: index of the element that comes next
    std::string key;              // object: the latest key
    bool awaiting_value = false;  // object: that key's value has not started yet
    std::set<std::string> keys;   // object: keys seen so far
  };
  std::vector<Level> levels;
  int max_depth = 0;
  bool too_deep = false;
  std::string error;       // first error, cleaned up for people
  std::string error_path;  // where it happened; empty for the document itself
  std::string duplicate;   // first key given twice in one object, as a path

  // Where the parser is: each enclosing container contributes the key or index of the value
  // being read in it; the innermost one, the value about to be read (if its key was read).
  std::string path() const {
    std::string out;
    for (size_t i = 0; i < levels.size(); ++i) {
      const Level& l = levels[i];
      const bool innermost = i + 1 == levels.size();
      if (l.array) {
        const size_t index = innermost ? l.next_index : l.next_index - 1;
        out += "[" + std::to_string(index) + "]";
      } else if (!innermost || l.awaiting_value) {
        out += (out.empty() ? "" : ".") + shorten(l.key, 40);
      }
    }
    return out;
  }
  // A value starts in the innermost container.
  void value_starts() {
    if (levels.empty()) return;
    Level& l = levels.back();
    if (l.array) ++l.next_index;
    else l.awaiting_value = false;
  }

  bool null() { return value(); }
  bool boolean(bool) { return value(); }
  bool number_integer(Json::number_integer_t) { return value(); }
  bool number_unsigned(Json::number_unsigned_t) { return value(); }
  bool number_float(Json::number_float_t, const Json::string_t&) { return value(); }
  bool string(Json::string_t&) { return value(); }
  bool binary(Json::binary_t&) { return value(); }
  bool start_object(std::size_t) { return enter(false); }
  bool key(Json::string_t& k) {
    Level& l = levels.back();
    l.key = k;
    l.awaiting_value = true;
    if (!l.keys.insert(k).second && duplicate.empty()) duplicate = path();
    return true;
  }
  bool end_object() { return leave(); }
  bool start_array(std::size_t) { return enter(true); }
  bool end_array() { return leave(); }
  bool parse_error(std::size_t, const std::string& last_token, const nlohmann::detail::exception& ex) {
    error = ex.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 3: ..." -> keep the part
    // a person needs.
    const auto bracket = error.find("] ");
    if (bracket != std::string::npos) error = error.substr(bracket + 2);
    // nlohmann quotes the bytes it last read ("last read: '...'"), which may be invalid UTF-8;
    // sending such a message back as JSON (the JS API, analysis output) would abort in dump().
    // Found by the scenario fuzzer (tests/fuzz/regressions/scenario/syntax-error-quotes-invalid-utf8):
    // bytes outside printable ASCII are shown as <XX> instead.
    error = printable_bytes(error);
    // NaN and Infinity are what other tools write for non-finite numbers; say so. The token
    // read last ends with the letters of the word that failed ("\"mfu\":N").
    size_t word = last_token.size();
    while (word > 0 && (std::isalpha(static_cast<unsigned char>(last_token[word - 1])) || last_token[word - 1] == '-')) --word;
    const std::string tail = last_token.substr(word);
    for (const char* start : {"N", "I", "-N", "-I", "na", "i", "-i", "-n"})
      if (tail == start) {
        error += " (NaN and Infinity are not JSON numbers: give a finite number)";
        break;
      }
    error_path = path();
    return false;
  }

  bool value() {
    value_starts();
    return true;
  }
  bool enter(bool array) {
    if (static_cast<int>(levels.size()) >= max_depth) {
      too_deep = true;
      error_path = path();
      return false;
    }
    value_starts();
    levels.push_back(Level{});
    levels.back().array = array;
    return true;
  }
  bool leave() {
    levels.pop_back();
    return true;
  }

};

}  // namespace

std::optional<Json> parse_json(std::string_view text, Problems& problems, const JsonLimits& limits) {
  if (text.size() > limits.max_bytes) {
    problems.push_back({"", "the document is " + std::to_string(text.size()) + " bytes; at most " +
                                std::to_string(limits.max_bytes) + " are accepted"});
    return std::nullopt;
  }
  // nlohmann's lexer takes a NUL byte for the end of the input, so "{...}\0garbage" read as the
  // valid document before it (issue row 11: a scenario followed by \0garbage was accepted by the
  // CLI). JSON text holds no raw NUL anywhere (inside a string it must be written \u0000), so
  // the first one is refused, with the field it interrupts.
  if (const size_t nul = text.find('\0'); nul != std::string_view::npos) {
    SyntaxCheck before;
    before.max_depth = limits.max_depth;
    const bool complete = Json::sax_parse(text.substr(0, nul), &before);
    size_t line = 1, column = 1;
    for (size_t i = 0; i < nul; ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
        ++column;
      }
    }
    problems.push_back({complete ? std::string() : before.error_path,
                        "not valid JSON: line " + std::to_string(line) + ", column " + std::to_string(column) +
                            ": a NUL byte (control character U+0000), which JSON text cannot hold" +
                            (complete ? "; it follows a complete document" : "")});
    return std::nullopt;
  }
  SyntaxCheck check;
  check.max_depth = limits.max_depth;
  if (!Json::sax_parse(text, &check)) {
    if (check.too_deep)
      problems.push_back({check.error_path, "nested more than " + std::to_string(limits.max_depth) + " levels deep"});
    else
      problems.push_back({check.error_path, "not valid JSON: " + (check.error.empty() ? "syntax error" : check.error)});
    return std::nullopt;
  }
  // JSON leaves duplicate keys undefined and nlohmann keeps the last one silently: a scenario
  // with "mfu" twice would mean whichever the reader picked, so it is refused.
  if (!check.duplicate.empty()) {
    problems.push_back({check.duplicate, "is given more than once"});
    return std::nullopt;
  }
  Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {  // unreachable after a successful check, kept as a guard
    problems.push_back({"", "not valid JSON"});
    return std::nullopt;
  }
  return doc;
}

const char* describe_type(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::object: return "an object";
    case Json::value_t::array: return "an array";
    case Json::value_t::string: return "a string";
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::binary: return "binary data";
    case Json::value_t::discarded: return "nothing";
    default: return "a number";
  }
}

std::string preview(const Json& value) {
  std::string text = value.dump(-1, ' ', /*ensure_ascii=*/true, Json::error_handler_t::replace);
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

std::string printable_bytes(std::string_view text, bool quote_too) {
  static const char hex[] = "0123456789ABCDEF";
  std::string out;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7F && !(quote_too && c == '"')) {
      out += ch;
    } else {
      out += '<';
      out += hex[c >> 4];
      out += hex[c & 0xF];
      out += '>';
    }
  }
  return out;
}

}  // namespace traincost
