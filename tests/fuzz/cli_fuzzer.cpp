// Fuzz target: the CLI's whole argument-and-input path, in process (cli/main.cpp's run()).
//
// An input is a command line and what it reads:
//   first line:   the arguments after "traincost", separated by spaces (at most 16). Four words
//                 stand for paths: @in (a file holding the rest of the input), @dir (a directory),
//                 @null (/dev/null), @zero (/dev/zero).
//   the rest:     the bytes of @in, and also what standard input holds ("-").
// `analyze` always gets --samples 100, so that an input's running time stays small.
//
// Besides "no crash", it checks what a user sees: the exit status is 0, 1 or 2; a refusal (2)
// says why on stderr and prints nothing on stdout; nothing on stdout or stderr holds a control
// character but line feeds (escape sequences, carriage returns, C1 controls, invalid UTF-8);
// --format json prints JSON whose times and costs are never negative.
#include <sys/stat.h>
#include <unistd.h>
#include <fcntl.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "fuzz_support.hpp"

using namespace traincost;

namespace {

std::string scratch_dir() {
  static const std::string dir = [] {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/traincost-cli-fuzz-XXXXXX";
    if (!::mkdtemp(pattern.data())) std::abort();
    ::mkdir((pattern + "/dir").c_str(), 0700);
    return pattern;
  }();
  return dir;
}

// Runs the CLI with stdout and stderr captured in memory and standard input read from `stdin_path`.
int run_captured(std::vector<std::string> args, const std::string& stdin_path, std::string& out, std::string& err) {
  std::vector<char*> argv;
  static char program[] = "traincost";
  argv.push_back(program);
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  char* out_buffer = nullptr;
  char* err_buffer = nullptr;
  size_t out_size = 0, err_size = 0;
  FILE* out_stream = ::open_memstream(&out_buffer, &out_size);
  FILE* err_stream = ::open_memstream(&err_buffer, &err_size);
  FILE* const saved_out = stdout;
  FILE* const saved_err = stderr;
  const int saved_in = ::dup(0);
  const int in = ::open(stdin_path.c_str(), O_RDONLY);
  ::dup2(in, 0);
  ::close(in);
  stdout = out_stream;  // the CLI writes through the C streams; ASan and libFuzzer write to fd 2
  stderr = err_stream;
  const int status = traincost::cli::run(static_cast<int>(argv.size() - 1), argv.data());
  std::fflush(out_stream);
  std::fflush(err_stream);
  stdout = saved_out;
  stderr = saved_err;
  ::dup2(saved_in, 0);
  ::close(saved_in);
  std::fclose(out_stream);
  std::fclose(err_stream);
  out.assign(out_buffer, out_size);
  err.assign(err_buffer, err_size);
  std::free(out_buffer);
  std::free(err_buffer);
  return status;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  const size_t newline = all.find('\n');
  const std::string_view line = all.substr(0, newline);
  const std::string_view input = newline == std::string_view::npos ? std::string_view() : all.substr(newline + 1);

  const std::string dir = scratch_dir();
  const std::string in_path = dir + "/input.json";
  {
    FILE* f = std::fopen(in_path.c_str(), "wb");
    if (!f) return 0;
    std::fwrite(input.data(), 1, input.size(), f);
    std::fclose(f);
  }

  std::vector<std::string> args;
  for (size_t start = 0; start <= line.size() && args.size() < 16;) {
    const size_t end = std::min(line.find(' ', start), line.size());
    std::string word(line.substr(start, end - start));
    if (word == "@in") word = in_path;
    else if (word == "@dir") word = dir + "/dir";
    else if (word == "@null") word = "/dev/null";
    else if (word == "@zero") word = "/dev/zero";
    if (!word.empty() && word.find('\0') == std::string::npos) args.push_back(word);
    start = end + 1;
  }
  bool json = false;
  for (size_t i = 0; i + 1 < args.size(); ++i) json = json || (args[i] == "--format" && args[i + 1] == "json");
  if (!args.empty() && args[0] == "analyze") {
    for (size_t i = 1; i + 1 < args.size();)
      if (args[i] == "--samples") args.erase(args.begin() + static_cast<long>(i), args.begin() + static_cast<long>(i) + 2);
      else ++i;
    args.push_back("--samples");
    args.push_back("100");
  }

  std::string out, err;
  const int status = run_captured(args, in_path, out, err);
  const std::string shown = "status " + std::to_string(status) + "\n--- stdout\n" + out.substr(0, 2000) + "\n--- stderr\n" + err.substr(0, 2000);
  TRAINCOST_FUZZ_CHECK(status == 0 || status == 1 || status == 2, shown);
  TRAINCOST_FUZZ_CHECK(status == 0 || !err.empty(), "a refusal without a message\n" + shown);
  TRAINCOST_FUZZ_CHECK(status != 2 || out.empty(), "refused input, yet output on stdout\n" + shown);
  TRAINCOST_FUZZ_CHECK(status != 0 || !out.empty(), "success without output\n" + shown);
  TRAINCOST_FUZZ_CHECK(fuzz::printable(err), "a control character on stderr\n" + shown);
  TRAINCOST_FUZZ_CHECK(fuzz::printable(out), "a control character on stdout\n" + shown);
  if (status == 0 && json && !args.empty() && (args[0] == "evaluate" || args[0] == "analyze")) {
    const Json j = Json::parse(out, nullptr, /*allow_exceptions=*/false);
    TRAINCOST_FUZZ_CHECK(!j.is_discarded(), "--format json printed no JSON\n" + shown);
    fuzz::check_json_figures(j, "");
  }
  return 0;
}
