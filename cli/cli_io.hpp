#pragma once
// Shared plumbing of the subcommands: reading input, flags, loading a scenario.
#include <optional>
#include <string>

#include "commands.hpp"
#include "traincost/base/json_text.hpp"
#include "traincost/io/scenario_json.hpp"
#include "traincost/scenario/scenario.hpp"

namespace traincost::cli {

constexpr int kOk = 0;
constexpr int kUsageError = 1;
constexpr int kBadInput = 2;
constexpr int kWriteError = 3;  // the output could not be written (stdout to /dev/full)

// The one way the CLI reads its input (a scenario, a Hugging Face config): a regular file, a pipe
// or a socket, or standard input for "-", at most `limit` bytes (the JSON reader's 1 MiB).
// Directories, terminals and devices are refused before anything is read; a stream is read in
// bounded chunks and reading stops at limit + 1 bytes, so /dev/zero or an endless pipe never
// costs more memory than that. On any failure: nothing, and one line on stderr saying why
// (the caller exits with status 2).
std::optional<std::string> read_input(const std::string& path, size_t limit = JsonLimits{}.max_bytes);

// Simple flag parsing: `--name value` pairs and one positional argument.
struct Flags {
  std::string positional;
  std::vector<std::pair<std::string, std::string>> named;
  std::string error;
  std::string get(const std::string& name, const std::string& fallback = "") const;
  bool has(const std::string& name) const;
};
Flags parse_flags(const Args& args, std::initializer_list<const char*> known);

// A flag's text as the JSON value the API would receive, so the shared option checkers give the CLI
// and the packages the same messages: a whole number when it is one (leading zeros allowed), else a
// JSON number ("0.02"), else the text itself.
Json flag_value(const std::string& text);

// Problems of the options a command's flags became ("options.samples: must be ...") as usage
// errors naming the flag: "traincost analyze: --samples must be ...".
void print_option_problems(const char* command, const Problems& problems);

// Reads and validates the scenario at `path` (or "-"), printing every problem on stderr.
std::optional<Scenario> load_scenario(const std::string& path);

// Prints problems as "traincost: <path>: <message>" lines.
void print_problems(const std::string& what, const Problems& problems);

}  // namespace traincost::cli
