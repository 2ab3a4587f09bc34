// Every kind of bad input, one table row each: the input is refused, the problems name the field
// ("path: message", checked exactly), every message is valid UTF-8 (the JS API sends problems
// back as JSON, and nlohmann's dump() aborts on anything else), and nothing crashes or hangs.
// Three tables: scenario JSON, share links, Hugging Face configs.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/io/hf_config.hpp"
#include "traincost/io/link.hpp"

namespace traincost {
namespace {

struct Case {
  std::string name;      // test name: letters, digits, underscores
  std::string input;
  std::string expected;  // must appear in the problems, one "path: message" per line
  std::string also = {}; // a second piece that must appear (optional)
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }  // the inputs can be megabytes
std::string case_name(const ::testing::TestParamInfo<Case>& info) { return info.param.name; }

// Accepts exactly the well-formed UTF-8 sequences (no overlongs, surrogates or > U+10FFFF).
bool valid_utf8(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1Fu) : n == 3 ? (c & 0x0Fu) : (c & 0x07u);
    for (size_t k = 1; k < n; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3Fu);
    }
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += n;
  }
  return true;
}

void expect_clear_problems(const Problems& problems, const Case& c) {
  ASSERT_FALSE(problems.empty());
  const std::string all = to_string(problems);
  EXPECT_NE(all.find(c.expected), std::string::npos) << "expected: " << c.expected << "\ngot:\n" << all.substr(0, 2000);
  if (!c.also.empty()) {
    EXPECT_NE(all.find(c.also), std::string::npos) << "expected: " << c.also << "\ngot:\n" << all.substr(0, 2000);
  }
  for (const Problem& p : problems) {
    EXPECT_FALSE(p.message.empty()) << p.path;
    EXPECT_TRUE(valid_utf8(p.path)) << "path is not UTF-8";
    EXPECT_TRUE(valid_utf8(p.message)) << "message is not UTF-8";
    EXPECT_LT(p.path.size() + p.message.size(), 1000u) << "a message should be readable, not a dump of the input";
    // Messages are clauses that callers build sentences around ("This link could not be
    // opened: <message>. You are looking at ..."): a final period doubles (issue row 14).
    EXPECT_NE(p.message.back(), '.') << p.message;
  }
}

// ---- Scenario JSON -----------------------------------------------------------------------------

// The valid two-option scenario the rows edit: {"version":1,"workloads":[{"model":{"params":8e9},
// "target":{"tokens":1e11}}],"options":[{"instance":"trn2.48xlarge","instances":2},
// {"instance":"p5.48xlarge","instances":4}]}
const std::string kBase = test::simple_scenario();

// kBase with `from` (which must occur) replaced by `to`.
std::string edit(const std::string& from, const std::string& to, std::string text = kBase) {
  const size_t at = text.find(from);
  if (at == std::string::npos) {
    ADD_FAILURE() << "\"" << from << "\" is not in " << text;
    return text;
  }
  return text.replace(at, from.size(), to);
}
// kBase with fields added to the first workload, the first option or the document.
std::string workload_with(const std::string& fields) { return edit(R"("target":{"tokens":1e11})", R"("target":{"tokens":1e11},)" + fields); }
std::string option_with(const std::string& fields) { return edit(R"("instances":2)", R"("instances":2,)" + fields); }
std::string document_with(const std::string& fields) { return edit(R"({"version":1,)", R"({"version":1,)" + fields + ","); }
std::string repeated(const std::string& item, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += (i ? "," : "") + item;
  return out;
}
std::string nested(const std::string& opening, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += opening;
  return out;
}
std::string options(int n) { return R"({"version":1,"workloads":[{"model":{"params":8e9},"target":{"tokens":1e11}}],"options":[)" + repeated(R"({"instance":"p5.48xlarge"})", n) + "]}"; }

std::vector<Case> scenario_cases() {
  const std::string two_mb(2 * 1024 * 1024, 'x');
  const std::string long_key(2000, 'k');
  return {
      // Wrong types
      {"params_is_a_string", edit(R"("params":8e9)", R"("params":"8e9")"), R"(workloads[0].model.params: must be a number, got a string ("8e9"))"},
      {"instances_is_a_string", edit(R"("instances":2)", R"("instances":"2")"), R"(options[0].instances: must be a number, got a string ("2"))"},
      {"workloads_is_an_object", edit(R"("workloads":[{"model":{"params":8e9},"target":{"tokens":1e11}}])", R"("workloads":{"a":1})"),
       "workloads: must be an array, got an object"},
      {"option_is_a_number", edit(R"({"instance":"p5.48xlarge","instances":4})", "4"), "options[1]: must be an object, got a number"},
      {"recompute_is_a_string", workload_with(R"("recompute":"yes")"), "workloads[0].recompute: must be true or false, got a string"},
      {"label_is_a_number", option_with(R"("label":7)"), "options[0].label: must be a string, got a number"},
      {"pricing_is_a_number", option_with(R"("pricing":3)"),
       R"(options[0].pricing: must be one of "on_demand", "reserved_1yr", "reserved_3yr", "spot", "capacity_block", got 3)"},
      {"document_is_an_array", "[1,2]", "must be an object, got an array"},
      {"document_is_a_string", R"("scenario")", "must be an object, got a string"},
      {"version_is_a_string", edit(R"("version":1)", R"("version":"1")"), R"(version: must be a whole number, got "1")"},
      {"version_is_a_fraction", edit(R"("version":1)", R"("version":1.5)"), "version: must be a whole number, got 1.5"},
      {"model_is_null", edit(R"("model":{"params":8e9})", R"("model":null)"), "workloads[0].model: must be an object, got null"},
      {"range_input_is_a_number", document_with(R"("ranges":[{"input":3,"low":0.2,"high":0.4}])"), "ranges[0].input: must be a string, got a number"},
      {"tokens_is_a_boolean", edit(R"("tokens":1e11)", R"("tokens":true)"), "workloads[0].target.tokens: must be a number, got a boolean"},
      {"memory_is_an_array", workload_with(R"("memory":[])"), "workloads[0].memory: must be an object, got an array"},
      {"custom_family_is_unknown", edit(R"("instance":"trn2.48xlarge","instances":2)",
                                        R"("instance":"custom","custom":{"chips":8,"peak_tflops":500,"memory_gb":96,"family":"amd"},"mfu":0.3,"price_usd_per_hour":20)"),
       R"(options[0].custom.family: must be one of "trainium", "nvidia", got "amd")"},
      // NaN and infinity: JSON has neither, so they arrive as strings, bare tokens or overflow
      {"nan_string", option_with(R"("mfu":"NaN")"), R"(options[0].mfu: must be a finite number, got "NaN")"},
      {"infinity_string", edit(R"("instances":4)", R"("instances":4,"price_usd_per_hour":"Infinity")"),
       R"(options[1].price_usd_per_hour: must be a finite number, got "Infinity")"},
      {"minus_infinity_string", workload_with(R"("runs":"-Infinity")"), R"(workloads[0].runs: must be a finite number, got "-Infinity")"},
      {"inf_string", workload_with(R"("runs":"inf")"), R"(workloads[0].runs: must be a finite number, got "inf")"},
      {"bare_nan", option_with(R"("mfu":NaN)"), "options[0].mfu: not valid JSON", "NaN and Infinity are not JSON numbers"},
      {"bare_infinity", edit(R"("tokens":1e11)", R"("tokens":Infinity)"), "workloads[0].target.tokens: not valid JSON",
       "NaN and Infinity are not JSON numbers"},
      {"bare_minus_infinity", edit(R"("instances":4)", R"("instances":4,"discount":-Infinity)"), "options[1].discount: not valid JSON",
       "NaN and Infinity are not JSON numbers"},
      {"bare_nan_lowercase", option_with(R"("mfu":nan)"), "options[0].mfu: not valid JSON", "NaN and Infinity are not JSON numbers"},
      {"overflow_1e400", edit(R"("params":8e9)", R"("params":1e400)"), "workloads[0].model.params: not valid JSON: number overflow parsing '1e400'"},
      {"overflow_minus_1e400", option_with(R"("discount":-1e400)"), "options[0].discount: not valid JSON: number overflow"},
      {"overflow_many_digits", edit(R"("params":8e9)", R"("params":8)" + std::string(400, '0')), "workloads[0].model.params: not valid JSON: number overflow"},
      // Negative
      {"negative_price", edit(R"("instances":4)", R"("instances":4,"price_usd_per_hour":-3)"), "options[1].price_usd_per_hour: must be > 0, got -3"},
      {"negative_params", edit(R"("params":8e9)", R"("params":-8e9)"), "workloads[0].model.params: must be between 1e+06 and 1e+14, got -8e+09"},
      {"negative_instances", edit(R"("instances":2)", R"("instances":-2)"), "options[0].instances: must be between 1 and 100000, got -2"},
      {"negative_discount", option_with(R"("discount":-0.1)"), "options[0].discount: must be >= 0, got -0.1"},
      {"negative_engineer_weeks", option_with(R"("porting":{"engineer_weeks":-1})"), "options[0].porting.engineer_weeks: must be >= 0, got -1"},
      {"negative_seed", document_with(R"("analysis":{"seed":-1})"), "analysis.seed: must be >= 0, got -1"},
      // Zero
      {"zero_mfu", option_with(R"("mfu":0)"), "options[0].mfu: must be between 0.01 and 1, got 0"},
      {"zero_runs", workload_with(R"("runs":0)"), "workloads[0].runs: must be between 1 and 1e+06, got 0"},
      {"zero_instances", edit(R"("instances":2)", R"("instances":0)"), "options[0].instances: must be between 1 and 100000, got 0"},
      {"zero_tokens", edit(R"("tokens":1e11)", R"("tokens":0)"), "workloads[0].target.tokens: must be between 1000 and 1e+16, got 0"},
      {"zero_price", option_with(R"("price_usd_per_hour":0)"), "options[0].price_usd_per_hour: must be > 0, got 0"},
      {"zero_measured_throughput", option_with(R"("measured_tokens_per_sec_per_chip":0)"),
       "options[0].measured_tokens_per_sec_per_chip: must be between 0.001 and 1e+09, got 0"},
      {"zero_custom_peak", edit(R"("instance":"trn2.48xlarge","instances":2)",
                                R"("instance":"custom","custom":{"chips":8,"peak_tflops":0,"memory_gb":96},"mfu":0.3,"price_usd_per_hour":20)"),
       "options[0].custom.peak_tflops: must be between 0.1 and 100000, got 0"},
      // Absurdly small: accepted while the bounds were "> 0"; the training time overflowed to
      // infinity, the cost became NaN and the NaN option was reported as the cheapest.
      {"tiny_custom_peak", edit(R"("instance":"trn2.48xlarge","instances":2)",
                                R"("instance":"custom","custom":{"chips":8,"peak_tflops":1e-300,"memory_gb":96},"mfu":0.3,"price_usd_per_hour":20)"),
       "options[0].custom.peak_tflops: must be between 0.1 and 100000, got 1e-300"},
      {"tiny_measured_throughput", option_with(R"("measured_tokens_per_sec_per_chip":1e-300)"),
       "options[0].measured_tokens_per_sec_per_chip: must be between 0.001 and 1e+09, got 1e-300"},
      {"zero_checkpoint_write", option_with(R"("reliability":{"checkpoint_write_minutes":0})"),
       "options[0].reliability.checkpoint_write_minutes: must be > 0, got 0"},
      // Absurdly large
      {"huge_instances", edit(R"("instances":2)", R"("instances":1e12)"), "options[0].instances: must be between 1 and 100000, got 1e+12"},
      {"huge_params", edit(R"("params":8e9)", R"("params":1e30)"), "workloads[0].model.params: must be between 1e+06 and 1e+14, got 1e+30"},
      {"huge_tokens", edit(R"("tokens":1e11)", R"("tokens":1e300)"), "workloads[0].target.tokens: must be between 1000 and 1e+16, got 1e+300"},
      {"mfu_above_one", option_with(R"("mfu":5)"), "options[0].mfu: must be between 0.01 and 1, got 5"},
      {"huge_samples", document_with(R"("analysis":{"samples":1e9})"), "analysis.samples: must be between 100 and 1e+06, got 1e+09"},
      {"huge_seed", document_with(R"("analysis":{"seed":1e30})"), "analysis.seed: must be between 0 and 9007199254740991, got 1e+30"},
      {"discount_above_one", option_with(R"("discount":2)"), "options[0].discount: must be between 0 and 0.95, got 2"},
      {"huge_horizon", workload_with(R"("horizon_months":1e6)"), "workloads[0].horizon_months: must be between 1 and 120, got 1e+06"},
      {"huge_layers", edit(R"("params":8e9)", R"("params":8e9,"layers":1e9)"), "workloads[0].model.layers: must be between 1 and 1000, got 1e+09"},
      {"huge_reference", document_with(R"("reference":1e9)"), "reference: must be between 0 and 7, got 1e+09"},
      {"huge_price", option_with(R"("price_usd_per_hour":1e300)"), "options[0].price_usd_per_hour: must be > 0 and <= 100000, got 1e+300"},
      // Whole numbers
      {"fractional_instances", edit(R"("instances":2)", R"("instances":2.5)"), "options[0].instances: must be a whole number, got 2.5"},
      {"fractional_samples", document_with(R"("analysis":{"samples":1000.5})"), "analysis.samples: must be a whole number, got 1000.5"},
      // Missing required fields
      {"missing_version", edit(R"("version":1,)", ""), "version: is required"},
      {"missing_workloads", edit(R"("workloads":[{"model":{"params":8e9},"target":{"tokens":1e11}}],)", ""), "workloads: is required"},
      {"missing_options", edit(R"(,"options":[{"instance":"trn2.48xlarge","instances":2},{"instance":"p5.48xlarge","instances":4}])", ""),
       "options: is required"},
      {"missing_model", edit(R"("model":{"params":8e9},)", ""), "workloads[0].model: is required"},
      {"missing_params", edit(R"("params":8e9)", R"("layers":32)"), "workloads[0].model.params: is required"},
      {"missing_target", edit(R"(,"target":{"tokens":1e11})", ""), "workloads[0].target: is required"},
      {"empty_target", edit(R"("target":{"tokens":1e11})", R"("target":{})"),
       R"(workloads[0].target: needs exactly one of "tokens", "steps" (with "tokens_per_step") or "loss")"},
      {"two_targets", edit(R"("target":{"tokens":1e11})", R"("target":{"tokens":1e11,"loss":2.1})"), "workloads[0].target: needs exactly one of"},
      {"missing_instance", edit(R"("instance":"p5.48xlarge",)", ""), "options[1].instance: is required"},
      {"steps_without_tokens_per_step", edit(R"("target":{"tokens":1e11})", R"("target":{"steps":1000})"),
       "workloads[0].target.tokens_per_step: is required"},
      {"range_without_high", document_with(R"("ranges":[{"input":"options[0].mfu","low":0.2}])"), "ranges[0].high: is required"},
      {"custom_without_block", edit(R"("instance":"trn2.48xlarge","instances":2)", R"("instance":"custom","price_usd_per_hour":20,"mfu":0.3)"),
       R"(options[0].custom: is required when "instance" is "custom")"},
      {"custom_without_peak", edit(R"("instance":"trn2.48xlarge","instances":2)",
                                   R"("instance":"custom","custom":{"chips":8,"memory_gb":96},"mfu":0.3,"price_usd_per_hour":20)"),
       "options[0].custom.peak_tflops: is required without a catalog chip"},
      {"custom_without_price", edit(R"("instance":"trn2.48xlarge","instances":2)", R"("instance":"custom","custom":{"chip":"h100"})"),
       "options[0].price_usd_per_hour: is required for a custom instance"},
      {"override_without_option", workload_with(R"("overrides":[{"engineer_weeks":3}])"), "workloads[0].overrides[0].option: is required"},
      // Unknown fields
      {"unknown_top_level_field", document_with(R"("colour":"blue")"), "colour: unknown field"},
      {"unknown_option_field", edit(R"("instances":4)", R"("instances":4,"mfuu":0.4)"), "options[1].mfuu: unknown field"},
      {"unknown_model_field", edit(R"("params":8e9)", R"("params":8e9,"foo":1)"), "workloads[0].model.foo: unknown field"},
      {"unknown_porting_field", option_with(R"("porting":{"weeks":3})"), "options[0].porting.weeks: unknown field"},
      {"unknown_analysis_field", document_with(R"("analysis":{"sample":100})"), "analysis.sample: unknown field"},
      {"unknown_long_field", option_with("\"" + long_key + "\":1"), "options[0]." + std::string(40, 'k') + "...: unknown field"},
      // A 2-byte character straddling the 40-byte cut: the path keeps whole characters only.
      {"unknown_field_cut_inside_a_character", option_with("\"" + std::string(39, 'a') + "\xC3\xA9tude\":1"),
       "options[0]." + std::string(39, 'a') + "...: unknown field"},
      // Duplicates
      {"duplicate_key", option_with(R"("mfu":0.3,"mfu":0.5)"), "options[0].mfu: is given more than once"},
      {"duplicate_key_at_top", document_with(R"("name":"a","name":"b")"), "name: is given more than once"},
      {"duplicate_range", document_with(R"("ranges":[{"input":"options[0].mfu","low":0.2,"high":0.4},{"input":"options[0].mfu","low":0.1,"high":0.5}])"),
       R"(ranges[1].input: "options[0].mfu" already has a range (ranges[0]))"},
      {"duplicate_override", workload_with(R"("overrides":[{"option":0,"engineer_weeks":3},{"option":0,"engineer_weeks":4}])"),
       "workloads[0].overrides[1].option: option 0 already has an override"},
      // Counts
      {"nine_options", options(9), "options: must have 1 to 8 entries, got 9"},
      {"thirty_thousand_options", options(30000), "options: must have 1 to 8 entries, got 30000"},
      {"no_options", options(0), "options: must have 1 to 8 entries, got 0"},
      {"seventeen_workloads",
       edit(R"([{"model":{"params":8e9},"target":{"tokens":1e11}}])", "[" + repeated(R"({"model":{"params":8e9},"target":{"tokens":1e11}})", 17) + "]"),
       "workloads: must have 1 to 16 entries, got 17"},
      {"sixty_five_ranges", document_with(R"("ranges":[)" + repeated(R"({"input":"options[0].mfu","low":0.2,"high":0.4})", 65) + "]"),
       "ranges: must have 0 to 64 entries, got 65"},
      {"nine_overrides", workload_with(R"("overrides":[)" + repeated(R"({"option":0})", 9) + "]"),
       "workloads[0].overrides: must have 0 to 8 entries, got 9"},
      // Deep nesting: refused at 32 levels without recursing through the rest
      {"ten_thousand_brackets", std::string(10000, '['), "nested more than 32 levels deep"},
      {"deep_inside_a_field", edit(R"("params":8e9)", R"("params":)" + std::string(10000, '[')),
       "workloads[0].model.params[0][0][0]", "nested more than 32 levels deep"},
      {"deep_objects", nested(R"({"a":)", 10000), "a.a.a.a.a.a", "nested more than 32 levels deep"},
      // Huge strings
      {"two_megabyte_label", option_with(R"("label":")" + two_mb + "\""), "the document is 2097", "bytes; at most 1048576 are accepted"},
      {"nine_hundred_kilobyte_label", option_with(R"("label":")" + std::string(900000, 'x') + "\""),
       "options[0].label: must be at most 40 characters, got 900000"},
      {"nine_hundred_kilobyte_instance", edit(R"("p5.48xlarge")", "\"" + std::string(900000, 'p') + "\""),
       "options[1].instance: must be at most 64 characters, got 900000"},
      {"long_name", document_with(R"("name":")" + std::string(121, 'n') + "\""), "name: must be at most 120 characters, got 121"},
      // Garbage and broken text
      {"empty_document", "", "not valid JSON"},
      {"whitespace_only", " \n\t ", "not valid JSON"},
      {"truncated_document", kBase.substr(0, kBase.size() / 2), "not valid JSON"},
      {"invalid_utf8_in_a_string", option_with("\"label\":\"\xFF\xFE\""), "options[0].label: not valid JSON", "ill-formed UTF-8"},
      {"invalid_utf8_between_tokens", edit(R"("version":1)", "\"version\"\xC3:1"), "version: not valid JSON", "<C3>"},
      {"lone_surrogate", option_with(R"("label":"\ud800")"), "options[0].label: not valid JSON", "surrogate"},
      {"nul_byte", option_with(std::string("\"label\":\"a\0b\"", 13)), "options[0].label: not valid JSON", "control character"},
      {"trailing_garbage", kBase + "}", "not valid JSON", "expected end of input"},
      // Valid JSON, invalid meaning (the catalog and relations between fields)
      {"unknown_instance", edit(R"("p5.48xlarge")", R"("nope")"), R"(options[1].instance: unknown instance "nope")"},
      {"fp8_on_a100", edit(R"("instance":"p5.48xlarge")", R"("instance":"p4d.24xlarge","precision":"fp8")"),
       R"(options[1].precision: NVIDIA A100 SXM 40GB has no FP8 support; use "bf16")"},
      {"unpriced_pricing_model", option_with(R"("pricing":"reserved_3yr")"), "options[0].pricing: the catalog has no reserved_3yr price for trn2.48xlarge"},
      {"unreachable_loss", edit(R"("target":{"tokens":1e11})", R"("target":{"loss":1.5})"), "workloads[0].target.loss: is unreachable"},
      {"loss_needing_too_many_tokens", edit(R"("target":{"tokens":1e11})", R"("target":{"loss":1.87})"),
       "workloads[0].target.loss: needs 2.61e+17 tokens under hoffmann2022, more than the 1e+16 TrainCost models; aim for a higher loss"},
      {"override_of_a_missing_option", workload_with(R"("overrides":[{"option":5,"engineer_weeks":3}])"),
       "workloads[0].overrides[0].option: must name one of the 2 options"},
      {"active_above_total", edit(R"("params":8e9)", R"("params":8e9,"active_params":9e9)"), "workloads[0].model.active_params: must not exceed params"},
      {"range_on_no_input", document_with(R"("ranges":[{"input":"options[0].colour","low":0.2,"high":0.4}])"),
       R"(ranges[0].input: "options[0].colour" is not a numeric input that can carry a range)"},
      {"range_past_the_last_option", document_with(R"("ranges":[{"input":"options[5].mfu","low":0.2,"high":0.4}])"),
       R"(ranges[0].input: "options[5].mfu" points past the last entry)"},
      {"range_low_above_high", document_with(R"("ranges":[{"input":"options[0].mfu","low":0.4,"high":0.2}])"), "ranges[0]: low must not exceed high"},
      {"lognormal_from_zero", document_with(R"("ranges":[{"input":"workloads[0].runs","low":0,"high":4,"dist":"lognormal"}])"),
       "ranges[0].low: must be > 0 for a lognormal range"},
      {"range_outside_the_field", document_with(R"("ranges":[{"input":"options[0].mfu","low":-1,"high":0.4}])"),
       "ranges[0].low: must be between 0.01 and 1, got -1"},
      {"range_on_an_unused_target", document_with(R"("ranges":[{"input":"workloads[0].target.loss","low":2,"high":3}])"),
       R"(ranges[0].input: "workloads[0].target.loss" is not how this workload's target is given)"},
      {"reference_past_the_options",
       R"({"version":1,"reference":1,"workloads":[{"model":{"params":8e9},"target":{"tokens":1e11}}],"options":[{"instance":"p5.48xlarge"}]})",
       "reference: must name one of the 1 options (0 to 0), got 1"},
      {"newer_version", edit(R"("version":1)", R"("version":2)"), "version: is 2: this scenario was made by a newer TrainCost"},
      {"version_zero", edit(R"("version":1)", R"("version":0)"), "version: must be 1 or more, got 0"},
  };
}

class BadScenario : public ::testing::TestWithParam<Case> {};

TEST_P(BadScenario, IsRefusedWithAMessageNamingTheField) {
  const Case& c = GetParam();
  Problems problems;
  EXPECT_FALSE(parse_scenario(c.input, builtin_catalog(), problems));
  expect_clear_problems(problems, c);
}

INSTANTIATE_TEST_SUITE_P(Table, BadScenario, ::testing::ValuesIn(scenario_cases()), case_name);

// The base scenario itself is valid: every row above fails because of its edit alone.
TEST(BadScenario, TheBaseScenarioIsValid) { EXPECT_EQ(test::problems_of(kBase), ""); }

// ---- Share links -------------------------------------------------------------------------------

// A link whose payload is `packed` with a correct checksum (link format 1, link.cpp): the bytes
// get past the checksum and reach the LZ decoder, the JSON parser and the scenario reader.
std::string link_of_packed(const std::string& packed) {
  uint32_t h = 2166136261u;  // FNV-1a, folded to 16 bits, appended big-endian
  for (unsigned char c : packed) {
    h ^= c;
    h *= 16777619u;
  }
  const auto sum = static_cast<uint16_t>((h >> 16) ^ (h & 0xFFFF));
  return "#s=1." + base64url_encode(packed + static_cast<char>(sum >> 8) + static_cast<char>(sum & 0xFF));
}
// LZ literal run of `text` (at most 128 bytes per run).
std::string literal(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); i += 128) {
    const std::string piece = text.substr(i, 128);
    out += static_cast<char>(piece.size() - 1) + piece;
  }
  return out;
}
// `copies` LZ copies of 66 bytes at distance 1: two bytes each, 66 bytes out.
std::string bomb(int copies) {
  std::string out = literal("a");
  for (int i = 0; i < copies; ++i) out += std::string("\xBF\x00", 2);
  return out;
}

std::vector<Case> link_cases() {
  Scenario s = test::scenario(kBase);
  const std::string good = "#s=" + encode_link(s);
  s.options[1].price_usd_per_hour = -3;
  const std::string negative_price = "#s=" + encode_link(s);
  std::string garbage;
  for (int i = 0; i < 300; ++i) garbage += static_cast<char>((i * 7919 + 13) % 256);
  return {
      {"empty", "", "link: is empty"},
      {"only_the_prefix", "#s=", "link: is empty"},
      {"not_a_link", "hello", "link: is not a TrainCost scenario link"},
      {"url_without_a_scenario", "https://example.org/traincost/#s=hello", "link: is not a TrainCost scenario link"},
      {"format_zero", "#s=0." + good.substr(5), "link: has an unknown format number 0"},
      {"newer_format", "#s=2." + good.substr(5), "link: was made by a newer TrainCost (link format 2"},
      {"truncated", good.substr(0, good.size() - 6), "link: is damaged"},
      {"cut_to_the_header", "#s=1.AB", "link: is damaged: too short"},
      {"forbidden_characters", good.substr(0, 12) + "<script>" + good.substr(12), "link: contains a character that cannot be in a link (position 9)"},
      {"overlong", "#s=1." + std::string(20000, 'A'), "link: is 20005 characters long"},
      {"base64_of_garbage", "#s=1." + base64url_encode(garbage), "link: is damaged: its checksum does not match"},
      {"garbage_with_a_good_checksum", link_of_packed(garbage), "link: is damaged: its data cannot be unpacked"},
      // Zip-bomb-like: 5,000 two-byte copies would unpack to 330 KB; the decoder stops at 64 KB.
      {"lz_bomb", link_of_packed(bomb(5000)), "link: is damaged: its data cannot be unpacked"},
      // Under the cap it unpacks (59 KB of "a"), and that is not JSON.
      {"lz_bomb_under_the_cap", link_of_packed(bomb(900)), "link: not valid JSON"},
      // A 66-byte copy from 65,536 bytes back: before the dictionary and the output.
      {"copy_before_the_start", link_of_packed("\xFF\xFF\xFF"), "link: is damaged: its data cannot be unpacked"},
      {"packed_json_array", link_of_packed(literal("[1,2]")), "link: must be an object, got an array"},
      {"packed_deep_nesting", link_of_packed(literal(std::string(100, '['))), "nested more than 32 levels deep"},
      {"packed_invalid_utf8", link_of_packed(literal("{\"version\"\xC3:1}")), "version: not valid JSON", "<C3>"},
      {"packed_bare_nan", link_of_packed(literal(R"({"version":1,"workloads":[{"model":{"params":NaN}}]})")),
       "workloads[0].model.params: not valid JSON", "NaN and Infinity are not JSON numbers"},
      {"scenario_with_a_negative_price", negative_price, "options[1].price_usd_per_hour: must be > 0, got -3"},
  };
}

class BadLink : public ::testing::TestWithParam<Case> {};

TEST_P(BadLink, IsRefusedWithAMessageNamingTheProblem) {
  const Case& c = GetParam();
  Problems problems;
  EXPECT_FALSE(decode_link(c.input, builtin_catalog(), problems));
  expect_clear_problems(problems, c);
}
INSTANTIATE_TEST_SUITE_P(Table, BadLink, ::testing::ValuesIn(link_cases()), case_name);

TEST(BadLink, TheDecoderCapsWhatABombUnpacksTo) {
  const std::string packed = bomb(5000);
  EXPECT_FALSE(lz_decompress(packed, "", 65536));
  const auto unpacked = lz_decompress(packed, "", 1 << 20);  // with room, it is 1 + 5,000 × 66 bytes
  ASSERT_TRUE(unpacked);
  EXPECT_EQ(unpacked->size(), 330001u);
}

// ---- Hugging Face configs ----------------------------------------------------------------------

const std::string kLlama = R"({"hidden_size":4096,"intermediate_size":14336,"num_attention_heads":32,"num_hidden_layers":32,)"
                           R"("num_key_value_heads":8,"vocab_size":128256,"max_position_embeddings":8192})";

std::vector<Case> hf_cases() {
  auto llama = [](const std::string& from, const std::string& to) { return edit(from, to, kLlama); };
  return {
      {"missing_hidden_size", llama(R"("hidden_size":4096,)", ""), "hidden_size: is missing from the config"},
      {"vocab_is_a_string", llama(R"("vocab_size":128256)", R"("vocab_size":"lots")"), R"(vocab_size: must be a positive whole number, got "lots")"},
      {"negative_layers", llama(R"("num_hidden_layers":32)", R"("num_hidden_layers":-1)"), "num_hidden_layers: must be a positive whole number, got -1"},
      {"fractional_heads", llama(R"("num_attention_heads":32)", R"("num_attention_heads":32.5)"),
       "num_attention_heads: must be a positive whole number, got 32.5"},
      {"more_layers_than_a_scenario_takes", llama(R"("num_hidden_layers":32)", R"("num_hidden_layers":3200)"),
       "num_hidden_layers: must be between 1 and 1000, got 3200"},
      {"wider_than_a_scenario_takes", llama(R"("hidden_size":4096)", R"("hidden_size":4194304)"), "hidden_size: must be between 1 and 262144"},
      {"bare_nan", llama(R"("num_hidden_layers":32)", R"("num_hidden_layers":NaN)"), "num_hidden_layers: not valid JSON",
       "NaN and Infinity are not JSON numbers"},
      {"overflow", llama(R"("vocab_size":128256)", R"("vocab_size":1e400)"), "vocab_size: not valid JSON: number overflow"},
      {"heads_do_not_divide_hidden", llama(R"("num_attention_heads":32)", R"("num_attention_heads":33)"), "num_attention_heads: does not divide hidden_size"},
      {"duplicate_key", llama(R"("vocab_size":128256)", R"("vocab_size":128256,"vocab_size":32000)"), "vocab_size: is given more than once"},
      {"not_an_object", "[1,2]", "a config.json is a JSON object"},
      {"not_json", "{not json", "not valid JSON"},
      {"tiny_model", R"({"hidden_size":8,"num_hidden_layers":1,"num_attention_heads":1,"vocab_size":10})", "the config describes 1.2k parameters (1208), outside what TrainCost models (1.0M to 100T)"},
      {"deep_nesting", "{\"a\":" + std::string(10000, '['), "a[0][0]", "nested more than 32 levels deep"},
  };
}

class BadHfConfig : public ::testing::TestWithParam<Case> {};

TEST_P(BadHfConfig, IsRefusedWithAMessageNamingTheKey) {
  const Case& c = GetParam();
  Problems problems;
  EXPECT_FALSE(model_from_hf_config(c.input, problems));
  expect_clear_problems(problems, c);
}
INSTANTIATE_TEST_SUITE_P(Table, BadHfConfig, ::testing::ValuesIn(hf_cases()), case_name);

TEST(BadHfConfig, TheBaseConfigIsValid) {
  Problems problems;
  EXPECT_TRUE(model_from_hf_config(kLlama, problems)) << to_string(problems);
}

}  // namespace
}  // namespace traincost
