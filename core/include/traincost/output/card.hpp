#pragma once
// A scenario's answer as a static card, for wikis that allow neither scripts nor iframes: the
// verdict, the headline figure, the line saying what would change the answer and the results
// table of each workload, the portfolio's verdict, and a link that opens the scenario in the
// calculator. The same sentences and cells as the page's text mirror (present.hpp, verdict.hpp),
// so the card and the page never disagree. No script, no external file: HTML with inline styles
// (one element to paste into a page) or an SVG image (for wikis that take only images). Every
// text is escaped with escape_html (text.hpp), which is valid XML too. The calculator shows the
// same HTML card, without its inline styles, while it loads (web/shell/prerender.py at build time,
// web/card/card_main.cpp in the browser).
#include <string>

#include "traincost/engine/evaluate.hpp"

namespace traincost {

enum class CardFormat { Html, Svg };

struct CardOptions {
  CardFormat format = CardFormat::Html;
  // The calculator page the link opens: "https://example.org/traincost/calculator.html"; empty:
  // "calculator.html" (relative, for a page on the same site).
  std::string page_url;
  // HTML only. false: class names alone, no style attribute, for a page that styles the card with
  // its own sheet and whose Content-Security-Policy forbids inline styles (the calculator's).
  bool inline_styles = true;
};

// Why `url` cannot be a card's page_url ("must be an http(s) address or a relative path, without
// spaces, quotes or a fragment"), or "" when it can: never javascript: or data: addresses.
std::string card_url_problem(const std::string& url);

// Whether `scenario`'s card is the same from the catalog as read as from the one the replay of the
// published runs completes (builtin_catalog_unreplayed, builtin_catalog): the page's card module,
// which carries no replay, makes a card only then. The base evaluation reads the replay's
// whole-run spread only where a deadline has odds (DeadlineOddsRun draws the analysis's ranges).
bool card_needs_no_replay(const Scenario& scenario);

// `link_fragment` is the scenario's share fragment, "s=1.…" (encode_link()).
std::string scenario_card(const Scenario& scenario, const ResolvedScenario& resolved, const Results& results,
                          const std::string& link_fragment, const CardOptions& options);

// The headline under a workload's verdict: "$1.2M per run on Trn2 x16, fully loaded (point
// estimate)", with kEstimateMark before the figure when it rests on an estimate; "" when no option
// can run the job. The page adds the Monte Carlo's median and range once they are simulated.
std::string headline_point_estimate(const Scenario& scenario, const ResolvedScenario& resolved, const Results& results,
                                    size_t workload);

}  // namespace traincost
