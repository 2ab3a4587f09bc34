// The static card (issue 32): it says the page's sentences and cells, escapes every name in HTML
// and in SVG (which must stay well-formed XML), holds no script, and links only where it may.
#include <algorithm>
#include <regex>
#include <string>

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/api/api.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/base/format.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/output/card.hpp"
#include "traincost/output/present.hpp"
#include "traincost/output/report.hpp"
#include "traincost/output/verdict.hpp"

namespace traincost {
namespace {

struct Card {
  Scenario s;
  ResolvedScenario r;
  Results res;
  explicit Card(const Scenario& scenario) : s(scenario), r(resolve(s, builtin_catalog())), res(evaluate(r)) {}
  std::string html(const std::string& url = "") const { return scenario_card(s, r, res, "s=1.abc", {CardFormat::Html, url}); }
  std::string svg() const { return scenario_card(s, r, res, "s=1.abc", {CardFormat::Svg, ""}); }
};

TEST(Card, SaysTheVerdictHeadlineAndEveryCellOfEachWorkload) {
  const Card c(test::example("portfolio-multicloud"));
  const std::string html = c.html();
  for (size_t w = 0; w < c.res.workloads.size(); ++w) {
    EXPECT_NE(html.find(escape_html(workload_verdict(c.r, c.res, w))), std::string::npos) << w;
    EXPECT_NE(html.find(escape_html(headline_point_estimate(c.s, c.r, c.res, w))), std::string::npos) << w;
    for (size_t o = 0; o < c.res.workloads[w].options.size(); ++o)
      for (const std::string& cell : result_cells(c.r.options[o].label, c.res.workloads[w].options[o], estimate_flags(c.s, c.r, w, o, builtin_catalog())))
        EXPECT_NE(html.find(">" + escape_html(cell) + "<"), std::string::npos) << cell;
  }
  EXPECT_NE(html.find(escape_html(portfolio_verdict(c.r, c.res))), std::string::npos);
  EXPECT_NE(html.find("href=\"calculator.html#s=1.abc\""), std::string::npos);
}

TEST(Card, HeadlineIsThePointEstimateOfTheCheapestOption) {
  const Card c(test::example("llama3-8b-pretrain"));
  const int best = c.res.workloads[0].comparison.cheapest;
  ASSERT_GE(best, 0);
  const std::string headline = headline_point_estimate(c.s, c.r, c.res, 0);
  EXPECT_NE(headline.find(fmt::usd(c.res.workloads[0].options[static_cast<size_t>(best)].cost_per_run) + " per run on " +
                          c.r.options[static_cast<size_t>(best)].label),
            std::string::npos)
      << headline;
  EXPECT_NE(headline.find("fully loaded (point estimate)"), std::string::npos);
}

TEST(Card, EscapesHostileNamesInHtmlAndSvg) {
  Scenario s = test::scenario(test::simple_scenario());
  s.name = "<script>alert(1)</script>";
  s.workloads[0].name = "\"><img src=x onerror=alert(1)>";
  s.options[0].label = "a & 'b' \x1b[2J {{template}}";
  const Card c(s);
  for (const std::string& text : {c.html(), c.svg()}) {
    EXPECT_EQ(text.find("<script"), std::string::npos);
    EXPECT_EQ(text.find("<img"), std::string::npos);
    EXPECT_NE(text.find("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
    EXPECT_EQ(text.find('\x1b'), std::string::npos);
    EXPECT_NE(text.find("&lt;script&gt;"), std::string::npos);
    EXPECT_NE(text.find("a &amp; &#39;b&#39;"), std::string::npos);
    // No {{template}} for a wiki or a template engine the card is pasted into.
    EXPECT_EQ(text.find("{{"), std::string::npos);
    EXPECT_NE(text.find("&#123;&#123;template&#125;&#125;"), std::string::npos);
  }
  // An attribute can only be one of the card's own: after escaping, a name holds no quote or bracket.
  EXPECT_EQ(c.html().find("onerror=alert(1)>"), std::string::npos);
  EXPECT_EQ(c.svg().find("onerror=alert(1)>"), std::string::npos);
}

TEST(Card, SvgIsOneImageWithTheLink) {
  const std::string svg = Card(test::example("mixtral-moe")).svg();
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_NE(svg.find("href=\"calculator.html#s=1.abc\""), std::string::npos);
  EXPECT_EQ(svg.find("<foreignObject"), std::string::npos);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
}

TEST(Card, PageUrlMustBeAPageAddress) {
  for (const char* good : {"https://example.org/traincost/calculator.html", "http://127.0.0.1:8000/calculator.html", "calculator.html",
                           "../calculator.html", "/traincost/calculator.html"})
    EXPECT_EQ(card_url_problem(good), "") << good;
  for (const char* bad : {"javascript:alert(1)", "data:text/html,x", "https://e.example/a b", "https://e.example/\"x", "https://e.example/#x",
                          "JAVASCRIPT:alert(1)", "vbscript:x", "a<b", "//evil.example/x", "//evil.example"})
    EXPECT_NE(card_url_problem(bad), "") << bad;
  const ApiReply bad = api_card(test::read_source_file("assets/scenarios/mixtral-moe.json"), R"j({"url": "javascript:alert(1)"})j");
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.json.find("\"options.url\""), std::string::npos) << bad.json;
  const ApiReply format = api_card(test::read_source_file("assets/scenarios/mixtral-moe.json"), R"({"format": "pdf"})");
  EXPECT_FALSE(format.ok);
  EXPECT_NE(format.json.find("must be \\\"html\\\" or \\\"svg\\\""), std::string::npos) << format.json;
}

// The calculator's own card (styles "none"): its Content-Security-Policy forbids style attributes,
// and calculator.css styles the same class names. It is the styled card with each attribute taken out.
TEST(Card, WithoutInlineStylesIsTheSameCardLessItsStyleAttributes) {
  const Card c(test::example("portfolio-multicloud"));
  CardOptions plain;
  plain.inline_styles = false;
  const std::string bare = scenario_card(c.s, c.r, c.res, "s=1.abc", plain);
  EXPECT_EQ(bare.find("style="), std::string::npos);
  EXPECT_EQ(std::regex_replace(c.html(), std::regex(" style=\"[^\"]*\""), ""), bare);
  EXPECT_NE(bare.find("<p class=\"verdict\">"), std::string::npos);

  const std::string scenario = test::read_source_file("assets/scenarios/mixtral-moe.json");
  const ApiReply none = api_card(scenario, R"({"styles": "none"})");
  ASSERT_TRUE(none.ok) << none.json;
  EXPECT_EQ(none.json.find("style="), std::string::npos);
  EXPECT_NE(api_card(scenario, R"({"styles": "inline"})").json.find("style="), std::string::npos);
  const ApiReply bad = api_card(scenario, R"({"styles": "css"})");
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.json.find("\"options.styles\""), std::string::npos) << bad.json;
}

// The page's card module evaluates with the catalog as read, before the replay that fits its
// whole-run spread (builtin_catalog_unreplayed), and makes a card only where card_needs_no_replay()
// says that is the same card. Every example and variants of each, on every path of the base
// evaluation: a deadline (sized on its plan), a deadline with odds (sized over the analysis's
// draws, the whole-run spread among them: the card module leaves it to the page), spot capacity.
TEST(Card, TheCardModuleAnswersOnlyWhatNeedsNoReplay) {
  ASSERT_EQ(builtin_catalog_unreplayed().whole_run.runs, 0);
  ASSERT_GT(builtin_catalog().whole_run.runs, 0);
  size_t answered = 0, left = 0;
  for (const char* name : {"finetune-1b", "gpt3-175b-ranges", "llama3-70b-target-loss", "llama3-8b-deadline", "llama3-8b-pretrain",
                           "mixtral-moe", "portfolio-multicloud"}) {
    const Scenario example = test::example(name);
    std::vector<Scenario> variants{example};
    Scenario deadline = example;
    for (Workload& w : deadline.workloads)
      if (!w.deadline_days) w.deadline_days = 60;
    variants.push_back(deadline);
    // A deadline with odds, on options whose search stays small (the card module's 128 units).
    for (const double confidence : {0.4, 0.6, 0.9}) {
      Scenario odds = deadline;
      odds.workloads[0].deadline_confidence = confidence;
      variants.push_back(odds);
    }
    Scenario spot = example;
    for (Option& o : spot.options) o.pricing = PricingModel::Spot;
    variants.push_back(spot);
    for (size_t v = 0; v < variants.size(); ++v) {
      const Scenario& s = variants[v];
      const bool odds = std::any_of(s.workloads.begin(), s.workloads.end(), [](const Workload& w) { return w.deadline_confidence.has_value(); });
      EXPECT_EQ(card_needs_no_replay(s), !odds) << name << " variant " << v;
      if (!card_needs_no_replay(s)) {
        ++left;
        continue;
      }
      ++answered;
      const ResolvedScenario replayed = resolve(s, builtin_catalog()), unreplayed = resolve(s, builtin_catalog_unreplayed());
      EXPECT_EQ(scenario_card(s, unreplayed, evaluate(unreplayed), "s=1.abc", {}), scenario_card(s, replayed, evaluate(replayed), "s=1.abc", {}))
          << name << " variant " << v;
    }
  }
  EXPECT_EQ(answered, 7u * 3);
  EXPECT_EQ(left, 7u * 3);
}

// Why the rule: a deadline with odds sized from the catalog as read misses the whole-run spread,
// and sizes the option differently (issue 33's adversarial pass: 36 instances and $560k on the
// card, 47 and $538k on the page, for the llama3-8b-deadline example asked 60% on time).
TEST(Card, ADeadlineWithOddsIsSizedOverTheReplaysSpread) {
  Scenario s = test::example("llama3-8b-deadline");
  s.workloads[0].deadline_confidence = 0.6;
  const ResolvedScenario replayed = resolve(s, builtin_catalog()), unreplayed = resolve(s, builtin_catalog_unreplayed());
  bool differs = false;
  for (size_t o = 0; o < s.options.size(); ++o)
    differs |= replayed.workloads[0].options[o].instances != unreplayed.workloads[0].options[o].instances;
  EXPECT_TRUE(differs);
  EXPECT_FALSE(card_needs_no_replay(s));
}

}  // namespace
}  // namespace traincost
