#include "test_support.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include "traincost/api/builtin.hpp"
#include "traincost/engine/resolve.hpp"

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

std::vector<std::string> source_files(const std::string& relative_folder, const std::string& suffix) {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(TRAINCOST_SOURCE_DIR) + "/" + relative_folder, error)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) names.push_back(name);
  }
  EXPECT_FALSE(error) << relative_folder << ": " << error.message();
  return names;
}

Scenario example(const std::string& name) { return scenario(read_source_file("assets/scenarios/" + name + ".json")); }

Results run(const Scenario& s) { return evaluate(resolve(s, builtin_catalog())); }

std::string simple_scenario(const std::string& workload_fields, const std::string& option_a, const std::string& option_b) {
  return R"({"version":1,"workloads":[{)" + workload_fields + R"(}],"options":[{)" + option_a + "},{" + option_b + "}]}";
}

bool terminal_safe(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '\n') {
      ++i;
      continue;
    }
    if (c < 0x20 || c == 0x7F) return false;
    const size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    unsigned cp = n == 1 ? c : n == 2 ? (c & 0x1Fu) : n == 3 ? (c & 0x0Fu) : (c & 0x07u);
    for (size_t k = 1; k < n; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3Fu);
    }
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    if ((cp >= 0x80 && cp < 0xA0) || cp == 0x2028 || cp == 0x2029 || (cp >= 0x202A && cp <= 0x202E) ||
        (cp >= 0x2066 && cp <= 0x2069))
      return false;
    i += n;
  }
  return true;
}

StepInputs mixtral_step_inputs(double global_batch_sequences) {
  StepInputs in;
  Shape& m = in.shape;
  m.params = 4.67e10, m.active_params = 1.29e10, m.layers = 32, m.hidden = 4096, m.heads = 32, m.kv_heads = 8, m.ffn = 14336;
  m.vocab = 32000, m.experts = 8, m.experts_per_token = 2, m.seq_len = 4096;
  in.hardware.peak_flops = in.hardware.peak_bf16_flops = 989e12;
  in.hardware.hbm_bytes = 80e9, in.hardware.hbm_bytes_per_sec = 3.35e12;
  in.hardware.scale_up_bytes_per_sec = 450e9, in.hardware.network_bytes_per_sec = 50e9;
  in.global_batch_sequences = global_batch_sequences;
  return in;
}

StepInputs qwen3_235b_step_inputs(double global_batch_sequences) {
  StepInputs in;
  Shape& m = in.shape;
  m.params = 235e9, m.active_params = 22e9, m.layers = 96, m.hidden = 4096, m.heads = 64, m.kv_heads = 4, m.ffn = 1536;
  m.vocab = 151936, m.experts = 128, m.experts_per_token = 8, m.seq_len = 4096;
  in.hardware.peak_flops = in.hardware.peak_bf16_flops = 989e12;
  in.hardware.hbm_bytes = 80e9, in.hardware.hbm_bytes_per_sec = 3.35e12;
  in.hardware.scale_up_bytes_per_sec = 450e9, in.hardware.scale_up_chips = 8, in.hardware.network_bytes_per_sec = 50e9;
  in.global_batch_sequences = global_batch_sequences;
  return in;
}

}  // namespace traincost::test
