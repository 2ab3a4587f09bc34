#pragma once
// Shared by the libFuzzer targets: the checks every target makes besides "no crash".
//
// A fuzz target fails by crashing, so a broken property (a round trip that is not the identity,
// a message that cannot be sent back as JSON) calls check_failed(), which prints what broke and
// aborts: libFuzzer then saves the input like any other crash.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "traincost/json_text.hpp"
#include "traincost/scenario_json.hpp"

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

}  // namespace traincost::fuzz
