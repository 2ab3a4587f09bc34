// The CLI's one input reader (issue rows 1 and 2): every kind of thing a file name or standard
// input can be. Directories, devices and unreadable files are refused with a message and exit
// status 2 before anything is read; streams are read in bounded chunks and reading stops at
// 1 MiB + 1 byte, however much is offered.
#include <fstream>
#include <iterator>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "cli_support.hpp"

namespace traincost::test {
namespace {

constexpr size_t kLimit = size_t{1} << 20;

std::string source(const std::string& relative) {
  std::ifstream f(std::string(TRAINCOST_SOURCE_DIR) + "/" + relative, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}
std::string scenario_text() { return source("assets/scenarios/finetune-1b.json"); }
std::string config_text() { return source("tests/cli/data/llama3-8b-config.json"); }

// The places the rows below name, made once: "{dir}" in an argument or a path stands for the
// test's directory.
struct Fixture {
  std::string dir = temp_dir();
  Fixture() {
    write_file(dir, "scenario.json", scenario_text());
    write_file(dir, "config.json", config_text());
    // A valid scenario padded with spaces to exactly the limit is read; one byte more is not.
    std::string padded = scenario_text();
    write_file(dir, "exactly-1mib.json", padded + std::string(kLimit - padded.size(), ' '));
    write_file(dir, "1mib-plus-1.json", padded + std::string(kLimit + 1 - padded.size(), ' '));
    write_file(dir, "large.json", std::string(5 * kLimit, '['));
    write_file(dir, "empty.json", "");
    ::mkdir((dir + "/folder").c_str(), 0700);
    ::mkdir((dir + "/folder.json").c_str(), 0700);
    if (::symlink((dir + "/folder").c_str(), (dir + "/link-to-folder.json").c_str()) != 0) ADD_FAILURE() << "symlink";
    if (::symlink("/dev/zero", (dir + "/link-to-zero.json").c_str()) != 0) ADD_FAILURE() << "symlink";
    if (::symlink((dir + "/nowhere").c_str(), (dir + "/dangling.json").c_str()) != 0) ADD_FAILURE() << "symlink";
    // A UNIX socket bound to a name: open() cannot read it.
    const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const std::string socket_path = dir + "/socket.json";
    if (socket_path.size() < sizeof address.sun_path) {
      std::copy(socket_path.begin(), socket_path.end(), address.sun_path);
      if (::bind(s, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) ADD_FAILURE() << "bind";
    }
  }
  std::string at(std::string text) const {
    for (size_t p; (p = text.find("{dir}")) != std::string::npos;) text.replace(p, 5, dir);
    return text;
  }
};
const Fixture& fixture() {
  static const Fixture f;
  return f;
}

struct InputCase {
  std::string name;
  std::vector<std::string> args;
  Stdin in;
  int status;
  std::string message;  // must appear on stderr (exit 2) or stdout (exit 0)
};
void PrintTo(const InputCase& c, std::ostream* os) { *os << c.name; }

std::vector<InputCase> input_cases() {
  const std::string trunc = "cannot read standard input: ";
  return {
      // Directories (row 1: an uncaught std::ios_base::failure, abort, exit 134)
      {"current_directory", {"evaluate", "."}, {}, 2, "cannot read .: it is a directory"},
      {"directory", {"evaluate", "{dir}/folder"}, {}, 2, "folder: it is a directory"},
      {"directory_named_json", {"evaluate", "{dir}/folder.json"}, {}, 2, "folder.json: it is a directory"},
      {"directory_with_a_slash", {"evaluate", "{dir}/folder/"}, {}, 2, "it is a directory"},
      {"symlink_to_a_directory", {"evaluate", "{dir}/link-to-folder.json"}, {}, 2, "it is a directory"},
      {"root_directory", {"explain", "/"}, {}, 2, "cannot read /: it is a directory"},
      {"directory_to_import_hf", {"import-hf", "{dir}/folder"}, {}, 2, "it is a directory"},
      {"directory_to_analyze", {"analyze", "."}, {}, 2, "it is a directory"},
      {"directory_to_link", {"link", "."}, {}, 2, "it is a directory"},
      {"directory_on_stdin", {"evaluate", "-"}, path("{dir}/folder"), 2, trunc + "it is a directory"},
      // Devices (row 2: /dev/zero was read until memory ran out)
      {"dev_zero", {"evaluate", "/dev/zero"}, {}, 2, "cannot read /dev/zero: it is a terminal or a device"},
      {"dev_zero_to_import_hf", {"import-hf", "/dev/zero"}, {}, 2, "cannot read /dev/zero: it is a terminal or a device"},
      {"dev_zero_to_analyze", {"analyze", "/dev/zero"}, {}, 2, "it is a terminal or a device"},
      {"dev_urandom", {"explain", "/dev/urandom"}, {}, 2, "it is a terminal or a device"},
      {"dev_null", {"evaluate", "/dev/null"}, {}, 2, "it is a terminal or a device"},
      {"dev_full", {"link", "/dev/full"}, {}, 2, "it is a terminal or a device"},
      {"symlink_to_dev_zero", {"evaluate", "{dir}/link-to-zero.json"}, {}, 2, "it is a terminal or a device"},
      {"dev_zero_on_stdin", {"evaluate", "-"}, path("/dev/zero"), 2, trunc + "it is a terminal or a device"},
      {"dev_zero_on_stdin_to_import_hf", {"import-hf", "-"}, path("/dev/zero"), 2, trunc + "it is a terminal or a device"},
      {"dev_null_on_stdin", {"analyze", "-"}, path("/dev/null"), 2, trunc + "it is a terminal or a device"},
      // Files that cannot be opened or read
      {"missing_file", {"evaluate", "{dir}/missing.json"}, {}, 2, "missing.json: No such file or directory"},
      {"dangling_symlink", {"evaluate", "{dir}/dangling.json"}, {}, 2, "dangling.json: No such file or directory"},
      {"file_used_as_a_directory", {"evaluate", "{dir}/scenario.json/x"}, {}, 2, "x: Not a directory"},
      {"socket", {"evaluate", "{dir}/socket.json"}, {}, 2, "socket.json: No such device or address"},
      {"unreadable_proc_file", {"evaluate", "/proc/self/mem"}, {}, 2, "cannot read /proc/self/mem: Input/output error"},
      // Sizes: the limit is 1 MiB, checked while reading
      {"file_of_exactly_1_mib", {"evaluate", "{dir}/exactly-1mib.json"}, {}, 0, "TrainCost"},
      {"file_of_1_mib_and_1_byte", {"evaluate", "{dir}/1mib-plus-1.json"}, {}, 2, "it is larger than 1 MiB (1048576 bytes)"},
      {"file_of_5_mib", {"import-hf", "{dir}/large.json"}, {}, 2, "it is larger than 1 MiB"},
      {"pipe_of_exactly_1_mib", {"evaluate", "-"}, bytes(scenario_text() + std::string(kLimit - scenario_text().size(), '\n')), 0, "TrainCost"},
      {"pipe_of_1_mib_and_1_byte", {"evaluate", "-"}, bytes(std::string(kLimit + 1, ' ')), 2, trunc + "it is larger than 1 MiB"},
      {"pipe_of_3_mib", {"import-hf", "-"}, bytes(std::string(3 * kLimit, '[')), 2, trunc + "it is larger than 1 MiB"},
      {"endless_pipe", {"evaluate", "-"}, endless(), 2, trunc + "it is larger than 1 MiB"},
      {"endless_pipe_to_analyze", {"analyze", "-"}, endless(), 2, trunc + "it is larger than 1 MiB"},
      {"endless_pipe_to_import_hf", {"import-hf", "-"}, endless(), 2, trunc + "it is larger than 1 MiB"},
      // What must keep working
      {"empty_file", {"evaluate", "{dir}/empty.json"}, {}, 2, "not valid JSON"},
      {"empty_pipe", {"evaluate", "-"}, bytes(""), 2, "not valid JSON"},
      {"file", {"evaluate", "{dir}/scenario.json"}, {}, 0, "TrainCost"},
      {"file_on_stdin", {"evaluate", "-"}, path("{dir}/scenario.json"), 0, "TrainCost"},
      {"pipe", {"evaluate", "-", "--format", "json"}, bytes(scenario_text()), 0, "\"verdict\""},
      {"config_file", {"import-hf", "{dir}/config.json"}, {}, 0, "8030261248"},
      {"config_pipe", {"import-hf", "-"}, bytes(config_text()), 0, "8030261248"},
      {"dev_stdin_as_a_name", {"evaluate", "/dev/stdin"}, bytes(scenario_text()), 0, "TrainCost"},
  };
}

class Input : public ::testing::TestWithParam<InputCase> {};

TEST_P(Input, IsReadOrRefusedWithAMessage) {
  const InputCase& c = GetParam();
  std::vector<std::string> args;
  for (const std::string& a : c.args) args.push_back(fixture().at(a));
  Stdin in = c.in;
  if (in.kind == Stdin::Kind::Path) in.text = fixture().at(in.text);
  const CliRun run = run_cli(args, in);
  EXPECT_EQ(run.status, c.status) << "stderr:\n" << run.err.substr(0, 2000);
  if (c.status == 0) {
    EXPECT_NE(run.out.find(c.message), std::string::npos) << run.out.substr(0, 500) << run.err;
  } else {
    EXPECT_NE(run.err.find(c.message), std::string::npos) << run.err;
    EXPECT_EQ(run.out, "") << "nothing on stdout when the input is refused";
    // One line saying why (plus, for a document that was read, its problems).
    EXPECT_LT(run.err.size(), 2000u);
  }
  // Bounded: a stream longer than the limit is read no further than the limit, the extra byte
  // and what the pipe holds (64 KiB by default, 1 MiB at most).
  EXPECT_LE(run.written, 2 * kLimit + 1) << "the program read on past the limit";
}

INSTANTIATE_TEST_SUITE_P(Table, Input, ::testing::ValuesIn(input_cases()),
                         [](const ::testing::TestParamInfo<InputCase>& p) { return p.param.name; });

// A named pipe: opening it waits for a writer, then it is read like any pipe.
TEST(Input, NamedPipe) {
  const std::string fifo = fixture().dir + "/fifo.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const pid_t writer = ::fork();
  if (writer == 0) {
    const int fd = ::open(fifo.c_str(), O_WRONLY);
    const std::string text = scenario_text();
    const bool ok = fd >= 0 && ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    _exit(ok ? 0 : 1);
  }
  const CliRun run = run_cli({"evaluate", fifo, "--format", "csv"});
  int status = 0;
  ::waitpid(writer, &status, 0);
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("workload,option"), std::string::npos);
}

// A file the user may not read (only meaningful when the tests do not run as root).
TEST(Input, FileWithoutReadPermission) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads every file";
  const std::string p = write_file(fixture().dir, "secret.json", scenario_text());
  ::chmod(p.c_str(), 0);
  const CliRun run = run_cli({"evaluate", p});
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("secret.json: Permission denied"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace traincost::test
