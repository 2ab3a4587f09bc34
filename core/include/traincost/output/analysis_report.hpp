#pragma once
// The uncertainty analysis (sensitivity and Monte Carlo) as JSON (the contract of `analyze
// --format json` and the API), as text and as Markdown.
#include <string>

#include "traincost/base/json_text.hpp"
#include "traincost/engine/uncertainty.hpp"

namespace traincost {

OrderedJson analysis_to_json(const Scenario& scenario, const ResolvedScenario& resolved, const Analysis& analysis);
std::string analysis_text(const ResolvedScenario& resolved, const Analysis& analysis);
std::string analysis_markdown(const ResolvedScenario& resolved, const Analysis& analysis);
// verdict.hpp's less_likely_verdict for the analysed workload: its point-estimate leader against the
// option cheapest in the most of its futures (the text, the Markdown and the page say it).
std::string analysis_less_likely(const ResolvedScenario& resolved, const Analysis& analysis);

// A percentile of an option's cost or days as text: the figure, or, where it is none because the
// option cannot run the job in that share of samples, why ("not run: misses the 14-day deadline
// in 20% of futures"), never a bare "n/a". `usd` picks the unit.
std::string percentile_text(double value, const OptionStats& stats, bool usd = true);
// A range between two percentiles as one phrase: "$315k–$402k"; where its upper end falls among
// the futures in which the option cannot run, "from $315k; not run in 66% of futures (…)"; where
// both do, the reason alone. Never "$315k–not run…".
std::string range_text(double low, double high, const OptionStats& stats, bool usd = true);
// An option's Monte Carlo cost per run in one phrase: "median $402k, 90% range $315k–$520k"; the
// missing figures said once with why ("median $402k, 90% range from $315k; not run in 7% of
// futures (…)", or "from $315k in its best futures, but no median: not run in 66% of futures (…)").
std::string median_range_text(const Percentiles& cost, const OptionStats& stats);
// P5, P50 and P95 of a cost (usd) or of the days to the model, the missing ones named with why.
std::string percentiles_text(const Percentiles& p, const OptionStats& stats, bool usd);
// "on time for the 14-day deadline in 80% of futures (misses it in 20%)"; empty without a deadline.
std::string on_time_text(const OptionStats& stats);

}  // namespace traincost
