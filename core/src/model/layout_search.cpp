// The layout search: every layout the pins allow, the fastest that fits in memory.
#include <atomic>
#include <cmath>
#include <vector>

#include "traincost/model/performance.hpp"

namespace traincost {
namespace {

bool power_of_two(int x) { return x > 0 && (x & (x - 1)) == 0; }

// The values a key may take: the pinned one, or the candidates.
template <typename T>
std::vector<T> choices(const std::optional<T>& pin, std::vector<T> candidates) {
  if (pin) return {*pin};
  return candidates;
}

std::atomic<size_t> searched{0};

}  // namespace

size_t layouts_searched() { return searched.load(std::memory_order_relaxed); }

LayoutChoice search_layout(const StepInputs& in, double chips, const LayoutPins& pins) {
  LayoutChoice best;
  const Shape& m = in.shape;
  const int n = static_cast<int>(chips);
  const int layers = static_cast<int>(m.layers);
  const int domain = static_cast<int>(in.hardware.scale_up_chips);

  // Tensor parallelism stays within the scale-up domain and splits the width evenly.
  std::vector<int> tensor;
  for (int t = 1; t <= domain && t <= n; t *= 2)
    if (std::fmod(m.hidden, t) == 0 && (m.heads <= 0 || std::fmod(m.heads, t) == 0)) tensor.push_back(t);
  // Context parallelism only pays for long sequences.
  std::vector<int> context = {1};
  for (int c = 2; c <= 32 && m.seq_len >= 16384 * c / 2; c *= 2) context.push_back(c);
  // Pipeline degrees: powers of two and divisors of the layer count, at least one layer a stage.
  std::vector<int> pipeline;
  for (int p = 1; p <= layers && p <= n; ++p)
    if (power_of_two(p) || layers % p == 0) pipeline.push_back(p);
  std::vector<int> expert = {1};
  if (m.experts > 0)
    for (int e = 2; e <= 64 && e <= m.experts; e *= 2) expert.push_back(e);

  const std::vector<Recompute> recompute = {Recompute::None, Recompute::Selective, Recompute::Full};
  double least = INFINITY;
  for (const int t : choices(pins.tensor, tensor))
    for (const int c : choices(pins.context, context))
      for (const int p : choices(pins.pipeline, pipeline)) {
        if (n % (t * c * p) != 0) continue;
        const int d = n / (t * c * p);
        if (pins.data && *pins.data != d) continue;
        for (const int e : choices(pins.expert, expert))
          for (const int b : choices(pins.micro_batch, {1, 2, 4, 8}))
            for (const int v : choices(pins.interleave, p > 1 ? std::vector<int>{1, 2, 4, 8} : std::vector<int>{1}))
              for (const Recompute r : choices(pins.recompute, recompute))
                for (const int z : choices(pins.zero, {1, 3})) {
                  Layout l;
                  l.tensor = t, l.pipeline = p, l.data = d, l.context = c, l.expert = e;
                  l.micro_batch = b, l.interleave = v, l.recompute = r, l.zero = z;
                  l.sequence_parallel = pins.sequence_parallel.value_or(t > 1);
                  const StepTime time = step_time(in, l, chips);
                  ++best.layouts_tried;
                  if (!time.valid) continue;
                  if (time.memory_per_chip_bytes < least) {
                    least = time.memory_per_chip_bytes;
                    best.least_memory_bytes = least;
                    best.least_memory_layout = l;
                  }
                  if (!time.fits) continue;
                  if (!best.found || time.tokens_per_sec_per_chip > best.time.tokens_per_sec_per_chip) {
                    best.found = true;
                    best.layout = l;
                    best.time = time;
                  }
                }
      }
  searched.fetch_add(static_cast<size_t>(best.layouts_tried), std::memory_order_relaxed);
  return best;
}

}  // namespace traincost
