// The software lifecycle per chip family (catalog "software", issue 29 item 6): Trainium1's
// training stack reached end of support, and every report of a Trn1 option says so with its
// source, in the verdict (text, Markdown, JSON, page), the JSON option and explain; reports
// without a Trn1 option say nothing of it.
#include <string>

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/output/explain.hpp"
#include "traincost/output/report.hpp"
#include "traincost/output/verdict.hpp"

namespace traincost {
namespace {

// The page the catalog cites for NxD Training's end of support (catalog "neuron-nxdt-archive").
const std::string kSourceHost = "awsdocs-neuron.readthedocs-hosted.com";

TEST(Lifecycle, EveryCatalogChipHasOneAndOnlyTrn1sHasEnded) {
  for (const Chip& chip : builtin_catalog().chips) {
    SCOPED_TRACE(chip.id);
    ASSERT_TRUE(chip.software.has_value());
    EXPECT_EQ(chip.software->as_of.size(), 10u) << "day precision";
    EXPECT_NE(builtin_catalog().find_source(chip.software->source), nullptr);
    EXPECT_EQ(chip.software->status == StackStatus::EndOfSupport, chip.id == "trn1");
  }
  const SoftwareLifecycle& trn1 = *builtin_catalog().find_chip("trn1")->software;
  EXPECT_EQ(trn1.announced, "2025-12-16");
  EXPECT_NE(trn1.successor.find("Trn2 and Trn3 only"), std::string::npos);
}

bool mentions_end_of_support(const std::string& text) {
  return text.find("end of support") != std::string::npos && text.find(kSourceHost) != std::string::npos;
}

TEST(Lifecycle, EveryTrn1ReportStatesTheEndOfSupportWithItsSource) {
  int with_trn1 = 0, without = 0;
  for (const char* name : test::kExamples) {
    SCOPED_TRACE(name);
    const Scenario s = test::example(name);
    const ResolvedScenario r = resolve(s, builtin_catalog());
    const Results res = evaluate(r);
    bool trn1 = false;
    for (const OptionInfo& o : r.options) trn1 = trn1 || (o.chip && o.chip->id == "trn1");
    (trn1 ? with_trn1 : without)++;
    const OrderedJson json = results_to_json(s, r, res);
    for (size_t w = 0; w < res.workloads.size(); ++w) {
      EXPECT_EQ(mentions_end_of_support(workload_verdict(r, res, w)), trn1) << "verdict of workload " << w;
      for (size_t o = 0; o < r.options.size(); ++o) {
        const bool is_trn1 = r.options[o].chip && r.options[o].chip->id == "trn1";
        const OrderedJson& option = json["workloads"][w]["options"][o];
        const std::string notice = option.contains("software") ? option["software"]["notice"].get<std::string>() : "";
        EXPECT_EQ(mentions_end_of_support(notice), is_trn1) << r.options[o].label;
        if (is_trn1) {
          EXPECT_EQ(option["software"]["status"], "end_of_support");
        }
      }
    }
    EXPECT_EQ(mentions_end_of_support(report_text(s, r, res)), trn1) << "text";
    EXPECT_EQ(mentions_end_of_support(report_markdown(s, r, res, "")), trn1) << "Markdown";
    EXPECT_EQ(mentions_end_of_support(explain_text(s, r, res)), trn1) << "explain";
  }
  EXPECT_GT(with_trn1, 0);
  EXPECT_GT(without, 0);
}

TEST(Lifecycle, TheNoticeNamesTheStackTheSuccessorAndTheDate) {
  const Scenario s = test::scenario(test::simple_scenario(R"("model":{"params":8e9},"target":{"tokens":1e11})",
                                                          R"("instance":"trn1.32xlarge","instances":4)",
                                                          R"("instance":"p5.48xlarge","instances":4)"));
  const ResolvedScenario r = resolve(s, builtin_catalog());
  EXPECT_EQ(software_notice(r.options[0], builtin_catalog()),
            "Trainium1's training stack (NxD Training and PyTorch/XLA training (Neuron SDK)) is at end of support since Neuron 2.32 "
            "(announced 2025-12-16); its successor is TorchNeuron with TorchTitan, which supports Trn2 and Trn3 only. Source: "
            "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/_sources/archive/nxd-training/index.rst, as of 2026-07-24.");
  EXPECT_EQ(software_notice(r.options[1], builtin_catalog()), "");
}

}  // namespace
// The verdict is a headline read at a glance (and wrapped only at spaces on the page): it names the
// source's site, not its 90-character address, and says it once for two options on the same stack.
TEST(Lifecycle, TheVerdictSaysItOncePerStackWithTheSourcesSiteNotItsAddress) {
  const Scenario s = test::scenario(test::simple_scenario(R"("model":{"params":8e9},"target":{"tokens":1e11})",
                                                          R"("instance":"trn1.32xlarge","instances":4)",
                                                          R"("instance":"trn1.32xlarge","instances":8)"));
  const ResolvedScenario r = resolve(s, builtin_catalog());
  const std::string verdict = workload_verdict(r, evaluate(r), 0);
  EXPECT_EQ(verdict.find("https://"), std::string::npos) << verdict;
  const std::string told = r.options[0].label + ", " + r.options[1].label +
                           ": Trainium1's training stack is at end of support since Neuron 2.32; its successor is TorchNeuron "
                           "with TorchTitan, which supports Trn2 and Trn3 only (awsdocs-neuron.readthedocs-hosted.com, as of 2026-07-24).";
  EXPECT_NE(verdict.find(told), std::string::npos) << verdict;
  EXPECT_EQ(verdict.find("end of support"), verdict.rfind("end of support")) << "said once";
}

}  // namespace traincost
