#pragma once
// A problem found in user input: the JSON path of the offending field and what is wrong with it.
// Every entry point that takes text (scenario JSON, links, Hugging Face configs) reports all the
// problems it finds this way, never by throwing, so a UI can show them and keep what it had.
#include <string>
#include <vector>

namespace traincost {

struct Problem {
  std::string path;     // e.g. "options[1].price_usd_per_hour"; empty for the document itself
  std::string message;  // e.g. "must be > 0, got -3"
};
using Problems = std::vector<Problem>;

// "options[1].price_usd_per_hour: must be > 0, got -3"
std::string to_string(const Problem& problem);
// One problem per line.
std::string to_string(const Problems& problems);

}  // namespace traincost
