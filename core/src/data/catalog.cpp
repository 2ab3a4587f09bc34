#include "traincost/data/catalog.hpp"

#include <algorithm>
#include <type_traits>

#include "traincost/base/by_id.hpp"
#include "traincost/base/json_text.hpp"

namespace traincost {


const Chip* Catalog::find_chip(std::string_view id) const { return find_by_id(chips, id); }
const Instance* Catalog::find_instance(std::string_view id) const { return find_by_id(instances, id); }
const Figure* Defaults::find(std::string_view key, Family family) const {
  for (const NamedFigure& f : family == Family::Trainium ? trainium : nvidia)
    if (f.key == key) return &f.figure;
  for (const NamedFigure& f : shared)
    if (f.key == key) return &f.figure;
  return nullptr;
}

const Source* Catalog::find_source(std::string_view id) const { return find_by_id(sources, id); }

const Figure* Catalog::default_for(std::string_view key, std::string_view instance, Family family) const {
  if (const Instance* inst = find_instance(instance))
    for (const NamedFigure& f : inst->defaults)
      if (f.key == key && f.figure.present()) return &f.figure;
  return defaults.find(key, family);
}
bool ChipCalibration::applies_to(std::string_view chip) const { return std::find(chips.begin(), chips.end(), chip) != chips.end(); }
bool Performance::validated(std::string_view chip) const {
  return std::find(validated_chips.begin(), validated_chips.end(), chip) != validated_chips.end();
}

namespace {

bool digits(std::string_view s) {
  for (const char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}
int number(std::string_view s) { return std::atoi(std::string(s).c_str()); }
// "2026-08": a year and a month from 01 to 12.
bool is_month(std::string_view s) {
  return s.size() == 7 && s[4] == '-' && digits(s.substr(0, 4)) && digits(s.substr(5, 2)) && number(s.substr(5, 2)) >= 1 &&
         number(s.substr(5, 2)) <= 12;
}
// "2026-08-26": a month and a day from 01 to 31.
bool is_day(std::string_view s) {
  return s.size() == 10 && is_month(s.substr(0, 7)) && s[7] == '-' && digits(s.substr(8, 2)) && number(s.substr(8, 2)) >= 1 &&
         number(s.substr(8, 2)) <= 31;
}

// Reads the catalog's JSON. The catalog is our own file, so the checks here guard against
// editing mistakes (a figure without a source, a typo in a chip id) rather than hostile input.
class Reader {
 public:
  explicit Reader(Problems& problems) : problems_(problems) {}

  std::string text(const Json& obj, const char* key, const std::string& path, bool required = true) {
    const auto it = obj.find(key);
    if (it == obj.end() || !it->is_string()) {
      if (required) problems_.push_back({path + "." + key, "must be a string"});
      return {};
    }
    return it->get<std::string>();
  }

  Figure figure(const Json& obj, const char* key, const std::string& path, bool required) {
    Figure f;
    const std::string here = path + "." + key;
    const auto it = obj.find(key);
    if (it == obj.end()) {
      if (required) problems_.push_back({here, "is required"});
      return f;
    }
    if (!it->is_object() || !it->contains("value") || !(*it)["value"].is_number()) {
      problems_.push_back({here, "must be an object with a numeric \"value\""});
      return f;
    }
    const Json& j = *it;
    f.value = j["value"].get<double>();
    if (j.contains("low") && j["low"].is_number()) f.low = j["low"].get<double>();
    if (j.contains("high") && j["high"].is_number()) f.high = j["high"].get<double>();
    static_cast<Cited&>(f) = cited(j, here);
    f.note = text(j, "note", here, false);
    f.unit = text(j, "unit", here, false);
    f.flag = text(j, "flag", here, false);
    f.estimate = flag(j, "estimate");
    if (f.has_range() && !(f.low <= f.value && f.value <= f.high))
      problems_.push_back({here, "low <= value <= high does not hold"});
    return f;
  }

  // A fact's source and date: a day, or a month marked "month_only".
  Cited cited(const Json& j, const std::string& here) {
    Cited c;
    c.source = text(j, "source", here);
    c.as_of = text(j, "as_of", here);
    c.month_only = flag(j, "month_only");
    if (!c.source.empty()) figures_.push_back({here, c.source});
    if (const std::string problem = as_of_problem(c.as_of, c.month_only); !c.as_of.empty() && !problem.empty())
      problems_.push_back({here + ".as_of", problem});
    return c;
  }

  // An instance's chip count or region: {"value": ..., "source": ..., "as_of": ...}.
  template <typename T> T cited_value(const Json& obj, const char* key, const std::string& path, Cited& where) {
    const std::string here = path + "." + key;
    const auto it = obj.find(key);
    if (it == obj.end() || !it->is_object() || !it->contains("value")) {
      problems_.push_back({here, "must be an object with a \"value\", its \"source\" and \"as_of\""});
      return T{};
    }
    where = cited(*it, here);
    const Json& v = (*it)["value"];
    if constexpr (std::is_same_v<T, int>) {
      if (v.is_number_integer() && v.get<long long>() > 0 && v.get<long long>() <= 1024) return static_cast<int>(v.get<long long>());
      problems_.push_back({here + ".value", "must be a whole number from 1 to 1024"});
      return 0;
    } else {
      if (v.is_string() && !v.get<std::string>().empty()) return v.get<std::string>();
      problems_.push_back({here + ".value", "must be a non-empty string"});
      return T{};
    }
  }

  static bool flag(const Json& j, const char* key) { return j.contains(key) && j[key].is_boolean() && j[key].get<bool>(); }

  // Every member of `obj` as a figure (the catalog's defaults are open-ended: fields.cpp says
  // which field each one is the default of).
  std::vector<NamedFigure> figures(const Json& obj, const std::string& path, const char* skip = "") {
    std::vector<NamedFigure> out;
    for (const auto& item : obj.items())
      if (item.key() != skip) out.push_back({item.key(), figure(obj, item.key().c_str(), path, true)});
    return out;
  }

  // Every figure's source key must resolve to a source with a URL.
  void check_sources(const Catalog& catalog) {
    for (const auto& [path, key] : figures_) {
      const Source* s = catalog.find_source(key);
      if (!s) problems_.push_back({path + ".source", "unknown source \"" + key + "\""});
      else if (s->url.empty()) problems_.push_back({"sources." + key, "has no url"});
    }
  }

 private:
  Problems& problems_;
  std::vector<std::pair<std::string, std::string>> figures_;
};

}  // namespace

std::string as_of_problem(std::string_view as_of, bool month_only, bool year_only) {
  if (year_only) return as_of.size() == 4 && digits(as_of) ? "" : "must be a year (YYYY)";
  if (month_only) return is_month(as_of) ? "" : "must be a month (YYYY-MM)";
  return is_day(as_of) ? "" : "must be a day (YYYY-MM-DD), or a month with \"month_only\": true";
}

std::optional<Catalog> load_catalog(std::string_view json_text, Problems& problems) {
  const size_t before = problems.size();
  std::optional<Json> doc = parse_json(json_text, problems);
  if (!doc) return std::nullopt;
  if (!doc->is_object()) {
    problems.push_back({"", "the catalog must be a JSON object"});
    return std::nullopt;
  }
  const Json& root = *doc;
  Reader read(problems);
  Catalog catalog;
  catalog.version = read.text(root, "catalog_version", "catalog");

  if (root.contains("sources") && root["sources"].is_object()) {
    for (const auto& [key, value] : root["sources"].items()) {
      if (!value.is_object()) continue;
      catalog.sources.push_back({key, read.text(value, "title", "sources." + key), read.text(value, "url", "sources." + key),
                                 value.contains("secondary") && value["secondary"].is_boolean() && value["secondary"].get<bool>()});
    }
  } else {
    problems.push_back({"sources", "must be an object"});
  }

  for_each_object(root, "chips", problems, [&](const Json& j, const std::string& path) {
    Chip c;
    c.id = read.text(j, "id", path);
    c.name = read.text(j, "name", path);
    c.vendor = read.text(j, "vendor", path);
    if (const auto family = parse_word(kFamilyWords, read.text(j, "family", path))) c.family = *family;
    else problems.push_back({path + ".family", "must be \"trainium\" or \"nvidia\""});
    c.bf16_tflops = read.figure(j, "bf16_tflops", path, true);
    c.fp8_tflops = read.figure(j, "fp8_tflops", path, false);
    c.hbm = read.figure(j, "hbm", path, true);
    if (c.hbm.unit != "bytes") problems.push_back({path + ".hbm.unit", "must be \"bytes\" (one unit for every chip)"});
    c.hbm_bandwidth_tbps = read.figure(j, "hbm_bandwidth_tbps", path, true);
    c.interconnect_gbps = read.figure(j, "interconnect_gbps", path, true);
    c.mamf_bf16_tflops = read.figure(j, "mamf_bf16_tflops", path, false);
    c.mamf_fp8_tflops = read.figure(j, "mamf_fp8_tflops", path, false);
    c.scale_up_gbps = read.figure(j, "scale_up_gbps", path, true);
    c.scale_up_chips = read.figure(j, "scale_up_chips", path, true);
    c.network_gbps_per_chip = read.figure(j, "network_gbps_per_chip", path, true);
    catalog.chips.push_back(std::move(c));
  });

  // The training stacks' lifecycles, each for the chips it names (one per chip at most).
  if (root.contains("software"))
    for_each_object(root, "software", problems, [&](const Json& j, const std::string& path) {
      SoftwareLifecycle life;
      static_cast<Cited&>(life) = read.cited(j, path);
      life.family = read.text(j, "family", path);
      life.stack = read.text(j, "stack", path);
      if (const auto status = parse_word(kStackStatusWords, read.text(j, "status", path))) life.status = *status;
      else problems.push_back({path + ".status", "must be \"supported\", \"maintenance\" or \"end_of_support\""});
      life.announced = read.text(j, "announced", path, false);
      if (!life.announced.empty() && !is_day(life.announced)) problems.push_back({path + ".announced", "must be a day (YYYY-MM-DD)"});
      life.since = read.text(j, "since", path, life.status != StackStatus::Supported);
      life.successor = read.text(j, "successor", path, life.status != StackStatus::Supported);
      life.note = read.text(j, "note", path, false);
      if (!j.contains("chips") || !j["chips"].is_array() || j["chips"].empty()) problems.push_back({path + ".chips", "must list its chips"});
      else
        for (const Json& id : j["chips"]) {
          Chip* chip = nullptr;
          for (Chip& c : catalog.chips)
            if (id.is_string() && c.id == id.get<std::string>()) chip = &c;
          if (!chip) problems.push_back({path + ".chips", "unknown chip " + id.dump()});
          else if (chip->software) problems.push_back({path + ".chips", "chip \"" + chip->id + "\" has two lifecycles"});
          else chip->software = life;
        }
    });

  for_each_object(root, "instances", problems, [&](const Json& j, const std::string& path) {
    Instance inst;
    inst.id = read.text(j, "id", path);
    inst.provider = read.text(j, "provider", path);
    inst.region = read.cited_value<std::string>(j, "region", path, inst.region_cited);
    inst.chip = read.text(j, "chip", path);
    if (!catalog.find_chip(inst.chip)) problems.push_back({path + ".chip", "unknown chip \"" + inst.chip + "\""});
    inst.chips = read.cited_value<int>(j, "chips", path, inst.chips_cited);
    inst.network_gbps = read.figure(j, "network_gbps", path, true);
    bool any_price = false;
    if (j.contains("prices") && j["prices"].is_object()) {
      for (const auto& [key, value] : j["prices"].items()) {
        const auto model = parse_word(kPricingWords, key);
        if (!model) {
          problems.push_back({path + ".prices." + key, "unknown pricing model"});
          continue;
        }
        inst.prices[static_cast<size_t>(*model)] = read.figure(j["prices"], key.c_str(), path + ".prices", true);
        any_price = true;
      }
    }
    if (!any_price) problems.push_back({path + ".prices", "needs at least one price"});
    if (j.contains("defaults") && !j["defaults"].is_object()) problems.push_back({path + ".defaults", "must be an object"});
    else if (j.contains("defaults")) {
      inst.defaults = read.figures(j["defaults"], path + ".defaults");
      for (const NamedFigure& f : inst.defaults)
        if (std::find(std::begin(kInstanceDefaultKeys), std::end(kInstanceDefaultKeys), f.key) == std::end(kInstanceDefaultKeys))
          problems.push_back({path + ".defaults." + f.key, "no per-instance default of this name"});
    }
    catalog.instances.push_back(std::move(inst));
  });

  if (root.contains("defaults") && root["defaults"].is_object()) {
    const Json& d = root["defaults"];
    Defaults& out = catalog.defaults;
    out.shared = read.figures(d, "defaults", "platform");
    if (d.contains("platform") && d["platform"].is_object() && d["platform"].contains("trainium") &&
        d["platform"].contains("nvidia") && d["platform"]["trainium"].is_object() && d["platform"]["nvidia"].is_object()) {
      out.trainium = read.figures(d["platform"]["trainium"], "defaults.platform.trainium");
      out.nvidia = read.figures(d["platform"]["nvidia"], "defaults.platform.nvidia");
    } else {
      problems.push_back({"defaults.platform", "must have \"trainium\" and \"nvidia\""});
    }
  } else {
    problems.push_back({"defaults", "must be an object"});
  }

  if (root.contains("performance") && root["performance"].is_object()) {
    const Json& perf = root["performance"];
    catalog.performance.ring_efficiency = read.figure(perf, "ring_efficiency", "performance", true);
    if (perf.contains("validated_chips") && perf["validated_chips"].is_array())
      for (const Json& id : perf["validated_chips"])
        if (id.is_string()) catalog.performance.validated_chips.push_back(id.get<std::string>());
    for (const Family family : {Family::Trainium, Family::Nvidia}) {
      const std::string path = std::string("performance.") + to_string(family);
      const Json& j = perf.contains(to_string(family)) ? perf[to_string(family)] : Json::object();
      FamilyPerformance& f = family == Family::Trainium ? catalog.performance.trainium : catalog.performance.nvidia;
      f.matmul_efficiency = read.figure(j, "matmul_efficiency", path, true);
      f.fp8_matmul_efficiency = read.figure(j, "fp8_matmul_efficiency", path, true);
      f.attention_efficiency = read.figure(j, "attention_efficiency", path, true);
      f.gemm_knee = read.figure(j, "gemm_knee", path, true);
      f.memory_bound_bytes = read.figure(j, "memory_bound_bytes", path, true);
      f.moe_overhead_bytes = read.figure(j, "moe_overhead_bytes", path, false);
      f.flex_moe_share = read.figure(j, "flex_moe_share", path, false);
      f.holdout_median_error = read.figure(j, "holdout_median_error", path, true);
      f.holdout_p90_error = read.figure(j, "holdout_p90_error", path, true);
      f.holdout_rows = read.figure(j, "holdout_rows", path, true);
      f.calibration_rows = read.figure(j, "calibration_rows", path, true);
      f.dense_holdout_median_error = read.figure(j, "dense_holdout_median_error", path, true);
      f.dense_holdout_p90_error = read.figure(j, "dense_holdout_p90_error", path, true);
      f.dense_holdout_rows = read.figure(j, "dense_holdout_rows", path, true);
      f.dense_calibration_rows = read.figure(j, "dense_calibration_rows", path, true);
      f.moe_holdout_rows = read.figure(j, "moe_holdout_rows", path, true);
      f.moe_calibration_rows = read.figure(j, "moe_calibration_rows", path, true);
      // Absent when the family has no held-out mixture-of-experts row (resolve_pair.cpp doubles the dense band).
      const bool moe_held_out = f.moe_holdout_rows.value > 0;
      f.moe_holdout_median_error = read.figure(j, "moe_holdout_median_error", path, moe_held_out);
      f.moe_holdout_p90_error = read.figure(j, "moe_holdout_p90_error", path, moe_held_out);
    }
    if (perf.contains("trainium2") && perf["trainium2"].is_object()) {
      const Json& j = perf["trainium2"];
      ChipCalibration& c = catalog.performance.trainium2;
      if (j.contains("chips") && j["chips"].is_array())
        for (const Json& id : j["chips"])
          if (id.is_string()) c.chips.push_back(id.get<std::string>());
      for (const std::string& id : c.chips)
        if (!catalog.find_chip(id)) problems.push_back({"performance.trainium2.chips", "unknown chip \"" + id + "\""});
      if (c.chips.empty()) problems.push_back({"performance.trainium2.chips", "must list the chips it applies to"});
      c.matmul_efficiency = read.figure(j, "matmul_efficiency", "performance.trainium2", true);
      c.holdout_median_error = read.figure(j, "holdout_median_error", "performance.trainium2", true);
      c.holdout_p90_error = read.figure(j, "holdout_p90_error", "performance.trainium2", true);
      c.holdout_rows = read.figure(j, "holdout_rows", "performance.trainium2", true);
      c.calibration_rows = read.figure(j, "calibration_rows", "performance.trainium2", true);
    }
  } else {
    problems.push_back({"performance", "must be an object"});
  }

  read.check_sources(catalog);
  if (problems.size() != before) return std::nullopt;
  return catalog;
}

}  // namespace traincost
