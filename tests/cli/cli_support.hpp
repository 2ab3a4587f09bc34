#pragma once
// Runs the real `traincost` program (build/<preset>/traincost) as a child process, with a chosen
// standard input, and collects its exit status and output: the CLI tests check what a user at a
// shell sees, including how the program treats directories, devices and endless pipes.
#include <string>
#include <vector>

#include "test_support.hpp"  // terminal_safe()

namespace traincost::test {

// What the child's standard input is.
struct Stdin {
  enum class Kind {
    Bytes,    // a pipe carrying `text`, then closed (the default: an empty pipe)
    Endless,  // a pipe the test keeps writing into until the program stops reading (at most 256 MiB)
    Path,     // the file, directory or device at `text`, opened for reading as a shell's `< path` does
  };
  Kind kind = Kind::Bytes;
  std::string text;
};
inline Stdin bytes(std::string text) { return {Stdin::Kind::Bytes, std::move(text)}; }
inline Stdin path(std::string p) { return {Stdin::Kind::Path, std::move(p)}; }
inline Stdin endless() { return {Stdin::Kind::Endless, {}}; }

struct CliRun {
  int status = -1;      // exit status; 128 + n when a signal n ended it
  std::string out, err;
  size_t written = 0;   // bytes of a Bytes or Endless stdin the program took before it stopped reading
};

// `traincost ARGS...`; a timeout of 60 s ends a hung child (status 128 + SIGKILL).
CliRun run_cli(const std::vector<std::string>& args, const Stdin& in = {});

// A fresh directory under $TMPDIR, removed with its content at the end of the test program.
std::string temp_dir();
// Writes `text` to `dir/name` and returns the path.
std::string write_file(const std::string& dir, const std::string& name, const std::string& text);

}  // namespace traincost::test
