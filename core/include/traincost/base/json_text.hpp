#pragma once
// Parsing JSON text from untrusted sources (pasted text, files, links) without exceptions.
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "traincost/base/problems.hpp"

namespace traincost {

using Json = nlohmann::json;
// What TrainCost writes: keys in the order they are set, so documents read in a stable order.
using OrderedJson = nlohmann::ordered_json;

struct JsonLimits {
  std::size_t max_bytes = 1 << 20;  // 1 MiB: far above any real scenario, small enough to parse fast
  int max_depth = 32;               // scenarios nest 5 levels; anything deeper is not ours
};

// Returns the document, or nothing with a problem that says where the syntax breaks
// ("line 3, column 14: ..."), or that the text is too large or nested too deeply.
std::optional<Json> parse_json(std::string_view text, Problems& problems, const JsonLimits& limits = {});

// Short description of a JSON value's type for messages: "a string", "an array", "a number"...
const char* describe_type(const Json& value);

// `text` cut to at most `max_bytes` (at a UTF-8 character boundary) plus "...", for messages.
std::string shorten(std::string_view text, size_t max_bytes);

// `text` for a message, each byte outside printable ASCII (and the double quote, when asked: it
// would end a quoted excerpt) as <XX>: "a<0A>b".
std::string printable_bytes(std::string_view text, bool quote_too = false);

// Compact rendering of a value for messages, cut to a few dozen characters.
std::string preview(const Json& value);

// Calls `read(element, path)` for each element of the array `parent[key]`, with the element's
// path ("chips[3]"); an element that is not an object is a problem at that path instead. A
// missing key, or one that is not an array, has no elements (the caller says so if it matters).
template <class Read>
void for_each_object(const Json& parent, const std::string& key, Problems& problems, Read read) {
  if (!parent.is_object() || !parent.contains(key) || !parent[key].is_array()) return;
  const Json& array = parent[key];
  for (size_t i = 0; i < array.size(); ++i) {
    const std::string path = key + "[" + std::to_string(i) + "]";
    if (array[i].is_object()) read(array[i], path);
    else problems.push_back({path, "must be an object"});
  }
}

}  // namespace traincost
