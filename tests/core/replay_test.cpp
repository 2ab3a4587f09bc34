// Replaying published runs: each run becomes the scenario its public inputs describe, the error
// is predicted / published chip-hours − 1, runs without a duration stay out of the statistics, and
// the summary is the median and worst of what the rows show.
#include "traincost/api/builtin.hpp"
#include "traincost/engine/replay.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "test_support.hpp"
#include "traincost/api/api.hpp"
#include "traincost/io/link.hpp"
#include "traincost/engine/resolve.hpp"

namespace traincost {
namespace {

const Replay& the_replay() {
  static const Replay r = replay(builtin_published_runs(), builtin_catalog());
  return r;
}
const ReplayRow& row_of(const std::string& id) {
  for (const ReplayRow& r : the_replay().rows)
    if (r.run->id == id) return r;
  ADD_FAILURE() << "no row " << id;
  return the_replay().rows.front();
}

TEST(Replay, TheScenarioIsTheRunsPublicInputsWithTheDefaults) {
  const PublishedRun& run = *builtin_published_runs().find("bloom-176b");
  const Scenario s = replay_scenario(run, builtin_catalog());
  EXPECT_TRUE(validate(s, builtin_catalog()).empty()) << to_string(validate(s, builtin_catalog()));
  ASSERT_EQ(s.workloads.size(), 1u);
  ASSERT_EQ(s.options.size(), 1u);
  EXPECT_EQ(s.workloads[0].target.tokens, 366e9);
  // 384 A100-80GB = 48 p4de.24xlarge (8 each); batch 2,048 sequences of 2,048 tokens.
  EXPECT_EQ(s.options[0].instance, "p4de.24xlarge");
  EXPECT_EQ(s.options[0].instances, 48);
  EXPECT_EQ(*s.workloads[0].global_batch_tokens, 2048.0 * 2048);
  // The published tokens are the trained ones: no convergence penalty; everything else default.
  EXPECT_EQ(*s.options[0].porting.convergence_penalty, 0);
  EXPECT_FALSE(s.options[0].mfu);
  EXPECT_FALSE(s.options[0].reliability.mtbf_hours_per_instance);
  // Trainium runs replay on trn1.32xlarge (16 chips): rinna's 256 chips are 16 instances.
  const Scenario rinna = replay_scenario(*builtin_published_runs().find("rinna-nekomata-14b"), builtin_catalog());
  EXPECT_EQ(rinna.options[0].instance, "trn1.32xlarge");
  EXPECT_EQ(rinna.options[0].instances, 16);
}

TEST(Replay, TheRowIsTheScenariosEvaluationAgainstThePublishedFigures) {
  const ReplayRow& mpt = row_of("mpt-7b");
  ASSERT_EQ(mpt.status, ReplayStatus::Replayed);
  // Published: 9.5 days × 24 h × 440 GPUs = 100,320 GPU-hours (the card states days and GPUs).
  EXPECT_DOUBLE_EQ(mpt.published_chip_hours, 100320);
  EXPECT_DOUBLE_EQ(mpt.published_wall_clock_days, 9.5);
  // Predicted: the same scenario evaluated directly.
  const ResolvedScenario resolved = resolve(replay_scenario(*mpt.run, builtin_catalog()), builtin_catalog());
  const OptionResult r = evaluate(resolved).workloads[0].options[0];
  EXPECT_DOUBLE_EQ(mpt.predicted_chip_hours, r.chip_hours);
  EXPECT_DOUBLE_EQ(mpt.predicted_wall_clock_days, r.wall_clock_hours / 24);
  EXPECT_DOUBLE_EQ(mpt.goodput, r.goodput);
  EXPECT_DOUBLE_EQ(mpt.predicted_mfu, resolved.workloads[0].options[0].performance.mfu);
  EXPECT_DOUBLE_EQ(mpt.error, r.chip_hours / 100320 - 1);
  // With a known architecture, chip-hours = FLOPs / (MFU × peak) / goodput: the predicted MFU and
  // goodput explain the predicted chip-hours (compilation aside, 0 on NVIDIA), to rounding.
  EXPECT_NEAR(mpt.predicted_chip_hours, r.training_flops / (mpt.predicted_mfu * 312e12 * 3600) / mpt.goodput, mpt.predicted_chip_hours * 1e-9);
}

TEST(Replay, RealizedMfuComesFromThePublishedChipHours) {
  // Llama 3.1 405B: 0.374069 by hand (published_runs_test.cpp), against a predicted step MFU.
  const ReplayRow& llama = row_of("llama3.1-405b");
  EXPECT_NEAR(llama.realized_mfu, 0.374069, 1e-6);
  EXPECT_GT(llama.predicted_mfu, 0);
  EXPECT_DOUBLE_EQ(llama.published_chip_hours, 30.84e6);
}

TEST(Replay, RunsWithoutADurationAreListedButNotCounted) {
  EXPECT_EQ(row_of("hlat-7b").status, ReplayStatus::NoDuration);
  EXPECT_GT(row_of("hlat-7b").predicted_chip_hours, 0);  // evaluated, but with nothing to compare
  EXPECT_EQ(row_of("hlat-70b").status, ReplayStatus::NoTokens);
  EXPECT_EQ(row_of("nemotron-4-15b").status, ReplayStatus::NoChips);
  int counted = 0;
  for (const ReplayRow& r : the_replay().rows) counted += r.counted();
  EXPECT_EQ(the_replay().all.runs, counted);
  EXPECT_EQ(the_replay().calibration.runs + the_replay().held_out.runs, counted);
}

TEST(Replay, TheSummaryIsTheMedianAndWorstOfTheRows) {
  std::vector<double> all, held_out;
  for (const ReplayRow& r : the_replay().rows) {
    if (!r.counted()) continue;
    all.push_back(std::fabs(r.error));
    if (!r.run->in_calibration()) held_out.push_back(std::fabs(r.error));
  }
  for (auto* v : {&all, &held_out}) std::sort(v->begin(), v->end());
  auto median = [](const std::vector<double>& v) { return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2; };
  EXPECT_DOUBLE_EQ(the_replay().all.median, median(all));
  EXPECT_DOUBLE_EQ(the_replay().all.worst, all.back());
  EXPECT_DOUBLE_EQ(the_replay().held_out.median, median(held_out));
  EXPECT_DOUBLE_EQ(the_replay().held_out.worst, held_out.back());
  EXPECT_GE(the_replay().all.runs, 10);
}

// The page replays a run per call (ReplayRun, builtin_catalog_replay_step): one step per run, the
// same rows and summaries as replay() in one go, nothing more after the last, and the built-in
// catalog's spread is the one-go replay's.
TEST(Replay, ASteppedReplayIsTheReplay) {
  const RunLibrary& library = builtin_published_runs();
  ReplayRun run(library, builtin_catalog_unreplayed());
  size_t steps = 1;
  while (!run.step()) ++steps;
  EXPECT_EQ(steps, library.runs.size());
  EXPECT_TRUE(run.step());  // nothing left
  const Replay stepped = run.finish();
  EXPECT_EQ(replay_json(stepped, library).dump(), replay_json(the_replay(), library).dump());
  EXPECT_TRUE(run.step());  // after finish() too
  EXPECT_TRUE(builtin_catalog_replay_step());  // the built-in catalog is replayed already here
  EXPECT_EQ(builtin_catalog().whole_run.low, the_replay().whole_run.low);
  EXPECT_EQ(builtin_catalog().whole_run.median, the_replay().whole_run.median);
  EXPECT_EQ(builtin_catalog().whole_run.high, the_replay().whole_run.high);
}

TEST(Replay, EveryFormatCarriesTheRunsAndTheSummary) {
  const Replay& r = the_replay();
  const RunLibrary& l = builtin_published_runs();
  const std::string markdown = replay_markdown(r, l), text = replay_text(r), csv = replay_csv(r), html = replay_html(r, l);
  for (const std::string* out : {&markdown, &text, &html}) {
    EXPECT_NE(out->find("Held-out runs"), std::string::npos);
    EXPECT_NE(out->find("no published duration"), std::string::npos);
  }
  EXPECT_NE(csv.find("\"rinna-nekomata-14b\",\"held out\",\"replayed\""), std::string::npos);
  EXPECT_NE(markdown.find("| rinna nekomata-14b (rinna, 2023) |"), std::string::npos);
  EXPECT_TRUE(test::terminal_safe(text));
  const OrderedJson j = replay_json(r, l);
  EXPECT_EQ(j["summary"]["all"]["runs"], r.all.runs);
  EXPECT_EQ(j["runs"].size(), l.runs.size());
  // The API replies with the same document.
  const ApiReply reply = api_replay();
  ASSERT_TRUE(reply.ok);
  EXPECT_EQ(Json::parse(reply.json)["summary"]["all"]["median_abs_error"].get<double>(), r.all.median);
}

TEST(Replay, TheCellsAreTheTablesOwn) {
  const ReplayRow& row = row_of("rinna-nekomata-14b");
  const std::vector<std::string> headers = replay_headers(), cells = replay_cells(row);
  ASSERT_EQ(cells.size(), headers.size());
  const size_t error = static_cast<size_t>(std::find(headers.begin(), headers.end(), "Error") - headers.begin());
  ASSERT_LT(error, headers.size());
  // The text report prints the same error cell: "(+12%)" after the predicted chip-hours.
  EXPECT_NE(replay_text(the_replay()).find(" (" + cells[error] + ")\n"), std::string::npos) << cells[error];
  EXPECT_NE(replay_markdown(the_replay(), builtin_published_runs()).find("| " + cells[error] + " |"), std::string::npos);
}

// ---- An option's MFU as realized by a published run ----------------------------------------------

std::string option_with(const std::string& fields) {
  return test::simple_scenario(R"("model":{"params":8e9},"target":{"tokens":1e11})", R"("instance":"trn2.48xlarge","instances":2)",
                               R"("instance":"p5.48xlarge","instances":4,)" + fields);
}

TEST(MfuFromRun, TheOptionTakesTheRunsRealizedMfu) {
  const Scenario s = test::scenario(option_with(R"("mfu_from_run":"llama3.1-405b")"));
  const ResolvedScenario resolved = resolve(s, builtin_catalog());
  EXPECT_NEAR(resolved.workloads[0].options[1].mfu, 0.374069, 1e-6);
  EXPECT_EQ(resolved.options[1].throughput, ThroughputSource::Mfu);
  const std::string text = explain_json(s, resolved, evaluate(resolved))["text"].get<std::string>();
  EXPECT_NE(text.find("MFU 0.37 as realized by run llama3.1-405b (Meta, 2024)"), std::string::npos) << text;
  // The field survives a file and a link.
  EXPECT_EQ(test::scenario(scenario_to_text(s)).options[1].mfu_from_run, "llama3.1-405b");
  const std::string link = link_json(s)["link"].get<std::string>();
  Problems problems;
  const std::optional<Scenario> decoded = decode_link(link, builtin_catalog(), problems);
  ASSERT_TRUE(decoded) << to_string(problems);
  EXPECT_EQ(decoded->options[1].mfu_from_run, "llama3.1-405b");
}

TEST(MfuFromRun, MistakesNameTheFieldAndWhatIsAllowed) {
  const std::string unknown = test::problems_of(option_with(R"("mfu_from_run":"gpt-9")"));
  EXPECT_NE(unknown.find("options[1].mfu_from_run: unknown run \"gpt-9\" (published runs: hlat-7b, hlat-70b, rinna-nekomata-14b"),
            std::string::npos)
      << unknown;
  EXPECT_NE(test::problems_of(option_with(R"("mfu_from_run":"hlat-7b")")).find("run \"hlat-7b\" publishes no duration, so it has no realized MFU"),
            std::string::npos);
  EXPECT_NE(test::problems_of(option_with(R"("mfu_from_run":"llama3.1-405b","mfu":0.4)")).find("options[1].mfu_from_run: cannot be given with mfu"),
            std::string::npos);
  // A Trainium run's utilization on an NVIDIA option, and the other way round.
  EXPECT_NE(test::problems_of(option_with(R"("mfu_from_run":"rinna-nekomata-14b")"))
                .find("run \"rinna-nekomata-14b\" trained on AWS Trainium (Trn1), a Trainium chip; this option's chip is NVIDIA"),
            std::string::npos)
      << test::problems_of(option_with(R"("mfu_from_run":"rinna-nekomata-14b")"));
}

}  // namespace
}  // namespace traincost
