#include "traincost/output/card.hpp"

#include <algorithm>

#include "traincost/base/format.hpp"
#include "traincost/base/text.hpp"
#include "traincost/engine/deadline_odds.hpp"
#include "traincost/output/present.hpp"
#include "traincost/output/report.hpp"
#include "traincost/output/verdict.hpp"
#include "traincost/scenario/labels.hpp"

namespace traincost {

namespace {

// What a card says for one workload: the text mirror's sentences and cells, unescaped.
struct CardWorkload {
  std::string title, verdict, headline, holds, footnote;
  std::vector<std::vector<std::string>> rows;
};

std::vector<CardWorkload> card_workloads(const Scenario& s, const ResolvedScenario& resolved, const Results& results) {
  std::vector<CardWorkload> out;
  for (size_t w = 0; w < results.workloads.size(); ++w) {
    CardWorkload c;
    c.title = workload_title(s.workloads[w], w);
    c.verdict = workload_verdict(resolved, results, w);
    c.headline = headline_point_estimate(s, resolved, results, w);
    c.holds = holds_while(resolved, leading_thresholds(s, resolved, results, w));
    c.footnote = estimate_footnote(s, resolved, w, *resolved.catalog);
    for (size_t o = 0; o < results.workloads[w].options.size(); ++o)
      c.rows.push_back(result_cells(resolved.options[o].label, results.workloads[w].options[o], estimate_flags(s, resolved, w, o, *resolved.catalog)));
    out.push_back(std::move(c));
  }
  return out;
}

std::string card_title(const Scenario& s) { return s.name.empty() ? std::string("TrainCost comparison") : s.name; }

std::string signature(const ResolvedScenario& resolved) {
  return "Computed by TrainCost " TRAINCOST_VERSION " with catalog " + resolved.catalog->version + ".";
}

// ---- HTML: one <figure> with inline styles, readable also where a wiki strips the styles ------

std::string html_card(const Scenario& s, const ResolvedScenario& resolved, const Results& results, const std::string& href,
                      bool inline_styles) {
  // ` style="…"`, or nothing: the class names are the same either way, so a page's own sheet can style them.
  const auto style = [inline_styles](const std::string& css) { return inline_styles ? " style=\"" + css + "\"" : std::string(); };
  const std::string muted = "color:#57606a";
  const auto align = [](size_t col, size_t columns) { return col == 0 || col + 1 == columns ? "left" : "right"; };
  std::string out = "<figure class=\"traincost-card\"" +
                    style("margin:1em 0;padding:12px 16px;border:1px solid #d0d7de;border-radius:8px;"
                          "font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#1f2328;background:#fff;max-width:60em") +
                    ">\n";
  out += "<figcaption" + style("font-weight:600;font-size:15px") + ">" + escape_html(card_title(s)) + "</figcaption>\n";
  for (const CardWorkload& c : card_workloads(s, resolved, results)) {
    out += "<section class=\"workload\">\n<p class=\"workload-name\"" + style("margin:10px 0 2px;font-weight:600") + ">" + escape_html(c.title) + "</p>\n";
    out += "<p class=\"verdict\"" + style("margin:2px 0") + ">" + escape_html(c.verdict) + "</p>\n";
    if (!c.headline.empty()) out += "<p class=\"headline\"" + style("margin:2px 0;font-weight:600") + ">" + escape_html(c.headline) + "</p>\n";
    if (!c.holds.empty()) out += "<p class=\"holds-while\"" + style("margin:2px 0;font-style:italic") + ">" + escape_html(c.holds) + "</p>\n";
    out += "<div" + style("overflow-x:auto") + "><table" + style("border-collapse:collapse;margin:6px 0;font-size:13px") + ">\n<thead><tr>";
    const size_t columns = result_columns().size();
    for (size_t col = 0; col < columns; ++col)
      out += "<th scope=\"col\"" + style(std::string("padding:3px 8px;border-bottom:1px solid #d0d7de;text-align:") + align(col, columns)) + ">" +
             escape_html(result_columns()[col].header) + "</th>";
    out += "</tr></thead>\n<tbody>\n";
    for (const std::vector<std::string>& row : c.rows) {
      out += "<tr>";
      for (size_t col = 0; col < row.size(); ++col) {
        const std::string cell_align = std::string("padding:3px 8px;text-align:") + align(col, row.size());
        out += (col == 0 ? "<th scope=\"row\"" + style("font-weight:400;" + cell_align) : "<td" + style("white-space:nowrap;" + cell_align)) + ">" +
               escape_html(row[col]) + (col == 0 ? "</th>" : "</td>");
      }
      out += "</tr>\n";
    }
    out += "</tbody></table></div>\n";
    if (!c.footnote.empty()) out += "<p class=\"estimates\"" + style("margin:2px 0;font-size:12px;" + muted) + ">" + escape_html(c.footnote) + "</p>\n";
    out += "</section>\n";
  }
  if (results.workloads.size() > 1)
    out += "<p class=\"portfolio\"" + style("margin:10px 0 2px;font-weight:600") + ">" + escape_html(portfolio_verdict(resolved, results)) + "</p>\n";
  out += "<p class=\"signature\"" + style("margin:10px 0 0;font-size:12px;" + muted) + ">" + escape_html(signature(resolved)) + " <a href=\"" +
         escape_html(href) + "\">Open this scenario in the calculator</a></p>\n</figure>\n";
  return out;
}

// ---- SVG: an image of the same text, laid out with fixed metrics ---------------------------------

constexpr int kSvgWidth = 840;  // a 150 px label, eight 76 px figures and the status
constexpr int kMargin = 16;

// Words of `text` in lines of at most `width` characters (a word longer than a line gets one of its own).
std::vector<std::string> wrap(const std::string& text, size_t width) {
  std::vector<std::string> lines;
  std::string line;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (!line.empty() && character_count(line) + 1 + character_count(word) > width) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    start = end + 1;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

// At most `n` characters, the last one an ellipsis when cut (labels in a fixed-width column).
std::string clip(const std::string& text, size_t n) {
  if (character_count(text) <= n) return text;
  std::string out;
  size_t chars = 0;
  for (size_t i = 0; i < text.size() && chars + 1 < n; ++chars) {
    size_t len = 1;
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0xF0) len = 4;
    else if (c >= 0xE0) len = 3;
    else if (c >= 0xC0) len = 2;
    out += text.substr(i, len);
    i += len;
  }
  return out + "…";
}

struct SvgText {
  std::string body;
  int y = kMargin;
  void line(const std::string& text, int size, const char* style = "", int x = kMargin, const char* anchor = "start") {
    body += "<text x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y + size) + "\" font-size=\"" + std::to_string(size) + "\"" +
            (anchor[0] == 's' ? std::string() : std::string(" text-anchor=\"") + anchor + "\"") + style + ">" + escape_html(text) + "</text>\n";
  }
  // A paragraph wrapped to the card's width (about 0.55 em a character in a sans-serif face).
  void paragraph(const std::string& text, int size, const char* style = "") {
    const size_t width = static_cast<size_t>((kSvgWidth - 2 * kMargin) / (size * 0.55));
    for (const std::string& l : wrap(text, width)) {
      line(l, size, style);
      y += size + 5;
    }
  }
};

std::string svg_card(const Scenario& s, const ResolvedScenario& resolved, const Results& results, const std::string& href) {
  SvgText t;
  t.line(card_title(s), 16, " font-weight=\"600\"");
  t.y += 26;
  // Columns: the option's label (150 px, left), the figures (76 px each, right-aligned), the
  // status (the rest, left: it may be a phrase such as "needs 4+ instances").
  const std::vector<ResultColumn>& columns = result_columns();
  const int label_width = 150, figure_width = 76;
  auto column_x = [&](size_t col) {
    if (col == 0) return kMargin;
    if (col + 1 == columns.size()) return kMargin + label_width + static_cast<int>(col - 1) * figure_width + 10;
    return kMargin + label_width + static_cast<int>(col) * figure_width - 6;
  };
  auto anchor = [&](size_t col) { return col == 0 || col + 1 == columns.size() ? "start" : "end"; };
  std::string verdicts;
  for (const CardWorkload& c : card_workloads(s, resolved, results)) {
    verdicts += (verdicts.empty() ? "" : " ") + c.verdict;
    t.y += 6;
    t.paragraph(c.title, 14, " font-weight=\"600\"");
    t.paragraph(c.verdict, 14);
    if (!c.headline.empty()) t.paragraph(c.headline, 14, " font-weight=\"600\"");
    if (!c.holds.empty()) t.paragraph(c.holds, 13, " font-style=\"italic\"");
    t.y += 4;
    for (size_t col = 0; col < columns.size(); ++col)
      t.line(columns[col].short_header, 11, " font-weight=\"600\"", column_x(col), anchor(col));
    t.y += 18;
    t.body += "<line x1=\"" + std::to_string(kMargin) + "\" x2=\"" + std::to_string(kSvgWidth - kMargin) + "\" y1=\"" + std::to_string(t.y) +
              "\" y2=\"" + std::to_string(t.y) + "\" stroke=\"#d0d7de\"/>\n";
    t.y += 4;
    for (const std::vector<std::string>& row : c.rows) {
      for (size_t col = 0; col < row.size() && col < columns.size(); ++col)
        t.line(col == 0 ? clip(row[col], 22) : row[col], 12, "", column_x(col), anchor(col));
      t.y += 18;
    }
    if (!c.footnote.empty()) t.paragraph(c.footnote, 11, " fill=\"#57606a\"");
  }
  if (results.workloads.size() > 1) {
    t.y += 6;
    t.paragraph(portfolio_verdict(resolved, results), 14, " font-weight=\"600\"");
  }
  t.y += 8;
  t.paragraph(signature(resolved) + " Open this scenario in the calculator: click the card.", 11, " fill=\"#57606a\"");
  const int height = t.y + kMargin;
  const std::string h = std::to_string(height), w = std::to_string(kSvgWidth);
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"" + w + "\" height=\"" + h +
         "\" viewBox=\"0 0 " + w + " " + h + "\" role=\"img\" font-family=\"system-ui, -apple-system, 'Segoe UI', sans-serif\" fill=\"#1f2328\">\n" +
         "<title>" + escape_html(card_title(s) + ": " + verdicts) + "</title>\n" + "<a href=\"" + escape_html(href) + "\" xlink:href=\"" +
         escape_html(href) + "\" target=\"_blank\">\n<rect x=\"0.5\" y=\"0.5\" width=\"" + std::to_string(kSvgWidth - 1) + "\" height=\"" +
         std::to_string(height - 1) + "\" rx=\"8\" fill=\"#fff\" stroke=\"#d0d7de\"/>\n" + t.body + "</a>\n</svg>\n";
}

}  // namespace

std::string headline_point_estimate(const Scenario& scenario, const ResolvedScenario& resolved, const Results& results, size_t workload) {
  const WorkloadResult& wr = results.workloads[workload];
  if (wr.comparison.cheapest < 0) return "";
  const size_t b = static_cast<size_t>(wr.comparison.cheapest);
  const bool estimate = column_is_estimate(ResultCol::FullyLoaded, estimate_flags(scenario, resolved, workload, b, *resolved.catalog));
  return (estimate ? kEstimateMark : "") + fmt::usd(wr.options[b].cost_per_run) + " per run on " + resolved.options[b].label +
         ", fully loaded (point estimate)";
}

bool card_needs_no_replay(const Scenario& scenario) { return DeadlineOddsRun::total(scenario) == 0; }

std::string card_url_problem(const std::string& url) {
  const bool absolute = url.rfind("https://", 0) == 0 || url.rfind("http://", 0) == 0;
  const size_t colon = url.find(':');
  // A path, not "//host/…": that reference keeps the page's scheme and leaves its site.
  const bool relative = url.rfind("//", 0) != 0 && (colon == std::string::npos || colon > url.find('/'));
  const bool clean = std::none_of(url.begin(), url.end(), [](char c) {
    return static_cast<unsigned char>(c) <= 0x20 || c == '"' || c == '\'' || c == '<' || c == '>' || c == '#' || c == '\\' || c == 0x7F;
  });
  if (url.size() > 2000 || !clean || !(absolute || relative))
    return "must be an http(s) address or a relative path, without spaces, quotes or a fragment";
  return "";
}

std::string scenario_card(const Scenario& scenario, const ResolvedScenario& resolved, const Results& results,
                          const std::string& link_fragment, const CardOptions& options) {
  const std::string href = (options.page_url.empty() ? std::string("calculator.html") : options.page_url) + "#" + link_fragment;
  return options.format == CardFormat::Svg ? svg_card(scenario, resolved, results, href)
                                           : html_card(scenario, resolved, results, href, options.inline_styles);
}

}  // namespace traincost
