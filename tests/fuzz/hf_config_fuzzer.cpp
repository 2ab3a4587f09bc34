// Fuzz target: Hugging Face config.json import (text pasted by a user). Whatever it accepts must
// be a model block the scenario format accepts too: import it into a one-workload scenario and
// read that back. And it is the config's model: the vocabulary as the config gives it, never
// more active parameters than total ones.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_support.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/io/hf_config.hpp"

using namespace traincost;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Problems problems;
  const std::optional<Model> m = model_from_hf_config(text, problems);
  fuzz::check_problems(problems);
  if (!m) {
    TRAINCOST_FUZZ_CHECK(!problems.empty(), "config rejected without a problem");
    return 0;
  }
  TRAINCOST_FUZZ_CHECK(m->active() <= m->params, "more active parameters than parameters");
  const Json config = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (config.is_object() && config.contains("vocab_size") && config["vocab_size"].is_number())
    TRAINCOST_FUZZ_CHECK(m->vocab == config["vocab_size"].get<double>(), "the vocabulary imported is not the config's");
  const std::string model = model_to_json(*m).dump();
  const std::string scenario = R"({"version":1,"workloads":[{"model":)" + model +
                               R"(,"target":{"tokens":1e12}}],"options":[{"instance":"p5.48xlarge","instances":64},)"
                               R"({"instance":"trn2.48xlarge","instances":64}]})";
  Problems again;
  const std::optional<Scenario> s = parse_scenario(scenario, builtin_catalog(), again);
  TRAINCOST_FUZZ_CHECK(s, "imported model is not a valid model block:\n" + to_string(again) + model);
  return 0;
}
