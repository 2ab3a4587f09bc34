#include "traincost/io/scenario_json.hpp"

#include <cctype>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>

#include "traincost/scenario/fields.hpp"
#include "traincost/base/format.hpp"
#include "traincost/model/fine_tune.hpp"
#include "traincost/model/formulas.hpp"
#include "traincost/scenario/inputs.hpp"
#include "traincost/base/text.hpp"
#include "traincost/scenario/labels.hpp"
#include "traincost/engine/resolve_pair.hpp"
#include "traincost/evidence/published_runs.hpp"

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
    // An integer is shown as written: 2^53 + 1 has no double of its own (it would show as 2^53).
    const std::string written = v.is_number_unsigned() ? std::to_string(v.get<unsigned long long>())
                              : v.is_number_integer()  ? std::to_string(v.get<long long>())
                                                       : std::string();
    const std::string problem = spec.check(x, written);
    if (!problem.empty()) {
      fail(path, problem);
      return std::nullopt;
    }
    return x;
  }

  // One field of the table into its owner struct (left at its default when absent or wrong).
  template <typename O>
  void field(const Json& obj, const std::string& path, const FieldSpec& spec, O& owner) {
    const std::string key = spec.key();
    if (const Json* v = find(obj, key))
      if (auto x = number_value(*v, at(path, key.c_str()), spec)) spec.set(owner, *x);
  }
  // Every field of the owner's table.
  template <typename O>
  void fields(const Json& obj, const std::string& path, O& owner) {
    for (const FieldSpec* spec : fields_of(owner_of<O>())) field(obj, path, *spec, owner);
  }
  // Rejects members that are neither in the owner's field table nor in `other` (its non-numeric keys).
  void only(const Json& obj, const std::string& path, Owner owner, std::initializer_list<const char*> other) {
    for (const auto& item : obj.items()) {
      bool known = false;
      for (const FieldSpec* spec : fields_of(owner)) known = known || item.key() == spec->key();
      for (const char* key : other) known = known || item.key() == key;
      if (!known) fail(at(path, shorten(item.key(), 40).c_str()), "unknown field");
    }
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
      } else if (const std::string& t = v->get_ref<const std::string&>(); t.size() > max_length) {
        // The limits count bytes of UTF-8 (as the page's text fields do); say so when the text
        // is not plain ASCII, where characters and bytes differ (21 x "é" is 42 bytes).
        const size_t characters = character_count(t);
        if (characters == t.size())
          fail(at(path, key), "must be at most " + std::to_string(max_length) + " characters, got " + std::to_string(t.size()));
        else
          fail(at(path, key), "must be at most " + std::to_string(max_length) + " bytes of UTF-8, got " + std::to_string(t.size()) +
                                  " (" + std::to_string(characters) + " characters; each one beyond ASCII takes 2 to 4 bytes)");
      } else {
        out = v->get<std::string>();
      }
    }
  }

  // One of a fixed set of words.
  template <typename Enum, size_t N>
  void choice(const Json& obj, const std::string& path, const char* key, const EnumWord<Enum> (&words)[N], Enum& out) {
    const Json* v = find(obj, key);
    if (!v) return;
    if (v->is_string())
      if (const auto value = parse_word(words, v->get_ref<const std::string&>())) {
        out = *value;
        return;
      }
    std::string allowed;
    for (const EnumWord<Enum>& w : words) allowed += std::string(allowed.empty() ? "" : ", ") + "\"" + w.word + "\"";
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

// A custom law is an object of constants, never the word "custom".
constexpr EnumWord<ScalingLawKind> kPublishedLaws[] = {{ScalingLawKind::Hoffmann2022, "hoffmann2022", ""},
                                                       {ScalingLawKind::Besiroglu2024, "besiroglu2024", ""}};

Model read_model(Reader& r, const Json& obj, const std::string& path) {
  Model m;
  if (!r.object(obj, path)) return m;
  r.only(obj, path, Owner::Model, {"gated_ffn"});
  r.required(obj, path, "params");
  r.fields(obj, path, m);
  r.boolean(obj, path, "gated_ffn", m.gated_ffn);
  return m;
}

Target read_target(Reader& r, const Json& obj, const std::string& path) {
  using namespace fields;
  Target t;
  if (!r.object(obj, path)) return t;
  r.only(obj, path, Owner::Target, {"scaling_law"});
  const bool has_tokens = obj.contains("tokens"), has_steps = obj.contains("steps"), has_loss = obj.contains("loss");
  if (has_tokens + has_steps + has_loss != 1) {
    r.fail(path, "needs exactly one of \"tokens\", \"steps\" (with \"tokens_per_step\") or \"loss\"");
    return t;
  }
  // Which of the target's fields are read depends on its kind.
  if (has_tokens) {
    t.kind = TargetKind::Tokens;
    r.field(obj, path, tokens, t);
  } else if (has_steps) {
    t.kind = TargetKind::Steps;
    r.required(obj, path, "tokens_per_step");
    r.field(obj, path, steps, t);
    r.field(obj, path, tokens_per_step, t);
  } else {
    t.kind = TargetKind::Loss;
    r.field(obj, path, loss, t);
    if (const Json* law = Reader::find(obj, "scaling_law")) {
      const std::string law_path = at(path, "scaling_law");
      if (law->is_object()) {
        t.law = ScalingLawKind::Custom;
        r.only(*law, law_path, Owner::Law, {});
        for (const FieldSpec* spec : fields_of(Owner::Law)) r.required(*law, law_path, spec->key().c_str());
        r.fields(*law, law_path, t.custom_law);
      } else {
        r.choice(obj, path, "scaling_law", kPublishedLaws, t.law);
      }
    }
  }
  if (!has_steps && obj.contains("tokens_per_step")) r.fail(at(path, "tokens_per_step"), "only goes with \"steps\"");
  if (!has_loss && obj.contains("scaling_law")) r.fail(at(path, "scaling_law"), "only goes with \"loss\"");
  return t;
}

// A layout's pinned keys ("parallelism": an override's, a pilot's).
void read_pins(Reader& r, const Json& pj, const std::string& pp, LayoutPins& pins) {
  if (!r.object(pj, pp)) return;
  r.only(pj, pp, Owner::Parallelism, {"recompute", "sequence_parallel"});
  r.fields(pj, pp, pins);
  if (Reader::find(pj, "recompute")) {
    Recompute rc = Recompute::None;
    r.choice(pj, pp, "recompute", kRecomputeWords, rc);
    pins.recompute = rc;
  }
  if (Reader::find(pj, "sequence_parallel")) {
    bool sp = true;
    r.boolean(pj, pp, "sequence_parallel", sp);
    pins.sequence_parallel = sp;
  }
}

// A loss curve: [tokens, loss] pairs with tokens increasing.
void read_loss_curve(Reader& r, const Json& pj, const std::string& pp, const char* key, std::vector<LossPoint>& curve) {
  if (const Json* list = r.array(pj, pp, key, 0, kMaxLossPoints)) {
    for (size_t i = 0; i < list->size(); ++i) {
      const std::string lp = at(at(pp, key), i);
      const Json& point = (*list)[i];
      if (!point.is_array() || point.size() != 2 || !point[0].is_number() || !point[1].is_number()) {
        r.fail(lp, "must be [tokens, loss], two numbers, got " + preview(point));
        continue;
      }
      const LossPoint x{point[0].get<double>(), point[1].get<double>()};
      if (!(x.tokens >= 0 && x.tokens < 1e18) || !(x.loss > 0 && x.loss < 100)) {
        r.fail(lp, "must have tokens in [0, 1e18) and a loss in (0, 100)");
        continue;
      }
      if (!curve.empty() && x.tokens <= curve.back().tokens) r.fail(lp, "tokens must increase along the curve");
      curve.push_back(x);
    }
  }
}

// An option's pilot block: the table's numbers, the FLOP convention, the layout, where the
// figures came from and the loss curve as [tokens, loss] pairs with tokens increasing.
void read_pilot(Reader& r, const Json& pj, const std::string& pp, Option& o) {
  if (!r.object(pj, pp)) return;
  PilotMeasurement m;
  r.only(pj, pp, Owner::Pilot, {"flops", "parallelism", "source", "loss", "reference_loss"});
  r.fields(pj, pp, m);
  r.choice(pj, pp, "flops", kFlopConventionWords, m.flops);
  if (const Json* lj = Reader::find(pj, "parallelism")) read_pins(r, *lj, at(pp, "parallelism"), m.parallelism);
  r.text(pj, pp, "source", m.source, 200);
  read_loss_curve(r, pj, pp, "loss", m.loss);
  read_loss_curve(r, pj, pp, "reference_loss", m.reference_loss);
  o.pilot = m;
}

// workloads[].fine_tune: the mode (a word), the adapters' target matrices (a list of words), the
// numeric fields of the table, and whether sequences are packed.
FineTune read_fine_tune(Reader& r, const Json& obj, const std::string& path) {
  FineTune ft;
  if (!r.object(obj, path)) return ft;
  r.only(obj, path, Owner::FineTune, {"mode", "targets", "packed"});
  r.choice(obj, path, "mode", kFineTuneWords, ft.mode);
  r.fields(obj, path, ft);
  r.boolean(obj, path, "packed", ft.packed);
  if (const Json* list = r.array(obj, path, "targets", 0, 16)) {
    ft.targets = 0;
    for (size_t i = 0; i < list->size(); ++i) {
      const Json& v = (*list)[i];
      const std::optional<unsigned> bits = v.is_string() ? parse_word(kLoraTargetWords, v.get_ref<const std::string&>()) : std::nullopt;
      if (bits) {
        ft.targets |= *bits;
        continue;
      }
      std::string allowed;
      for (const EnumWord<unsigned>& w : kLoraTargetWords) allowed += std::string(allowed.empty() ? "" : ", ") + "\"" + w.word + "\"";
      r.fail(at(path, "targets") + "[" + std::to_string(i) + "]", "must be one of " + allowed + ", got " + preview(v));
    }
  }
  return ft;
}

Workload read_workload(Reader& r, const Json& obj, const std::string& path) {
  Workload w;
  if (!r.object(obj, path)) return w;
  r.only(obj, path, Owner::Workload, {"name", "model", "target", "recompute", "moe_dispatcher", "memory", "fine_tune", "overrides"});
  r.text(obj, path, "name", w.name, 80);
  r.required(obj, path, "model");
  r.required(obj, path, "target");
  if (const Json* m = Reader::find(obj, "model")) w.model = read_model(r, *m, at(path, "model"));
  if (const Json* t = Reader::find(obj, "target")) w.target = read_target(r, *t, at(path, "target"));
  r.boolean(obj, path, "recompute", w.recompute);
  r.choice(obj, path, "moe_dispatcher", kMoeDispatcherWords, w.moe_dispatcher);
  if (const Json* ft = Reader::find(obj, "fine_tune")) w.fine_tune = read_fine_tune(r, *ft, at(path, "fine_tune"));
  if (const Json* mem = Reader::find(obj, "memory")) {
    const std::string mp = at(path, "memory");
    if (r.object(*mem, mp)) {
      r.only(*mem, mp, Owner::Memory, {"flash_attention"});
      r.fields(*mem, mp, w.memory);
      r.boolean(*mem, mp, "flash_attention", w.memory.flash_attention);
    }
  }
  r.fields(obj, path, w);
  if (const Json* list = r.array(obj, path, "overrides", 0, kMaxOptions)) {
    for (size_t i = 0; i < list->size(); ++i) {
      const std::string op = at(at(path, "overrides"), i);
      const Json& o = (*list)[i];
      if (!r.object(o, op)) continue;
      // An override is an option index and platform costs, side by side in one object.
      for (const auto& item : o.items()) {
        bool known = item.key() == fields::override_option.key() || item.key() == "parallelism";
        for (const FieldSpec* spec : fields_of(Owner::Costs)) known = known || item.key() == spec->key();
        if (!known) r.fail(at(op, shorten(item.key(), 40).c_str()), "unknown field");
      }
      WorkloadOverride ov;
      r.required(o, op, "option");
      r.fields(o, op, ov);
      r.fields(o, op, ov.costs);
      if (const Json* pj = Reader::find(o, "parallelism")) read_pins(r, *pj, at(op, "parallelism"), ov.parallelism);
      w.overrides.push_back(ov);
    }
  }
  return w;
}

Option read_option(Reader& r, const Json& obj, const std::string& path) {
  Option o;
  if (!r.object(obj, path)) return o;
  r.only(obj, path, Owner::Option, {"label", "instance", "custom", "pricing", "precision", "reliability", "porting", "mfu_from_run", "pilot"});
  r.text(obj, path, "label", o.label, 40);
  r.text(obj, path, "mfu_from_run", o.mfu_from_run, 64);
  r.required(obj, path, "instance");
  r.text(obj, path, "instance", o.instance, 64);
  if (const Json* c = Reader::find(obj, "custom")) {
    const std::string cp = at(path, "custom");
    if (r.object(*c, cp)) {
      CustomInstance ci;
      r.only(*c, cp, Owner::Custom, {"chip", "family"});
      r.text(*c, cp, "chip", ci.chip, 64);
      r.fields(*c, cp, ci);
      r.choice(*c, cp, "family", kFamilyWords, ci.family);
      o.custom = ci;
    }
  }
  r.fields(obj, path, o);
  o.instances_default = !Reader::find(obj, "instances");
  r.choice(obj, path, "pricing", kPricingWords, o.pricing);
  r.choice(obj, path, "precision", kPrecisionWords, o.precision);
  if (const Json* rel = Reader::find(obj, "reliability")) {
    const std::string rp = at(path, "reliability");
    if (r.object(*rel, rp)) {
      r.only(*rel, rp, Owner::Reliability, {});
      r.fields(*rel, rp, o.reliability);
    }
  }
  if (const Json* p = Reader::find(obj, "porting")) {
    const std::string pp = at(path, "porting");
    if (r.object(*p, pp)) {
      r.only(*p, pp, Owner::Costs, {});
      r.fields(*p, pp, o.porting);
    }
  }
  if (const Json* pj = Reader::find(obj, "pilot")) read_pilot(r, *pj, at(path, "pilot"), o);
  return o;
}

// Whether time has a price or a limit in some workload (else an option's wait changes nothing).
bool uses_time(const Scenario& s) {
  for (const Workload& w : s.workloads)
    if (w.deadline_days || w.usd_per_day_of_delay.value_or(0) > 0) return true;
  return false;
}

// Whether option `index` has a one-time cost in some workload (else re-porting repeats nothing).
bool has_one_time_cost(const Scenario& s, size_t index, const Catalog& catalog) {
  for (const Workload& w : s.workloads) {
    PlatformCosts costs;
    for (const WorkloadOverride& ov : w.overrides)
      if (ov.option == static_cast<int>(index)) costs = ov.costs;
    const PairInputs p = resolve_option(s.options[index], catalog, costs);
    if (p.engineer_weeks > 0 || p.validation_runs > 0) return true;
  }
  return false;
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
    const bool whole = version->is_number_float() && version->get<double>() == std::floor(version->get<double>());
    r.fail("version", whole ? "must be written as an integer (1, not 1.0), got " + preview(*version)
                            : std::string("must be a whole number, got ") + preview(*version));
    return std::nullopt;
  }
  // Compared as written: read as a signed number, 18446744073709551615 would be -1.
  const bool negative = version->is_number_integer() && !version->is_number_unsigned() && version->get<long long>() < 1;
  if (negative || (version->is_number_unsigned() && version->get<unsigned long long>() < 1)) {
    r.fail("version", "must be 1 or more, got " + preview(*version));
    return std::nullopt;
  }
  if (version->get<unsigned long long>() > static_cast<unsigned long long>(kScenarioVersion)) {
    r.fail("version", "is " + preview(*version) + ": this scenario was made by a newer TrainCost; this one reads format " +
                          std::to_string(kScenarioVersion) + " (open it in the current calculator)");
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
  r.fields(doc, "", s);
  if (const Json* list = r.array(doc, "", "ranges", 0, kMaxRanges)) {
    for (size_t i = 0; i < list->size(); ++i) {
      const std::string rp = at("ranges", i);
      const Json& j = (*list)[i];
      if (!r.object(j, rp)) continue;
      r.only(j, rp, Owner::Range, {"input", "dist"});
      Range range;
      for (const char* key : {"input", "low", "high"}) r.required(j, rp, key);
      r.text(j, rp, "input", range.input, 80);
      r.fields(j, rp, range);
      r.choice(j, rp, "dist", kDistributionWords, range.dist);
      s.ranges.push_back(range);
    }
  }
  if (const Json* a = Reader::find(doc, "analysis")) {
    if (r.object(*a, "analysis")) {
      r.only(*a, "analysis", Owner::Analysis, {"default_ranges"});
      r.fields(*a, "analysis", s.analysis);
      r.boolean(*a, "analysis", "default_ranges", s.analysis.default_ranges);
    }
  }
  if (problems.size() != before) return std::nullopt;
  return s;
}

Problems validate(const Scenario& s, const Catalog& catalog) {
  Problems problems;
  auto fail = [&](std::string path, std::string message) { problems.push_back({std::move(path), std::move(message)}); };

  // Names and labels are shown in terminals, Markdown, CSV and the page, and written into files:
  // no control character, line break or direction override (a NUL cut an exported file short,
  // an escape sequence cleared the screen, a line break forged a table row: issue rows 6 and 9).
  auto text = [&](const std::string& path, const std::string& value) {
    if (const auto c = find_control_character(value)) {
      char code[16];
      std::snprintf(code, sizeof code, "U+%04X", c->code_point);
      fail(path, c->invalid_utf8 ? "is not valid UTF-8 (at character " + std::to_string(c->position + 1) + ")"
                                 : "must not contain control characters, line breaks, direction marks or invisible characters (" +
                                       std::string(code) + " at character " + std::to_string(c->position + 1) + ")");
    }
  };
  text("name", s.name);
  text("catalog", s.catalog);
  for (size_t w = 0; w < s.workloads.size(); ++w) text(at(at("workloads", w), "name"), s.workloads[w].name);
  for (size_t o = 0; o < s.options.size(); ++o) {
    text(at(at("options", o), "label"), s.options[o].label);
    text(at(at("options", o), "instance"), s.options[o].instance);
    if (s.options[o].custom) text(at(at(at("options", o), "custom"), "chip"), s.options[o].custom->chip);
    text(at(at("options", o), "mfu_from_run"), s.options[o].mfu_from_run);
  }
  for (size_t i = 0; i < s.ranges.size(); ++i) text(at(at("ranges", i), "input"), s.ranges[i].input);
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
        if (!o.mfu && !o.measured_tokens_per_sec_per_chip && o.mfu_from_run.empty())
          fail(at(path, "mfu"), "is required for a custom chip (or give measured_tokens_per_sec_per_chip or mfu_from_run)");
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
    if (o.max_instances && *o.max_instances < o.instances)
      fail(at(path, "max_instances"), "is below instances (" + std::to_string(o.instances) + "): raise it or use fewer instances");
    if (!o.mfu_from_run.empty()) {
      const Family family = chip ? chip->family : o.custom ? o.custom->family : Family::Nvidia;
      for (std::string& message : mfu_from_run_problems(o, family, catalog)) fail(at(path, "mfu_from_run"), std::move(message));
    }
  }

  for (size_t w = 0; w < s.workloads.size(); ++w) {
    const Workload& wl = s.workloads[w];
    const std::string path = at("workloads", w);
    if (wl.model.active_params && *wl.model.active_params > wl.model.params)
      fail(at(path, "model.active_params"), "must not exceed params (" + fmt::number(wl.model.params) + ")");
    // Architectures that cannot exist (import-hf refuses the same in a config): more key/value
    // heads than heads, or heads that grouped-query attention cannot share out evenly, and more
    // experts routed to per token than there are (issue 33, item 9).
    const Model& m = wl.model;
    if (m.kv_heads > 0 && m.heads > 0 && m.kv_heads > m.heads)
      fail(at(path, "model.kv_heads"), "must not exceed heads (" + std::to_string(m.heads) + "), got " + std::to_string(m.kv_heads));
    else if (m.kv_heads > 0 && m.heads > 0 && m.heads % m.kv_heads != 0)
      fail(at(path, "model.kv_heads"), "must divide heads (" + std::to_string(m.heads) + ": each key/value head serves the same number of heads), got " +
                                           std::to_string(m.kv_heads));
    if (m.experts_per_token > 0 && m.experts > 0 && m.experts_per_token > m.experts)
      fail(at(path, "model.experts_per_token"), "must not exceed experts (" + std::to_string(m.experts) + "), got " + std::to_string(m.experts_per_token));
    // A pinned layout wider than the cluster it is pinned on (a tensor of 64 on 32 chips read as
    // "global batch has fewer sequences than the cluster can spread"). Only a cluster of a size
    // the scenario fixes: a deadline or the default sizing chooses theirs.
    if (!wl.deadline_days)
      for (size_t o = 0; o < s.options.size(); ++o) {
        const Option& opt = s.options[o];
        if (opt.sized_by_default()) continue;
        int per_instance = 0;
        if (opt.instance == "custom") per_instance = opt.custom ? opt.custom->chips : 0;
        else if (const Instance* inst = catalog.find_instance(opt.instance)) per_instance = inst->chips;
        if (per_instance <= 0) continue;
        const double chips = static_cast<double>(opt.instances) * per_instance;
        // The option's own pins (format 1's memory.tensor_parallel, for every option, is a hint
        // the layout search narrows to the cluster).
        LayoutPins pins;
        std::string where;
        for (size_t i = 0; i < wl.overrides.size(); ++i)
          if (wl.overrides[i].option == static_cast<int>(o)) {
            pins = wl.overrides[i].parallelism;
            where = at(at(at(path, "overrides"), i), "parallelism");
          }
        if (where.empty()) continue;
        const auto pinned = [](const std::optional<int>& v) { return static_cast<double>(v.value_or(1)); };
        const double group = pinned(pins.tensor) * pinned(pins.pipeline) * pinned(pins.context) * pinned(pins.data);
        if (group <= chips) continue;
        const std::string cluster = "options[" + std::to_string(o) + "] has " + fmt::number(chips) + " chips (" +
                                    fmt::counted(opt.instances, "instance", "instances") + " of " + std::to_string(per_instance) + ")";
        const bool tensor_alone = pinned(pins.tensor) > chips;
        if (tensor_alone)
          fail(at(where, "tensor"), "is " + std::to_string(*pins.tensor) + ", more chips than " + cluster);
        else
          fail(where, "tensor × pipeline × context × data is " + fmt::number(group) + " chips, more than " + cluster);
      }
    if (wl.target.kind == TargetKind::Loss && wl.model.params > 0) {
      const ScalingLaw law = scaling_law_constants(wl.target.law, wl.target.custom_law);
      const double floor = loss_floor(law, wl.model.active());
      if (!(wl.target.loss > floor)) {
        fail(at(path, "target.loss"), "is unreachable: a model of " + fmt::number(wl.model.active()) +
                                          " parameters cannot get below " + fmt::number(floor, 4) + " under " +
                                          to_string(wl.target.law) + " however long it trains");
      } else if (const double needed = tokens_for_loss(law, wl.model.active(), wl.target.loss); needed > fields::tokens.bounds.max) {
        // Just above the floor a loss needs astronomically many tokens (up to 1e45 under the
        // published laws, and past 1e300, where the FLOPs overflow, under a steep custom one):
        // hold it to the limit of a token target (tests/core/bad_input_test.cpp).
        fail(at(path, "target.loss"), "needs " + fmt::number(needed) + " tokens under " + to_string(wl.target.law) +
                                          ", more than the " + fmt::number(fields::tokens.bounds.max) +
                                          " TrainCost models; aim for a higher loss");
      } else if (needed < fields::tokens.bounds.min) {
        // A loss far above the floor, or a custom law with a tiny B, resolves to a handful of
        // tokens (0.229 tokens made $3.1e161 per million tokens: issue row 7).
        fail(at(path, "target.loss"), "needs only " + fmt::number(needed, 3) + " tokens under " + to_string(wl.target.law) +
                                          ", fewer than the " + fmt::number(fields::tokens.bounds.min) +
                                          " TrainCost models; aim for a lower loss");
      }
    }
    if (wl.target.kind == TargetKind::Steps) {
      const double tokens = steps_to_tokens(wl.target.steps, wl.target.tokens_per_step);
      const std::string sum = fmt::number(wl.target.steps) + " steps of " + fmt::number(wl.target.tokens_per_step) + " tokens is " +
                              fmt::number(tokens, 3) + " tokens";
      if (tokens < fields::tokens.bounds.min)
        fail(at(path, "target.steps"), sum + ", fewer than the " + fmt::number(fields::tokens.bounds.min) + " TrainCost models");
      else if (tokens > fields::tokens.bounds.max)
        fail(at(path, "target.steps"), sum + ", more than the " + fmt::number(fields::tokens.bounds.max) + " TrainCost models");
    }
    // The fine-tuning mode's fields go with the mode that uses them; an adapter that adapts no
    // matrix of this model (a gate on a two-matrix feed-forward) trains nothing.
    const FineTune& ft = wl.fine_tune;
    const std::string fp = at(path, "fine_tune");
    if (ft.trainable_share && !ft.adapters()) fail(at(fp, "trainable_share"), "only goes with \"mode\": \"lora\" or \"qlora\"");
    if (!ft.packed && !ft.fill)
      fail(at(fp, "fill"), "is required when packed is false: the average share of each padded sequence that is data (mean example length / seq_len)");
    if (ft.packed && ft.fill) fail(at(fp, "fill"), "only goes with \"packed\": false");
    if (ft.adapters() && !ft.trainable_share && wl.model.params > 0 && !(adapter_params(wl.model, ft).total > 0))
      fail(at(fp, "targets"), "adapt no matrix of this model (a gate needs a gated feed-forward); give other targets or a trainable_share");
    if (wl.deadline_confidence && !wl.deadline_days)
      fail(at(path, "deadline_confidence"), "only goes with a deadline_days: it is the chance of finishing within it");
    // A deadline that every option's wait for capacity already uses up leaves no time to train.
    if (wl.deadline_days && !s.options.empty()) {
      double shortest_wait = INFINITY;
      for (const Option& o : s.options) shortest_wait = std::min(shortest_wait, o.wait_days.value_or(0));
      if (*wl.deadline_days <= shortest_wait)
        fail(at(path, "deadline_days"), "leaves no time to train: every option waits at least " + fmt::number(shortest_wait) +
                                            " days for capacity (options[].wait_days)");
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
      // One spelling per input, so that duplicates are found: "options[00].mfu" and
      // "options[0].mfu" were both accepted and analysed as two inputs (issue row 10).
      bool leading_zero = false;
      for (size_t k = 0; k + 2 < range.input.size(); ++k)
        leading_zero = leading_zero || (range.input[k] == '[' && range.input[k + 1] == '0' && std::isdigit(static_cast<unsigned char>(range.input[k + 2])));
      fail(at(path, "input"), "\"" + range.input + "\" is not a numeric input that can carry a range" +
                                  (leading_zero ? " (write indices without leading zeros: [0], [1], ...)" : ""));
      continue;
    }
    const int count = static_cast<int>(ref->kind->scope == InputScope::Workload ? s.workloads.size() : s.options.size());
    if (ref->index >= count) {
      fail(at(path, "input"), "\"" + range.input + "\" points past the last entry");
      continue;
    }
    // Compared as parsed paths (canonical), not as the text written.
    for (size_t j = 0; j < i; ++j)
      if (const auto other = parse_input_path(s.ranges[j].input); other && other->path() == ref->path())
        fail(at(path, "input"), "\"" + range.input + "\" already has a range (ranges[" + std::to_string(j) + "])");
    // The range must vary something the scenario uses.
    const FieldSpec* spec = ref->kind->spec;
    const size_t index = static_cast<size_t>(ref->index);
    if (ref->kind->scope == InputScope::Workload) {
      const TargetKind kind = s.workloads[index].target.kind;
      if ((spec == &fields::tokens && kind != TargetKind::Tokens) ||
          ((spec == &fields::steps || spec == &fields::tokens_per_step) && kind != TargetKind::Steps) ||
          (spec == &fields::loss && kind != TargetKind::Loss))
        fail(at(path, "input"), "\"" + range.input + "\" is not how this workload's target is given");
    } else if (spec == &fields::measured_tokens_per_sec_per_chip && !s.options[index].measured_tokens_per_sec_per_chip) {
      fail(at(path, "input"), "\"" + range.input + "\" needs the option to have a measured throughput");
    } else if (spec == &fields::mfu && s.options[index].measured_tokens_per_sec_per_chip) {
      fail(at(path, "input"), "\"" + range.input + "\" has no effect: the option uses its measured throughput");
    } else if (spec == &fields::wait_days && !uses_time(s)) {
      fail(at(path, "input"), "\"" + range.input + "\" has no effect: no workload has a deadline_days or a usd_per_day_of_delay");
    } else if ((spec == &fields::report_probability_per_year || spec == &fields::report_effort_share) &&
               !has_one_time_cost(s, index, catalog)) {
      fail(at(path, "input"), "\"" + range.input + "\" has no effect: the option has no one-time cost to repeat (porting.engineer_weeks and validation_runs are 0)");
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
void put(OrderedJson& j, const char* key, bool v, bool def, bool all) {
  if (all || v != def) j[key] = v;
}

// Every field of the owner's table that is set: optional ones when present, the others when
// `all` or when they differ from the struct's default. Whole-number fields are written as integers.
template <typename O>
void put_fields(OrderedJson& j, const O& owner, bool all) {
  static const O defaults{};
  for (const FieldSpec* spec : fields_of(owner_of<O>())) {
    const std::optional<double> v = spec->get(owner);
    if (!v || (!spec->access.optional && !all && *v == *spec->get(defaults))) continue;
    if (spec->access.whole) j[spec->key()] = static_cast<long long>(*v);
    else j[spec->key()] = *v;
  }
}

}  // namespace

OrderedJson pins_to_json(const LayoutPins& p) {
  OrderedJson pins = OrderedJson::object();
  put_fields(pins, p, false);
  if (p.recompute) pins["recompute"] = word_of(kRecomputeWords, *p.recompute);
  if (p.sequence_parallel) pins["sequence_parallel"] = *p.sequence_parallel;
  return pins;
}

OrderedJson pilot_to_json(const PilotMeasurement& m, bool all) {
  OrderedJson j = OrderedJson::object();
  put_fields(j, m, all);
  if (all || m.flops != FlopConvention::Model) j["flops"] = word_of(kFlopConventionWords, m.flops);
  OrderedJson pins = pins_to_json(m.parallelism);
  if (!pins.empty()) j["parallelism"] = pins;
  if (all || !m.source.empty()) j["source"] = m.source;
  for (const auto& [key, points] : {std::pair<const char*, const std::vector<LossPoint>*>{"loss", &m.loss}, {"reference_loss", &m.reference_loss}})
    if (!points->empty()) {
      OrderedJson curve = OrderedJson::array();
      for (const LossPoint& x : *points) curve.push_back(OrderedJson::array({x.tokens, x.loss}));
      j[key] = curve;
    }
  return j;
}

OrderedJson model_to_json(const Model& model) {
  OrderedJson m = OrderedJson::object();
  m["params"] = model.params;  // required, so written even at its struct default
  put_fields(m, model, false);
  put(m, "gated_ffn", model.gated_ffn, Model{}.gated_ffn, false);
  return m;
}

OrderedJson scenario_to_json(const Scenario& s, JsonForm form) {
  const bool all = form == JsonForm::Full;
  const AnalysisSettings da;
  OrderedJson j = OrderedJson::object();
  j["version"] = s.version;
  if (all || !s.name.empty()) j["name"] = s.name;
  if (all || !s.catalog.empty()) j["catalog"] = s.catalog;
  put_fields(j, s, all);

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
          OrderedJson law = OrderedJson::object();
          put_fields(law, w.target.custom_law, true);
          t["scaling_law"] = law;
        } else if (all || w.target.law != ScalingLawKind::Hoffmann2022) {
          t["scaling_law"] = to_string(w.target.law);
        }
        break;
    }
    wj["target"] = t;
    put(wj, "recompute", w.recompute, false, all);
    // Written only when flex, even in the full form, so files, links and golden outputs of
    // scenarios without it stay as they were (absent is all_to_all).
    if (w.moe_dispatcher != MoeDispatcher::AllToAll) wj["moe_dispatcher"] = word_of(kMoeDispatcherWords, w.moe_dispatcher);
    OrderedJson mem = OrderedJson::object();
    put_fields(mem, w.memory, all);
    put(mem, "flash_attention", w.memory.flash_attention, MemorySettings{}.flash_attention, all);
    if (!mem.empty()) wj["memory"] = mem;
    // Written only when it says more than a packed full fine-tune (even in the full form), so that
    // files, links and golden outputs of scenarios without it stay as they were.
    const FineTune& ft = w.fine_tune;
    static const FineTune full_default{};
    if (ft.adapters() || !ft.packed || ft.fill) {
      OrderedJson fj = OrderedJson::object();
      fj["mode"] = to_string(ft.mode);
      put_fields(fj, ft, all);  // rank (when not the default), trainable_share, fill
      if (!ft.adapters()) fj.erase("rank");
      if (ft.adapters() && (all || ft.targets != full_default.targets)) {
        OrderedJson targets = OrderedJson::array();
        for (const EnumWord<unsigned>& word : kLoraTargetWords)  // the single matrices, not the groups
          if ((word.value & (word.value - 1)) == 0 && (ft.targets & word.value)) targets.push_back(word.word);
        fj["targets"] = targets;
      }
      put(fj, "packed", ft.packed, true, all);
      wj["fine_tune"] = fj;
    }
    put_fields(wj, w, all);
    if (!w.overrides.empty()) {
      OrderedJson list = OrderedJson::array();
      for (const WorkloadOverride& ov : w.overrides) {
        OrderedJson oj = OrderedJson::object();
        put_fields(oj, ov, true);
        put_fields(oj, ov.costs, all);
        OrderedJson pins = pins_to_json(ov.parallelism);
        if (!pins.empty()) oj["parallelism"] = pins;
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
    if (all || o.pricing != Option{}.pricing) oj["pricing"] = to_string(o.pricing);
    if (all || o.precision != Option{}.precision) oj["precision"] = to_string(o.precision);
    put_fields(oj, o, all);
    // A size the scenario gives is written even when it is 1, so that it reads back as given; a
    // default size is left out, so that it reads back as the default.
    if (o.sized_by_default()) oj.erase("instances");
    else if (!oj.contains("instances")) oj["instances"] = o.instances;
    if (!o.mfu_from_run.empty()) oj["mfu_from_run"] = o.mfu_from_run;
    OrderedJson rel = OrderedJson::object();
    put_fields(rel, o.reliability, all);
    if (!rel.empty()) oj["reliability"] = rel;
    OrderedJson porting = OrderedJson::object();
    put_fields(porting, o.porting, all);
    if (!porting.empty()) oj["porting"] = porting;
    if (o.pilot) oj["pilot"] = pilot_to_json(*o.pilot, all);
    options.push_back(oj);
  }
  j["options"] = options;

  if (!s.ranges.empty()) {
    OrderedJson list = OrderedJson::array();
    for (const Range& r : s.ranges) {
      OrderedJson rj = {{"input", r.input}};
      put_fields(rj, r, true);
      rj["dist"] = to_string(r.dist);
      list.push_back(rj);
    }
    j["ranges"] = list;
  }
  OrderedJson a = OrderedJson::object();
  put_fields(a, s.analysis, all);
  put(a, "default_ranges", s.analysis.default_ranges, da.default_ranges, all);
  if (!a.empty()) j["analysis"] = a;
  return j;
}

std::string scenario_to_text(const Scenario& s) { return scenario_to_json(s).dump(2) + "\n"; }

}  // namespace traincost
