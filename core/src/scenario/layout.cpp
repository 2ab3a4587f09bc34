#include "traincost/scenario/layout.hpp"

namespace traincost {

bool LayoutPins::empty() const {
  return !tensor && !pipeline && !data && !context && !expert && !micro_batch && !interleave && !zero && !recompute &&
         !sequence_parallel;
}

std::string describe(const Layout& l) {
  std::string s = "TP" + std::to_string(l.tensor) + " PP" + std::to_string(l.pipeline);
  if (l.interleave > 1) s += " (×" + std::to_string(l.interleave) + " interleaved)";
  s += " DP" + std::to_string(l.data);
  if (l.context > 1) s += " CP" + std::to_string(l.context);
  if (l.expert > 1) s += " EP" + std::to_string(l.expert);
  s += ", micro-batch " + std::to_string(l.micro_batch) + ", " + description_of(kRecomputeWords, l.recompute);
  if (l.tensor > 1 && !l.sequence_parallel) s += ", no sequence parallelism";
  s += ", ZeRO-" + std::to_string(l.zero);
  return s;
}

}  // namespace traincost
