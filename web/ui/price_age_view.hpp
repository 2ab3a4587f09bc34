#pragma once
// How old the catalog's prices are (issue 14): one muted line under the results table, in the
// warning colour with the core's warning when even the newest price is more than six months old
// (kStalePriceMonths), the same summary `traincost catalog` and the data page give.
#include <string>

#include "traincost/data/catalog.hpp"
#include "traincost/io/scenario_json.hpp"

namespace traincost::web {
class App;

// "Prices as of … (newest 2 months old; …)." and, when stale, the core's warning after it.
std::string price_age_line(const PriceAge& age);
void draw_price_age(App& app);
// {"text", "stale"} for the page's text mirror.
OrderedJson price_age_mirror(const PriceAge& age);

}  // namespace traincost::web
