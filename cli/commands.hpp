#pragma once
// The CLI's subcommands. Each takes its arguments (after the subcommand name) and returns the
// process exit code: 0 success, 1 usage error, 2 bad input (every problem printed on stderr).
#include <string>
#include <optional>
#include <vector>

#include "traincost/scenario/scenario.hpp"

namespace traincost::cli {

using Args = std::vector<std::string>;

// The whole program, as main() receives it (argv[0] is the program's name): dispatches to the
// subcommand and returns the exit status. Writes to stdout and stderr, reads files and stdin.
int run(int argc, char** argv);

int evaluate(const Args& args);
int embed(const Args& args);
int explain(const Args& args);
int catalog(const Args& args);
int schema(const Args& args);
int import_hf(const Args& args);
int analyze(const Args& args);
int pilot(const Args& args);
int pilot_results(const Args& args);
int sweep(const Args& args);
int compare(const Args& args);
int link(const Args& args);
int calibrate(const Args& args);
int validate_model(const Args& args);
int replay(const Args& args);

// Decodes a share link given on the command line, printing problems and notices on stderr.
std::optional<Scenario> scenario_from_link_argument(const std::string& link);

}  // namespace traincost::cli
