// How catalog figures read (figure_text.hpp): the site's data page shows exactly these strings.
#include "traincost/data/figure_text.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "traincost/api/api.hpp"

namespace traincost {
namespace {

TEST(FigureText, EachKindInItsUnit) {
  EXPECT_EQ(figure_text("bf16_tflops", 190), "190 TFLOP/s");
  EXPECT_EQ(figure_text("bf16_tflops", 1299.5), "1,299.5 TFLOP/s");
  EXPECT_EQ(figure_text("mtbf_hours_per_chip", 50000), "50,000 h per chip");
  // Small rates positionally, as the catalog writes them (a spot band's 2.5% a month / 730 h).
  EXPECT_EQ(figure_text("spot_interruptions_per_instance_hour", 0.0000342), "0.0000342");
  EXPECT_EQ(figure_text("spot_interruptions_per_instance_hour", 0.0000685), "0.0000685");
  EXPECT_EQ(figure_text("spot_interruptions_per_instance_hour", 0.000274), "0.000274");
  // Prices exactly as the calculator uses them: whole dollars, cents, or every digit given.
  EXPECT_EQ(figure_text("on_demand", 35.76), "$35.76 per hour");
  EXPECT_EQ(figure_text("on_demand", 21.5), "$21.50 per hour");
  EXPECT_EQ(figure_text("on_demand", 1.34375), "$1.34375 per hour");
  EXPECT_EQ(figure_text("on_demand", 21.957642), "$21.957642 per hour");
  EXPECT_EQ(figure_text("spot", 17.4), "$17.40 per hour");  // 17.4 × 100 is not exactly 1740 in binary
  EXPECT_EQ(figure_text("usd_per_engineer_week", 6000), "$6,000 per engineer-week");
  EXPECT_EQ(figure_text("maintenance_usd_per_year", 1234567.25), "$1,234,567.25 a year");
  // Shares as percentages to four significant digits: 0.000588 × 100 = 0.0588.
  EXPECT_EQ(figure_text("replacement_share", 0.35), "35%");
  EXPECT_EQ(figure_text("convergence_penalty", 0.05), "5% more tokens");
  EXPECT_EQ(figure_text("lost_work_share", 0.000588), "0.0588%");
  // Memory in binary units, the byte count beside it: 96 GiB = 96 × 2^30 = 103,079,215,104 bytes.
  EXPECT_EQ(figure_text("hbm", 103079215104.0), "96.0 GiB (103,079,215,104 bytes)");
  // An unknown key reads as a plain number.
  EXPECT_EQ(figure_text("holdout_rows", 12), "12");
  EXPECT_EQ(figure_text("gemm_knee", 0.123456789), "0.123457");
}

TEST(FigureText, RangesHaveNoUnit) {
  EXPECT_EQ(figure_range_text("usd_per_engineer_week", 4000, 9000), "$4,000 to $9,000");
  EXPECT_EQ(figure_range_text("spot", 2.5, 8.2), "$2.50 to $8.20");
  EXPECT_EQ(figure_range_text("checkpoint_blocking_share", 0.04, 1), "4% to 100%");
}

// `traincost catalog --format json` carries each figure's text, so the site formats nothing:
// trn1.32xlarge has 16 chips, so its price per chip-hour is the instance price / 16, to the cent.
TEST(FigureText, CatalogJsonCarriesTheText) {
  const OrderedJson doc = catalog_json();
  size_t figures = 0, with_text = 0;
  std::function<void(const OrderedJson&)> count = [&](const OrderedJson& node) {
    if (node.is_object() && node.contains("value")) {
      ++figures;
      with_text += node.contains("text") && node["text"].is_string() && !node["text"].get<std::string>().empty();
      if (node.contains("low")) {
        EXPECT_TRUE(node.contains("range_text")) << node.dump();
      }
      return;
    }
    if (node.is_structured())
      for (const auto& child : node) count(child);
  };
  count(doc);
  EXPECT_GT(figures, 100u);
  EXPECT_EQ(with_text, figures);
  for (const OrderedJson& instance : doc["instances"]) {
    if (instance["id"] != "trn1.32xlarge") continue;
    const OrderedJson& on_demand = instance["prices"]["on_demand"];
    const double v = on_demand["value"].get<double>();
    EXPECT_EQ(on_demand["text"], figure_text("on_demand", v));
    EXPECT_EQ(on_demand["per_chip_text"], figure_text("usd_per_chip_hour", std::round(v / 16 * 100) / 100));
  }
}

}  // namespace
}  // namespace traincost
