// How old the catalog's prices are (price_age in catalog.hpp): the span of their as_of dates and
// the age of the newest on a given day.
#include <string>

#include "traincost/data/catalog.hpp"

namespace traincost {
namespace {

struct Day {
  int year = 0, month = 1, day = 1;
};

bool leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
int days_in_month(int y, int m) {
  static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && leap(y) ? 29 : days[m - 1];
}

// `n` digits at `text[at]`, or -1.
int digits(std::string_view text, size_t at, size_t n) {
  if (at + n > text.size()) return -1;
  int v = 0;
  for (size_t i = at; i < at + n; ++i) {
    if (text[i] < '0' || text[i] > '9') return -1;
    v = v * 10 + (text[i] - '0');
  }
  return v;
}

// "YYYY", "YYYY-MM" or "YYYY-MM-DD" into `d`; a partial date is its first day. False when the
// text is none of these.
bool parse_day(std::string_view text, Day& d) {
  if (text.size() != 4 && text.size() != 7 && text.size() != 10) return false;
  d = Day{};
  d.year = digits(text, 0, 4);
  if (d.year < 0) return false;
  if (text.size() >= 7) {
    d.month = text[4] == '-' ? digits(text, 5, 2) : -1;
    if (d.month < 1 || d.month > 12) return false;
  }
  if (text.size() == 10) {
    d.day = text[7] == '-' ? digits(text, 8, 2) : -1;
    if (d.day < 1 || d.day > days_in_month(d.year, d.month)) return false;
  }
  return true;
}

bool before(const Day& a, const Day& b) {
  if (a.year != b.year) return a.year < b.year;
  if (a.month != b.month) return a.month < b.month;
  return a.day < b.day;
}

// Whole months from `from` to `to` (to not before from): 2026-08-26 → 2026-11-25 is 2, → 2026-11-26 is 3.
int whole_months(const Day& from, const Day& to) {
  const int months = (to.year - from.year) * 12 + (to.month - from.month);
  return to.day < from.day ? months - 1 : months;
}

// More than `limit` months: past the same day `limit` months later (2026-02-26 + 6 months =
// 2026-08-26 is not more than six months old; 2026-08-27 is).
bool older_than(const Day& from, const Day& to, int limit) {
  const int m = whole_months(from, to);
  return m > limit || (m == limit && to.day != from.day);
}

std::string months_text(int m) {
  if (m == 0) return "less than a month";
  return std::to_string(m) + (m == 1 ? " month" : " months");
}

}  // namespace

bool is_day_date(std::string_view text) {
  Day d;
  return text.size() == 10 && parse_day(text, d);
}

PriceAge price_age(const Catalog& catalog, std::string_view today) {
  PriceAge age;
  Day oldest, newest, now;
  const bool dated_today = is_day_date(today) && parse_day(today, now);
  for (const Instance& inst : catalog.instances)
    for (const Figure& price : inst.prices) {
      Day d;
      // The loader requires an as_of, not its form: a price with an unreadable one is not counted.
      if (!price.present() || !parse_day(price.as_of, d)) continue;
      const bool first = age.prices++ == 0;
      if (first || before(d, oldest)) {
        oldest = d;
        age.oldest = price.as_of;
      }
      if (first || before(newest, d)) {
        newest = d;
        age.newest = price.as_of;
      }
      if (dated_today && !before(now, d) && older_than(d, now, kStalePriceMonths)) ++age.out_of_date;
    }
  if (age.prices == 0) {
    age.summary = "No price in the catalog has a date";
    return age;
  }
  age.summary = "Prices as of " + age.oldest + (age.oldest == age.newest ? "" : " to " + age.newest);
  if (!dated_today) return age;
  if (before(now, newest)) {
    age.summary += " (the newest is dated after " + std::string(today) + ")";
    return age;
  }
  age.newest_months = whole_months(newest, now);
  age.stale = older_than(newest, now, kStalePriceMonths);
  age.summary += " (newest " + months_text(age.newest_months) + " old";
  if (age.out_of_date > 0)
    age.summary += "; " + std::to_string(age.out_of_date) + " of " + std::to_string(age.prices) + " older than " +
                   std::to_string(kStalePriceMonths) + " months";
  age.summary += ")";
  if (age.stale)
    age.warning = "Prices may be out of date: the newest is " + months_text(age.newest_months) + " old (" + age.newest +
                  "). Check current prices with the provider, or enter your own price in the scenario.";
  return age;
}

}  // namespace traincost
