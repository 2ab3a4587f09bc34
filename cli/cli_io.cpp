#include "cli_io.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "traincost/api/builtin.hpp"
#include "traincost/base/json_text.hpp"
#include "traincost/output/present.hpp"
#include "traincost/io/scenario_json.hpp"

namespace traincost::cli {

namespace {

// What can be read: a file, or a stream someone writes into (a pipe, a socket). Directories,
// terminals and devices (/dev/zero, /dev/urandom, a disk) are refused before anything is read.
bool readable_kind(mode_t mode) { return S_ISREG(mode) || S_ISFIFO(mode) || S_ISSOCK(mode); }

std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "it is a directory";
  if (S_ISCHR(mode)) return "it is a terminal or a device, not a file";
  if (S_ISBLK(mode)) return "it is a block device, not a file";
  return "it is not a regular file or a pipe";
}

std::string size_text(size_t bytes) {
  return bytes % (1 << 20) == 0 ? std::to_string(bytes >> 20) + " MiB (" + std::to_string(bytes) + " bytes)"
                                : std::to_string(bytes) + " bytes";
}

}  // namespace

std::optional<std::string> read_input(const std::string& path, size_t limit) {
  const bool from_stdin = path == "-";
  auto fail = [&](const std::string& why) -> std::optional<std::string> {
    // The name is the user's text: a file name can hold escape sequences too.
    std::fprintf(stderr, "traincost: cannot read %s: %s\n",
                 from_stdin ? "standard input" : escape_terminal(path).c_str(), why.c_str());
    return std::nullopt;
  };
  int fd = 0;
  if (!from_stdin) {
    if (path.empty()) return fail("no file name given");
    // Checked before opening: opening a device can block or have effects of its own.
    struct stat before {};
    if (::stat(path.c_str(), &before) != 0) return fail(std::strerror(errno));
    if (!readable_kind(before.st_mode)) return fail(kind_of(before.st_mode));
    do fd = ::open(path.c_str(), O_RDONLY | O_NOCTTY | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) return fail(std::strerror(errno));
  }
  struct Closer {
    int fd;
    bool owned;
    ~Closer() {
      if (owned) ::close(fd);
    }
  } closer{fd, !from_stdin};

  // What was opened (or what standard input is) is checked again: the name may have changed
  // hands in between, and `- < /dev/zero` or `- < .` hand the program a device or a directory.
  struct stat st {};
  if (::fstat(fd, &st) != 0) return fail(std::strerror(errno));
#ifdef __EMSCRIPTEN__
  // Under Node (NODERAWFS) standard input is always presented as a terminal device.
  const bool check_kind = !from_stdin;
#else
  const bool check_kind = true;
#endif
  if (check_kind && !readable_kind(st.st_mode))
    return fail(kind_of(st.st_mode) + (from_stdin ? " (give a file name, or pipe the file in: - < scenario.json)" : ""));
  const std::string too_large = "it is larger than " + size_text(limit) + ", the most TrainCost reads";
  if (S_ISREG(st.st_mode) && st.st_size > 0 && static_cast<unsigned long long>(st.st_size) > limit) return fail(too_large);

  // Bounded streaming: at most limit + 1 bytes are ever read or held (the extra byte tells a
  // document of exactly `limit` bytes from a longer one), however long the stream is.
  std::string text;
  char buffer[65536];
  while (text.size() <= limit) {
    const size_t want = std::min(sizeof buffer, limit + 1 - text.size());
    const ssize_t n = ::read(fd, buffer, want);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(std::strerror(errno));
    }
    if (n == 0) break;
    text.append(buffer, static_cast<size_t>(n));
  }
  if (text.size() > limit) return fail(too_large);
  return text;
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
