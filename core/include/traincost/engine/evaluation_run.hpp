#pragma once
// The base evaluation a step at a time: resolve() (with its deadline searches) and evaluate() of a
// scenario, as one resumable run. The page runs it a slice per frame (web/sliced_job.hpp), so that
// a scenario whose deadlines search up to 100,000 instances on many workloads does not hold the
// main thread for seconds; the CLI, the bindings and the JS API call resolve() and evaluate(),
// which are the same steps driven to completion, so the answer is bit-identical however the run
// is sliced.
//
// A unit of advance() is bounded work, whatever the scenario's sizes: one option's own numbers,
// one pair through resolve_pair(), one size tried by a deadline's search, one size put in place or
// one batch of draws (kDeadlineOddsDrawsPerStep) of a deadline_confidence's search, the labels, one
// pair's evaluation, or the comparisons of the evaluated pairs.
#include <cstddef>

#include "traincost/data/catalog.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/engine/results.hpp"
#include "traincost/scenario/scenario.hpp"

namespace traincost {

// A scenario resolved and evaluated: what resolve() and evaluate() give.
struct Evaluation {
  ResolvedScenario resolved;
  Results results;
};

class EvaluationRun {
 public:
  // Keeps its own copy of `scenario` (a scenario that passed validate() against `catalog`);
  // `catalog` must outlive the run.
  EvaluationRun(const Scenario& scenario, const Catalog& catalog);
  EvaluationRun(const EvaluationRun&) = delete;
  EvaluationRun& operator=(const EvaluationRun&) = delete;

  // Does up to `units` more units of work; true once the evaluation is complete.
  bool advance(size_t units);
  // Progress: the resolution's options, pairs and labels, then the pairs evaluated and the
  // comparisons (a deadline's search, and a deadline_confidence's, counts as one per pair however
  // many sizes it tries).
  size_t done() const;
  size_t total() const;
  // Once advance() has returned true.
  Evaluation finish();

 private:
  Scenario scenario_;
  ResolveRun resolve_;
  Evaluation e_;
  bool resolved_ = false, compared_ = false;
  size_t evaluated_ = 0;  // pairs evaluated, workload by workload
};

}  // namespace traincost
