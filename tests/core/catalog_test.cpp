// The embedded catalog loads, and every figure in it is sourced and dated.
#include "traincost/api/builtin.hpp"
#include "traincost/data/catalog.hpp"

#include <set>

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace traincost {
namespace {

TEST(Catalog, BuiltinLoadsWithTheIssueListOfChipsAndInstances) {
  const Catalog& c = builtin_catalog();
  EXPECT_EQ(c.version, "2026-12-01");
  for (const char* chip : {"trn1", "trn2", "trn3", "a100-40gb", "a100-80gb", "h100", "h200", "b200"})
    EXPECT_NE(c.find_chip(chip), nullptr) << chip;
  for (const char* inst : {"trn1.2xlarge", "trn1.32xlarge", "trn1n.32xlarge", "trn2.48xlarge", "p4d.24xlarge",
                           "p4de.24xlarge", "p5.48xlarge", "p5e.48xlarge", "p5en.48xlarge", "p6-b200.48xlarge"})
    EXPECT_NE(c.find_instance(inst), nullptr) << inst;
}

TEST(Catalog, GpusAreOfferedByAtLeastThreeCloudsBesidesAws) {
  std::set<std::string> providers;
  for (const Instance& i : builtin_catalog().instances) {
    const Chip* chip = builtin_catalog().find_chip(i.chip);
    if (i.provider != "AWS" && chip && (chip->id == "h100" || chip->id == "h200" || chip->id == "b200"))
      providers.insert(i.provider);
  }
  EXPECT_GE(providers.size(), 3u);
}

TEST(Catalog, EveryFigureHasAResolvableSourceAndADate) {
  const Catalog& c = builtin_catalog();
  auto check = [&](const Figure& f, const std::string& what) {
    if (!f.present()) return;
    const Source* s = c.find_source(f.source);
    ASSERT_NE(s, nullptr) << what;
    EXPECT_FALSE(s->url.empty()) << what;
    // a day, or a month the catalog says is all the source gives
    EXPECT_EQ(f.as_of.size(), f.month_only ? 7u : 10u) << what << " " << f.as_of;
  };
  auto check_cited = [&](const Cited& f, const std::string& what) {
    Figure figure;
    static_cast<Cited&>(figure) = f;
    figure.value = 1;
    check(figure, what);
  };
  for (const auto* family : {&c.defaults.shared, &c.defaults.trainium, &c.defaults.nvidia})
    for (const NamedFigure& d : *family) check(d.figure, "defaults." + d.key);
  for (const Chip& chip : c.chips) {
    for (const Figure* f : {&chip.bf16_tflops, &chip.fp8_tflops, &chip.hbm, &chip.hbm_bandwidth_tbps, &chip.interconnect_gbps,
                            &chip.scale_up_gbps, &chip.scale_up_chips, &chip.network_gbps_per_chip, &chip.mamf_bf16_tflops,
                            &chip.mamf_fp8_tflops})
      check(*f, chip.id);
    EXPECT_EQ(chip.hbm.unit, "bytes") << chip.id;
  }
  for (const Instance& i : c.instances) {
    check(i.network_gbps, i.id);
    check_cited(i.chips_cited, i.id + " chips");
    check_cited(i.region_cited, i.id + " region");
    for (const Figure& p : i.prices) check(p, i.id);
  }
}

TEST(Catalog, ReportsEditingMistakesWithTheirPath) {
  Problems problems;
  const auto c = load_catalog(R"({"catalog_version":"x","sources":{},"chips":[{"id":"a","name":"A","vendor":"V",
      "family":"gpu","bf16_tflops":{"value":1,"source":"nowhere","as_of":"2026"}}],"instances":[],"defaults":{}})",
                              problems);
  EXPECT_FALSE(c);
  const std::string all = to_string(problems);
  EXPECT_NE(all.find("chips[0].family: must be"), std::string::npos) << all;
  EXPECT_NE(all.find("chips[0].hbm: is required"), std::string::npos) << all;
  EXPECT_NE(all.find("chips[0].bf16_tflops.source: unknown source \"nowhere\""), std::string::npos) << all;
}

TEST(Catalog, RefusesDatesLessPreciseThanADayUnlessMarkedMonthOnly) {
  auto problems_of = [](const std::string& figure) {
    Problems problems;
    load_catalog(R"({"catalog_version":"x","sources":{"s":{"title":"S","url":"https://example.org"}},"chips":[{"id":"a",
        "name":"A","vendor":"V","family":"nvidia","bf16_tflops":)" + figure + R"(}],"instances":[],"defaults":{}})",
                 problems);
    return to_string(problems);
  };
  EXPECT_NE(problems_of(R"({"value":1,"source":"s","as_of":"2026"})").find("chips[0].bf16_tflops.as_of: must be a day"), std::string::npos);
  EXPECT_NE(problems_of(R"({"value":1,"source":"s","as_of":"2026-08"})").find("bf16_tflops.as_of: must be a day"), std::string::npos);
  EXPECT_NE(problems_of(R"({"value":1,"source":"s","as_of":"2026-13-01"})").find("bf16_tflops.as_of"), std::string::npos);
  EXPECT_EQ(problems_of(R"({"value":1,"source":"s","as_of":"2026-08","month_only":true})").find("bf16_tflops.as_of"), std::string::npos);
  EXPECT_EQ(problems_of(R"({"value":1,"source":"s","as_of":"2026-08-26"})").find("bf16_tflops.as_of"), std::string::npos);
  EXPECT_NE(problems_of(R"({"value":1,"source":"s","as_of":"2026-08-26","month_only":true})").find("must be a month"), std::string::npos);
}

TEST(Catalog, InstancesCiteTheirChipCountAndRegion) {
  Problems problems;
  load_catalog(R"({"catalog_version":"x","sources":{},"chips":[],"instances":[{"id":"i","provider":"P","chip":"a",
      "region":"us-east-1","chips":8,"network_gbps":{"value":1,"source":"s","as_of":"2026-01-01"},"prices":{}}],"defaults":{}})",
               problems);
  const std::string all = to_string(problems);
  EXPECT_NE(all.find("instances[0].region: must be an object with a \"value\", its \"source\" and \"as_of\""), std::string::npos) << all;
  EXPECT_NE(all.find("instances[0].chips: must be an object"), std::string::npos) << all;
}

TEST(Catalog, AuditedFiguresCarryTheirCaveat) {
  const Catalog& c = builtin_catalog();
  // Capacity Block rates expired on 2025-01-01; the trn2 on-demand rate is one snapshot's.
  for (const Instance& i : c.instances) {
    if (i.price(PricingModel::CapacityBlock).present()) {
      EXPECT_EQ(i.price(PricingModel::CapacityBlock).flag, "expired offer") << i.id;
    }
  }
  EXPECT_EQ(c.find_instance("trn2.48xlarge")->price(PricingModel::OnDemand).flag, "single snapshot");
  EXPECT_EQ(c.find_instance("azure-nd96isr-h100-v5")->price(PricingModel::OnDemand).flag, "region unconfirmed");
  // CoreWeave's list price, not a market rate: $49.24 for 8 H100.
  EXPECT_DOUBLE_EQ(c.find_instance("coreweave-8x-h100")->price(PricingModel::OnDemand).value, 49.24);
  EXPECT_TRUE(c.find_source("coreweave-pricing")->secondary);
}

TEST(Catalog, HbmIsInBytesForEveryChip) {
  // 96 GiB = 96 × 2^30 = 103,079,215,104 bytes; an H100's 81,559 MiB = 85,520,809,984 bytes.
  EXPECT_DOUBLE_EQ(builtin_catalog().find_chip("trn2")->hbm_bytes(), 103079215104.0);
  EXPECT_DOUBLE_EQ(builtin_catalog().find_chip("h100")->hbm_bytes(), 85520809984.0);
}

}  // namespace
}  // namespace traincost
