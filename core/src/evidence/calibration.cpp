#include "traincost/evidence/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>

#include "traincost/base/by_id.hpp"
#include "traincost/base/detmath.hpp"
#include "traincost/base/format.hpp"
#include "traincost/base/json_text.hpp"
#include "traincost/model/predict.hpp"

namespace traincost {

const MeasurementSource* MeasurementSet::find_source(std::string_view id) const { return find_by_id(sources, id); }

namespace {

double number(const Json& j, const char* key, double fallback = 0) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : fallback;
}
std::string text(const Json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}
std::optional<int> whole(const Json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return static_cast<int>(it->get<double>());
}

}  // namespace

std::optional<MeasurementSet> load_measurements(std::string_view json_text, const Catalog& catalog, Problems& problems) {
  const size_t before = problems.size();
  const std::optional<Json> doc = parse_json(json_text, problems);
  if (!doc || !doc->is_object() || !doc->contains("measurements") || !(*doc)["measurements"].is_array()) {
    if (problems.size() == before) problems.push_back({"", "must be an object with a \"measurements\" array"});
    return std::nullopt;
  }
  MeasurementSet set;
  set.split_rule = text(*doc, "split_rule");
  if (doc->contains("sources") && (*doc)["sources"].is_object())
    for (const auto& [id, s] : (*doc)["sources"].items()) set.sources.push_back({id, text(s, "title"), text(s, "url"), text(s, "as_of")});
  for_each_object(*doc, "measurements", problems, [&](const Json& r, const std::string& path) {
    Measurement m;
    m.id = text(r, "id");
    m.source = text(r, "source");
    m.row = text(r, "row");
    const std::string which = text(r, "set");
    m.holdout = which == "holdout";
    if (which != "holdout" && which != "calibration") problems.push_back({path + ".set", "must be \"calibration\" or \"holdout\""});
    m.chip = text(r, "chip");
    if (!catalog.find_chip(m.chip)) problems.push_back({path + ".chip", "unknown chip \"" + m.chip + "\""});
    if (!set.find_source(m.source)) problems.push_back({path + ".source", "unknown source \"" + m.source + "\""});
    m.chips = number(r, "chips");
    m.network_gbps_per_chip = number(r, "network_gbps_per_chip");
    const Json& model = r.contains("model") ? r["model"] : Json::object();
    m.model_name = text(model, "name");
    Shape& s = m.shape;
    s.params = number(model, "params");
    s.active_params = number(model, "active_params", s.params);
    s.layers = number(model, "layers");
    s.hidden = number(model, "hidden");
    s.heads = number(model, "heads", std::round(s.hidden / 128));
    s.kv_heads = number(model, "kv_heads", s.heads);
    s.ffn = number(model, "ffn_hidden", 4 * s.hidden);
    s.vocab = number(model, "vocab");
    s.experts = number(model, "experts");
    s.experts_per_token = number(model, "experts_per_token");
    s.gated_ffn = model.contains("gated_ffn") && model["gated_ffn"].is_boolean() && model["gated_ffn"].get<bool>();
    s.seq_len = number(r, "seq_len");
    m.precision = text(r, "precision") == "fp8" ? Precision::FP8 : Precision::BF16;
    m.global_batch_sequences = number(r, "global_batch_sequences");
    const Json& l = r.contains("layout") ? r["layout"] : Json::object();
    LayoutPins& pins = m.layout;
    pins.tensor = whole(l, "tensor");
    pins.pipeline = whole(l, "pipeline");
    pins.data = whole(l, "data");
    pins.context = whole(l, "context");
    pins.expert = whole(l, "expert");
    pins.micro_batch = whole(l, "micro_batch");
    pins.interleave = whole(l, "interleave");
    pins.zero = whole(l, "zero");
    if (const auto rc = parse_word(kRecomputeWords, text(l, "recompute"))) pins.recompute = *rc;
    m.recomputed_matmul_share = number(l, "recomputed_matmul_share", -1);
    if (l.contains("recomputed_matmul_share") && !(m.recomputed_matmul_share >= 0 && m.recomputed_matmul_share <= 1))
      problems.push_back({path + ".layout.recomputed_matmul_share", "must be a number from 0 to 1"});
    if (l.contains("moe_a2a_overlap") && !l["moe_a2a_overlap"].is_boolean())
      problems.push_back({path + ".layout.moe_a2a_overlap", "must be true or false"});
    m.expert_overlap = l.contains("moe_a2a_overlap") && l["moe_a2a_overlap"].is_boolean() && l["moe_a2a_overlap"].get<bool>();
    if (l.contains("moe_dispatcher")) {
      const auto word = parse_word(kMoeDispatcherWords, text(l, "moe_dispatcher"));
      if (!word) problems.push_back({path + ".layout.moe_dispatcher", "must be \"all_to_all\" or \"flex\""});
      else m.dispatcher = *word;
    }
    if (l.contains("sequence_parallel") && l["sequence_parallel"].is_boolean()) pins.sequence_parallel = l["sequence_parallel"].get<bool>();
    m.tokens_per_sec_per_chip = number(r, "tokens_per_sec_per_chip");
    m.derived = r.contains("tokens_per_sec_derived") && r["tokens_per_sec_derived"].is_boolean() && r["tokens_per_sec_derived"].get<bool>();
    m.note = text(r, "note");
    const std::string variant = text(r, "variant");
    if (!variant.empty()) {
      m.excluded = true;
      m.excluded_reason = "measured on " + variant + ", a hardware variant the catalog has no profile for";
    }
    if (const std::string reason = text(r, "excluded"); !reason.empty()) {
      m.excluded = true;
      m.excluded_reason = reason;
    }
    if (!(m.tokens_per_sec_per_chip > 0) || !(m.chips > 0) || !(s.layers > 0) || !(s.hidden > 0) || !(s.seq_len > 0) ||
        !(m.global_batch_sequences > 0))
      problems.push_back({path, "needs chips, a model shape, a sequence length, a global batch and tokens_per_sec_per_chip"});
    set.rows.push_back(std::move(m));
  });
  if (problems.size() != before) return std::nullopt;
  return set;
}

MeasuredPrediction predict(const Measurement& m, const Catalog& catalog, const Calibration& calibration) {
  MeasuredPrediction out;
  const Chip* chip = catalog.find_chip(m.chip);
  if (!chip) return out;
  StepInputs in;
  in.shape = m.shape;
  in.hardware = hardware_profile(*chip, m.precision, m.network_gbps_per_chip);
  in.calibration = calibration;
  in.global_batch_sequences = m.global_batch_sequences;
  in.recomputed_matmul_share = m.recomputed_matmul_share;
  in.expert_overlap = m.expert_overlap;
  in.moe_dispatcher = m.dispatcher;
  // The measured runs fit in memory as they ran; the search only fills in unstated keys, so memory
  // is not a constraint here (a model of memory that was off would otherwise reject real runs).
  in.usable_fraction = 1e9;
  const LayoutChoice choice = search_layout(in, m.chips, m.layout);
  if (!choice.found) return out;
  out.found = true;
  out.layout = choice.layout;
  out.tokens_per_sec_per_chip = choice.time.tokens_per_sec_per_chip;
  out.error = out.tokens_per_sec_per_chip / m.tokens_per_sec_per_chip - 1;
  return out;
}

namespace {

// Nelder-Mead on f over x (log-space parameters), from x0 with initial steps of `step`, for a
// fixed number of iterations: the same answer on every platform.
std::vector<double> nelder_mead(const std::function<double(const std::vector<double>&)>& f, std::vector<double> x0, double step,
                                int iterations) {
  const size_t n = x0.size();
  std::vector<std::vector<double>> simplex = {x0};
  for (size_t i = 0; i < n; ++i) {
    std::vector<double> x = x0;
    x[i] += step;
    simplex.push_back(x);
  }
  std::vector<double> values;
  for (const auto& x : simplex) values.push_back(f(x));
  auto along = [&](const std::vector<double>& from, const std::vector<double>& to, double t) {
    std::vector<double> x(n);
    for (size_t j = 0; j < n; ++j) x[j] = from[j] + t * (to[j] - from[j]);
    return x;
  };
  for (int it = 0; it < iterations; ++it) {
    std::vector<size_t> order(n + 1);
    for (size_t i = 0; i <= n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return values[a] < values[b]; });
    std::vector<std::vector<double>> s;
    std::vector<double> v;
    for (size_t i : order) {
      s.push_back(simplex[i]);
      v.push_back(values[i]);
    }
    simplex = s;
    values = v;
    std::vector<double> centroid(n, 0.0);
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j) centroid[j] += simplex[i][j] / static_cast<double>(n);
    const std::vector<double> reflected = along(centroid, simplex[n], -1);
    const double fr = f(reflected);
    if (fr < values[0]) {
      const std::vector<double> expanded = along(centroid, simplex[n], -2);
      const double fe = f(expanded);
      if (fe < fr) {
        simplex[n] = expanded;
        values[n] = fe;
      } else {
        simplex[n] = reflected;
        values[n] = fr;
      }
    } else if (fr < values[n - 1]) {
      simplex[n] = reflected;
      values[n] = fr;
    } else {
      const std::vector<double> contracted = along(centroid, simplex[n], 0.5);
      const double fc = f(contracted);
      if (fc < values[n]) {
        simplex[n] = contracted;
        values[n] = fc;
      } else {
        for (size_t i = 1; i <= n; ++i) {
          simplex[i] = along(simplex[0], simplex[i], 0.5);
          values[i] = f(simplex[i]);
        }
      }
    }
  }
  size_t best = 0;
  for (size_t i = 1; i <= n; ++i)
    if (values[i] < values[best]) best = i;
  return simplex[best];
}

// Mean squared log error of the predictions for `rows`; a row no layout can run counts as a
// factor of e^5 off.
double loss(const std::vector<const Measurement*>& rows, const Catalog& catalog, const Calibration& c) {
  double sum = 0;
  for (const Measurement* m : rows) {
    const MeasuredPrediction p = predict(*m, catalog, c);
    const double e = p.found ? det::log(p.tokens_per_sec_per_chip / m->tokens_per_sec_per_chip) : 5;
    sum += e * e;
  }
  return rows.empty() ? 0 : sum / static_cast<double>(rows.size());
}

double four_digits(double v) {
  if (!(v > 0)) return v;
  return fmt::parse_c(fmt::printf_c("%.4g", v));
}

ErrorSummary summarize(std::vector<double> errors) {
  ErrorSummary s;
  s.rows = static_cast<int>(errors.size());
  if (errors.empty()) return s;
  std::sort(errors.begin(), errors.end());
  const size_t n = errors.size();
  s.median = n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2;
  s.p90 = errors[std::min(n - 1, static_cast<size_t>(std::ceil(0.9 * static_cast<double>(n))) - 1)];
  s.worst = errors.back();
  return s;
}

}  // namespace

CalibrationGroup calibration_group(const Catalog& catalog, const Measurement& m) {
  const Chip* chip = catalog.find_chip(m.chip);
  if (!chip || chip->family != Family::Trainium) return CalibrationGroup::Nvidia;
  return catalog.performance.own_calibration(m.chip) ? CalibrationGroup::Trainium2 : CalibrationGroup::Trainium;
}

const Calibration& calibration_for(const FittedCalibration& fit, CalibrationGroup group) {
  switch (group) {
    case CalibrationGroup::Trainium: return fit.trainium;
    case CalibrationGroup::Trainium2: return fit.trainium2;
    case CalibrationGroup::Nvidia: break;
  }
  return fit.nvidia;
}

FittedCalibration catalog_calibration(const Catalog& catalog) {
  FittedCalibration c;
  c.nvidia = calibration_of(catalog, Family::Nvidia);
  c.trainium = calibration_of(catalog, Family::Trainium);
  c.trainium2 = c.trainium;
  if (!catalog.performance.trainium2.chips.empty())
    c.trainium2 = calibration_of(catalog, Family::Trainium, catalog.performance.trainium2.chips.front());
  return c;
}

FittedCalibration fit_calibration(const MeasurementSet& set, const Catalog& catalog) {
  std::vector<const Measurement*> nvidia, trainium, trainium2;
  for (const Measurement& m : set.rows) {
    if (m.holdout || m.excluded) continue;
    const CalibrationGroup g = calibration_group(catalog, m);
    (g == CalibrationGroup::Trainium2 ? trainium2 : g == CalibrationGroup::Trainium ? trainium : nvidia).push_back(&m);
  }
  FittedCalibration out;
  out.nvidia.ring_efficiency = out.trainium.ring_efficiency = catalog.performance.ring_efficiency.value;

  // NVIDIA: five factors, in log space so they stay positive. Starting points: matmuls at their
  // measured ceiling, FP8 alike, attention at half the matmul rate, a knee of 128, 50 bytes. A
  // sixth, the MoE overhead's own bytes, only when a calibration row is a mixture of experts (else
  // 0: the overhead is charged at memory_bound_bytes), starting from 50 bytes. A seventh, the
  // share of that overhead a flex dispatcher pays, only when a calibration row runs one (else it
  // is 1: nothing says otherwise), starting from 1. The two are told apart because calibration
  // rows run each dispatcher: the all-to-all rows pin the overhead's bytes, the flex rows its share.
  const bool any_moe = std::any_of(nvidia.begin(), nvidia.end(), [](const Measurement* m) { return is_moe(m->shape.experts); });
  const bool any_flex = std::any_of(nvidia.begin(), nvidia.end(), [](const Measurement* m) {
    return is_moe(m->shape.experts) && m->dispatcher == MoeDispatcher::Flex;
  });
  const size_t moe_at = 5, flex_at = any_moe ? 6 : 5;
  auto nvidia_from = [&](const std::vector<double>& x) {
    Calibration c = out.nvidia;
    // Both are shares of a measured matmul ceiling (the best a GEMM of that precision reached in a
    // sweep), so a training step's matmuls cannot exceed it: bounded at 1.
    c.matmul_efficiency = std::min(1.0, det::exp(x[0]));
    c.fp8_matmul_efficiency = std::min(1.0, det::exp(x[1]));
    c.attention_efficiency = det::exp(x[2]);
    c.gemm_knee = det::exp(x[3]);
    c.memory_bound_bytes = det::exp(x[4]);
    c.moe_overhead_bytes = any_moe ? det::exp(x[moe_at]) : 0;
    c.flex_moe_share = any_flex ? det::exp(x[flex_at]) : 1;
    return c;
  };
  std::vector<double> x0 = {0.0, 0.0, det::log(0.5), det::log(128.0), det::log(50.0)};
  if (any_moe) x0.push_back(det::log(50.0));
  if (any_flex) x0.push_back(0.0);
  const std::vector<double> x_nvidia = nelder_mead([&](const std::vector<double>& x) { return loss(nvidia, catalog, nvidia_from(x)); },
                                                   x0, 0.3, 300 + 100 * static_cast<int>(x0.size() - 5));
  out.nvidia = nvidia_from(x_nvidia);
  out.nvidia_loss = loss(nvidia, catalog, out.nvidia);

  // Trainium: its matmul efficiency (of peak: no measured ceiling) and memory-bound bytes; its
  // attention efficiency and GEMM knee are its own constants, not NVIDIA's latest fit (calibration.hpp
  // says why).
  auto trainium_from = [&](const std::vector<double>& x) {
    Calibration c = out.nvidia;
    c.attention_efficiency = kTrainiumAttentionEfficiency;
    c.gemm_knee = kTrainiumGemmKnee;
    c.matmul_efficiency = det::exp(x[0]);
    c.fp8_matmul_efficiency = c.matmul_efficiency;
    c.memory_bound_bytes = det::exp(x[1]);
    // No Trainium mixture-of-experts row calibrates: its MoE overhead is charged at its own
    // memory-bound bytes, and no flex dispatcher runs on it.
    c.moe_overhead_bytes = 0;
    c.flex_moe_share = 1;
    return c;
  };
  const std::vector<double> x_trainium = nelder_mead(
      [&](const std::vector<double>& x) { return loss(trainium, catalog, trainium_from(x)); }, {det::log(0.5), det::log(50.0)}, 0.3, 150);
  out.trainium = trainium_from(x_trainium);
  out.trainium_loss = loss(trainium, catalog, out.trainium);

  // Trainium2: its matmul efficiency of peak alone, everything else Trn1's. The AXLearn rows are
  // too few to fit more, and a second factor would fit the one calibration row's noise: the held-out
  // row is the only test of it. Without Trainium2 rows it stays Trn1's.
  auto trainium2_from = [&](const std::vector<double>& x) {
    Calibration c = out.trainium;
    c.matmul_efficiency = c.fp8_matmul_efficiency = det::exp(x[0]);
    return c;
  };
  out.trainium2 = out.trainium;
  if (!trainium2.empty()) {
    const std::vector<double> x_trainium2 = nelder_mead(
        [&](const std::vector<double>& x) { return loss(trainium2, catalog, trainium2_from(x)); }, {det::log(out.trainium.matmul_efficiency)}, 0.3, 100);
    out.trainium2 = trainium2_from(x_trainium2);
  }
  out.trainium2_loss = loss(trainium2, catalog, out.trainium2);
  return out;
}

FittedCalibration rounded(const FittedCalibration& fit) {
  FittedCalibration r = fit;
  for (Calibration* c : {&r.nvidia, &r.trainium, &r.trainium2}) {
    c->matmul_efficiency = four_digits(c->matmul_efficiency);
    c->fp8_matmul_efficiency = four_digits(c->fp8_matmul_efficiency);
    c->attention_efficiency = four_digits(c->attention_efficiency);
    c->gemm_knee = four_digits(c->gemm_knee);
    c->memory_bound_bytes = four_digits(c->memory_bound_bytes);
    c->flex_moe_share = four_digits(c->flex_moe_share);
    c->moe_overhead_bytes = four_digits(c->moe_overhead_bytes);
  }
  return r;
}

Validation validate(const MeasurementSet& set, const Catalog& catalog, const FittedCalibration& calibrations) {
  Validation v;
  std::vector<double> e[6];
  std::vector<double> by_kind[6][2];  // [group × set][moe]
  for (const Measurement& m : set.rows) {
    const CalibrationGroup g = calibration_group(catalog, m);
    ValidationRow row{&m, predict(m, catalog, calibration_for(calibrations, g))};
    if (!m.excluded) {
      const int i = 2 * static_cast<int>(g) + (m.holdout ? 1 : 0);
      const double error = row.prediction.found ? std::fabs(row.prediction.error) : 1;
      e[i].push_back(error);
      by_kind[i][is_moe(m.shape.experts) ? 1 : 0].push_back(error);
    }
    v.rows.push_back(row);
  }
  v.nvidia_dense_calibration = summarize(by_kind[0][0]);
  v.nvidia_moe_calibration = summarize(by_kind[0][1]);
  v.nvidia_dense_holdout = summarize(by_kind[1][0]);
  v.nvidia_moe_holdout = summarize(by_kind[1][1]);
  v.trainium_dense_calibration = summarize(by_kind[2][0]);
  v.trainium_moe_calibration = summarize(by_kind[2][1]);
  v.trainium_dense_holdout = summarize(by_kind[3][0]);
  v.trainium_moe_holdout = summarize(by_kind[3][1]);
  v.nvidia_calibration = summarize(e[0]);
  v.nvidia_holdout = summarize(e[1]);
  v.trainium_calibration = summarize(e[2]);
  v.trainium_holdout = summarize(e[3]);
  v.trainium2_calibration = summarize(e[4]);
  v.trainium2_holdout = summarize(e[5]);
  return v;
}

Validation validate(const MeasurementSet& set, const Catalog& catalog) { return validate(set, catalog, catalog_calibration(catalog)); }

}  // namespace traincost
