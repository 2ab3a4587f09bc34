#include "traincost/io/read_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace traincost {

namespace {

// What can be read: a file, or a stream someone writes into (a pipe, a socket).
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

ReadText refused(std::string why) { return {std::nullopt, std::move(why)}; }

}  // namespace

ReadText read_text_file(const std::string& path, const ReadRules& rules, bool standard_input) {
  int fd = 0;
  if (!standard_input) {
    if (path.empty()) return refused("no file name given");
    if (path.find('\0') != std::string::npos) return refused("a file name cannot hold a NUL byte");
    // Checked before opening: opening a device can block or have effects of its own, and opening
    // a named pipe waits for a writer.
    struct stat before {};
    if (::stat(path.c_str(), &before) != 0) return refused(std::strerror(errno));
    if (!readable_kind(before.st_mode)) return refused(kind_of(before.st_mode));
    if (S_ISFIFO(before.st_mode) && !rules.wait_on_named_pipes)
      return refused("it is a named pipe (FIFO): reading it would wait for a writer; read it yourself and pass the text");
    do fd = ::open(path.c_str(), O_RDONLY | O_NOCTTY | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) return refused(std::strerror(errno));
  }
  struct Closer {
    int fd;
    bool owned;
    ~Closer() {
      if (owned) ::close(fd);
    }
  } closer{fd, !standard_input};

  // What was opened (or what standard input is) is checked again: the name may have changed
  // hands in between, and `- < /dev/zero` or `- < .` hand the program a device or a directory.
  struct stat st {};
  if (::fstat(fd, &st) != 0) return refused(std::strerror(errno));
#ifdef __EMSCRIPTEN__
  // Under Node (NODERAWFS) standard input is always presented as a terminal device.
  const bool check_kind = !standard_input;
#else
  const bool check_kind = true;
#endif
  if (check_kind && !readable_kind(st.st_mode))
    return refused(kind_of(st.st_mode) + (standard_input ? " (give a file name, or pipe the file in: - < scenario.json)" : ""));
  const std::string too_large = "it is larger than " + size_text(rules.limit) + ", the most TrainCost reads";
  if (S_ISREG(st.st_mode) && st.st_size > 0 && static_cast<unsigned long long>(st.st_size) > rules.limit)
    return refused(too_large);

  // Bounded streaming: at most limit + 1 bytes are ever read or held (the extra byte tells a
  // document of exactly `limit` bytes from a longer one), however long the stream is.
  std::string text;
  char buffer[65536];
  while (text.size() <= rules.limit) {
    const size_t want = std::min(sizeof buffer, rules.limit + 1 - text.size());
    const ssize_t n = ::read(fd, buffer, want);
    if (n < 0) {
      if (errno == EINTR) continue;
      return refused(std::strerror(errno));
    }
    if (n == 0) break;
    text.append(buffer, static_cast<size_t>(n));
  }
  if (text.size() > rules.limit) return refused(too_large);
  return {std::move(text), ""};
}

}  // namespace traincost
