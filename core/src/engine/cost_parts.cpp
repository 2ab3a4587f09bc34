#include "traincost/engine/cost_parts.hpp"

#include <cmath>

namespace traincost {

std::string total_formula(bool with_values) {
  std::string per_run, fixed;
  for (const CostPart& part : kCostParts) {
    if (!part.cash && !with_values) continue;
    std::string& sum = part.recurrence == Recurrence::PerRun ? per_run : fixed;
    sum += (sum.empty() ? "" : " + ") + std::string(part.formula->symbol);
  }
  return std::string(kCostPerRun.symbol) + " = (" + per_run + ") + (" + fixed + ") / runs";
}

size_t cost_part_index(std::string_view key) {
  size_t i = 0;
  while (i < kCostPartCount && key != kCostParts[i].key) ++i;
  return i;
}

double sum_of_parts(const OptionResult& r, Recurrence recurrence) {
  double sum = 0;
  for (const CostPart& part : kCostParts)
    if (part.recurrence == recurrence) sum += r.*part.member;
  return sum;
}

CostBreakdown breakdown(const OptionResult& r, double runs) {
  CostBreakdown b;
  for (size_t i = 0; i < kCostPartCount; ++i) {
    const CostPart& part = kCostParts[i];
    b[i] = !r.feasible() ? NAN : part.recurrence == Recurrence::Fixed ? r.*part.member / runs : r.*part.member;
  }
  return b;
}

}  // namespace traincost
