// `traincost catalog`: chips, instances and prices with their sources and dates, and how old
// the prices are.
#include <cstdio>
#include <ctime>
#include <string>

#include "cli_io.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/api/api.hpp"
#include "traincost/base/format.hpp"
#include "traincost/output/present.hpp"

namespace traincost::cli {
namespace {

std::string figure_text(const Figure& f, const char* unit = "") {
  if (!f.present()) return "-";
  std::string s = fmt::number(f.value, 6) + unit;
  if (f.estimate) s += " (est.)";
  return s;
}

std::string cite(const Catalog& c, const Figure& f) {
  const Source* s = c.find_source(f.source);
  return (s ? s->url : f.source) + ", " + f.as_of;
}

// A source's address in a Markdown table: an autolink when it is a web address, else text.
std::string markdown_address(const std::string& url) {
  return url.rfind("https://", 0) == 0 || url.rfind("http://", 0) == 0 ? "<" + markdown_url(url) + ">" : escape_markdown(url);
}
std::string markdown_cite(const Catalog& c, const Figure& f) {
  const Source* s = c.find_source(f.source);
  return (s ? markdown_address(s->url) : escape_markdown(f.source)) + ", " + escape_markdown(f.as_of);
}

// The clock's date in UTC, YYYY-MM-DD: what "today" is unless --today says otherwise.
std::string utc_today() {
  const std::time_t now = std::time(nullptr);
  char text[16] = "";
  if (const std::tm* t = std::gmtime(&now)) std::strftime(text, sizeof text, "%Y-%m-%d", t);
  return text;
}

OrderedJson price_age_json(const PriceAge& age, const std::string& today) {
  return {{"today", today}, {"oldest", age.oldest}, {"newest", age.newest}, {"prices", age.prices},
          {"newest_months", age.newest_months}, {"out_of_date", age.out_of_date},
          {"stale_after_months", kStalePriceMonths}, {"stale", age.stale}, {"summary", age.summary},
          {"warning", age.warning}};
}

}  // namespace

int catalog(const Args& args) {
  const Flags flags = parse_flags(args, {"--format", "--today"});
  const std::string format = flags.get("--format", "text");
  const std::string today = flags.get("--today", utc_today());
  if (!flags.error.empty() || !flags.positional.empty() || (format != "text" && format != "markdown" && format != "json") ||
      !is_day_date(today)) {
    std::fprintf(stderr, "usage: traincost catalog [--format text|markdown|json] [--today YYYY-MM-DD]\n");
    return kUsageError;
  }
  const Catalog& c = builtin_catalog();
  const PriceAge age = price_age(c, today);
  if (format == "json") {
    // The API's catalog document; the age only when asked for with --today, because it depends on
    // the day while the document (what the Python and npm packages return) does not.
    OrderedJson doc = catalog_json();
    if (flags.has("--today")) doc["price_age"] = price_age_json(age, today);
    std::puts(doc.dump(2).c_str());
    return kOk;
  }
  const bool md = format == "markdown";
  if (md) {
    std::printf("## TrainCost catalog %s\n\n%s.\n\n", escape_markdown(c.version).c_str(), escape_markdown(age.summary).c_str());
    if (!age.warning.empty()) std::printf("**Warning:** %s\n\n", escape_markdown(age.warning).c_str());
    std::printf("### Chips\n\n");
  } else {
    std::printf("TrainCost catalog %s\n%s\n", escape_terminal(c.version).c_str(), escape_terminal(age.summary).c_str());
    if (!age.warning.empty()) std::printf("Warning: %s\n", escape_terminal(age.warning).c_str());
    std::printf("\nChips\n");
  }
  if (md)
    std::puts("| Chip | Dense BF16 TFLOPS | Dense FP8 TFLOPS | HBM | HBM TB/s | Link GB/s per direction (chips) | Source |\n"
              "|---|---:|---:|---:|---:|---:|---|");
  for (const Chip& chip : c.chips) {
    const std::string hbm = fmt::bytes(chip.hbm_bytes()) + (chip.hbm.estimate ? " (est.)" : "");
    const std::string link = figure_text(chip.scale_up_gbps) + " (" + fmt::number(chip.scale_up_chips.value) + ")";
    if (md)
      std::printf("| %s | %s | %s | %s | %s | %s | %s |\n", escape_markdown(chip.name).c_str(),
                  escape_markdown(figure_text(chip.bf16_tflops)).c_str(), escape_markdown(figure_text(chip.fp8_tflops)).c_str(),
                  escape_markdown(hbm).c_str(), escape_markdown(figure_text(chip.hbm_bandwidth_tbps)).c_str(),
                  escape_markdown(link).c_str(), markdown_cite(c, chip.bf16_tflops).c_str());
    else
      std::printf("  %-40s BF16 %6s  FP8 %6s  HBM %-12s %s TB/s  link %s\n", chip.name.c_str(), figure_text(chip.bf16_tflops).c_str(),
                  figure_text(chip.fp8_tflops).c_str(), hbm.c_str(), figure_text(chip.hbm_bandwidth_tbps).c_str(), link.c_str());
  }
  std::printf(md ? "\n### Instances (USD per instance-hour)\n\n" : "\nInstances (USD per instance-hour)\n");
  if (md) std::puts("| Instance | Provider | Chips | Pricing | Price | Source | As of |\n|---|---|---:|---|---:|---|---|");
  for (const Instance& inst : c.instances) {
    const Chip* chip = c.find_chip(inst.chip);
    if (!md) std::printf("  %-24s %-13s %2d x %s\n", inst.id.c_str(), inst.provider.c_str(), inst.chips, chip ? chip->name.c_str() : "?");
    for (int m = 0; m < kPricingModels; ++m) {
      const Figure& p = inst.prices[static_cast<size_t>(m)];
      if (!p.present()) continue;
      const Source* src = c.find_source(p.source);
      if (md)
        std::printf("| %s | %s | %d | %s | %s | %s | %s |\n", escape_markdown(inst.id).c_str(), escape_markdown(inst.provider).c_str(),
                    inst.chips, describe(static_cast<PricingModel>(m)), escape_markdown(figure_text(p)).c_str(),
                    src ? markdown_address(src->url).c_str() : "", escape_markdown(p.as_of).c_str());
      else
        std::printf("      %-18s %12s   %s\n", describe(static_cast<PricingModel>(m)), figure_text(p).c_str(), cite(c, p).c_str());
    }
  }
  return kOk;
}

}  // namespace traincost::cli
