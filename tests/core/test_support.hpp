#pragma once
// Helpers shared by the core tests.
#include <string>
#include <vector>

#include "traincost/engine/evaluate.hpp"
#include "traincost/io/scenario_json.hpp"
#include "traincost/model/performance.hpp"

namespace traincost::test {

// The example scenarios (assets/scenarios/<name>.json), listed once for every test that loops over
// them; Examples.ListIsTheFolder fails when a file is added without its name here.
inline constexpr const char* kExamples[] = {"llama3-8b-pretrain", "finetune-1b",          "llama3-70b-target-loss", "mixtral-moe",
                                            "portfolio-multicloud", "gpt3-175b-ranges", "llama3-8b-deadline"};

// Reads a file below the source tree ("assets/scenarios/x.json").
std::string read_source_file(const std::string& relative_path);

// Parses and validates a scenario given as JSON text; fails the test (and aborts it) with every
// problem when it is invalid.
Scenario scenario(const std::string& json_text);

// The problems a scenario's text produces, one "path: message" per line.
std::string problems_of(const std::string& json_text);

// The names of the files in a folder below the source tree that end in `suffix`.
std::vector<std::string> source_files(const std::string& relative_folder, const std::string& suffix);

// An example scenario by name, parsed and validated.
Scenario example(const std::string& name);

// Resolves against the built-in catalog and evaluates.
Results run(const Scenario& s);

// A two-option scenario around one workload; `extra_option_fields` is spliced into both options.
std::string simple_scenario(const std::string& workload_fields = R"("model":{"params":8e9},"target":{"tokens":1e11})",
                            const std::string& option_a = R"("instance":"trn2.48xlarge","instances":2)",
                            const std::string& option_b = R"("instance":"p5.48xlarge","instances":4)");

// True when `text` is well-formed UTF-8 holding no control character but line feeds (what a
// terminal shows without being driven by it: no escape sequence, carriage return, C1 control,
// Unicode line separator or direction override).
bool terminal_safe(const std::string& text);

// Step-time inputs of two published mixtures of experts on H100 figures (989 TFLOP/s in 16 bits,
// 80 GB at 3.35 TB/s, NVLink 450 GB/s, network 50 GB/s a chip), for the hand-derived step tests.
// Mixtral 8x7B: 46.7B parameters, 12.9B active, 8 experts, 2 a token (the scale-up domain left at
// its default).
StepInputs mixtral_step_inputs(double global_batch_sequences);
// Qwen3-235B-A22B: 128 experts, 8 a token, in NVLink domains of 8 chips.
StepInputs qwen3_235b_step_inputs(double global_batch_sequences);

}  // namespace traincost::test
