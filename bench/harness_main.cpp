// The same benchmark bodies driven by a small std::chrono loop, for WebAssembly under Node (no
// Google Benchmark there): `node --no-experimental-fetch traincost_bench.js [--quick]`.
// Each body runs once to warm up, then repeatedly until at least half a second has passed; the
// line gives items per second and the time per call. --quick runs each body once (a smoke test);
// --only SUBSTRING runs only the bodies whose names hold it.
#include <chrono>
#include <cstdio>
#include <cstring>

#include "bodies.hpp"

namespace {

using namespace traincost::bench;
using Clock = std::chrono::steady_clock;

volatile double g_sink = 0;  // keeps every result alive

const char* g_only = nullptr;  // --only SUBSTRING: run only the bodies whose names hold it (bench/wasm_profile.mjs)

template <typename Body>
void measure(const char* name, double items_per_call, const char* unit, Body body, bool quick) {
  if (g_only && !std::strstr(name, g_only)) return;
  g_sink = g_sink + body();  // warm-up (and the only run with --quick)
  if (quick) {
    std::printf("%-40s ok\n", name);
    return;
  }
  const double budget = 0.5;  // seconds
  long calls = 0;
  const Clock::time_point start = Clock::now();
  double elapsed = 0;
  do {
    g_sink = g_sink + body();
    ++calls;
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  } while (elapsed < budget);
  const double per_call_ms = elapsed / static_cast<double>(calls) * 1e3;
  std::printf("%-40s %14.0f %s/s  (%.4g ms per call, %ld calls)\n", name, items_per_call * static_cast<double>(calls) / elapsed,
              unit, per_call_ms, calls);
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  if (argc > 2 && std::strcmp(argv[1], "--only") == 0) g_only = argv[2];
  Fixture& f = fixture();
  measure("scenario/resolve_evaluate", 1, "scenarios", [&] { return resolve_and_evaluate(f); }, quick);
  measure("scenario/evaluate", 1, "scenarios", [&] { return evaluate_only(f); }, quick);
  measure("scenario/resolve_evaluate_8_options", 1, "scenarios", [&] { return resolve_and_evaluate_eight(f); }, quick);
  measure("sweep/8_options", 1, "sweeps", [&] { return sweep_eight(f); }, quick);
  measure("monte_carlo/100k_samples", kMonteCarloSamples, "samples", [&] { return monte_carlo(f, kMonteCarloSamples); }, quick);
  measure("analysis/sensitivity_and_20k_samples", 1, "analyses", [&] { return full_analysis(f); }, quick);
  measure("analysis/sensitivity_and_20k_samples_fixed_mfu", 1, "analyses", [&] { return full_analysis_fixed_mfu(f); }, quick);
  measure("thresholds/leading_pair", 1, "pairs", [&] { return thresholds_once(f); }, quick);
  measure("pilot/plan_20k_samples", 1, "plans", [&] { return pilot_plan(f); }, quick);
  measure("link/encode", 1, "links", [&] { return encode_link_once(f); }, quick);
  measure("link/decode", 1, "links", [&] { return decode_link_once(f); }, quick);
  measure("link/encode_portfolio", 1, "links", [&] { return encode_link_portfolio(f); }, quick);
  measure("link/decode_portfolio", 1, "links", [&] { return decode_link_portfolio(f); }, quick);
  return g_sink == 12345.678 ? 1 : 0;  // never true; reads the sink
}
