// `traincost catalog`: chips, instances and prices with their sources and dates.
#include <cstdio>
#include <string>

#include "cli_io.hpp"
#include "traincost/api.hpp"
#include "traincost/format.hpp"
#include "traincost/present.hpp"

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

}  // namespace

int catalog(const Args& args) {
  const Flags flags = parse_flags(args, {"--format"});
  const std::string format = flags.get("--format", "text");
  if (!flags.error.empty() || !flags.positional.empty() || (format != "text" && format != "markdown" && format != "json")) {
    std::fprintf(stderr, "usage: traincost catalog [--format text|markdown|json]\n");
    return kUsageError;
  }
  if (format == "json") {
    std::puts(catalog_json().dump(2).c_str());
    return kOk;
  }
  const Catalog& c = builtin_catalog();
  const bool md = format == "markdown";
  std::printf(md ? "## TrainCost catalog %s\n\n### Chips\n\n" : "TrainCost catalog %s\n\nChips\n", c.version.c_str());
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
