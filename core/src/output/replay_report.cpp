// The replay's presentations: one set of cells per run, written out in each format with that
// format's escaping rule (present.hpp). Run names and notes are our own data, but they pass the
// same rules as user text: the table must not break on a "|" in a name.
#include <cmath>
#include <cstdio>
#include <iterator>

#include "traincost/base/format.hpp"
#include "traincost/output/present.hpp"
#include "traincost/engine/replay.hpp"

namespace traincost {
namespace {

std::string signed_percent(double v) {
  return fmt::printf_c("%+.0f%%", v * 100);
}
std::string days(double d) { return d > 0 ? fmt::number(d, 3) + " d" : "–"; }
std::string set_name(const PublishedRun& r) { return r.in_calibration() ? "calibration" : "held out"; }

// The figure a row is compared on cites this source: the duration's, else the tokens', else the
// model's.
const Cited& primary_citation(const PublishedRun& r) {
  if (r.chip_hours.present()) return r.chip_hours;
  if (r.wall_clock_days.present()) return r.wall_clock_days;
  if (r.tokens.present()) return r.tokens;
  return r.model_source;
}

// One run as displayed, before escaping.
struct Cells {
  std::string run, set, chips, tokens, published, predicted, error, interval, wall_clock, step_mfu, realized_mfu, stated_mfu, goodput, status;
};

Cells cells_of(const ReplayRow& row) {
  const PublishedRun& r = *row.run;
  Cells c;
  c.run = r.name + " (" + r.attribution() + ")";
  c.set = set_name(r);
  c.chips = (r.chips.present() ? fmt::number(r.chips.value) + (r.chips.assumed ? " (assumed)" : "") + " × " : std::string("? × ")) + r.chip;
  c.tokens = r.tokens.present() ? fmt::count(r.tokens.value) : "–";
  c.published = row.published_chip_hours > 0
                    ? fmt::count(row.published_chip_hours) + (r.chip_hours_from_wall_clock() ? " (from wall-clock)" : "")
                    : "–";
  c.predicted = row.predicted_chip_hours > 0 ? fmt::count(row.predicted_chip_hours) : "–";
  c.error = row.counted() ? signed_percent(row.error) : "–";
  c.interval = row.realized_high > 0 ? fmt::count(row.realized_low) + " – " + fmt::count(row.realized_high) + (row.inside ? " (inside)" : " (outside)")
                                     : "–";
  c.wall_clock = days(row.published_wall_clock_days) + " / " + days(row.predicted_wall_clock_days);
  c.step_mfu = row.predicted_mfu > 0 ? fmt::percent(row.predicted_mfu) : "–";
  c.realized_mfu = row.realized_mfu > 0 ? fmt::percent(row.realized_mfu) : "–";
  c.stated_mfu = r.mfu.present() ? fmt::percent(r.mfu.value) : "–";
  c.goodput = row.goodput > 0 ? fmt::percent(row.goodput) : "–";
  c.status = description_of(kReplayStatusWords, row.status);
  return c;
}

const char* const kHeaders[] = {"Run", "Set", "Chips", "Tokens", "Published chip-hours", "Predicted", "Error",
                                "80% interval as runs realized (leave one out)",
                                "Wall-clock published / predicted", "Step MFU (predicted)", "Realized MFU", "Stated MFU",
                                "Goodput (predicted)", "Status"};

std::vector<std::string> as_list(const Cells& c) {
  return {c.run, c.set, c.chips, c.tokens, c.published, c.predicted, c.error, c.interval, c.wall_clock, c.step_mfu, c.realized_mfu, c.stated_mfu,
          c.goodput, c.status};
}

struct SummaryLine {
  const char* what;
  const ReplaySummary* summary;
};
std::vector<SummaryLine> summary_lines(const Replay& r) {
  return {{"All runs with a published duration", &r.all}, {"Calibration runs", &r.calibration}, {"Held-out runs", &r.held_out}};
}

const char* const kExplanation =
    "Error = predicted / published chip-hours − 1, for runs that publish chip-hours or a wall-clock time and a chip count. "
    "Each run is replayed from its public inputs (model, tokens, chip, chip count, batch where stated) with TrainCost's defaults; "
    "nothing is fitted to these runs. Step MFU is the step-time model's, counted as 6·N + 12·l·h·s FLOPs per token (6·N where "
    "the architecture is not stated) over the dense peak; realized MFU is the same FLOPs over the published chip-hours, so it "
    "includes every restart, evaluation pause, stall and idle chip of the real run. A calibration run's step throughput (or its "
    "publisher's benchmark of the same model and chip) is among the rows the step-time model is fitted on.";

OrderedJson figure_json(const RunFigure& f) {
  if (!f.present()) return nullptr;
  OrderedJson j = {{"value", f.value}, {"source", f.source}, {"as_of", f.as_of}};
  if (f.month_only) j["month_only"] = true;
  if (f.year_only) j["year_only"] = true;
  if (f.assumed) j["assumed"] = true;
  if (f.derived) j["derived"] = true;
  if (f.approximate) j["approximate"] = true;
  if (!f.convention.empty()) j["convention"] = f.convention;
  if (!f.covers.empty()) j["covers"] = f.covers;
  if (!f.note.empty()) j["note"] = f.note;
  return j;
}

OrderedJson summary_json(const ReplaySummary& s) {
  return {{"runs", s.runs}, {"median_abs_error", s.median}, {"worst_abs_error", s.worst}, {"worst_run", s.worst_run}};
}

std::string ratio_text(double r) { return "×" + fmt::number(r, 3); }

// The whole-run spread and its leave-one-out check, in one sentence each (every format prints these).
std::string whole_run_fit_sentence(const Replay& r) {
  const WholeRunSpread& w = r.whole_run;
  if (!w.fitted()) return "Whole runs: too few replayed runs to fit their spread.";
  return "Whole runs: published / predicted chip-hours over " + std::to_string(w.runs) + " runs has a median of " + ratio_text(w.median) +
         " and a log standard deviation of " + fmt::number(w.log_sd, 3) + "; a new run's 80% interval is " + ratio_text(w.low) + " to " +
         ratio_text(w.high) + " the predicted chip-hours (lognormal, predictive).";
}
std::string whole_run_check_sentence(const Replay& r) {
  const WholeRunCheck& c = r.whole_run_check;
  if (c.runs == 0) return "";
  return "Held out one at a time (each run's interval fitted on the other runs), " + std::to_string(c.inside) + " of " +
         std::to_string(c.runs) + " published runs lie inside their 80% interval: coverage " + fmt::percent(c.coverage) +
         ". The median figure as published runs realized misses the published chip-hours by " + fmt::percent(c.median_error) +
         " (median), against " + fmt::percent(r.all.median) + " for the planned figure.";
}

OrderedJson whole_run_json(const Replay& r) {
  const WholeRunSpread& w = r.whole_run;
  const WholeRunCheck& c = r.whole_run_check;
  return {{"runs", w.runs}, {"median_ratio", w.median}, {"log_sd", w.log_sd}, {"interval", 0.8}, {"low_ratio", w.low}, {"high_ratio", w.high},
          {"leave_one_out", {{"runs", c.runs}, {"inside", c.inside}, {"coverage", c.coverage}, {"median_abs_error", c.median_error}}}};
}

}  // namespace

std::vector<std::string> replay_headers() { return {std::begin(kHeaders), std::end(kHeaders)}; }
std::vector<std::string> replay_cells(const ReplayRow& row) { return as_list(cells_of(row)); }

OrderedJson replay_json(const Replay& replay, const RunLibrary& library) {
  OrderedJson runs = OrderedJson::array();
  for (const ReplayRow& row : replay.rows) {
    const PublishedRun& r = *row.run;
    const Cited& cited = primary_citation(r);
    const RunSource* source = library.find_source(cited.source);
    OrderedJson j = {{"id", r.id}, {"name", r.name}, {"org", r.org}, {"year", r.year}, {"kind", r.kind}, {"architecture", r.architecture},
                     {"hardware", r.hardware}, {"chip", r.chip}, {"precision", to_string(r.precision)}, {"set", r.in_calibration() ? "calibration" : "held_out"},
                     {"calibration_rows", r.calibration}, {"status", word_of(kReplayStatusWords, row.status)},
                     {"status_text", description_of(kReplayStatusWords, row.status)}};
    j["published"] = {{"tokens", figure_json(r.tokens)},       {"chips", figure_json(r.chips)},
                      {"wall_clock_days", figure_json(r.wall_clock_days)}, {"chip_hours", figure_json(r.chip_hours)},
                      {"mfu", figure_json(r.mfu)},             {"cost_usd", figure_json(r.cost_usd)},
                      {"global_batch_sequences", figure_json(r.global_batch_sequences)}};
    j["missing"] = r.missing;
    j["compared_chip_hours"] = row.published_chip_hours > 0 ? OrderedJson(row.published_chip_hours) : OrderedJson(nullptr);
    j["chip_hours_from_wall_clock"] = r.chip_hours_from_wall_clock();
    j["realized_mfu"] = row.realized_mfu > 0 ? OrderedJson(row.realized_mfu) : OrderedJson(nullptr);
    if (row.predicted_chip_hours > 0)
      j["predicted"] = {{"instance", row.instance},
                        {"instances", row.instances},
                        {"chip_hours", row.predicted_chip_hours},
                        {"wall_clock_days", row.predicted_wall_clock_days},
                        {"step_mfu", row.predicted_mfu},
                        {"goodput", row.goodput},
                        {"layout", describe(row.layout)}};
    else j["predicted"] = nullptr;
    j["error"] = row.counted() ? OrderedJson(row.error) : OrderedJson(nullptr);
    if (row.realized_high > 0)
      j["whole_run"] = {{"ratio", row.ratio}, {"low_chip_hours", row.realized_low}, {"median_chip_hours", row.realized_median},
                        {"high_chip_hours", row.realized_high}, {"inside", row.inside}};
    else j["whole_run"] = nullptr;
    j["source"] = {{"title", source ? source->title : cited.source}, {"url", source ? source->url : ""}, {"as_of", cited.as_of},
                   {"secondary", source && source->secondary}};
    j["note"] = r.note;
    runs.push_back(std::move(j));
  }
  return {{"summary", {{"all", summary_json(replay.all)}, {"calibration", summary_json(replay.calibration)},
                       {"held_out", summary_json(replay.held_out)}, {"whole_run", whole_run_json(replay)}}},
          {"split_rule", library.split_rule},
          {"runs", runs}};
}

std::string replay_text(const Replay& replay) {
  std::string out = "Published runs replayed with TrainCost's defaults\n\n";
  for (const SummaryLine& l : summary_lines(replay)) {
    char line[256];
    std::snprintf(line, sizeof line, "  %-36s %2d runs   median error %5s   worst %5s (%s)\n", l.what, l.summary->runs,
                  fmt::percent(l.summary->median).c_str(), fmt::percent(l.summary->worst).c_str(), l.summary->worst_run.c_str());
    out += line;
  }
  out += "\n" + whole_run_fit_sentence(replay) + "\n" + whole_run_check_sentence(replay) + "\n";
  for (const ReplayRow& row : replay.rows) {
    const Cells c = cells_of(row);
    out += "\n" + escape_terminal(c.run) + " [" + c.set + "]: " + c.chips + ", " + c.tokens + " tokens\n";
    if (!row.counted()) {
      out += "  " + c.status + "\n";
      continue;
    }
    out += "  chip-hours   published " + c.published + ", predicted " + c.predicted + " (" + c.error + ")\n";
    if (row.realized_high > 0) out += "  as realized  80% interval " + c.interval + "\n";
    out += "  wall-clock   published / predicted " + c.wall_clock + "\n";
    out += "  MFU          step (predicted) " + c.step_mfu + ", realized " + c.realized_mfu + ", stated " + c.stated_mfu +
           "; goodput (predicted) " + c.goodput + "\n";
  }
  return escape_terminal_text(out);
}

std::string replay_markdown(const Replay& replay, const RunLibrary& library) {
  std::string out = "| Runs | Count | Median error | Worst error |\n|---|---:|---:|---:|\n";
  for (const SummaryLine& l : summary_lines(replay))
    out += std::string("| ") + l.what + " | " + std::to_string(l.summary->runs) + " | " + fmt::percent(l.summary->median) + " | " +
           fmt::percent(l.summary->worst) + (l.summary->worst_run.empty() ? "" : " (" + escape_markdown(l.summary->worst_run) + ")") + " |\n";
  out += "\n" + whole_run_fit_sentence(replay) + " " + whole_run_check_sentence(replay) + "\n";
  out += "\n" + std::string(kExplanation) + "\n\n|";
  for (const char* h : kHeaders) out += std::string(" ") + h + " |";
  out += " Source |\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n";
  for (const ReplayRow& row : replay.rows) {
    out += "|";
    for (const std::string& cell : as_list(cells_of(row))) out += " " + escape_markdown(cell) + " |";
    const Cited& cited = primary_citation(*row.run);
    const RunSource* s = library.find_source(cited.source);
    out += s ? " [" + escape_markdown(s->title) + "](" + markdown_url(s->url) + "), " + cited.as_of + (s->secondary ? " (secondary)" : "") + " |\n"
             : " " + escape_markdown(cited.source) + " |\n";
  }
  return out;
}

std::string replay_csv(const Replay& replay) {
  std::string out = "id,set,status,chip,chips,chips_assumed,tokens,published_chip_hours,chip_hours_from_wall_clock,predicted_chip_hours,error,"
                    "published_wall_clock_days,predicted_wall_clock_days,step_mfu_predicted,realized_mfu,stated_mfu,goodput_predicted,"
                    "whole_run_ratio,realized_low_chip_hours,realized_high_chip_hours,inside_interval\n";
  auto raw = [](double v, bool present) {
    if (!present) return std::string();
    return fmt::printf_c("%.6g", v);
  };
  for (const ReplayRow& row : replay.rows) {
    const PublishedRun& r = *row.run;
    const std::vector<std::string> fields = {
        escape_csv(r.id), escape_csv(set_name(r)), escape_csv(word_of(kReplayStatusWords, row.status)), escape_csv(r.chip),
        raw(r.chips.value, r.chips.present()), r.chips.assumed ? "true" : "false", raw(r.tokens.value, r.tokens.present()),
        raw(row.published_chip_hours, row.published_chip_hours > 0), r.chip_hours_from_wall_clock() ? "true" : "false",
        raw(row.predicted_chip_hours, row.predicted_chip_hours > 0), raw(row.error, row.counted()),
        raw(row.published_wall_clock_days, row.published_wall_clock_days > 0), raw(row.predicted_wall_clock_days, row.predicted_wall_clock_days > 0),
        raw(row.predicted_mfu, row.predicted_mfu > 0), raw(row.realized_mfu, row.realized_mfu > 0), raw(r.mfu.value, r.mfu.present()),
        raw(row.goodput, row.goodput > 0), raw(row.ratio, row.counted()), raw(row.realized_low, row.realized_high > 0),
        raw(row.realized_high, row.realized_high > 0), row.realized_high > 0 ? (row.inside ? "true" : "false") : ""};
    for (size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + fields[i];
    out += "\n";
  }
  return out;
}

std::string replay_html(const Replay& replay, const RunLibrary& library) {
  std::string out =
      "<div class=\"table-wrap\"><table class=\"plain\" id=\"replay-summary\"><thead><tr><th scope=\"col\">Runs</th>"
      "<th scope=\"col\">Count</th><th scope=\"col\">Median error</th><th scope=\"col\">Worst error</th></tr></thead><tbody>";
  for (const SummaryLine& l : summary_lines(replay))
    out += std::string("<tr><th scope=\"row\">") + l.what + "</th><td>" + std::to_string(l.summary->runs) + "</td><td>" +
           fmt::percent(l.summary->median) + "</td><td>" + fmt::percent(l.summary->worst) +
           (l.summary->worst_run.empty() ? "" : " (" + escape_html(l.summary->worst_run) + ")") + "</td></tr>";
  out += "</tbody></table></div>\n<p id=\"replay-whole-run\">" + escape_html(whole_run_fit_sentence(replay)) + " " +
         escape_html(whole_run_check_sentence(replay)) + "</p>\n<p>" + escape_html(kExplanation) + "</p>\n";
  out += "<div class=\"table-wrap\"><table class=\"figures\" id=\"replay-runs\"><thead><tr>";
  for (const char* h : kHeaders) out += std::string("<th scope=\"col\">") + h + "</th>";
  out += "<th scope=\"col\">Source</th></tr></thead><tbody>";
  for (const ReplayRow& row : replay.rows) {
    const std::vector<std::string> cells = as_list(cells_of(row));
    out += "<tr data-set=\"" + std::string(row.run->in_calibration() ? "calibration" : "holdout") + "\" data-status=\"" +
           word_of(kReplayStatusWords, row.status) + "\"><th scope=\"row\">" + escape_html(cells[0]) + "</th>";
    for (size_t i = 1; i < cells.size(); ++i) out += "<td>" + escape_html(cells[i]) + "</td>";
    const Cited& cited = primary_citation(*row.run);
    const RunSource* s = library.find_source(cited.source);
    out += "<td>" + (s ? "<a href=\"" + escape_html(s->url) + "\" rel=\"external noreferrer\">" + escape_html(s->title) + "</a>, " +
                             escape_html(cited.as_of) + (s->secondary ? " (secondary)" : "")
                       : escape_html(cited.source)) +
           "</td></tr>";
  }
  out += "</tbody></table></div>";
  return out;
}

}  // namespace traincost
