#include "traincost/evidence/published_runs.hpp"

#include <algorithm>

#include "traincost/base/by_id.hpp"
#include "traincost/model/formulas.hpp"
#include "traincost/base/json_text.hpp"

namespace traincost {

double PublishedRun::published_chip_hours() const {
  if (chip_hours.present()) return chip_hours.value;
  if (wall_clock_days.present() && chips.present() && !chips.assumed) return wall_clock_days.value * 24 * chips.value;
  return 0;
}

const PublishedRun* RunLibrary::find(std::string_view id) const { return find_by_id(runs, id); }
const RunSource* RunLibrary::find_source(std::string_view id) const { return find_by_id(sources, id); }

std::string RunLibrary::ids() const {
  std::string out;
  for (const PublishedRun& r : runs) out += (out.empty() ? "" : ", ") + r.id;
  return out;
}

namespace {

// The run fields that are figures, in the file's order: each is given or listed in `missing`.
struct FigureField {
  const char* key;
  RunFigure PublishedRun::*member;
};
constexpr FigureField kFigureFields[] = {
    {"tokens", &PublishedRun::tokens},
    {"chips", &PublishedRun::chips},
    {"wall_clock_days", &PublishedRun::wall_clock_days},
    {"chip_hours", &PublishedRun::chip_hours},
    {"mfu", &PublishedRun::mfu},
    {"cost_usd", &PublishedRun::cost_usd},
    {"global_batch_sequences", &PublishedRun::global_batch_sequences},
};

// Reads our own file: the checks catch editing mistakes (a figure without a source, a typo in a
// key or a chip id) and say where, as the catalog's reader does.
class Reader {
 public:
  Reader(const Catalog& catalog, Problems& problems) : catalog_(catalog), problems_(problems) {}

  void only(const Json& obj, const std::string& path, std::initializer_list<const char*> keys) {
    for (const auto& item : obj.items())
      if (std::none_of(keys.begin(), keys.end(), [&](const char* k) { return item.key() == k; }))
        problems_.push_back({path + "." + item.key(), "unknown field"});
  }

  std::string text(const Json& obj, const char* key, const std::string& path, bool required = true) {
    const auto it = obj.find(key);
    if (it != obj.end() && it->is_string() && !it->get<std::string>().empty()) return it->get<std::string>();
    if (required || it != obj.end()) problems_.push_back({path + "." + key, "must be a non-empty string"});
    return {};
  }

  static bool flag(const Json& obj, const char* key) {
    const auto it = obj.find(key);
    return it != obj.end() && it->is_boolean() && it->get<bool>();
  }

  Cited cited(const Json& j, const std::string& here, bool* year_only = nullptr) {
    Cited c;
    c.source = text(j, "source", here);
    c.as_of = text(j, "as_of", here);
    c.month_only = flag(j, "month_only");
    const bool year = flag(j, "year_only");
    if (year_only) *year_only = year;
    if (!c.source.empty()) sources_.push_back({here + ".source", c.source});
    if (const std::string problem = as_of_problem(c.as_of, c.month_only, year); !c.as_of.empty() && !problem.empty())
      problems_.push_back({here + ".as_of", problem});
    return c;
  }

  RunFigure figure(const Json& j, const std::string& here) {
    RunFigure f;
    if (!j.is_object() || !j.contains("value") || !j["value"].is_number() || !(j["value"].get<double>() > 0)) {
      problems_.push_back({here, "must be an object with a positive numeric \"value\""});
      return f;
    }
    only(j, here, {"value", "low", "high", "source", "as_of", "month_only", "year_only", "assumed", "derived", "approximate", "note",
                   "convention", "covers"});
    f.value = j["value"].get<double>();
    if (j.contains("low") && j["low"].is_number()) f.low = j["low"].get<double>();
    if (j.contains("high") && j["high"].is_number()) f.high = j["high"].get<double>();
    if (!std::isnan(f.low) && !(f.low <= f.value && f.value <= f.high)) problems_.push_back({here, "low <= value <= high does not hold"});
    static_cast<Cited&>(f) = cited(j, here, &f.year_only);
    f.assumed = flag(j, "assumed");
    f.derived = flag(j, "derived");
    f.approximate = flag(j, "approximate");
    f.note = text(j, "note", here, false);
    f.convention = text(j, "convention", here, false);
    f.covers = text(j, "covers", here, false);
    if (f.assumed && f.note.empty()) problems_.push_back({here + ".note", "an assumed figure must say why it is assumed"});
    return f;
  }

  // The model block: the scenario's Model keys a source states (params at least).
  Model model(const Json& j, const std::string& here) {
    Model m;
    if (!j.is_object() || !j.contains("params") || !j["params"].is_number() || !(j["params"].get<double>() > 0)) {
      problems_.push_back({here + ".params", "must be a positive number"});
      return m;
    }
    only(j, here, {"params", "active_params", "layers", "hidden", "heads", "kv_heads", "ffn_hidden", "vocab", "seq_len", "experts",
                   "experts_per_token", "gated_ffn"});
    m.params = j["params"].get<double>();
    if (j.contains("active_params") && j["active_params"].is_number()) m.active_params = j["active_params"].get<double>();
    if (j.contains("gated_ffn")) m.gated_ffn = flag(j, "gated_ffn");  // GPT-style GELU feed-forward: false
    const std::pair<const char*, int Model::*> whole[] = {
        {"layers", &Model::layers}, {"hidden", &Model::hidden},         {"heads", &Model::heads},
        {"kv_heads", &Model::kv_heads}, {"ffn_hidden", &Model::ffn_hidden}, {"vocab", &Model::vocab},
        {"seq_len", &Model::seq_len},   {"experts", &Model::experts},     {"experts_per_token", &Model::experts_per_token}};
    for (const auto& [key, member] : whole) {
      if (!j.contains(key)) continue;
      if (j[key].is_number_unsigned() && j[key].get<unsigned long long>() > 0 && j[key].get<unsigned long long>() < (1ull << 30))
        m.*member = static_cast<int>(j[key].get<unsigned long long>());
      else problems_.push_back({here + "." + key, "must be a positive whole number"});
    }
    return m;
  }

  void check_sources(const RunLibrary& library) {
    for (const auto& [path, key] : sources_) {
      const RunSource* s = library.find_source(key);
      if (!s) problems_.push_back({path, "unknown source \"" + key + "\""});
      else if (s->title.empty() || s->url.rfind("https://", 0) != 0) problems_.push_back({"sources." + key, "needs a title and an https:// url"});
    }
  }

  const Catalog& catalog() const { return catalog_; }

 private:
  const Catalog& catalog_;
  Problems& problems_;
  std::vector<std::pair<std::string, std::string>> sources_;
};

void read_run(Reader& read, const Json& j, const std::string& path, PublishedRun& r, Problems& problems) {
  read.only(j, path, {"id", "name", "org", "year", "kind", "architecture", "chip", "hardware", "precision", "model", "model_source", "tokens",
                      "chips", "wall_clock_days", "chip_hours", "mfu", "cost_usd", "global_batch_sequences", "missing", "calibration",
                      "moe_dispatcher", "note"});
  r.id = read.text(j, "id", path);
  r.name = read.text(j, "name", path);
  r.org = read.text(j, "org", path);
  r.kind = read.text(j, "kind", path);
  r.architecture = read.text(j, "architecture", path);
  r.hardware = read.text(j, "hardware", path);
  r.note = read.text(j, "note", path, false);
  if (j.contains("year") && j["year"].is_number_unsigned() && j["year"].get<unsigned>() >= 2015 && j["year"].get<unsigned>() <= 2100)
    r.year = static_cast<int>(j["year"].get<unsigned>());
  else problems.push_back({path + ".year", "must be a year"});
  r.chip = read.text(j, "chip", path);
  if (!r.chip.empty() && !read.catalog().find_chip(r.chip))
    problems.push_back({path + ".chip", "unknown chip \"" + r.chip + "\" (the catalog's chips only)"});
  // FP16 runs count at the BF16 peak (the same on every chip here): only FP8 changes the peak.
  const std::string precision = read.text(j, "precision", path);
  if (const auto p = parse_word(kPrecisionWords, precision)) r.precision = *p;
  else if (!precision.empty()) problems.push_back({path + ".precision", "must be \"bf16\" or \"fp8\""});
  r.model = read.model(j.contains("model") ? j["model"] : Json(), path + ".model");
  if (j.contains("model_source") && j["model_source"].is_object()) {
    read.only(j["model_source"], path + ".model_source", {"source", "as_of", "month_only", "year_only", "note"});
    r.model_source = read.cited(j["model_source"], path + ".model_source");
  } else {
    problems.push_back({path + ".model_source", "must say where the model's shape comes from"});
  }

  if (j.contains("moe_dispatcher")) {
    const std::string here = path + ".moe_dispatcher";
    const Json& d = j["moe_dispatcher"];
    const auto word = d.is_object() ? parse_word(kMoeDispatcherWords, read.text(d, "value", here)) : std::nullopt;
    if (!word) problems.push_back({here, "must be {\"value\": \"all_to_all\" or \"flex\", \"source\", \"as_of\"}"});
    else {
      read.only(d, here, {"value", "source", "as_of", "note"});
      r.moe_dispatcher = *word;
      r.moe_dispatcher_source = read.cited(d, here);
    }
  }
  std::vector<std::string> missing;
  if (j.contains("missing") && j["missing"].is_array())
    for (const Json& m : j["missing"])
      if (m.is_string()) missing.push_back(m.get<std::string>());
  for (const FigureField& f : kFigureFields) {
    const bool listed = std::find(missing.begin(), missing.end(), f.key) != missing.end();
    if (j.contains(f.key)) {
      r.*f.member = read.figure(j[f.key], path + "." + f.key);
      if (listed) problems.push_back({path + ".missing", std::string("lists \"") + f.key + "\", which the run gives"});
    } else if (!listed) {
      problems.push_back({path + "." + f.key, "is required, or list it in \"missing\" when no source states it"});
    }
  }
  for (const std::string& m : missing)
    if (std::none_of(std::begin(kFigureFields), std::end(kFigureFields), [&](const FigureField& f) { return m == f.key; }))
      problems.push_back({path + ".missing", "unknown field \"" + m + "\""});
  r.missing = missing;
  if (r.mfu.present() && (r.mfu.value > 1 || r.mfu.convention.empty()))
    problems.push_back({path + ".mfu", "must be at most 1 and say its counting convention"});
  if (r.chips.present() && r.chips.value != std::floor(r.chips.value))
    problems.push_back({path + ".chips.value", "must be a whole number"});
  if (j.contains("calibration") && j["calibration"].is_array())
    for (const Json& c : j["calibration"])
      if (c.is_string()) r.calibration.push_back(c.get<std::string>());
}

}  // namespace

std::optional<RunLibrary> load_published_runs(std::string_view json_text, const Catalog& catalog, Problems& problems) {
  const size_t before = problems.size();
  const std::optional<Json> doc = parse_json(json_text, problems);
  if (!doc) return std::nullopt;
  if (!doc->is_object() || !doc->contains("runs") || !(*doc)["runs"].is_array() || !doc->contains("sources") ||
      !(*doc)["sources"].is_object()) {
    problems.push_back({"", "must be an object with \"sources\" and a \"runs\" array"});
    return std::nullopt;
  }
  Reader read(catalog, problems);
  read.only(*doc, "", {"description", "compiled", "split_rule", "sources", "runs"});
  RunLibrary library;
  library.split_rule = read.text(*doc, "split_rule", "");
  for (const auto& [key, s] : (*doc)["sources"].items()) {
    if (!s.is_object()) continue;
    read.only(s, "sources." + key, {"title", "url", "secondary"});
    library.sources.push_back({key, read.text(s, "title", "sources." + key), read.text(s, "url", "sources." + key), Reader::flag(s, "secondary")});
  }
  for_each_object(*doc, "runs", problems, [&](const Json& j, const std::string& path) {
    PublishedRun r;
    read_run(read, j, path, r, problems);
    if (!r.id.empty() && library.find(r.id)) problems.push_back({path + ".id", "\"" + r.id + "\" is used twice"});
    library.runs.push_back(std::move(r));
  });
  read.check_sources(library);
  if (problems.size() != before) return std::nullopt;
  return library;
}

RealizedMfuInputs realized_mfu_inputs(const PublishedRun& run, const Catalog& catalog) {
  const Chip* chip = catalog.find_chip(run.chip);
  const double chip_hours = run.published_chip_hours();
  if (!chip || !run.tokens.present() || !(chip_hours > 0) || !chip->peak_tflops(run.precision).present()) return {};
  return {training_flops(flops_per_token(run.model, false), run.tokens.value), chip_hours, chip->peak_tflops(run.precision).value * 1e12};
}

double realized_mfu_of(const PublishedRun& run, const Catalog& catalog) {
  const RealizedMfuInputs in = realized_mfu_inputs(run, catalog);
  return in.chip_hours > 0 ? realized_mfu(in.training_flops, in.chip_hours, in.peak_flops) : 0;
}

std::vector<std::string> mfu_from_run_problems(const Option& option, Family option_family, const Catalog& catalog) {
  static const RunLibrary none;
  const RunLibrary& library = catalog.runs ? *catalog.runs : none;
  const PublishedRun* run = library.find(option.mfu_from_run);
  if (!run) return {"unknown run \"" + shorten(option.mfu_from_run, 64) + "\" (published runs: " + library.ids() + ")"};
  std::vector<std::string> out;
  if (!(realized_mfu_of(*run, catalog) > 0)) {
    std::string with;
    for (const PublishedRun& r : library.runs)
      if (realized_mfu_of(r, catalog) > 0) with += (with.empty() ? "" : ", ") + r.id;
    out.push_back("run \"" + run->id + "\" publishes no duration, so it has no realized MFU (runs with one: " + with + ")");
  }
  if (option.mfu) out.push_back("cannot be given with mfu: choose one");
  if (option.measured_tokens_per_sec_per_chip) out.push_back("cannot be given with measured_tokens_per_sec_per_chip: choose one");
  const Chip* chip = catalog.find_chip(run->chip);
  if (chip && chip->family != option_family)
    out.push_back("run \"" + run->id + "\" trained on " + chip->name + (chip->family == Family::Nvidia ? ", an " : ", a ") + description_of(kFamilyWords, chip->family) +
                  " chip; this option's chip is " + description_of(kFamilyWords, option_family) +
                  ": a utilization does not carry across chip families");
  return out;
}

}  // namespace traincost
