#include "traincost/evidence/pilot_scaling.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace traincost {

PilotScalingValidation validate_pilot_scaling(const MeasurementSet& set, const Catalog& catalog) {
  PilotScalingValidation out;
  const Validation v = validate(set, catalog);
  // Groups: one source's measurements of one model on one chip at one precision and sequence
  // length (a pilot and its full run use the same software), in file order.
  using Key = std::tuple<std::string, std::string, std::string, int, int>;
  std::map<Key, std::vector<const ValidationRow*>> groups;
  for (const ValidationRow& row : v.rows) {
    const Measurement& m = *row.measurement;
    if (m.excluded || !row.prediction.found) continue;
    groups[Key{m.source, m.chip, m.model_name, static_cast<int>(m.precision), static_cast<int>(m.shape.seq_len)}].push_back(&row);
  }
  std::vector<double> errors;
  for (const auto& [key, rows] : groups) {
    double smallest = rows.front()->measurement->chips;
    for (const ValidationRow* r : rows) smallest = std::min(smallest, r->measurement->chips);
    for (const ValidationRow* small : rows) {
      if (small->measurement->chips != smallest) continue;
      // measured ÷ predicted at the pilot's size, and the prediction at each larger size scaled by it
      const double ratio = small->measurement->tokens_per_sec_per_chip / small->prediction.tokens_per_sec_per_chip;
      for (const ValidationRow* large : rows) {
        if (large->measurement->chips <= smallest) continue;
        PilotScalingPair pair;
        pair.pilot = small->measurement;
        pair.planned = large->measurement;
        pair.ratio = ratio;
        pair.extrapolated = large->prediction.tokens_per_sec_per_chip * ratio;
        pair.error = pair.extrapolated / large->measurement->tokens_per_sec_per_chip - 1;
        errors.push_back(std::fabs(pair.error));
        out.pairs.push_back(pair);
      }
    }
  }
  if (errors.empty()) return out;
  std::sort(errors.begin(), errors.end());
  const size_t n = errors.size();
  out.median = n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2;
  out.worst = errors.back();
  return out;
}

}  // namespace traincost
