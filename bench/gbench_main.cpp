// Native benchmarks (Google Benchmark). `items_per_second` is the figure: scenarios, samples or
// links per second. scripts/bench runs this and the WebAssembly harness and prints both.
#include <benchmark/benchmark.h>

#include "bodies.hpp"

namespace traincost::bench {
namespace {

template <double (*body)(Fixture&)>
void per_item(benchmark::State& state) {
  Fixture& f = fixture();
  for (auto _ : state) benchmark::DoNotOptimize(body(f));
  state.SetItemsProcessed(state.iterations());
}

void monte_carlo_samples(benchmark::State& state) {
  Fixture& f = fixture();
  for (auto _ : state) benchmark::DoNotOptimize(monte_carlo(f, kMonteCarloSamples));
  state.SetItemsProcessed(state.iterations() * kMonteCarloSamples);
}

BENCHMARK(per_item<resolve_and_evaluate>)->Name("scenario/resolve_evaluate");
BENCHMARK(per_item<evaluate_only>)->Name("scenario/evaluate");
BENCHMARK(per_item<resolve_and_evaluate_eight>)->Name("scenario/resolve_evaluate_8_options")->Unit(benchmark::kMillisecond);
BENCHMARK(per_item<sweep_eight>)->Name("sweep/8_options")->Unit(benchmark::kMillisecond);
BENCHMARK(monte_carlo_samples)->Name("monte_carlo/100k_samples")->Unit(benchmark::kMillisecond);
BENCHMARK(per_item<full_analysis>)->Name("analysis/sensitivity_and_20k_samples")->Unit(benchmark::kMillisecond);
BENCHMARK(per_item<full_analysis_fixed_mfu>)->Name("analysis/sensitivity_and_20k_samples_fixed_mfu")->Unit(benchmark::kMillisecond);
BENCHMARK(per_item<thresholds_once>)->Name("thresholds/leading_pair");
BENCHMARK(per_item<pilot_plan>)->Name("pilot/plan_20k_samples")->Unit(benchmark::kMillisecond);
BENCHMARK(per_item<encode_link_once>)->Name("link/encode");
BENCHMARK(per_item<decode_link_once>)->Name("link/decode");
BENCHMARK(per_item<encode_link_portfolio>)->Name("link/encode_portfolio");
BENCHMARK(per_item<decode_link_portfolio>)->Name("link/decode_portfolio");

}  // namespace
}  // namespace traincost::bench

BENCHMARK_MAIN();
