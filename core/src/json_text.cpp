#include "traincost/json_text.hpp"

#include <string>

namespace traincost {

std::string to_string(const Problem& problem) {
  return problem.path.empty() ? problem.message : problem.path + ": " + problem.message;
}

std::string to_string(const Problems& problems) {
  std::string out;
  for (const Problem& p : problems) out += to_string(p) + "\n";
  return out;
}

namespace {

// A SAX consumer that builds nothing: it checks syntax and depth, and keeps the first error.
struct SyntaxCheck {
  int depth = 0;
  int max_depth = 0;
  bool too_deep = false;
  std::string error;

  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(Json::number_integer_t) { return true; }
  bool number_unsigned(Json::number_unsigned_t) { return true; }
  bool number_float(Json::number_float_t, const Json::string_t&) { return true; }
  bool string(Json::string_t&) { return true; }
  bool binary(Json::binary_t&) { return true; }
  bool start_object(std::size_t) { return enter(); }
  bool key(Json::string_t&) { return true; }
  bool end_object() { return leave(); }
  bool start_array(std::size_t) { return enter(); }
  bool end_array() { return leave(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) {
    error = ex.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 3: ..." -> keep the part
    // a person needs.
    const auto bracket = error.find("] ");
    if (bracket != std::string::npos) error = error.substr(bracket + 2);
    return false;
  }

  bool enter() {
    if (++depth > max_depth) too_deep = true;
    return !too_deep;
  }
  bool leave() {
    --depth;
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
  SyntaxCheck check;
  check.max_depth = limits.max_depth;
  if (!Json::sax_parse(text, &check)) {
    if (check.too_deep)
      problems.push_back({"", "nested more than " + std::to_string(limits.max_depth) + " levels deep"});
    else
      problems.push_back({"", "not valid JSON: " + (check.error.empty() ? "syntax error" : check.error)});
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

}  // namespace traincost
