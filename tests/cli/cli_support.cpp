#include "cli_support.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

namespace traincost::test {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// Writes all of `data` (or, endless, chunks until 256 MiB) into `fd`; returns what went in
// before the reader closed its end (EPIPE).
size_t feed(int fd, const std::string& data, bool endless) {
  const std::string chunk(65536, ' ');
  const size_t total = endless ? size_t{256} << 20 : data.size();
  size_t done = 0;
  while (done < total) {
    const char* from = endless ? chunk.data() : data.data() + done;
    const size_t n = std::min(endless ? chunk.size() : total - done, total - done);
    const ssize_t w = ::write(fd, from, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      break;  // EPIPE: the program stopped reading
    }
    done += static_cast<size_t>(w);
  }
  return done;
}

std::vector<std::string>& dirs_to_remove() {
  static std::vector<std::string> dirs;
  return dirs;
}

}  // namespace

std::string temp_dir() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base && *base ? base : "/tmp") + "/traincost-cli-XXXXXX";
  if (!::mkdtemp(pattern.data())) ADD_FAILURE() << "mkdtemp: " << std::strerror(errno);
  if (dirs_to_remove().empty())
    std::atexit([] {
      for (const std::string& d : dirs_to_remove()) {
        const std::string command = "rm -rf '" + d + "'";
        if (std::system(command.c_str()) != 0) std::fprintf(stderr, "could not remove %s\n", d.c_str());
      }
    });
  dirs_to_remove().push_back(pattern);
  return pattern;
}

std::string write_file(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string p = dir + "/" + name;
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

CliRun run_cli(const std::vector<std::string>& args, const Stdin& in) {
  std::signal(SIGPIPE, SIG_IGN);  // a program that stops reading makes our write fail, not kill us
  const std::string dir = temp_dir();
  const std::string out_path = dir + "/stdout", err_path = dir + "/stderr";
  int pipe_fds[2] = {-1, -1};
  if (in.kind != Stdin::Kind::Path && ::pipe(pipe_fds) != 0) ADD_FAILURE() << "pipe: " << std::strerror(errno);

  // TRAINCOST_CLI_UNDER_TEST runs the tests against another build (an older one, to see a test fail).
  const char* other = std::getenv("TRAINCOST_CLI_UNDER_TEST");
  std::vector<std::string> argv_text = {other && *other ? other : TRAINCOST_CLI};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);

  const pid_t pid = ::fork();
  if (pid == 0) {
    int input = -1;
    if (in.kind == Stdin::Kind::Path) input = ::open(in.text.c_str(), O_RDONLY | O_NOCTTY);
    else input = pipe_fds[0];
    if (input < 0) _exit(125);
    const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (::dup2(input, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) _exit(126);
    if (pipe_fds[1] >= 0) ::close(pipe_fds[1]);
    ::alarm(60);  // a program that hangs is ended (SIGALRM) rather than hanging the suite
    ::execv(argv[0], argv.data());
    _exit(127);
  }
  CliRun run;
  if (in.kind != Stdin::Kind::Path) {
    ::close(pipe_fds[0]);
    run.written = feed(pipe_fds[1], in.text, in.kind == Stdin::Kind::Endless);
    ::close(pipe_fds[1]);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.out = slurp(out_path);
  run.err = slurp(err_path);
  return run;
}

}  // namespace traincost::test
