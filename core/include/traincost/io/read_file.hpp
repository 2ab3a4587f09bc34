#pragma once
// The one bounded reader of files every path uses (the CLI, the Python package): a document is
// at most 1 MiB, so nothing larger is ever held, and what is not a file is refused before it is read.
#include <cstddef>
#include <optional>
#include <string>

#include "traincost/base/json_text.hpp"

namespace traincost {

struct ReadRules {
  std::size_t limit = JsonLimits{}.max_bytes;  // the JSON reader's 1 MiB: a longer text is refused
  // Whether a named pipe is read (the CLI: opening it waits for a writer, as a Unix tool's does) or
  // refused (a library: a call must never wait on a pipe nobody writes into). Pipes and sockets
  // already open (standard input, /dev/fd/N of `<(...)`) are read either way.
  bool wait_on_named_pipes = true;
};

struct ReadText {
  std::optional<std::string> text;  // the bytes read, or nothing when `why` says why not
  std::string why;                  // "it is a directory", "it is larger than 1 MiB (1048576 bytes), ..."
};

// Reads the file at `path` ("" with `standard_input` reads file descriptor 0 instead): a regular
// file, a pipe or a socket, at most `rules.limit` bytes. Directories, terminals and devices
// (/dev/zero, /dev/urandom, a disk) are refused from their kind before anything is read; a regular
// file is refused from its size; a stream is read in chunks and reading stops at limit + 1 bytes,
// so an endless one never costs more memory than that.
ReadText read_text_file(const std::string& path, const ReadRules& rules = {}, bool standard_input = false);

}  // namespace traincost
