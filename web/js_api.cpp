// The core's JSON-text API (traincost/api.hpp) for JavaScript: one entry point that calls any API
// function by name. The page wraps it as window.TrainCost (shell/calculator.js) and the npm
// package, which links this file with the core alone, as its exports (npm/index.js).
#include <emscripten.h>

#include <cstdlib>
#include <cstring>
#include <string_view>

#include "traincost/api/api.hpp"

namespace {

bool last_ok = false;  // JavaScript runs the module on one thread

}  // namespace

extern "C" {

// Runs the API function `name` ("evaluate", "encode_link", ...) on two UTF-8 texts given with
// their byte lengths (so text holding a NUL reaches the core whole). Returns the reply as
// malloc'd, NUL-terminated JSON text, which the caller frees (null when out of memory);
// tc_api_ok() then says whether it is the result or an {"error", "problems"} document.
EMSCRIPTEN_KEEPALIVE char* tc_api_call(const char* name, const char* first, size_t first_length, const char* second,
                                       size_t second_length) {
  const traincost::ApiReply reply =
      traincost::api_call(name ? name : "", std::string_view(first ? first : "", first ? first_length : 0),
                          std::string_view(second ? second : "", second ? second_length : 0));
  last_ok = reply.ok;
  char* text = static_cast<char*>(std::malloc(reply.json.size() + 1));
  if (!text) return nullptr;  // out of memory: the JavaScript side reports it
  std::memcpy(text, reply.json.c_str(), reply.json.size() + 1);
  return text;
}

EMSCRIPTEN_KEEPALIVE int tc_api_ok() { return last_ok ? 1 : 0; }

}  // extern "C"
