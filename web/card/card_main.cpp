// The card module (traincost-card.js/.wasm): the calculator's answer for a scenario of the
// reader's own (a shared link, the autosave, an embed) before the calculator itself has
// downloaded. It carries the core's path from a link or scenario text to the static card and
// nothing else: no ImGui, no fonts, and, since only the three functions below are exported
// (tc_card_start, tc_card_step, tc_card_html) and the link is optimized across files (-flto),
// none of the replay, pilot, explain, sweep, import or JSON API code; its catalog is read without
// the replay of the published runs, which only the Monte Carlo reads (builtin_catalog_unreplayed).
// calculator.js loads it first, shows the card in #first-answer, and only then fetches the
// calculator (docs/performance.md, "The verdict before the canvas").
#include <emscripten.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "traincost/api/builtin.hpp"
#include "traincost/api/edit.hpp"
#include "traincost/engine/evaluation_run.hpp"
#include "traincost/io/link.hpp"
#include "traincost/io/scenario_json.hpp"
#include "traincost/output/card.hpp"

namespace {

// The card is a head start, not a second calculator: a scenario whose base evaluation takes more
// than this many units of work (EvaluationRun: one option's numbers, one pair resolved, one size
// tried by a deadline's search...) is left to the page, which has the same work to do anyway.
// The examples take 8 to 32 units; tests/links/heavy-moe.txt takes 2,680 (1-2 s natively).
// A count, not a clock: whether a scenario gets a card does not depend on the machine.
constexpr size_t kMaxUnits = 128;

// The scenario as the page opens it (web/app.cpp, App::load_initial_scenario): a link fragment
// ("s=1.…", "#s=1.…") from the address, or scenario JSON from the autosave, read and validated
// by the same readers, with the catalog stamped as the page stamps it (the link the card carries
// is then the page's own). nullopt for anything the page would refuse: the page says why, not the
// card. An autosave is JSON only, as the page reads it: a link stored there is no scenario.
std::optional<traincost::Scenario> scenario_of(std::string_view text, bool from_link) {
  using namespace traincost;
  Problems problems;
  std::optional<Scenario> s;
  const Catalog& catalog = builtin_catalog_unreplayed();
  if (from_link) {
    const std::string_view bare = text.substr(text.rfind('#', 0) == 0 ? 1 : 0);
    if (bare.rfind("s=", 0) == 0) s = decode_link(bare, catalog, problems);
  } else {
    s = parse_scenario(text, catalog, problems);
  }
  if (s) edit::stamp_catalog(*s, catalog);
  return s;
}

// The card being made: its scenario and evaluation, advanced a few units per call (tc_card_step)
// so that calculator.js can yield to the browser between calls. A heavy scenario's 128 units
// took about 100 ms in one call, a task too long for a page that must answer input (issue 33 item 5).
struct CardJob {
  traincost::Scenario scenario;
  traincost::EvaluationRun run;
  size_t units = 0;
  bool done = false;
  explicit CardJob(const traincost::Scenario& s) : scenario(s), run(s, traincost::builtin_catalog_unreplayed()) {}
};
std::unique_ptr<CardJob> job;

}  // namespace

extern "C" {

// Starts the card for `text` (UTF-8, `length` bytes): the address's fragment when `from_link` is
// 1, else the autosave's JSON. Returns 1 when it is a scenario the page would open and this module
// answers as the page does (its evaluation then runs in tc_card_step), 0 when not (no card: the
// page opens as it always did). A card being made before is dropped.
EMSCRIPTEN_KEEPALIVE int tc_card_start(const char* text, size_t length, int from_link) {
  job.reset();
  const std::optional<traincost::Scenario> s = scenario_of(std::string_view(text ? text : "", text ? length : 0), from_link != 0);
  // A deadline with odds sizes its options over draws that include the replay's whole-run spread,
  // which this module does not fit: its card would differ from the page's, so the page answers it.
  if (s && traincost::card_needs_no_replay(*s)) job = std::make_unique<CardJob>(*s);
  return job ? 1 : 0;
}

// Does up to `units` more units of the card's evaluation. Returns 1 while there is more to do,
// 0 once it is complete or has reached kMaxUnits (then tc_card_html has the card, or "").
EMSCRIPTEN_KEEPALIVE int tc_card_step(size_t units) {
  if (!job) return 0;
  for (size_t i = 0; i < units && !job->done && job->units < kMaxUnits; ++i, ++job->units) job->done = job->run.advance(1);
  return !job->done && job->units < kMaxUnits ? 1 : 0;
}

// The card (its HTML without inline styles: the page's Content-Security-Policy forbids them;
// calculator.css styles the card) as malloc'd, NUL-terminated text the caller frees; "" when
// there is none (no scenario, or more than kMaxUnits of work); null when out of memory. Ends the job.
EMSCRIPTEN_KEEPALIVE char* tc_card_html() {
  using namespace traincost;
  std::string html;
  if (job && job->done) {
    const Evaluation e = job->run.finish();
    CardOptions options;
    options.inline_styles = false;
    html = scenario_card(job->scenario, e.resolved, e.results, "s=" + encode_link(job->scenario), options);
  }
  job.reset();
  char* out = static_cast<char*>(std::malloc(html.size() + 1));
  if (out) std::memcpy(out, html.c_str(), html.size() + 1);
  return out;
}

}  // extern "C"
