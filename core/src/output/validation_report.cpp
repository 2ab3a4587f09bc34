#include "traincost/output/validation_report.hpp"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "traincost/base/format.hpp"
#include "traincost/base/json_text.hpp"
#include "traincost/base/text.hpp"
#include "traincost/evidence/error_band.hpp"

namespace traincost {

namespace {

std::string pct(double v) {
  return fmt::printf_c("%+.0f%%", v * 100);
}
// A summary's cells; a kind with no rows shows dashes, not a 0% error.
std::vector<std::string> summary_cells(const ErrorSummary& s) {
  if (s.rows == 0) return {"0", "–", "–", "–"};
  return {std::to_string(s.rows), fmt::percent(s.median), fmt::percent(s.p90), fmt::percent(s.worst)};
}

// The headline rows: per chip family and set, all rows and then split by the model's kind, the
// split an option's error band uses (resolve_pair.cpp). Trainium2's own rows are all dense.
struct SummaryRow {
  const char* what;
  ErrorSummary Validation::*summary;
  bool kind = false;  // one kind of model (dense, MoE) of its family's rows: set apart on the page
};
constexpr SummaryRow kSummaryRows[] = {
    {"NVIDIA, calibration", &Validation::nvidia_calibration},
    {"NVIDIA, calibration: dense", &Validation::nvidia_dense_calibration, true},
    {"NVIDIA, calibration: mixture of experts", &Validation::nvidia_moe_calibration, true},
    {"NVIDIA, held out", &Validation::nvidia_holdout},
    {"NVIDIA, held out: dense", &Validation::nvidia_dense_holdout, true},
    {"NVIDIA, held out: mixture of experts", &Validation::nvidia_moe_holdout, true},
    {"Trainium (Trn1), calibration", &Validation::trainium_calibration},
    {"Trainium (Trn1), calibration: dense", &Validation::trainium_dense_calibration, true},
    {"Trainium (Trn1), calibration: mixture of experts", &Validation::trainium_moe_calibration, true},
    {"Trainium (Trn1), held out", &Validation::trainium_holdout},
    {"Trainium (Trn1), held out: dense", &Validation::trainium_dense_holdout, true},
    {"Trainium (Trn1), held out: mixture of experts", &Validation::trainium_moe_holdout, true},
    {"Trainium2, calibration (dense)", &Validation::trainium2_calibration},
    {"Trainium2, held out (dense)", &Validation::trainium2_holdout},
};

// What the split means for an option's band, said under both tables (resolve_pair.cpp's rule,
// with the family whose rows meet it named from the rows).
static_assert(kThinEvidenceFactor == 2, "kind_note's words (twice, doubled) are error_band.hpp's factor");
std::string kind_note(const Validation& v) {
  const bool nvidia_moe_wide = v.nvidia_moe_holdout.rows > 0 && band_is_estimate(v.nvidia_moe_holdout.median, v.nvidia_dense_holdout.median);
  return "Mixture-of-experts rows are those of models with more than one expert; the others are dense. An option's "
         "error band is the held-out rows' of its workload's kind, since the model's error on one kind says little about "
         "the other's. A figure whose band is at least twice its family's dense one is marked as an estimate, as thin "
         "evidence is" +
         (nvidia_moe_wide ? std::string(": NVIDIA's mixture-of-experts rows (median " + fmt::percent(v.nvidia_moe_holdout.median) +
                                        " against " + fmt::percent(v.nvidia_dense_holdout.median) + " dense) are")
                          : std::string()) +
         ". No Trainium mixture-of-experts training is published: an MoE workload on Trainium gets the dense band "
         "doubled, once (on Trainium2 too, whose own rows already double it).";
}

// Table cells are our own data, but Markdown needs its pipes escaped all the same.
std::string cell(std::string s) {
  std::string out;
  for (char ch : s) out += ch == '|' ? std::string("\\|") : std::string(1, ch);
  return out;
}

// What the Trainium2 rows rest on, said under both tables.
constexpr const char* kTrainium2Note =
    "Trainium2 has one public end-to-end training measurement, the AXLearn paper's (Llama 2 7B and 70B on 1,024 Trn2 "
    "chips): its 7B row fits Trainium2's own matmul efficiency (one factor; every other factor is Trn1's) and its 70B "
    "row is held out. Each AXLearn row counts the matmuls its checkpoint policy (apple/axlearn fuji.py) recomputes in "
    "the backward pass: 45% of the 7B's forward matmuls, 8% of the Trn2 70B's, 55% of the H100 70B's (counted as full "
    "recomputation, the 7B had fitted an efficiency 13% too high and the 70B was 29% too fast). Two rows show no spread, "
    "so a Trainium2 prediction carries twice the Trainium family's error band "
    "(or its held-out row's error, if larger), the same on a mixture of experts (doubled once, not twice). Trainium3 has no measurement: it borrows Trainium2's calibration with "
    "twice Trainium2's band.";

// The layout the prediction used, with the share of the forward matmuls the source's checkpoint
// policy recomputes where a row states it (TrainCost's own modes say none or all).
std::string layout_text(const ValidationRow& r) {
  if (!r.prediction.found) return "no layout";
  std::string text = describe(r.prediction.layout);
  const double share = r.measurement->recomputed_matmul_share;
  if (share >= 0 && r.prediction.layout.recompute != Recompute::None)
    text += " (its checkpoint policy recomputes " + fmt::printf_c("%.0f%%", share * 100) + " of the forward matmuls)";
  // A mixture of experts' dispatch as its recipe states it (layout.moe_dispatcher, moe_a2a_overlap).
  if (is_moe(r.measurement->shape.experts) && r.measurement->dispatcher == MoeDispatcher::Flex) text += ", flex dispatcher";
  if (is_moe(r.measurement->shape.experts) && r.measurement->expert_overlap) text += ", all-to-all overlapped";
  return text;
}

}  // namespace

std::string validation_markdown(const MeasurementSet& set, const Validation& v) {
  std::string out =
      "| Chips | Rows | Median error | 90th percentile | Worst |\n|---|---:|---:|---:|---:|\n";
  for (const SummaryRow& row : kSummaryRows) {
    out += std::string("| ") + row.what;
    for (const std::string& c : summary_cells(v.*row.summary)) out += " | " + c;
    out += " |\n";
  }
  out += "\nError = predicted / measured tokens per second per chip − 1. " + kind_note(v) + "\n\n" + kTrainium2Note + "\n\n";
  out += "| Measurement | Set | Chips | Model | Precision | Layout (stated; searched keys filled in) | Measured tokens/s/chip | "
         "Predicted | Error | Source |\n|---|---|---|---|---|---|---:|---:|---:|---|\n";
  for (const ValidationRow& r : v.rows) {
    const Measurement& m = *r.measurement;
    const MeasurementSource* s = set.find_source(m.source);
    const std::string set_name = m.excluded ? "excluded" : m.holdout ? "held out" : "calibration";
    out += "| " + cell(m.id) + " | " + set_name + " | " + fmt::number(m.chips) + " × " + cell(m.chip) + " | " + cell(m.model_name) +
           " | " + to_string(m.precision) + " | " + cell(layout_text(r)) + " | " +
           fmt::number(m.tokens_per_sec_per_chip, 4) + (m.derived ? " (derived)" : "") + " | " +
           (r.prediction.found ? fmt::number(r.prediction.tokens_per_sec_per_chip, 4) : "–") + " | " +
           (r.prediction.found ? pct(r.prediction.error) : "–") + " | " + (s ? "[" + cell(s->title) + "](" + s->url + ")" : cell(m.source)) +
           (m.excluded ? " (" + cell(m.excluded_reason) + ")" : "") + " |\n";
  }
  return out;
}

std::string validation_html(const MeasurementSet& set, const Validation& v) {
  std::string out =
      "<div class=\"table-wrap\"><table class=\"plain\" id=\"validation-summary\"><thead><tr><th scope=\"col\">Chips</th>"
      "<th scope=\"col\">Rows</th><th scope=\"col\">Median error</th><th scope=\"col\">90th percentile</th><th scope=\"col\">Worst</th>"
      "</tr></thead><tbody>";
  for (const SummaryRow& row : kSummaryRows) {
    out += std::string("<tr") + (row.kind ? " class=\"kind\"" : "") + "><th scope=\"row\">" + row.what + "</th>";
    for (const std::string& c : summary_cells(v.*row.summary)) out += "<td>" + c + "</td>";
    out += "</tr>";
  }
  out += "</tbody></table></div>\n<p>" + escape_html(kind_note(v)) + "</p>\n<p>" + escape_html(kTrainium2Note) + "</p>\n<div class=\"table-wrap\"><table class=\"figures\" id=\"validation-rows\"><thead><tr>"
         "<th scope=\"col\">Measurement</th><th scope=\"col\">Set</th><th scope=\"col\">Chips</th><th scope=\"col\">Model</th>"
         "<th scope=\"col\">Precision</th><th scope=\"col\">Layout</th><th scope=\"col\">Measured tokens/s/chip</th>"
         "<th scope=\"col\">Predicted</th><th scope=\"col\">Error</th><th scope=\"col\">Source</th></tr></thead><tbody>";
  for (const ValidationRow& r : v.rows) {
    const Measurement& m = *r.measurement;
    const MeasurementSource* s = set.find_source(m.source);
    const std::string set_name = m.excluded ? "excluded: " + m.excluded_reason : m.holdout ? "held out" : "calibration";
    const std::string source = s ? "<a href=\"" + escape_html(s->url) + "\" rel=\"external noreferrer\">" + escape_html(s->title) + "</a>, " +
                                       escape_html(s->as_of)
                                 : escape_html(m.source);
    out += "<tr data-set=\"" + std::string(m.excluded ? "excluded" : m.holdout ? "holdout" : "calibration") + "\"><th scope=\"row\">" +
           escape_html(m.id) + "</th><td>" + escape_html(set_name) + "</td><td>" + fmt::number(m.chips) + " × " + escape_html(m.chip) +
           "</td><td>" + escape_html(m.model_name) + "</td><td>" + to_string(m.precision) + "</td><td>" +
           escape_html(layout_text(r)) + "</td><td>" +
           fmt::number(m.tokens_per_sec_per_chip, 4) + (m.derived ? " (derived)" : "") + "</td><td>" +
           (r.prediction.found ? fmt::number(r.prediction.tokens_per_sec_per_chip, 4) : "–") + "</td><td>" +
           (r.prediction.found ? pct(r.prediction.error) : "–") + "</td><td>" + source + "</td></tr>";
  }
  out += "</tbody></table></div>";
  return out;
}

std::string calibration_json(const FittedCalibration& fit, const Validation& v, const std::string& as_of) {
  auto figure = [&](double value, const std::string& note) {
    OrderedJson f = {{"value", value}, {"source", "traincost-calibration"}, {"as_of", as_of}};
    if (!note.empty()) f["note"] = note;
    return f;
  };
  auto family = [&](const Calibration& c, const ErrorSummary& cal, const ErrorSummary& hold, const ErrorSummary& dense_cal,
                    const ErrorSummary& dense_hold, const ErrorSummary& moe_cal, const ErrorSummary& moe_hold, bool trainium) {
    OrderedJson j = OrderedJson::object();
    j["matmul_efficiency"] = figure(c.matmul_efficiency, trainium ? "of the dense BF16 peak (no measured matmul ceiling for Trainium)"
                                                                  : "of the measured BF16 matmul ceiling (MAMF)");
    j["fp8_matmul_efficiency"] = figure(c.fp8_matmul_efficiency, trainium ? "no FP8 Trainium training is published: BF16's efficiency assumed"
                                                                          : "of the measured FP8 matmul ceiling");
    // Trainium's two are constants its rows do not identify (kTrainiumGemmKnee, calibration.hpp).
    const std::string held = "Trainium's own, not fitted: Trn1's rows do not identify it; the value its other factors were fitted with";
    j["attention_efficiency"] = figure(c.attention_efficiency, trainium ? held : "relative to BF16 matmuls");
    j["gemm_knee"] = figure(c.gemm_knee, trainium ? held : "smallest GEMM dimension at half speed");
    j["memory_bound_bytes"] = figure(c.memory_bound_bytes, "HBM bytes per token, layer and width unit of non-matmul work");
    if (c.moe_overhead_bytes > 0)
      j["moe_overhead_bytes"] = figure(c.moe_overhead_bytes, "HBM bytes per token, layer and width unit of the mixture-of-experts overhead (4·k·h width units)");
    if (!trainium)
      j["flex_moe_share"] = figure(c.flex_moe_share, "share of the mixture-of-experts memory-bound overhead a layer pays with a flex dispatcher (DeepEP, HybridEP)");
    j["holdout_median_error"] = figure(hold.median, "median |predicted / measured - 1| on the held-out rows");
    j["holdout_p90_error"] = figure(hold.p90, "");
    j["holdout_rows"] = figure(hold.rows, "");
    j["calibration_rows"] = figure(cal.rows, "");
    // The band an option shows is its workload's kind's (resolve_pair.cpp).
    j["dense_holdout_median_error"] = figure(dense_hold.median, "on the held-out rows of dense models (one expert or none)");
    j["dense_holdout_p90_error"] = figure(dense_hold.p90, "");
    j["dense_holdout_rows"] = figure(dense_hold.rows, "");
    j["dense_calibration_rows"] = figure(dense_cal.rows, "");
    if (moe_hold.rows > 0) {
      j["moe_holdout_median_error"] = figure(moe_hold.median, "on the held-out rows of mixture-of-experts models");
      j["moe_holdout_p90_error"] = figure(moe_hold.p90, "");
    }
    j["moe_holdout_rows"] = figure(moe_hold.rows, moe_hold.rows > 0 ? "" : "no held-out mixture-of-experts row: an MoE option's band is twice the dense one");
    j["moe_calibration_rows"] = figure(moe_cal.rows, "");
    return j;
  };
  OrderedJson j = OrderedJson::object();
  j["nvidia"] = family(fit.nvidia, v.nvidia_calibration, v.nvidia_holdout, v.nvidia_dense_calibration, v.nvidia_dense_holdout,
                       v.nvidia_moe_calibration, v.nvidia_moe_holdout, false);
  j["trainium"] = family(fit.trainium, v.trainium_calibration, v.trainium_holdout, v.trainium_dense_calibration, v.trainium_dense_holdout,
                         v.trainium_moe_calibration, v.trainium_moe_holdout, true);
  OrderedJson t2 = OrderedJson::object();
  t2["matmul_efficiency"] = figure(fit.trainium2.matmul_efficiency,
                                   "of the dense BF16 peak, fitted on Trainium2's calibration rows; every other factor is Trn1's");
  t2["holdout_median_error"] = figure(v.trainium2_holdout.median, "median |predicted / measured - 1| on Trainium2's held-out rows");
  t2["holdout_p90_error"] = figure(v.trainium2_holdout.p90, "");
  t2["holdout_rows"] = figure(v.trainium2_holdout.rows, "");
  t2["calibration_rows"] = figure(v.trainium2_calibration.rows, "");
  j["trainium2"] = t2;
  return j.dump(2);
}

}  // namespace traincost
