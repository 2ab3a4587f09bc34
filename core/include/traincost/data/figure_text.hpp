#pragma once
// How a catalog figure reads, in its unit: the data page of the site and `traincost catalog
// --format json` ("text" and "range_text" on every figure) both show this, so the site never
// formats a number itself. A price reads exactly as the calculator uses it ("$1.34375 per hour").
#include <string>
#include <string_view>

namespace traincost {

// The figure named `key` (its key in assets/catalog.json: "bf16_tflops", "on_demand", "hbm") with
// value `value`, in its unit: "190 TFLOP/s", "$35.76 per hour", "96.0 GiB (103,079,215,104 bytes)".
std::string figure_text(std::string_view key, double value);
// A plausible range of that figure, without the unit: "$4,000 to $9,000", "13,600 to 64,500".
std::string figure_range_text(std::string_view key, double low, double high);

}  // namespace traincost
