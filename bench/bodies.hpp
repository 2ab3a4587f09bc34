#pragma once
// The benchmark bodies, written once: bench/gbench_main.cpp drives them with Google Benchmark
// (native) and bench/harness_main.cpp with a small std::chrono loop (WebAssembly under Node,
// where Google Benchmark is not available). Each body does one unit of work and returns a value
// that depends on all of it, so the compiler cannot drop the work.
#include <string>

#include "traincost/engine/evaluate.hpp"
#include "traincost/scenario/scenario.hpp"

namespace traincost::bench {

// The scenarios measured, parsed once from the example files embedded at build time.
struct Fixture {
  Scenario two_options;        // assets/scenarios/llama3-8b-pretrain.json: 1 workload, 2 options
  Scenario portfolio;          // assets/scenarios/portfolio-multicloud.json: 3 workloads, 3 options
  Scenario two_options_fixed_mfu;  // the same, each option's MFU typed as the step-time model predicts it
  ResolvedScenario two_options_resolved;
  Scenario eight_options;      // the page's maximum: the two options and six more instances (sweep cost)
  ResolvedScenario eight_options_resolved;
  std::string two_options_link;
  std::string portfolio_link;
  Results results;             // reused by evaluate_only, as the Monte Carlo loop reuses its own
};
Fixture& fixture();

constexpr int kMonteCarloSamples = 100000;

double resolve_and_evaluate(Fixture& f);          // one scenario: resolve + evaluate
double evaluate_only(Fixture& f);                 // one scenario: evaluate, storage reused
double monte_carlo(Fixture& f, int samples);      // `samples` Monte Carlo samples, no sensitivity
double full_analysis(Fixture& f);                 // sensitivity + 20,000 samples, as the page runs it
double full_analysis_fixed_mfu(Fixture& f);       // the same with fixed MFUs (the predicted model's cost is the ratio)
double thresholds_once(Fixture& f);               // the eleven thresholds of the leading pair
double pilot_plan(Fixture& f);                    // the pilot plan with its 20,000-sample value of information
double resolve_and_evaluate_eight(Fixture& f);   // eight options: resolve + evaluate (a page recompute without the sweep)
double sweep_eight(Fixture& f);                   // eight options: the cluster-size sweep the page adds to a recompute
double encode_link_once(Fixture& f);              // one link (the two-option scenario)
double decode_link_once(Fixture& f);              // one link, validated
double encode_link_portfolio(Fixture& f);         // a larger scenario's link
double decode_link_portfolio(Fixture& f);

}  // namespace traincost::bench
