// traincost: the command-line face of the cost core. run() dispatches to the subcommands; the
// program's main() (entry.cpp) only calls it, so the tests and the CLI fuzz target
// (tests/fuzz/cli_fuzzer.cpp) run the whole argument-and-input path in process.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "cli_io.hpp"
#include "commands.hpp"
#include "traincost/output/present.hpp"

namespace {

const char* const kUsage =
    "traincost " TRAINCOST_VERSION ": what it costs to finish a training job, Trainium vs NVIDIA\n"
    "\n"
    "usage:\n"
    "  traincost evaluate FILE|- [--format text|json|markdown|csv]   cost of every option, and the verdict\n"
    "  traincost evaluate --link FRAGMENT [--format ...]            the same for a share link (#s=...)\n"
    "  traincost embed FILE|- [--format html|svg] [--url CALCULATOR_URL] [--styles inline|none]\n"
    "                                                               a static card of the answer for a wiki (no script)\n"
    "  traincost explain FILE|- [--format text|json]                every formula with your numbers\n"
    "  traincost analyze FILE|- [--samples N] [--seed S] [--workload W] [--format text|json|markdown]\n"
    "                                                               sensitivity and Monte Carlo\n"
    "  traincost pilot FILE|- [--workload W] [--candidate I] [--against J] [--fraction F] [--instances N]\n"
    "                  [--samples N] [--seed S] [--format text|json|markdown]\n"
    "                                                               thresholds, pass marks and the value of a pilot\n"
    "  traincost pilot-results FILE|- --log LOG [--log LOG...] [--reference-log LOG] [--option I] [--instances N] [--write FILE] [--format text|json]\n"
    "                                                               a pilot's logs read, pass marks checked, verdict before and after\n"
    "  traincost sweep FILE|- [--workload W] [--format text|json|csv]\n"
    "                                                               cost and days per run over cluster sizes\n"
    "  traincost compare MODEL|FILE|- [--tokens N] [--instances N | --chips N] [--sort cost|time|throughput]\n"
    "                    [--workload W] [--format text|markdown|csv|json]\n"
    "                                                               one model on every catalog instance and pricing:\n"
    "                                                               throughput per chip, time, compute-only $ per M tokens\n"
    "  traincost link FILE|- [--format text|json]                   the share-link fragment of a scenario\n"
    "  traincost catalog [--format text|markdown|json] [--today YYYY-MM-DD]\n"
    "                                                               chips, instances, prices, sources; how old the prices are\n"
    "  traincost import-hf CONFIG.json                              a model block from a Hugging Face config\n"
    "  traincost schema [--format markdown|json]                    every scenario field: unit, range, default\n"
    "  traincost validate [--format markdown|html]                  the step-time model against published measurements\n"
    "  traincost calibrate                                          refit its efficiency factors (prints the catalog section)\n"
    "  traincost replay [--format text|json|markdown|csv|html]      published training runs against TrainCost's predictions\n"
    "  traincost --version\n"
    "\n"
    "Exit status: 0 success, 1 usage error, 2 invalid input (each problem printed on stderr),\n"
    "3 the output could not be written (a full disk, /dev/full, a closed pipe).\n";

int run_command(int argc, char** argv);

}  // namespace

// A command whose output did not all reach its destination failed, whatever it computed: a
// caller must not take a cut-off report (`> /dev/full`, a full disk) for a whole one.
int traincost::cli::run(int argc, char** argv) {
  const int status = run_command(argc, argv);
  const bool written = std::fflush(stdout) == 0 && !std::ferror(stdout);
  if (written) return status;
  const int error = errno;
  std::clearerr(stdout);  // run() is called again in process by the tests and the fuzzer
  std::fprintf(stderr, "traincost: cannot write the output: %s\n", error ? std::strerror(error) : "the write failed");
  return kWriteError;
}

namespace {

int run_command(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 1 : 0;
  }
  const std::string command = argv[1];
  if (command == "--version") {
    std::puts("traincost " TRAINCOST_VERSION);
    return 0;
  }
  const traincost::cli::Args args(argv + 2, argv + argc);
  if (command == "evaluate") return traincost::cli::evaluate(args);
  if (command == "embed") return traincost::cli::embed(args);
  if (command == "explain") return traincost::cli::explain(args);
  if (command == "analyze") return traincost::cli::analyze(args);
  if (command == "pilot") return traincost::cli::pilot(args);
  if (command == "pilot-results") return traincost::cli::pilot_results(args);
  if (command == "sweep") return traincost::cli::sweep(args);
  if (command == "compare") return traincost::cli::compare(args);
  if (command == "link") return traincost::cli::link(args);
  if (command == "catalog") return traincost::cli::catalog(args);
  if (command == "import-hf") return traincost::cli::import_hf(args);
  if (command == "schema") return traincost::cli::schema(args);
  if (command == "validate") return traincost::cli::validate_model(args);
  if (command == "calibrate") return traincost::cli::calibrate(args);
  if (command == "replay") return traincost::cli::replay(args);
  std::fprintf(stderr, "traincost: unknown command \"%s\"\n\n%s", traincost::escape_terminal(command).c_str(), kUsage);
  return 1;
}

}  // namespace
