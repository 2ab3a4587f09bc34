#include "test_support.hpp"

#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

namespace traincost::test {

std::string read_source_file(const std::string& relative_path) {
  std::ifstream file(std::string(TRAINCOST_SOURCE_DIR) + "/" + relative_path, std::ios::binary);
  EXPECT_TRUE(file.good()) << "cannot read " << relative_path;
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

Scenario scenario(const std::string& json_text) {
  Problems problems;
  std::optional<Scenario> s = parse_scenario(json_text, builtin_catalog(), problems);
  if (!s) {
    ADD_FAILURE() << "invalid scenario:\n" << to_string(problems) << json_text;
    return Scenario{};
  }
  return *s;
}

std::string problems_of(const std::string& json_text) {
  Problems problems;
  parse_scenario(json_text, builtin_catalog(), problems);
  return to_string(problems);
}

Results run(const Scenario& s) { return evaluate(resolve(s, builtin_catalog())); }

std::string simple_scenario(const std::string& workload_fields, const std::string& option_a, const std::string& option_b) {
  return R"({"version":1,"workloads":[{)" + workload_fields + R"(}],"options":[{)" + option_a + "},{" + option_b + "}]}";
}

}  // namespace traincost::test
