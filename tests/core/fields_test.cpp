// The field table (core/src/scenario/fields.cpp) drives the reader, the writer and the resolver: every
// field set at its documented path lands in its struct member, survives a round trip, and (for
// an option's fields) reaches the resolved numbers.
#include "traincost/api/builtin.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/scenario/fields.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "test_support.hpp"
#include "traincost/scenario/inputs.hpp"

namespace traincost {
namespace {

// A scenario in which every field has a place: a loss target with a custom law for the law's
// constants, a custom-chip option for the custom fields, an override and a range.
Json base_for(const FieldSpec& f) {
  const std::string path = f.path;
  Json doc = Json::parse(R"({"version":1,
    "workloads":[{"model":{"params":8e9},"target":{"tokens":1e11},
                  "overrides":[{"option":1}]}],
    "options":[{"instance":"trn2.48xlarge"},
               {"instance":"custom","price_usd_per_hour":50,"mfu":0.4,
                "custom":{"chips":8,"peak_tflops":900,"memory_gb":80,"family":"nvidia"}}],
    "ranges":[{"input":"options[0].discount","low":0,"high":0.2}]})");
  Json& w = doc["workloads"][0];
  // The fine-tuning fields go with an adapter mode (rank, trainable_share) and unpacked data (fill).
  if (path.rfind("workloads[].fine_tune.", 0) == 0) w["fine_tune"] = {{"mode", "lora"}, {"packed", false}, {"fill", 0.5}};
  // A chance of being on time goes with a deadline.
  if (path == "workloads[].deadline_confidence") w["deadline_days"] = 3000;
  if (path.rfind("workloads[].target.", 0) == 0 && path != "workloads[].target.tokens") {
    w["target"] = Json::object();
    if (path.find("scaling_law") != std::string::npos || path.find("loss") != std::string::npos) {
      w["target"]["loss"] = 2.5;
      w["target"]["scaling_law"] = {{"E", 1.69}, {"A", 406.4}, {"B", 410.7}, {"alpha", 0.34}, {"beta", 0.28}};
    } else {
      w["target"]["steps"] = 1000;
      w["target"]["tokens_per_step"] = 1e6;
    }
  }
  return doc;
}

// The JSON object a documented path lives in ("options[].porting.x" -> options[1].porting).
Json& container(Json& doc, const FieldSpec& f) {
  std::string path = f.path;
  Json* node = &doc;
  size_t start = 0;
  while (true) {
    const size_t dot = path.find('.', start);
    if (dot == std::string::npos) return *node;
    std::string part = path.substr(start, dot - start);
    if (part.size() > 2 && part.compare(part.size() - 2, 2, "[]") == 0) {
      part.resize(part.size() - 2);
      // options[]: the custom option (index 1) holds every option field
      const size_t index = part == "options" ? 1 : 0;
      node = &(*node)[part][index];
    } else {
      node = &(*node)[part];
    }
    start = dot + 1;
  }
}

// A value within the field's bounds and unlike its default.
double sample_value(const FieldSpec& f) {
  const Bounds& b = f.bounds;
  double v = b.min + (std::min(b.max, b.min + 100) - b.min) * 0.37;
  if (b.integer) v = std::ceil(v);
  if (f.access.owner == Owner::Override) v = 1;  // the option it overrides must exist
  if (&f == &fields::reference) v = 1;
  if (&f == &fields::range_low) v = 0.01;
  if (&f == &fields::range_high) v = 0.3;
  if (&f == &fields::loss) v = 2.6;
  if (&f == &fields::active_params) v = 2e9;
  if (&f == &fields::law_E) v = 1.7;
  return v;
}

// Issue 33, item 12: a range can span every value its input accepts (ranges[].low and high were
// capped at 1e15 while a token target accepts 1e16): one limit, and no rangeable field wider.
TEST(Fields, RangeEndsAcceptEveryValueARangeableInputAccepts) {
  for (const FieldSpec* f : all_fields()) {
    if (!f->rangeable) continue;
    SCOPED_TRACE(f->path);
    EXPECT_LE(fields::range_low.bounds.min, f->bounds.min);
    EXPECT_GE(fields::range_low.bounds.max, f->bounds.max);
    EXPECT_LE(fields::range_high.bounds.min, f->bounds.min);
    EXPECT_GE(fields::range_high.bounds.max, f->bounds.max);
  }
  // A token target's range up to the largest target: accepted end to end.
  const std::string doc = R"({"version":1,"workloads":[{"model":{"params":8e9},"target":{"tokens":1e15}}],
      "options":[{"instance":"trn2.48xlarge","instances":16},{"instance":"p5.48xlarge","instances":32}],
      "ranges":[{"input":"workloads[0].target.tokens","low":1e15,"high":1e16}]})";  // NOLINT
  Problems problems;
  EXPECT_TRUE(parse_scenario(doc, builtin_catalog(), problems)) << to_string(problems);
  Problems past;
  std::string beyond = doc;
  beyond.replace(beyond.find("\"high\":1e16"), 11, "\"high\":2e16");
  EXPECT_FALSE(parse_scenario(beyond, builtin_catalog(), past));
  EXPECT_NE(to_string(past).find("ranges[0].high: must be between -1e+16 and 1e+16, got 2e+16"), std::string::npos) << to_string(past);
}

TEST(Fields, EveryFieldIsReadIntoItsMemberAndWrittenBack) {
  for (const FieldSpec* f : all_fields()) {
    SCOPED_TRACE(f->path);
    Json doc = base_for(*f);
    const double v = sample_value(*f);
    container(doc, *f)[f->key()] = v;
    Problems problems;
    const auto s = parse_scenario(doc.dump(), builtin_catalog(), problems);
    ASSERT_TRUE(s) << to_string(problems);
    // Written back at the same place with the same value.
    Json back = Json::parse(scenario_to_json(*s).dump());
    EXPECT_EQ(container(back, *f)[f->key()].get<double>(), v);
  }
}

TEST(Fields, AnOptionsFieldsReachTheResolvedNumbers) {
  for (const FieldSpec* f : all_fields()) {
    if (!f->resolved) continue;
    SCOPED_TRACE(f->path);
    Json doc = base_for(*f);
    const double v = sample_value(*f);
    container(doc, *f)[f->key()] = v;
    const Scenario s = test::scenario(doc.dump());
    const ResolvedScenario r = resolve(s, builtin_catalog());
    EXPECT_EQ(r.workloads[0].options[1].*(f->resolved), v);
  }
}

TEST(Fields, AWorkloadOverrideWinsOverTheOptionAndTheCatalog) {
  for (const FieldSpec* f : fields_of(Owner::Costs)) {
    SCOPED_TRACE(f->path);
    Json doc = base_for(*f);
    doc["options"][1]["porting"] = {{f->key(), 0.5}};
    doc["workloads"][0]["overrides"][0][f->key()] = 0.25;
    const ResolvedScenario r = resolve(test::scenario(doc.dump()), builtin_catalog());
    EXPECT_EQ(r.workloads[0].options[1].*(f->resolved), 0.25);
  }
}

TEST(Fields, EachFieldIsDeclaredOnceAndEveryCatalogDefaultExists) {
  std::set<std::string> paths;
  for (const FieldSpec* f : all_fields()) {
    EXPECT_TRUE(paths.insert(f->path).second) << f->path << " declared twice";
    EXPECT_EQ(find_field(f->path), f);
    EXPECT_NE(std::string(f->label), "") << f->path;
    if (!f->catalog_default) continue;
    for (const Family family : {Family::Trainium, Family::Nvidia}) {
      EXPECT_TRUE(builtin_catalog().defaults.find(f->catalog_default, family)) << f->path;
    }
  }
}

// The recipe "add a field" (docs/architecture.md) in one test: a field declared in fields.hpp is
// in all_fields() (so in `traincost schema`, the reader, the writer, the page's tooltips and the
// docs), and says what it is: its unit, meaning and default.
TEST(Fields, EveryDeclaredFieldIsInTheTableAndSaysItsUnit) {
  // Every name after `extern const FieldSpec` in the header, up to the `;`.
  const std::string header = test::read_source_file("core/include/traincost/scenario/fields.hpp");
  size_t declared = 0;
  for (size_t at = header.find("extern const FieldSpec"); at != std::string::npos; at = header.find("extern const FieldSpec", at + 1)) {
    const size_t end = header.find(';', at);
    const std::string names = header.substr(at, end - at);
    declared += 1 + static_cast<size_t>(std::count(names.begin(), names.end(), ','));
  }
  EXPECT_EQ(all_fields().size(), declared) << "a field declared in fields.hpp is missing from all_fields() in fields.cpp";
  for (const FieldSpec* f : all_fields()) {
    EXPECT_NE(std::string(f->unit), "") << f->path << ": its unit";
    EXPECT_NE(std::string(f->meaning), "") << f->path << ": its meaning";
    EXPECT_NE(std::string(f->default_text), "") << f->path << ": its default";
  }
}

TEST(Fields, RangeableInputsComeFromTheTable) {
  size_t rangeable = 0;
  for (const FieldSpec* f : all_fields()) rangeable += f->rangeable;
  EXPECT_EQ(rangeable_inputs().size(), rangeable);
  for (const InputKind& kind : rangeable_inputs()) {
    // Each can be addressed, and only in its one canonical spelling.
    const std::string path = InputRef{&kind, 3}.path();
    ASSERT_TRUE(parse_input_path(path)) << path;
    EXPECT_EQ(parse_input_path(path)->kind, &kind);
    std::string padded = path;
    padded.insert(padded.find('[') + 1, "0");  // options[03].mfu
    EXPECT_FALSE(parse_input_path(padded)) << padded;
  }
}

#if GTEST_HAS_DEATH_TEST  // not under WebAssembly: no fork()
TEST(Fields, ReadingThroughTheWrongStructIsCaught) {
  Option o;
  EXPECT_DEATH(fields::runs.get(o), "wrong struct");
}
#endif

}  // namespace
}  // namespace traincost
