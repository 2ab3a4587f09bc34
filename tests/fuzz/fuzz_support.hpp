#pragma once
// Shared by the libFuzzer targets: the checks every target makes besides "no crash".
//
// A fuzz target fails by crashing, so a broken property (a round trip that is not the identity,
// a message that cannot be sent back as JSON) calls check_failed(), which prints what broke and
// aborts: libFuzzer then saves the input like any other crash.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "traincost/base/json_text.hpp"
#include "traincost/output/present.hpp"
#include "traincost/io/scenario_json.hpp"

namespace traincost::fuzz {

[[noreturn]] inline void check_failed(const char* what, const std::string& detail) {
  std::fprintf(stderr, "\nFUZZ CHECK FAILED: %s\n%s\n", what, detail.c_str());
  std::abort();
}

#define TRAINCOST_FUZZ_CHECK(condition, detail)                                       \
  do {                                                                                \
    if (!(condition)) ::traincost::fuzz::check_failed(#condition, (detail));          \
  } while (0)

// Every problem must have a message, and the list must serialize the way the JS API returns it
// (web/js_api.cpp, error_json): nlohmann's dump() aborts on invalid UTF-8, so a message that
// quotes raw input bytes would crash the page.
inline void check_problems(const Problems& problems) {
  OrderedJson list = OrderedJson::array();
  for (const Problem& p : problems) {
    TRAINCOST_FUZZ_CHECK(!p.message.empty(), "empty message at path " + p.path);
    list.push_back({{"path", p.path}, {"message", p.message}});
  }
  const std::string text = list.dump();
  TRAINCOST_FUZZ_CHECK(!text.empty(), "");
  (void)to_string(problems);
}

// What may reach a terminal: well-formed UTF-8 without control characters but line feeds (the
// escaping rule of text output, present.hpp).
// Markdown without the one invisible character its escaping inserts on purpose: a word joiner
// (U+2060) after an "@" so that "name@host" never autolinks (escape_markdown). Any other control
// or invisible character is still a finding.
inline std::string without_autolink_breaks(std::string text) {
  const std::string joiner = "\xE2\x81\xA0";
  for (size_t at = text.find("@" + joiner); at != std::string::npos; at = text.find("@" + joiner, at + 1)) text.erase(at + 1, joiner.size());
  return text;
}

inline bool printable(std::string_view raw) {
  // The Markdown escape writes a word joiner (U+2060) after an "@" on purpose, so that no renderer
  // autolinks an address (base/text.cpp): that one is part of the text, not a control.
  std::string joined(raw);
  for (size_t at = joined.find("@\xE2\x81\xA0"); at != std::string::npos; at = joined.find("@\xE2\x81\xA0", at + 1)) joined.erase(at + 1, 3);
  const std::string_view text(joined);
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = text.find('\n', start);
    if (find_control_character(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start))) return false;
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return true;
}

// Numeric safety in results and analysis JSON: a time or a cost (a key ending in _usd or
// _hours) is a number that is not negative, or null when withheld.
inline void check_json_figures(const Json& j, const std::string& key) {
  if (j.is_object()) {
    for (const auto& item : j.items()) check_json_figures(item.value(), item.key());
  } else if (j.is_array()) {
    for (const Json& v : j) check_json_figures(v, key);
  } else if (j.is_number()) {
    const bool money_or_time = (key.size() > 4 && key.compare(key.size() - 4, 4, "_usd") == 0) ||
                               (key.size() > 6 && key.compare(key.size() - 6, 6, "_hours") == 0);
    TRAINCOST_FUZZ_CHECK(!money_or_time || j.get<double>() >= 0, key + " is " + j.dump());
  }
}

}  // namespace traincost::fuzz
