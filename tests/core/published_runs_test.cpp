// The library of published runs: the embedded file loads, every figure is sourced and dated,
// mistakes are reported with their path, the realized MFU is what the formula gives by hand, and
// the runs marked "calibration" are exactly those whose rows the step-time model is fitted on.
#include "traincost/api/builtin.hpp"
#include "traincost/evidence/published_runs.hpp"

#include <gtest/gtest.h>

#include <set>

#include "test_support.hpp"
#include "traincost/evidence/calibration.hpp"

namespace traincost {
namespace {

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A small valid library, to break one thing at a time.
std::string library_text(const std::string& run_fields = "") {
  return R"({"split_rule": "test", "sources": {"s": {"title": "A source", "url": "https://example.org/s"}},
    "runs": [{"id": "r1", "name": "Run 1", "org": "Org", "year": 2024, "kind": "pre-training", "architecture": "dense",
              "chip": "h100", "hardware": "8 H100", "precision": "bf16", "model": {"params": 1e9},
              "model_source": {"source": "s", "as_of": "2024-01-02"},
              "tokens": {"value": 1e11, "source": "s", "as_of": "2024-01-02"},
              "chips": {"value": 8, "source": "s", "as_of": "2024-01-02"},
              "wall_clock_days": {"value": 2, "source": "s", "as_of": "2024-01"MONTH},
              "missing": ["chip_hours", "mfu", "cost_usd", "global_batch_sequences"])" +
         run_fields + "}]}";
}
std::string with(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}
std::string problems_of(const std::string& text) {
  Problems problems;
  const std::optional<RunLibrary> l = load_published_runs(text, builtin_catalog(), problems);
  EXPECT_EQ(l.has_value(), problems.empty());
  return to_string(problems);
}
const std::string kValid = with(library_text(), "MONTH", R"(, "month_only": true)");

TEST(PublishedRuns, TheEmbeddedLibraryLoadsWithAtLeastTenRunsAcrossTheChips) {
  const RunLibrary& l = builtin_published_runs();
  EXPECT_GE(l.runs.size(), 10u);
  std::set<std::string> chips;
  for (const PublishedRun& r : l.runs) chips.insert(r.chip);
  for (const char* chip : {"trn1", "a100-40gb", "a100-80gb", "h100"}) EXPECT_TRUE(chips.count(chip)) << chip;
  // rinna's nekomata-14b is the one public Trainium run stating both its cluster and its duration.
  const PublishedRun* rinna = l.find("rinna-nekomata-14b");
  ASSERT_NE(rinna, nullptr);
  EXPECT_EQ(rinna->chips.value, 256);
  EXPECT_EQ(rinna->wall_clock_days.value, 7);
}

TEST(PublishedRuns, ASmallLibraryLoads) { EXPECT_EQ(problems_of(kValid), ""); }

TEST(PublishedRuns, MistakesAreReportedWithTheirPath) {
  EXPECT_TRUE(mentions(problems_of(with(kValid, R"("chip": "h100")", R"("chip": "h800")")), "runs[0].chip: unknown chip \"h800\""));
  EXPECT_TRUE(mentions(problems_of(with(kValid, R"("tokens": {"value": 1e11, "source": "s")", R"("tokens": {"value": 1e11, "source": "t")")),
                       "runs[0].tokens.source: unknown source \"t\""));
  // A month needs month_only, a year year_only; a day is a day.
  EXPECT_TRUE(mentions(problems_of(with(library_text(), "MONTH", "")), "runs[0].wall_clock_days.as_of: must be a day (YYYY-MM-DD)"));
  EXPECT_TRUE(mentions(problems_of(with(with(library_text(), "MONTH", ""), R"("2024-01")", R"("2024")")),
                       "runs[0].wall_clock_days.as_of: must be a day"));
  EXPECT_EQ(problems_of(with(with(library_text(), "MONTH", R"(, "year_only": true)"), R"("2024-01")", R"("2024")")), "");
  // A figure nobody states is listed in "missing", never silently absent.
  EXPECT_TRUE(mentions(problems_of(with(kValid, R"("chip_hours", )", "")),
                       "runs[0].chip_hours: is required, or list it in \"missing\" when no source states it"));
  EXPECT_TRUE(mentions(problems_of(with(kValid, R"("mfu", )", R"("mfu", "tokens", )")), "runs[0].missing: lists \"tokens\", which the run gives"));
  EXPECT_TRUE(mentions(problems_of(with(kValid, R"("chips": {"value": 8,)", R"("chips": {"value": 8, "assumed": true,)")),
                       "runs[0].chips.note: an assumed figure must say why it is assumed"));
  EXPECT_TRUE(mentions(problems_of(with(kValid, R"("precision": "bf16")", R"("precision": "bf16", "colour": "red")")), "runs[0].colour: unknown field"));
  EXPECT_TRUE(mentions(problems_of(with(kValid, "https://example.org/s", "javascript:alert(1)")), "sources.s: needs a title and an https:// url"));
  EXPECT_TRUE(mentions(problems_of(with(kValid, R"("missing": [)", R"("mfu": {"value": 0.4, "source": "s", "as_of": "2024-01-02"}, "missing": [)")),
                       "runs[0].mfu: must be at most 1 and say its counting convention"));
  EXPECT_TRUE(mentions(problems_of("[1, 2]"), "must be an object with \"sources\" and a \"runs\" array"));
}

TEST(PublishedRuns, IdsAreUnique) {
  std::string two = kValid;
  const size_t runs = two.find("[{\"id\"");
  const std::string run = two.substr(runs + 1, two.size() - runs - 3);
  two.insert(two.size() - 2, "," + run);
  EXPECT_TRUE(mentions(problems_of(two), "runs[1].id: \"r1\" is used twice"));
}

TEST(PublishedRuns, EveryFigureIsSourcedAndDatedInTheEmbeddedLibrary) {
  // load_published_runs refuses otherwise; here the rule is spelled out for the real file.
  for (const PublishedRun& r : builtin_published_runs().runs)
    for (const RunFigure* f : {&r.tokens, &r.chips, &r.wall_clock_days, &r.chip_hours, &r.mfu, &r.cost_usd, &r.global_batch_sequences}) {
      if (!f->present()) continue;
      EXPECT_NE(builtin_published_runs().find_source(f->source), nullptr) << r.id;
      EXPECT_EQ(as_of_problem(f->as_of, f->month_only, f->year_only), "") << r.id;
    }
}

TEST(PublishedRuns, PublishedChipHoursAreStatedOrStatedWallClockTimesChips) {
  const RunLibrary& l = builtin_published_runs();
  // MPT-7B: 9.5 days on 440 A100-40GB = 9.5 × 24 × 440 = 100,320 GPU-hours.
  EXPECT_DOUBLE_EQ(l.find("mpt-7b")->published_chip_hours(), 100320);
  EXPECT_TRUE(l.find("mpt-7b")->chip_hours_from_wall_clock());
  // BLOOM states its GPU-hours (1,082,990); they win over 117 days × 384.
  EXPECT_DOUBLE_EQ(l.find("bloom-176b")->published_chip_hours(), 1082990);
  // No duration, no chip-hours.
  EXPECT_EQ(l.find("hlat-7b")->published_chip_hours(), 0);
}

TEST(PublishedRuns, RealizedMfuIsTheFormulaByHand) {
  const RunLibrary& l = builtin_published_runs();
  // Llama 3.1 405B, architecture known: FLOPs per token = 6·N + 12·l·h·s
  //   = 6 × 405e9 + 12 × 126 × 16,384 × 8,192 = 2.43e12 + 2.0294e11 = 2.632937e12;
  // × 15.6e12 tokens = 4.107382e25 FLOPs; over 30.84e6 GPU-hours × 3,600 s × 989e12 FLOP/s
  // (H100 dense BF16) = 1.098027e26: MFU = 0.374069.
  EXPECT_NEAR(realized_mfu_of(*l.find("llama3.1-405b"), builtin_catalog()), 0.374069, 1e-6);
  // rinna nekomata-14b, no sequence length stated, so 6·N only: 6 × 14.2e9 × 66e9 = 5.6232e21
  // FLOPs over 7 days × 24 × 256 chips × 3,600 s × 190e12 FLOP/s (Trn1 BF16) = 2.941747e22: 0.191152.
  EXPECT_NEAR(realized_mfu_of(*l.find("rinna-nekomata-14b"), builtin_catalog()), 0.191152, 1e-6);
  EXPECT_EQ(realized_mfu_of(*l.find("hlat-7b"), builtin_catalog()), 0);
}

TEST(PublishedRuns, CalibrationRunsNameCalibrationRowsOfTheMeasurements) {
  // A run is "calibration" when a row of its step throughput calibrates the step-time model, and
  // every run built from a source the fit uses (the Llama 3 paper, BLOOM's log) says so.
  std::set<std::string> calibration_rows;
  for (const Measurement& m : builtin_measurements().rows)
    if (!m.holdout && !m.excluded) calibration_rows.insert(m.id);
  for (const PublishedRun& r : builtin_published_runs().runs)
    for (const std::string& row : r.calibration) EXPECT_TRUE(calibration_rows.count(row)) << r.id << ": " << row;
  const RunLibrary& l = builtin_published_runs();
  EXPECT_TRUE(l.find("llama3.1-405b")->in_calibration());
  EXPECT_TRUE(l.find("bloom-176b")->in_calibration());
  EXPECT_FALSE(l.find("rinna-nekomata-14b")->in_calibration());
}

}  // namespace
}  // namespace traincost
