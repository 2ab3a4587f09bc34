#include "traincost/engine/evaluation_run.hpp"

#include "traincost/engine/evaluate.hpp"

namespace traincost {

EvaluationRun::EvaluationRun(const Scenario& scenario, const Catalog& catalog) : scenario_(scenario), resolve_(scenario_, catalog) {}

size_t EvaluationRun::total() const { return resolve_.total() + scenario_.workloads.size() * scenario_.options.size() + 1; }

size_t EvaluationRun::done() const { return resolve_.done() + evaluated_ + (compared_ ? 1 : 0); }

// The steps of resolve() and then of evaluate(), in their order (evaluate.hpp).
bool EvaluationRun::advance(size_t units) {
  for (size_t unit = 0; unit < units && !compared_; ++unit) {
    const size_t n = e_.resolved.options.size();
    if (!resolved_) {
      if (resolve_.step()) {
        e_.resolved = resolve_.finish();
        prepare_results(e_.resolved, e_.results);  // sizes the results: no work of its own
        resolved_ = true;
      }
    } else if (n > 0 && evaluated_ < e_.resolved.workloads.size() * n) {
      evaluate_one(e_.resolved, evaluated_ / n, evaluated_ % n, e_.results);
      ++evaluated_;
    } else {
      compare_options(e_.resolved, e_.results);
      compared_ = true;
    }
  }
  return compared_;
}

Evaluation EvaluationRun::finish() { return std::move(e_); }

}  // namespace traincost
