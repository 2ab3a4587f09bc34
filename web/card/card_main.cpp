// The card module (traincost-card.js/.wasm): the calculator's answer for a scenario of the
// reader's own (a shared link, the autosave, an embed) before the calculator itself has
// downloaded. It carries the core's path from a link or scenario text to the static card and
// nothing else: no ImGui, no fonts, and, since only this function is exported and the link is
// optimized across files (-flto), none of the replay, pilot, explain, sweep, import or JSON API
// code; its catalog is read without the replay of the published runs, which only the Monte Carlo
// reads (builtin_catalog_unreplayed). calculator.js loads it first, shows the card in #first-answer, and only then fetches the
// calculator (docs/performance.md, "The verdict before the canvas").
#include <emscripten.h>

#include <cstdlib>
#include <cstring>
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

// The card is a head start, not a second calculator: it runs in one call, on the main thread, so a
// scenario whose base evaluation takes more than this many units of work (EvaluationRun: one
// option's numbers, one pair resolved, one size tried by a deadline's search...) is left to the
// page, which slices that work over frames (issue 33, item 5). The examples take 8 to 32 units;
// tests/links/heavy-moe.txt takes 2,680 (1-2 s natively), which here would be one long task.
// A count, not a clock: whether a scenario gets a card does not depend on the machine.
constexpr size_t kMaxUnits = 128;

// The scenario as the page opens it (web/app.cpp, App::load_initial_scenario): a link fragment
// ("s=1.…", "#s=1.…") or scenario JSON (what the autosave holds), read and validated by the same
// readers, with the catalog stamped as the page stamps it (the link the card carries is then the
// page's own). nullopt for anything the page would refuse: the page says why, not the card.
std::optional<traincost::Scenario> scenario_of(std::string_view text) {
  using namespace traincost;
  Problems problems;
  std::optional<Scenario> s;
  const std::string_view bare = text.substr(text.rfind('#', 0) == 0 ? 1 : 0);
  const Catalog& catalog = builtin_catalog_unreplayed();
  if (bare.rfind("s=", 0) == 0) s = decode_link(bare, catalog, problems);
  else s = parse_scenario(text, catalog, problems);
  if (s) edit::stamp_catalog(*s, catalog);
  return s;
}

}  // namespace

extern "C" {

// The card for `text` (UTF-8, `length` bytes): its HTML without inline styles (the page's
// Content-Security-Policy forbids them; calculator.css styles the card), as malloc'd,
// NUL-terminated text the caller frees; "" when the text is no valid scenario or its evaluation
// is more than kMaxUnits of work; null when out of memory.
EMSCRIPTEN_KEEPALIVE char* tc_card(const char* text, size_t length) {
  using namespace traincost;
  const std::optional<Scenario> s = scenario_of(std::string_view(text ? text : "", text ? length : 0));
  std::string html;
  if (s) {
    // The same steps as resolve() and evaluate(), bit-identical (evaluation_run.hpp), counted.
    EvaluationRun run(*s, builtin_catalog_unreplayed());
    size_t units = 1;
    bool done = run.advance(1);
    for (; !done && units < kMaxUnits; ++units) done = run.advance(1);
    if (done) {
      const Evaluation e = run.finish();
      CardOptions options;
      options.inline_styles = false;
      html = scenario_card(*s, e.resolved, e.results, "s=" + encode_link(*s), options);
    }
  }
  char* out = static_cast<char*>(std::malloc(html.size() + 1));
  if (out) std::memcpy(out, html.c_str(), html.size() + 1);
  return out;
}

}  // extern "C"
