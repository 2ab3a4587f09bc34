#include "cli_io.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "traincost/api/builtin.hpp"
#include "traincost/base/json_text.hpp"
#include "traincost/output/present.hpp"
#include "traincost/io/read_file.hpp"
#include "traincost/io/scenario_json.hpp"

namespace traincost::cli {

std::optional<std::string> read_input(const std::string& path, size_t limit) {
  const bool from_stdin = path == "-";
  ReadRules rules;
  rules.limit = limit;
  ReadText read = read_text_file(from_stdin ? std::string() : path, rules, from_stdin);
  if (!read.text) {
    // The name is the user's text: a file name can hold escape sequences too.
    std::fprintf(stderr, "traincost: cannot read %s: %s\n",
                 from_stdin ? "standard input" : escape_terminal(path).c_str(), read.why.c_str());
    return std::nullopt;
  }
  return std::move(read.text);
}

Json flag_value(const std::string& text) {
  const bool negative = !text.empty() && text[0] == '-';
  const std::string digits = negative ? text.substr(1) : text;
  bool whole = !digits.empty() && digits.size() <= 18;
  for (char c : digits) whole = whole && c >= '0' && c <= '9';
  if (whole) return std::strtoll(text.c_str(), nullptr, 10);
  Problems ignored;
  if (const std::optional<Json> number = parse_json(text, ignored); number && number->is_number()) return *number;
  return text;
}

void print_option_problems(const char* command, const Problems& problems) {
  for (const Problem& p : problems)
    std::fprintf(stderr, "traincost %s: --%s %s\n", command, p.path.substr(p.path.find('.') + 1).c_str(), p.message.c_str());
}

std::string Flags::get(const std::string& name, const std::string& fallback) const {
  for (const auto& [key, value] : named)
    if (key == name) return value;
  return fallback;
}
bool Flags::has(const std::string& name) const {
  for (const auto& item : named)
    if (item.first == name) return true;
  return false;
}

Flags parse_flags(const Args& args, std::initializer_list<const char*> known) {
  // The errors quote the arguments, escaped for the terminal they are printed on (found by
  // tests/fuzz/cli_fuzzer.cpp).
  Flags flags;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() > 2 && a.compare(0, 2, "--") == 0) {
      bool ok = false;
      for (const char* k : known) ok = ok || a == k;
      if (!ok) {
        flags.error = "unknown option " + escape_terminal(a);
        return flags;
      }
      if (i + 1 >= args.size()) {
        flags.error = escape_terminal(a) + " needs a value";
        return flags;
      }
      flags.named.emplace_back(a, args[++i]);
    } else if (flags.positional.empty()) {
      flags.positional = a;
    } else {
      flags.error = "unexpected argument " + escape_terminal(a);
      return flags;
    }
  }
  return flags;
}

void print_problems(const std::string& what, const Problems& problems) {
  std::fprintf(stderr, "traincost: %s is not valid (%zu problem%s):\n", escape_terminal(what).c_str(), problems.size(),
               problems.size() == 1 ? "" : "s");
  // Paths and messages quote the user's text (an unknown instance, a key): no control character
  // of it reaches the terminal.
  for (const Problem& p : problems) std::fprintf(stderr, "  %s\n", escape_terminal(to_string(p)).c_str());
}

std::optional<Scenario> load_scenario(const std::string& path) {
  const std::optional<std::string> text = read_input(path);
  if (!text) return std::nullopt;
  Problems problems;
  std::optional<Scenario> s = parse_scenario(*text, builtin_catalog(), problems);
  if (!s) print_problems(path == "-" ? "the scenario on standard input" : path, problems);
  return s;
}

}  // namespace traincost::cli
