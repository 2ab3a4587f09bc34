// How old the prices are (price_age): the span of as_of dates and the six-month warning, on
// hand-picked dates. Partial dates count from their first day: "2026-08" is 2026-08-01, "2026" 2026-01-01.
#include <gtest/gtest.h>

#include "traincost/api/builtin.hpp"
#include "traincost/data/catalog.hpp"

namespace traincost {
namespace {

// A catalog with one instance per date, each with an on-demand price dated so.
Catalog priced(std::initializer_list<const char*> dates) {
  Catalog c;
  for (const char* date : dates) {
    Instance i;
    i.id = std::string("i-") + date;
    Figure& f = i.prices[static_cast<size_t>(PricingModel::OnDemand)];
    f.value = 1.0;
    f.source = "s";
    f.as_of = date;
    f.month_only = std::string(date).size() == 7;
    c.instances.push_back(i);
  }
  return c;
}

TEST(PriceAge, SpanAndAgeOfTheNewest) {
  // Newest 2026-08-26 → 2026-11-30: August 26 to November 26 is 3 whole months (30 ≥ 26).
  // Older than six months on 2026-11-30: 2025-03-17 (20 months) and "2026" (from 2026-01-01:
  // 10 months); "2026-08" (from 2026-08-01: 3 months) is not.
  const PriceAge age = price_age(priced({"2026-08", "2025-03-17", "2026-08-26", "2026"}), "2026-11-30");
  EXPECT_EQ(age.oldest, "2025-03-17");
  EXPECT_EQ(age.newest, "2026-08-26");
  EXPECT_EQ(age.prices, 4);
  EXPECT_EQ(age.newest_months, 3);
  EXPECT_EQ(age.out_of_date, 2);
  EXPECT_FALSE(age.stale);
  EXPECT_EQ(age.summary, "Prices as of 2025-03-17 to 2026-08-26 (newest 3 months old; 2 of 4 older than 6 months)");
  EXPECT_EQ(age.warning, "");
}

TEST(PriceAge, SixMonthsToTheDayIsNotYetStale) {
  // 2026-02-26 + 6 months = 2026-08-26: exactly six months old; one day later, more than six.
  const Catalog c = priced({"2026-02-26"});
  const PriceAge on_the_day = price_age(c, "2026-08-26");
  EXPECT_EQ(on_the_day.newest_months, 6);
  EXPECT_FALSE(on_the_day.stale);
  EXPECT_EQ(on_the_day.summary, "Prices as of 2026-02-26 (newest 6 months old)");
  const PriceAge day_after = price_age(c, "2026-08-27");
  EXPECT_EQ(day_after.newest_months, 6);
  EXPECT_TRUE(day_after.stale);
  EXPECT_EQ(day_after.summary, "Prices as of 2026-02-26 (newest 6 months old; 1 of 1 older than 6 months)");
  EXPECT_EQ(day_after.warning,
            "Prices may be out of date: the newest is 6 months old (2026-02-26). Check current prices with the "
            "provider, or enter your own price in the scenario.");
  // The day before the monthly anniversary is still the previous month: 2026-08-26 → 2026-11-25 is 2.
  EXPECT_EQ(price_age(priced({"2026-08-26"}), "2026-11-25").newest_months, 2);
  EXPECT_EQ(price_age(priced({"2026-08-26"}), "2026-09-10").summary, "Prices as of 2026-08-26 (newest less than a month old)");
}

TEST(PriceAge, AMonthOnlyDateCountsFromTheFirstOfTheMonth) {
  // "2026-08" is 2026-08-01: six months old on 2027-02-01, more on 2027-02-02 (although a price
  // from 2026-08-31 would then be five months old).
  EXPECT_FALSE(price_age(priced({"2026-08"}), "2027-02-01").stale);
  const PriceAge age = price_age(priced({"2026-08", "2025"}), "2027-02-02");
  EXPECT_TRUE(age.stale);
  EXPECT_EQ(age.newest, "2026-08");
  EXPECT_EQ(age.oldest, "2025");
  EXPECT_EQ(age.out_of_date, 2);
  EXPECT_NE(age.warning.find("the newest is 6 months old (2026-08)"), std::string::npos) << age.warning;
  // A day in the same month is newer than the month alone.
  EXPECT_EQ(price_age(priced({"2026-08-26", "2026-08"}), "2026-12-01").newest, "2026-08-26");
}

TEST(PriceAge, WithoutAUsableTodayOnlyTheSpan) {
  const Catalog c = priced({"2024-01-15", "2026-08-26"});
  for (const char* today : {"", "yesterday", "2026-13-01", "2026-02-30", "2026-11", "2026-11-30T00:00"}) {
    const PriceAge age = price_age(c, today);
    EXPECT_EQ(age.newest_months, -1) << today;
    EXPECT_FALSE(age.stale) << today;
    EXPECT_EQ(age.out_of_date, 0) << today;
    EXPECT_EQ(age.summary, "Prices as of 2024-01-15 to 2026-08-26") << today;
  }
  // A price dated after today is a catalog or clock mistake: said, never a warning.
  const PriceAge future = price_age(c, "2026-01-01");
  EXPECT_EQ(future.newest_months, -1);
  EXPECT_FALSE(future.stale);
  EXPECT_EQ(future.summary, "Prices as of 2024-01-15 to 2026-08-26 (the newest is dated after 2026-01-01)");
}

TEST(PriceAge, SkipsAbsentPricesAndUnreadableDates) {
  Catalog c = priced({"2026-08-26", "2025-02-29", "26-08"});  // 2025 is no leap year
  Instance absent;
  absent.prices[0].as_of = "2020-01-01";  // no value: not a price
  c.instances.push_back(absent);
  const PriceAge age = price_age(c, "2026-11-30");
  EXPECT_EQ(age.prices, 1);
  EXPECT_EQ(age.oldest, "2026-08-26");
  EXPECT_EQ(price_age(Catalog{}, "2026-11-30").summary, "No price in the catalog has a date");
  EXPECT_TRUE(is_day_date("2024-02-29"));
  EXPECT_FALSE(is_day_date("2025-02-29"));
  EXPECT_FALSE(is_day_date("2026-08"));
}

TEST(PriceAge, TheBuiltinCatalogDatesEveryPrice) {
  const Catalog& c = builtin_catalog();
  int present = 0;
  for (const Instance& i : c.instances)
    for (const Figure& p : i.prices) present += p.present();
  const PriceAge age = price_age(c, "2026-11-30");
  EXPECT_EQ(age.prices, present);  // every as_of is YYYY, YYYY-MM or YYYY-MM-DD
  EXPECT_LE(age.oldest, age.newest);
  EXPECT_GE(age.newest_months, 0);
}

}  // namespace
}  // namespace traincost
