#include "traincost/output/validation_report.hpp"

#include <cmath>
#include <cstdio>

#include "traincost/base/format.hpp"
#include "traincost/base/json_text.hpp"
#include "traincost/base/text.hpp"

namespace traincost {

namespace {

std::string pct(double v) {
  return fmt::printf_c("%+.0f%%", v * 100);
}
std::string summary_line(const char* what, const ErrorSummary& s) {
  return std::string("| ") + what + " | " + std::to_string(s.rows) + " | " + fmt::percent(s.median) + " | " + fmt::percent(s.p90) +
         " | " + fmt::percent(s.worst) + " |\n";
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
    "(or its held-out row's error, if larger). Trainium3 has no measurement: it borrows Trainium2's calibration with "
    "twice Trainium2's band.";

// The layout the prediction used, with the share of the forward matmuls the source's checkpoint
// policy recomputes where a row states it (TrainCost's own modes say none or all).
std::string layout_text(const ValidationRow& r) {
  if (!r.prediction.found) return "no layout";
  std::string text = describe(r.prediction.layout);
  const double share = r.measurement->recomputed_matmul_share;
  if (share >= 0 && r.prediction.layout.recompute != Recompute::None)
    text += " (its checkpoint policy recomputes " + fmt::printf_c("%.0f%%", share * 100) + " of the forward matmuls)";
  return text;
}

}  // namespace

std::string validation_markdown(const MeasurementSet& set, const Validation& v) {
  std::string out =
      "| Chips | Rows | Median error | 90th percentile | Worst |\n|---|---:|---:|---:|---:|\n";
  out += summary_line("NVIDIA, calibration", v.nvidia_calibration);
  out += summary_line("NVIDIA, held out", v.nvidia_holdout);
  out += summary_line("Trainium (Trn1), calibration", v.trainium_calibration);
  out += summary_line("Trainium (Trn1), held out", v.trainium_holdout);
  out += summary_line("Trainium2, calibration", v.trainium2_calibration);
  out += summary_line("Trainium2, held out", v.trainium2_holdout);
  out += "\nError = predicted / measured tokens per second per chip − 1. " + std::string(kTrainium2Note) + "\n\n";
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
  auto row = [](const char* what, const ErrorSummary& s) {
    return std::string("<tr><th scope=\"row\">") + what + "</th><td>" + std::to_string(s.rows) + "</td><td>" + fmt::percent(s.median) +
           "</td><td>" + fmt::percent(s.p90) + "</td><td>" + fmt::percent(s.worst) + "</td></tr>";
  };
  std::string out =
      "<div class=\"table-wrap\"><table class=\"plain\" id=\"validation-summary\"><thead><tr><th scope=\"col\">Chips</th>"
      "<th scope=\"col\">Rows</th><th scope=\"col\">Median error</th><th scope=\"col\">90th percentile</th><th scope=\"col\">Worst</th>"
      "</tr></thead><tbody>";
  out += row("NVIDIA, calibration", v.nvidia_calibration) + row("NVIDIA, held out", v.nvidia_holdout) +
         row("Trainium (Trn1), calibration", v.trainium_calibration) + row("Trainium (Trn1), held out", v.trainium_holdout) +
         row("Trainium2, calibration", v.trainium2_calibration) + row("Trainium2, held out", v.trainium2_holdout);
  out += "</tbody></table></div>\n<p>" + escape_html(kTrainium2Note) + "</p>\n<div class=\"table-wrap\"><table class=\"figures\" id=\"validation-rows\"><thead><tr>"
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
    j["attention_efficiency"] = figure(c.attention_efficiency, trainium ? "NVIDIA's: too few Trainium rows to fit" : "relative to BF16 matmuls");
    j["gemm_knee"] = figure(c.gemm_knee, trainium ? "NVIDIA's: too few Trainium rows to fit" : "smallest GEMM dimension at half speed");
    j["memory_bound_bytes"] = figure(c.memory_bound_bytes, "HBM bytes per token, layer and width unit of non-matmul work");
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
