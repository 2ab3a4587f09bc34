#include "cli_io.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "traincost/json_text.hpp"
#include "traincost/scenario_json.hpp"

namespace traincost::cli {

std::optional<std::string> read_input(const std::string& path) {
  if (path == "-") {
    std::ostringstream text;
    text << std::cin.rdbuf();
    return text.str();
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    std::fprintf(stderr, "traincost: cannot read %s\n", path.c_str());
    return std::nullopt;
  }
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
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
  Flags flags;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() > 2 && a.compare(0, 2, "--") == 0) {
      bool ok = false;
      for (const char* k : known) ok = ok || a == k;
      if (!ok) {
        flags.error = "unknown option " + a;
        return flags;
      }
      if (i + 1 >= args.size()) {
        flags.error = a + " needs a value";
        return flags;
      }
      flags.named.emplace_back(a, args[++i]);
    } else if (flags.positional.empty()) {
      flags.positional = a;
    } else {
      flags.error = "unexpected argument " + a;
      return flags;
    }
  }
  return flags;
}

void print_problems(const std::string& what, const Problems& problems) {
  std::fprintf(stderr, "traincost: %s is not valid (%zu problem%s):\n", what.c_str(), problems.size(),
               problems.size() == 1 ? "" : "s");
  for (const Problem& p : problems) std::fprintf(stderr, "  %s\n", to_string(p).c_str());
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
