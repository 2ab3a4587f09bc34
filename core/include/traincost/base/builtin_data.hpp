#pragma once
// Loading the data compiled into the library: the catalog, the step-time measurements and the
// published runs.
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "traincost/base/problems.hpp"

namespace traincost {

// `load(problems)` returns an optional table. The embedded files are checked by the tests, so one
// that does not load is a build defect, not user input: say what is wrong and stop.
template <class Load>
auto load_builtin_or_abort(const char* what, Load load) {
  Problems problems;
  auto loaded = load(problems);
  if (!loaded) {
    std::fprintf(stderr, "traincost: the embedded %s did not load:\n%s\n", what, to_string(problems).c_str());
    std::abort();
  }
  return std::move(*loaded);
}

}  // namespace traincost
