#include "traincost/scenario_json.hpp"

#include <cmath>
#include <initializer_list>

#include "traincost/fields.hpp"
#include "traincost/format.hpp"
#include "traincost/formulas.hpp"
#include "traincost/inputs.hpp"

namespace traincost {

ScalingLaw scaling_law_constants(ScalingLawKind kind, const ScalingLaw& custom) {
  switch (kind) {
    // Hoffmann et al. 2022 (Chinchilla), Approach 3 as published, arXiv 2203.15556 §D.2.
    case ScalingLawKind::Hoffmann2022: return {1.69, 406.4, 410.7, 0.34, 0.28};
    // Besiroglu et al. 2024 replication of Approach 3, arXiv 2404.10102.
    case ScalingLawKind::Besiroglu2024: return {1.8172, 482.01, 2085.43, 0.3478, 0.3658};
    case ScalingLawKind::Custom: return custom;
  }
  return custom;
}

const char* to_string(ScalingLawKind kind) {
  switch (kind) {
    case ScalingLawKind::Hoffmann2022: return "hoffmann2022";
    case ScalingLawKind::Besiroglu2024: return "besiroglu2024";
    case ScalingLawKind::Custom: return "custom";
  }
  return "custom";
}

const char* to_string(Distribution d) {
  switch (d) {
    case Distribution::Triangular: return "triangular";
    case Distribution::Uniform: return "uniform";
    case Distribution::LogNormal: return "lognormal";
  }
  return "triangular";
}

namespace {

std::string at(const std::string& path, const char* key) { return path.empty() ? key : path + "." + key; }
std::string at(const std::string& path, size_t index) { return path + "[" + std::to_string(index) + "]"; }

// Reads typed fields out of JSON objects, recording a problem for each wrong one and leaving
// the output at its default.
class Reader {
 public:
  explicit Reader(Problems& problems) : problems_(problems) {}

  void fail(const std::string& path, const std::string& message) { problems_.push_back({path, message}); }

  bool object(const Json& value, const std::string& path) {
    if (value.is_object()) return true;
    fail(path, std::string("must be an object, got ") + describe_type(value));
    return false;
  }

  void only(const Json& obj, const std::string& path, std::initializer_list<const char*> allowed) {
    for (const auto& item : obj.items()) {
      bool known = false;
      for (const char* key : allowed) known = known || item.key() == key;
      if (!known) {
        // Cut at a character boundary: half a UTF-8 character would make the path invalid UTF-8,
        // and the JS API's dump() of the problems would abort (tests/core/bad_input_test.cpp).
        fail(at(path, shorten(item.key(), 40).c_str()), "unknown field");
      }
    }
  }

  static const Json* find(const Json& obj, const std::string& key) {
    const auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
  }

  // A number within spec's bounds, or nothing (with a problem) when present but wrong.
  std::optional<double> number_value(const Json& v, const std::string& path, const FieldSpec& spec) {
    if (!v.is_number()) {
      if (v.is_string()) {
        const std::string s = v.get<std::string>();
        if (s == "NaN" || s == "nan" || s == "Infinity" || s == "-Infinity" || s == "inf" || s == "-inf")
          fail(path, "must be a finite number, got \"" + s + "\"");
        else
          fail(path, "must be a number, got a string (" + preview(v) + ")");
      } else {
        fail(path, std::string("must be a number, got ") + describe_type(v));
      }
      return std::nullopt;
    }
    const double x = v.get<double>();
    const std::string problem = spec.check(x);
    if (!problem.empty()) {
      fail(path, problem);
      return std::nullopt;
    }
    return x;
  }

  void number(const Json& obj, const std::string& path, const FieldSpec& spec, double& out) {
    const std::string key = spec.key();
    if (const Json* v = find(obj, key))
      if (auto x = number_value(*v, at(path, key.c_str()), spec)) out = *x;
  }
  void number(const Json& obj, const std::string& path, const FieldSpec& spec, std::optional<double>& out) {
    const std::string key = spec.key();
    if (const Json* v = find(obj, key))
      if (auto x = number_value(*v, at(path, key.c_str()), spec)) out = *x;
  }
  void integer(const Json& obj, const std::string& path, const FieldSpec& spec, int& out) {
    const std::string key = spec.key();
    if (const Json* v = find(obj, key))
      if (auto x = number_value(*v, at(path, key.c_str()), spec)) out = static_cast<int>(*x);
  }
  void required(const Json& obj, const std::string& path, const char* key) {
    if (!find(obj, key)) fail(at(path, key), "is required");
  }

  void boolean(const Json& obj, const std::string& path, const char* key, bool& out) {
    if (const Json* v = find(obj, key)) {
      if (v->is_boolean()) out = v->get<bool>();
      else fail(at(path, key), std::string("must be true or false, got ") + describe_type(*v));
    }
  }

  void text(const Json& obj, const std::string& path, const char* key, std::string& out, size_t max_length) {
    if (const Json* v = find(obj, key)) {
      if (!v->is_string()) {
        fail(at(path, key), std::string("must be a string, got ") + describe_type(*v));
      } else if (v->get_ref<const std::string&>().size() > max_length) {
        fail(at(path, key), "must be at most " + std::to_string(max_length) + " characters, got " +
                                std::to_string(v->get_ref<const std::string&>().size()));
      } else {
        out = v->get<std::string>();
      }
    }
  }

  // One of a fixed set of words.
  template <typename Enum, size_t N>
  void choice(const Json& obj, const std::string& path, const char* key,
              const std::pair<const char*, Enum> (&choices)[N], Enum& out) {
    const Json* v = find(obj, key);
    if (!v) return;
    std::string allowed;
    for (const auto& [word, value] : choices) {
      if (v->is_string() && v->get_ref<const std::string&>() == word) {
        out = value;
        return;
      }
      allowed += std::string(allowed.empty() ? "" : ", ") + "\"" + word + "\"";
    }
    fail(at(path, key), "must be one of " + allowed + ", got " + preview(*v));
  }

  const Json* array(const Json& obj, const std::string& path, const char* key, size_t min, size_t max) {
    const Json* v = find(obj, key);
    if (!v) {
      if (min > 0) fail(at(path, key), "is required");
      return nullptr;
    }
    if (!v->is_array()) {
      fail(at(path, key), std::string("must be an array, got ") + describe_type(*v));
      return nullptr;
    }
    if (v->size() < min || v->size() > max) {
      fail(at(path, key), "must have " + std::to_string(min) + " to " + std::to_string(max) + " entries, got " +
                              std::to_string(v->size()));
      return nullptr;
    }
    return v;
  }

 private:
  Problems& problems_;
};

constexpr std::pair<const char*, PricingModel> kPricingWords[] = {
    {"on_demand", PricingModel::OnDemand},
    {"reserved_1yr", PricingModel::Reserved1yr},
    {"reserved_3yr", PricingModel::Reserved3yr},
    {"spot", PricingModel::Spot},
    {"capacity_block", PricingModel::CapacityBlock}};
constexpr std::pair<const char*, Precision> kPrecisionWords[] = {{"bf16", Precision::BF16}, {"fp8", Precision::FP8}};
constexpr std::pair<const char*, Family> kFamilyWords[] = {{"trainium", Family::Trainium}, {"nvidia", Family::Nvidia}};
constexpr std::pair<const char*, ScalingLawKind> kLawWords[] = {
    {"hoffmann2022", ScalingLawKind::Hoffmann2022}, {"besiroglu2024", ScalingLawKind::Besiroglu2024}};
constexpr std::pair<const char*, Distribution> kDistributionWords[] = {
    {"triangular", Distribution::Triangular}, {"uniform", Distribution::Uniform}, {"lognormal", Distribution::LogNormal}};

const char* word(Precision p) { return p == Precision::FP8 ? "fp8" : "bf16"; }

void read_costs(Reader& r, const Json& obj, const std::string& path, PlatformCosts& c) {
  using namespace fields;
  r.number(obj, path, engineer_weeks, c.engineer_weeks);
  r.number(obj, path, usd_per_engineer_week, c.usd_per_engineer_week);
  r.number(obj, path, validation_runs, c.validation_runs);
  r.number(obj, path, validation_run_fraction, c.validation_run_fraction);
  r.number(obj, path, convergence_penalty, c.convergence_penalty);
  r.number(obj, path, compile_hours_per_run, c.compile_hours_per_run);
  r.number(obj, path, maintenance_usd_per_year, c.maintenance_usd_per_year);
  r.number(obj, path, egress_tb_per_run, c.egress_tb_per_run);
  r.number(obj, path, egress_usd_per_tb, c.egress_usd_per_tb);
}
#define TRAINCOST_COST_KEYS                                                                            \
  "engineer_weeks", "usd_per_engineer_week", "validation_runs", "validation_run_fraction",            \
      "convergence_penalty", "compile_hours_per_run", "maintenance_usd_per_year", "egress_tb_per_run", \
      "egress_usd_per_tb"

Model read_model(Reader& r, const Json& obj, const std::string& path) {
  using namespace fields;
  Model m;
  if (!r.object(obj, path)) return m;
  r.only(obj, path, {"params", "active_params", "layers", "hidden", "heads", "seq_len", "vocab"});
  r.required(obj, path, "params");
  r.number(obj, path, params, m.params);
  r.number(obj, path, active_params, m.active_params);
  r.integer(obj, path, layers, m.layers);
  r.integer(obj, path, hidden, m.hidden);
  r.integer(obj, path, heads, m.heads);
  r.integer(obj, path, seq_len, m.seq_len);
  r.integer(obj, path, vocab, m.vocab);
  return m;
}

Target read_target(Reader& r, const Json& obj, const std::string& path) {
  using namespace fields;
  Target t;
  if (!r.object(obj, path)) return t;
  r.only(obj, path, {"tokens", "steps", "tokens_per_step", "loss", "scaling_law"});
  const bool has_tokens = obj.contains("tokens"), has_steps = obj.contains("steps"), has_loss = obj.contains("loss");
  if (has_tokens + has_steps + has_loss != 1) {
    r.fail(path, "needs exactly one of \"tokens\", \"steps\" (with \"tokens_per_step\") or \"loss\"");
    return t;
  }
  if (has_tokens) {
    t.kind = TargetKind::Tokens;
    r.number(obj, path, tokens, t.tokens);
  } else if (has_steps) {
    t.kind = TargetKind::Steps;
    r.required(obj, path, "tokens_per_step");
    r.number(obj, path, steps, t.steps);
    r.number(obj, path, tokens_per_step, t.tokens_per_step);
  } else {
    t.kind = TargetKind::Loss;
    r.number(obj, path, loss, t.loss);
    if (const Json* law = Reader::find(obj, "scaling_law")) {
      const std::string law_path = at(path, "scaling_law");
      if (law->is_object()) {
        t.law = ScalingLawKind::Custom;
        r.only(*law, law_path, {"E", "A", "B", "alpha", "beta"});
        for (const char* key : {"E", "A", "B", "alpha", "beta"}) r.required(*law, law_path, key);
        r.number(*law, law_path, law_E, t.custom_law.E);
        r.number(*law, law_path, law_A, t.custom_law.A);
        r.number(*law, law_path, law_B, t.custom_law.B);
        r.number(*law, law_path, law_alpha, t.custom_law.alpha);
        r.number(*law, law_path, law_beta, t.custom_law.beta);
      } else {
        r.choice(obj, path, "scaling_law", kLawWords, t.law);
      }
    }
  }
  if (!has_steps && obj.contains("tokens_per_step")) r.fail(at(path, "tokens_per_step"), "only goes with \"steps\"");
  if (!has_loss && obj.contains("scaling_law")) r.fail(at(path, "scaling_law"), "only goes with \"loss\"");
  return t;
}

Workload read_workload(Reader& r, const Json& obj, const std::string& path) {
  using namespace fields;
  Workload w;
  if (!r.object(obj, path)) return w;
  r.only(obj, path, {"name", "model", "target", "recompute", "memory", "runs", "horizon_months", "overrides"});
  r.text(obj, path, "name", w.name, 80);
  r.required(obj, path, "model");
  r.required(obj, path, "target");
  if (const Json* m = Reader::find(obj, "model")) w.model = read_model(r, *m, at(path, "model"));
  if (const Json* t = Reader::find(obj, "target")) w.target = read_target(r, *t, at(path, "target"));
  r.boolean(obj, path, "recompute", w.recompute);
  if (const Json* mem = Reader::find(obj, "memory")) {
    const std::string mp = at(path, "memory");
    if (r.object(*mem, mp)) {
      r.only(*mem, mp, {"bytes_per_param", "micro_batch", "tensor_parallel", "flash_attention", "usable_fraction"});
      r.number(*mem, mp, bytes_per_param, w.memory.bytes_per_param);
      r.integer(*mem, mp, micro_batch, w.memory.micro_batch);
      r.integer(*mem, mp, tensor_parallel, w.memory.tensor_parallel);
      r.boolean(*mem, mp, "flash_attention", w.memory.flash_attention);
      r.number(*mem, mp, usable_fraction, w.memory.usable_fraction);
    }
  }
  r.number(obj, path, runs, w.runs);
  r.number(obj, path, horizon_months, w.horizon_months);
  if (const Json* list = r.array(obj, path, "overrides", 0, kMaxOptions)) {
    for (size_t i = 0; i < list->size(); ++i) {
      const std::string op = at(at(path, "overrides"), i);
      const Json& o = (*list)[i];
      if (!r.object(o, op)) continue;
      r.only(o, op, {"option", TRAINCOST_COST_KEYS});
      WorkloadOverride ov;
      r.required(o, op, "option");
      r.integer(o, op, override_option, ov.option);
      read_costs(r, o, op, ov.costs);
      w.overrides.push_back(ov);
    }
  }
  return w;
}

Option read_option(Reader& r, const Json& obj, const std::string& path) {
  using namespace fields;
  Option o;
  if (!r.object(obj, path)) return o;
  r.only(obj, path, {"label", "instance", "custom", "instances", "pricing", "price_usd_per_hour", "discount",
                     "precision", "mfu", "measured_tokens_per_sec_per_chip", "scaling_reference_chips",
                     "scaling_per_doubling", "reliability", "porting"});
  r.text(obj, path, "label", o.label, 40);
  r.required(obj, path, "instance");
  r.text(obj, path, "instance", o.instance, 64);
  if (const Json* c = Reader::find(obj, "custom")) {
    const std::string cp = at(path, "custom");
    if (r.object(*c, cp)) {
      CustomInstance ci;
      r.only(*c, cp, {"chip", "chips", "peak_tflops", "memory_gb", "family"});
      r.text(*c, cp, "chip", ci.chip, 64);
      r.integer(*c, cp, custom_chips, ci.chips);
      r.number(*c, cp, custom_peak_tflops, ci.peak_tflops);
      r.number(*c, cp, custom_memory_gb, ci.memory_gb);
      r.choice(*c, cp, "family", kFamilyWords, ci.family);
      o.custom = ci;
    }
  }
  r.integer(obj, path, instances, o.instances);
  r.choice(obj, path, "pricing", kPricingWords, o.pricing);
  r.number(obj, path, price_usd_per_hour, o.price_usd_per_hour);
  r.number(obj, path, discount, o.discount);
  r.choice(obj, path, "precision", kPrecisionWords, o.precision);
  r.number(obj, path, mfu, o.mfu);
  r.number(obj, path, measured_tokens_per_sec_per_chip, o.measured_tokens_per_sec_per_chip);
  r.number(obj, path, scaling_reference_chips, o.scaling_reference_chips);
  r.number(obj, path, scaling_per_doubling, o.scaling_per_doubling);
  if (const Json* rel = Reader::find(obj, "reliability")) {
    const std::string rp = at(path, "reliability");
    if (r.object(*rel, rp)) {
      r.only(*rel, rp, {"mtbf_hours_per_instance", "checkpoint_write_minutes", "restart_minutes",
                        "checkpoint_interval_hours"});
      r.number(*rel, rp, mtbf_hours_per_instance, o.reliability.mtbf_hours_per_instance);
      r.number(*rel, rp, checkpoint_write_minutes, o.reliability.checkpoint_write_minutes);
      r.number(*rel, rp, restart_minutes, o.reliability.restart_minutes);
      r.number(*rel, rp, checkpoint_interval_hours, o.reliability.checkpoint_interval_hours);
    }
  }
  if (const Json* p = Reader::find(obj, "porting")) {
    const std::string pp = at(path, "porting");
    if (r.object(*p, pp)) {
      r.only(*p, pp, {TRAINCOST_COST_KEYS});
      read_costs(r, *p, pp, o.porting);
    }
  }
  return o;
}

}  // namespace

std::optional<Scenario> scenario_from_json(const Json& doc, Problems& problems) {
  using namespace fields;
  const size_t before = problems.size();
  Reader r(problems);
  if (!r.object(doc, "")) return std::nullopt;

  // The version decides how to read everything else, so it is checked first.
  const Json* version = Reader::find(doc, "version");
  if (!version) {
    r.fail("version", "is required (this TrainCost reads format " + std::to_string(kScenarioVersion) + ")");
    return std::nullopt;
  }
  if (!version->is_number_integer() && !version->is_number_unsigned()) {
    r.fail("version", std::string("must be a whole number, got ") + preview(*version));
    return std::nullopt;
  }
  const long long v = version->get<long long>();
  if (v > kScenarioVersion) {
    r.fail("version", "is " + std::to_string(v) + ": this scenario was made by a newer TrainCost; this one reads format " +
                          std::to_string(kScenarioVersion) + ". Open it in the current calculator.");
    return std::nullopt;
  }
  if (v < 1) {
    r.fail("version", "must be 1 or more, got " + std::to_string(v));
    return std::nullopt;
  }
  // Format 1 is the first; migrations from older formats go here when format 2 exists.

  r.only(doc, "", {"version", "name", "catalog", "workloads", "options", "reference", "ranges", "analysis"});
  Scenario s;
  r.text(doc, "", "name", s.name, 120);
  r.text(doc, "", "catalog", s.catalog, 32);
  if (const Json* list = r.array(doc, "", "workloads", 1, kMaxWorkloads))
    for (size_t i = 0; i < list->size(); ++i) s.workloads.push_back(read_workload(r, (*list)[i], at("workloads", i)));
  if (const Json* list = r.array(doc, "", "options", 1, kMaxOptions))
    for (size_t i = 0; i < list->size(); ++i) s.options.push_back(read_option(r, (*list)[i], at("options", i)));
  r.integer(doc, "", reference, s.reference);
  if (const Json* list = r.array(doc, "", "ranges", 0, kMaxRanges)) {
    for (size_t i = 0; i < list->size(); ++i) {
      const std::string rp = at("ranges", i);
      const Json& j = (*list)[i];
      if (!r.object(j, rp)) continue;
      r.only(j, rp, {"input", "low", "high", "dist"});
      Range range;
      for (const char* key : {"input", "low", "high"}) r.required(j, rp, key);
      r.text(j, rp, "input", range.input, 80);
      r.number(j, rp, range_low, range.low);
      r.number(j, rp, range_high, range.high);
      r.choice(j, rp, "dist", kDistributionWords, range.dist);
      s.ranges.push_back(range);
    }
  }
  if (const Json* a = Reader::find(doc, "analysis")) {
    if (r.object(*a, "analysis")) {
      r.only(*a, "analysis", {"samples", "seed", "default_ranges"});
      r.integer(*a, "analysis", samples, s.analysis.samples);
      double seed_value = static_cast<double>(s.analysis.seed);
      r.number(*a, "analysis", seed, seed_value);
      s.analysis.seed = static_cast<unsigned long long>(seed_value);
      r.boolean(*a, "analysis", "default_ranges", s.analysis.default_ranges);
    }
  }
  if (problems.size() != before) return std::nullopt;
  return s;
}

Problems validate(const Scenario& s, const Catalog& catalog) {
  Problems problems;
  auto fail = [&](std::string path, std::string message) { problems.push_back({std::move(path), std::move(message)}); };
  const int n_options = static_cast<int>(s.options.size());
  if (s.reference < 0 || s.reference >= n_options)
    fail("reference", "must name one of the " + std::to_string(n_options) + " options (0 to " +
                          std::to_string(n_options - 1) + "), got " + std::to_string(s.reference));

  for (size_t i = 0; i < s.options.size(); ++i) {
    const Option& o = s.options[i];
    const std::string path = at("options", i);
    const Chip* chip = nullptr;
    if (o.instance == "custom") {
      if (!o.custom) {
        fail(at(path, "custom"), "is required when \"instance\" is \"custom\"");
        continue;
      }
      if (!o.custom->chip.empty()) {
        chip = catalog.find_chip(o.custom->chip);
        if (!chip) fail(at(at(path, "custom"), "chip"), "unknown chip \"" + o.custom->chip + "\"");
      } else {
        if (o.custom->peak_tflops <= 0) fail(at(at(path, "custom"), "peak_tflops"), "is required without a catalog chip");
        if (o.custom->memory_gb <= 0) fail(at(at(path, "custom"), "memory_gb"), "is required without a catalog chip");
        if (!o.mfu && !o.measured_tokens_per_sec_per_chip)
          fail(at(path, "mfu"), "is required for a custom chip (or give measured_tokens_per_sec_per_chip)");
      }
      if (!o.price_usd_per_hour) fail(at(path, "price_usd_per_hour"), "is required for a custom instance");
    } else {
      if (o.custom) fail(at(path, "custom"), "only goes with \"instance\": \"custom\"");
      const Instance* inst = catalog.find_instance(o.instance);
      if (!inst) {
        fail(at(path, "instance"), "unknown instance \"" + o.instance + "\" (see `traincost catalog`)");
        continue;
      }
      chip = catalog.find_chip(inst->chip);
      if (!o.price_usd_per_hour && !inst->price(o.pricing).present()) {
        std::string available;
        for (int m = 0; m < kPricingModels; ++m)
          if (inst->prices[static_cast<size_t>(m)].present())
            available += std::string(available.empty() ? "" : ", ") + to_string(static_cast<PricingModel>(m));
        fail(at(path, "pricing"), std::string("the catalog has no ") + to_string(o.pricing) + " price for " +
                                      o.instance + " (it has: " + available + "); choose one of those or set price_usd_per_hour");
      }
    }
    if (chip && o.precision == Precision::FP8 && !chip->fp8_tflops.present())
      fail(at(path, "precision"), chip->name + " has no FP8 support; use \"bf16\"");
  }

  for (size_t w = 0; w < s.workloads.size(); ++w) {
    const Workload& wl = s.workloads[w];
    const std::string path = at("workloads", w);
    if (wl.model.active_params && *wl.model.active_params > wl.model.params)
      fail(at(path, "model.active_params"), "must not exceed params (" + fmt::number(wl.model.params) + ")");
    if (wl.target.kind == TargetKind::Loss && wl.model.params > 0) {
      const ScalingLaw law = scaling_law_constants(wl.target.law, wl.target.custom_law);
      const double floor = loss_floor(law, wl.model.active());
      if (!(wl.target.loss > floor)) {
        fail(at(path, "target.loss"), "is unreachable: a model of " + fmt::number(wl.model.active()) +
                                          " parameters cannot get below " + fmt::number(floor, 4) + " under " +
                                          to_string(wl.target.law) + " however long it trains");
      } else if (const double needed = tokens_for_loss(law, wl.model.active(), wl.target.loss); needed > fields::tokens.max) {
        // Just above the floor a loss needs astronomically many tokens (up to 1e45 under the
        // published laws, and past 1e300, where the FLOPs overflow, under a steep custom one):
        // hold it to the limit of a token target (tests/core/bad_input_test.cpp).
        fail(at(path, "target.loss"), "needs " + fmt::number(needed) + " tokens under " + to_string(wl.target.law) +
                                          ", more than the " + fmt::number(fields::tokens.max) +
                                          " TrainCost models; aim for a higher loss");
      }
    }
    for (size_t i = 0; i < wl.overrides.size(); ++i) {
      const std::string op = at(at(at(path, "overrides"), i), "option");
      if (wl.overrides[i].option < 0 || wl.overrides[i].option >= n_options)
        fail(op, "must name one of the " + std::to_string(n_options) + " options");
      for (size_t j = 0; j < i; ++j)
        if (wl.overrides[j].option == wl.overrides[i].option) fail(op, "option " + std::to_string(wl.overrides[i].option) + " already has an override");
    }
  }

  for (size_t i = 0; i < s.ranges.size(); ++i) {
    const Range& range = s.ranges[i];
    const std::string path = at("ranges", i);
    const auto ref = parse_input_path(range.input);
    if (!ref) {
      fail(at(path, "input"), "\"" + range.input + "\" is not a numeric input that can carry a range");
      continue;
    }
    const int count = static_cast<int>(ref->kind->scope == InputScope::Workload ? s.workloads.size() : s.options.size());
    if (ref->index >= count) {
      fail(at(path, "input"), "\"" + range.input + "\" points past the last entry");
      continue;
    }
    for (size_t j = 0; j < i; ++j)
      if (s.ranges[j].input == range.input) fail(at(path, "input"), "\"" + range.input + "\" already has a range");
    // The range must vary something the scenario uses.
    const std::string name = ref->kind->name;
    const size_t index = static_cast<size_t>(ref->index);
    if (ref->kind->scope == InputScope::Workload) {
      const TargetKind kind = s.workloads[index].target.kind;
      if ((name == "target.tokens" && kind != TargetKind::Tokens) ||
          ((name == "target.steps" || name == "target.tokens_per_step") && kind != TargetKind::Steps) ||
          (name == "target.loss" && kind != TargetKind::Loss))
        fail(at(path, "input"), "\"" + range.input + "\" is not how this workload's target is given");
    } else if (name == "measured_tokens_per_sec_per_chip" && !s.options[index].measured_tokens_per_sec_per_chip) {
      fail(at(path, "input"), "\"" + range.input + "\" needs the option to have a measured throughput");
    } else if (name == "mfu" && s.options[index].measured_tokens_per_sec_per_chip) {
      fail(at(path, "input"), "\"" + range.input + "\" has no effect: the option uses its measured throughput");
    }
    if (!(range.low <= range.high)) fail(path, "low must not exceed high");
    const std::string low_problem = ref->kind->spec->check(range.low);
    const std::string high_problem = ref->kind->spec->check(range.high);
    if (!low_problem.empty()) fail(at(path, "low"), low_problem);
    if (!high_problem.empty()) fail(at(path, "high"), high_problem);
    if (range.dist == Distribution::LogNormal && !(range.low > 0)) fail(at(path, "low"), "must be > 0 for a lognormal range");
  }
  return problems;
}

std::optional<Scenario> parse_scenario(std::string_view text, const Catalog& catalog, Problems& problems) {
  std::optional<Json> doc = parse_json(text, problems);
  if (!doc) return std::nullopt;
  std::optional<Scenario> s = scenario_from_json(*doc, problems);
  if (!s) return std::nullopt;
  Problems semantic = validate(*s, catalog);
  if (!semantic.empty()) {
    problems.insert(problems.end(), semantic.begin(), semantic.end());
    return std::nullopt;
  }
  return s;
}

namespace {

// Writers: `all` writes constant-default fields too.
void put(OrderedJson& j, const char* key, const std::optional<double>& v) {
  if (v) j[key] = *v;
}
void put(OrderedJson& j, const char* key, double v, double def, bool all) {
  if (all || v != def) j[key] = v;
}
void put(OrderedJson& j, const char* key, int v, int def, bool all) {
  if (all || v != def) j[key] = v;
}
void put(OrderedJson& j, const char* key, bool v, bool def, bool all) {
  if (all || v != def) j[key] = v;
}

OrderedJson costs_json(const PlatformCosts& c) {
  OrderedJson j = OrderedJson::object();
  put(j, "engineer_weeks", c.engineer_weeks);
  put(j, "usd_per_engineer_week", c.usd_per_engineer_week);
  put(j, "validation_runs", c.validation_runs);
  put(j, "validation_run_fraction", c.validation_run_fraction);
  put(j, "convergence_penalty", c.convergence_penalty);
  put(j, "compile_hours_per_run", c.compile_hours_per_run);
  put(j, "maintenance_usd_per_year", c.maintenance_usd_per_year);
  put(j, "egress_tb_per_run", c.egress_tb_per_run);
  put(j, "egress_usd_per_tb", c.egress_usd_per_tb);
  return j;
}

}  // namespace

OrderedJson model_to_json(const Model& model) {
  OrderedJson m = OrderedJson::object();
  m["params"] = model.params;
  put(m, "active_params", model.active_params);
  put(m, "layers", model.layers, 0, false);
  put(m, "hidden", model.hidden, 0, false);
  put(m, "heads", model.heads, 0, false);
  put(m, "seq_len", model.seq_len, 0, false);
  put(m, "vocab", model.vocab, 0, false);
  return m;
}

OrderedJson scenario_to_json(const Scenario& s, bool minimal) {
  const bool all = !minimal;
  const Workload dw;
  const Option dopt;
  const AnalysisSettings da;
  OrderedJson j = OrderedJson::object();
  j["version"] = s.version;
  if (all || !s.name.empty()) j["name"] = s.name;
  if (all || !s.catalog.empty()) j["catalog"] = s.catalog;
  put(j, "reference", s.reference, 0, all);

  OrderedJson workloads = OrderedJson::array();
  for (const Workload& w : s.workloads) {
    OrderedJson wj = OrderedJson::object();
    if (all || !w.name.empty()) wj["name"] = w.name;
    wj["model"] = model_to_json(w.model);
    OrderedJson t = OrderedJson::object();
    switch (w.target.kind) {
      case TargetKind::Tokens: t["tokens"] = w.target.tokens; break;
      case TargetKind::Steps:
        t["steps"] = w.target.steps;
        t["tokens_per_step"] = w.target.tokens_per_step;
        break;
      case TargetKind::Loss:
        t["loss"] = w.target.loss;
        if (w.target.law == ScalingLawKind::Custom) {
          const ScalingLaw& c = w.target.custom_law;
          t["scaling_law"] = {{"E", c.E}, {"A", c.A}, {"B", c.B}, {"alpha", c.alpha}, {"beta", c.beta}};
        } else if (all || w.target.law != ScalingLawKind::Hoffmann2022) {
          t["scaling_law"] = to_string(w.target.law);
        }
        break;
    }
    wj["target"] = t;
    put(wj, "recompute", w.recompute, false, all);
    OrderedJson mem = OrderedJson::object();
    put(mem, "bytes_per_param", w.memory.bytes_per_param, dw.memory.bytes_per_param, all);
    put(mem, "micro_batch", w.memory.micro_batch, dw.memory.micro_batch, all);
    put(mem, "tensor_parallel", w.memory.tensor_parallel, dw.memory.tensor_parallel, all);
    put(mem, "flash_attention", w.memory.flash_attention, dw.memory.flash_attention, all);
    put(mem, "usable_fraction", w.memory.usable_fraction, dw.memory.usable_fraction, all);
    if (!mem.empty()) wj["memory"] = mem;
    put(wj, "runs", w.runs, dw.runs, all);
    put(wj, "horizon_months", w.horizon_months, dw.horizon_months, all);
    if (!w.overrides.empty()) {
      OrderedJson list = OrderedJson::array();
      for (const WorkloadOverride& ov : w.overrides) {
        OrderedJson oj = OrderedJson::object();
        oj["option"] = ov.option;
        const OrderedJson costs = costs_json(ov.costs);
        for (const auto& item : costs.items()) oj[item.key()] = item.value();
        list.push_back(oj);
      }
      wj["overrides"] = list;
    }
    workloads.push_back(wj);
  }
  j["workloads"] = workloads;

  OrderedJson options = OrderedJson::array();
  for (const Option& o : s.options) {
    OrderedJson oj = OrderedJson::object();
    if (all || !o.label.empty()) oj["label"] = o.label;
    oj["instance"] = o.instance;
    if (o.custom) {
      OrderedJson c = OrderedJson::object();
      if (!o.custom->chip.empty()) c["chip"] = o.custom->chip;
      c["chips"] = o.custom->chips;
      if (o.custom->peak_tflops > 0) c["peak_tflops"] = o.custom->peak_tflops;
      if (o.custom->memory_gb > 0) c["memory_gb"] = o.custom->memory_gb;
      c["family"] = to_string(o.custom->family);
      oj["custom"] = c;
    }
    put(oj, "instances", o.instances, dopt.instances, all);
    if (all || o.pricing != dopt.pricing) oj["pricing"] = to_string(o.pricing);
    put(oj, "price_usd_per_hour", o.price_usd_per_hour);
    put(oj, "discount", o.discount, dopt.discount, all);
    if (all || o.precision != dopt.precision) oj["precision"] = word(o.precision);
    put(oj, "mfu", o.mfu);
    put(oj, "measured_tokens_per_sec_per_chip", o.measured_tokens_per_sec_per_chip);
    put(oj, "scaling_reference_chips", o.scaling_reference_chips);
    put(oj, "scaling_per_doubling", o.scaling_per_doubling, dopt.scaling_per_doubling, all);
    OrderedJson rel = OrderedJson::object();
    put(rel, "mtbf_hours_per_instance", o.reliability.mtbf_hours_per_instance);
    put(rel, "checkpoint_write_minutes", o.reliability.checkpoint_write_minutes);
    put(rel, "restart_minutes", o.reliability.restart_minutes);
    put(rel, "checkpoint_interval_hours", o.reliability.checkpoint_interval_hours);
    if (!rel.empty()) oj["reliability"] = rel;
    OrderedJson porting = costs_json(o.porting);
    if (!porting.empty()) oj["porting"] = porting;
    options.push_back(oj);
  }
  j["options"] = options;

  if (!s.ranges.empty()) {
    OrderedJson list = OrderedJson::array();
    for (const Range& r : s.ranges)
      list.push_back({{"input", r.input}, {"low", r.low}, {"high", r.high}, {"dist", to_string(r.dist)}});
    j["ranges"] = list;
  }
  OrderedJson a = OrderedJson::object();
  put(a, "samples", s.analysis.samples, da.samples, all);
  if (all || s.analysis.seed != da.seed) a["seed"] = s.analysis.seed;
  put(a, "default_ranges", s.analysis.default_ranges, da.default_ranges, all);
  if (!a.empty()) j["analysis"] = a;
  return j;
}

std::string scenario_to_text(const Scenario& s) { return scenario_to_json(s).dump(2) + "\n"; }

}  // namespace traincost
