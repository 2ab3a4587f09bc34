// The catalog tab: every chip, instance, price and default with its source and as-of date
// (assets/catalog.json, embedded at build time), and a way to put an instance into an option.
#include "app.hpp"
#include "imgui.h"
#include "platform.hpp"
#include "traincost/edit.hpp"
#include "traincost/format.hpp"
#include "traincost/present.hpp"
#include "ui/panels.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace traincost::web {
namespace {

// A figure's value, muted and marked when it is an estimate; its source on hover; a click opens it.
void figure_cell(const Figure& f, const std::string& text) {
  if (!f.present()) {
    ImGui::TextDisabled("—");
    return;
  }
  if (f.estimate) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette().warn), "%s*", text.c_str());
  else ImGui::TextUnformatted(text.c_str());
  if (ImGui::IsItemHovered()) {
    const Source* s = builtin_catalog().find_source(f.source);
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(em(28));
    if (s) ImGui::Text("Source: %s", s->title.c_str());
    ImGui::Text("As of: %s%s", f.as_of.c_str(), f.estimate ? " (estimate)" : "");
    if (!f.note.empty()) ImGui::TextDisabled("%s", f.note.c_str());
    if (f.has_range()) ImGui::TextDisabled("Plausible range: %s to %s", fmt::number(f.low, 4).c_str(), fmt::number(f.high, 4).c_str());
    if (s) ImGui::TextDisabled("%s (click to open)", s->url.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
    if (ImGui::IsItemClicked() && s) open_url(s->url, true);
  }
}

// Tables wider than the pane scroll sideways; a scrolling table needs its height given.
ImVec2 table_size(size_t rows) {
  const ImGuiStyle& st = ImGui::GetStyle();
  return ImVec2(0, (rows + 1) * (ImGui::GetTextLineHeight() + st.CellPadding.y * 2 + 1) + st.ScrollbarSize + em(0.3f));
}

}  // namespace

void draw_catalog(App& app) {
  const Catalog& c = builtin_catalog();
  ImGui::TextWrapped("Catalog of %s. Hover a figure for its source and date; click to open the source. "
                     "Figures marked * are estimates (reasoning in the methodology).",
                     c.version.c_str());
  ImGui::PushFont(fonts().strong);
  ImGui::TextUnformatted("Chips");
  ImGui::PopFont();
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit;
  if (ImGui::BeginTable("chips", 7, flags, table_size(c.chips.size()))) {
    ImGui::TableSetupScrollFreeze(1, 1);
    for (const char* h : {"Chip", "BF16 TFLOPS", "FP8 TFLOPS", "HBM", "HBM TB/s", "Link GB/s", "Default MFU"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const Chip& chip : c.chips) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(chip.name.c_str());
      ImGui::TableSetColumnIndex(1);
      figure_cell(chip.bf16_tflops, fmt::number(chip.bf16_tflops.value));
      ImGui::TableSetColumnIndex(2);
      figure_cell(chip.fp8_tflops, fmt::number(chip.fp8_tflops.value));
      ImGui::TableSetColumnIndex(3);
      figure_cell(chip.hbm, fmt::number(chip.hbm.value) + " " + chip.hbm.unit);
      ImGui::TableSetColumnIndex(4);
      figure_cell(chip.hbm_bandwidth_tbps, fmt::number(chip.hbm_bandwidth_tbps.value));
      ImGui::TableSetColumnIndex(5);
      figure_cell(chip.interconnect_gbps, fmt::number(chip.interconnect_gbps.value));
      ImGui::TableSetColumnIndex(6);
      figure_cell(chip.mfu, fmt::percent(chip.mfu.value));
    }
    ImGui::EndTable();
  }

  ImGui::Spacing();
  ImGui::PushFont(fonts().strong);
  ImGui::TextUnformatted("Instances (USD per instance-hour)");
  ImGui::PopFont();
  if (ImGui::BeginTable("instances", 4 + kPricingModels, flags, table_size(c.instances.size()))) {
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("Instance");
    ImGui::TableSetupColumn("Provider");
    ImGui::TableSetupColumn("Chips");
    for (int m = 0; m < kPricingModels; ++m) ImGui::TableSetupColumn(describe(static_cast<PricingModel>(m)));
    ImGui::TableSetupColumn("");
    ImGui::TableHeadersRow();
    for (const Instance& inst : c.instances) {
      ImGui::PushID(inst.id.c_str());
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(inst.id.c_str());
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted((inst.provider + " " + inst.region).c_str());
      ImGui::TableSetColumnIndex(2);
      const Chip* chip = c.find_chip(inst.chip);
      ImGui::Text("%d × %s", inst.chips, chip ? chip->name.c_str() : inst.chip.c_str());
      for (int m = 0; m < kPricingModels; ++m) {
        ImGui::TableSetColumnIndex(3 + m);
        const Figure& p = inst.prices[static_cast<size_t>(m)];
        figure_cell(p, fmt::usd(p.value));
      }
      ImGui::TableSetColumnIndex(3 + kPricingModels);
      if (widget::small_button("Use")) ImGui::OpenPopup("use");
      if (ImGui::BeginPopup("use")) {
        for (size_t o = 0; o < app.scenario.options.size(); ++o) {
          Option& opt = app.scenario.options[o];
          const std::string item = "in option " + std::to_string(o + 1) + " (" + (opt.label.empty() ? opt.instance : opt.label) + ")";
          if (ImGui::Selectable(item.c_str()) && edit::set_instance(opt, c, inst.id)) {
            opt.label.clear();
            app.edited();
          }
        }
        ImGui::EndPopup();
      }
      ImGui::PopID();
    }
    ImGui::EndTable();
  }

  ImGui::Spacing();
  ImGui::PushFont(fonts().strong);
  ImGui::TextUnformatted("Defaults for what a scenario leaves out");
  ImGui::PopFont();
  const Defaults& d = c.defaults;
  if (ImGui::BeginTable("defaults", 3, flags, table_size(11))) {
    ImGui::TableSetupColumn("Assumption");
    ImGui::TableSetupColumn("Trainium");
    ImGui::TableSetupColumn("NVIDIA");
    ImGui::TableHeadersRow();
    // Every field whose default comes from the catalog, for each family.
    for (const FieldSpec* spec : all_fields()) {
      if (!spec->catalog_default) continue;
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(field_label(*spec).c_str());
      int column = 1;
      for (const Family family : {Family::Trainium, Family::Nvidia}) {
        ImGui::TableSetColumnIndex(column++);
        const Figure* figure = d.find(spec->catalog_default, family);
        if (figure) figure_cell(*figure, field_value_text(*spec, figure->value));
      }
    }
    ImGui::EndTable();
  }
  ImGui::Spacing();
  if (widget::button("Open the hardware data page")) open_url("data.html", true);
  ImGui::Dummy(ImVec2(0, em(1)));
}

}  // namespace traincost::web
