// The catalog tab: every chip, instance, price and default with its source and as-of date
// (assets/catalog.json, embedded at build time), and a way to put an instance into an option.
#include "app.hpp"
#include "imgui.h"
#include "platform.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/api/edit.hpp"
#include "traincost/data/figure_text.hpp"
#include "traincost/base/format.hpp"
#include "traincost/output/present.hpp"
#include "ui/panels.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace traincost::web {
namespace {

// A figure's value, marked (≈, in the warning colour) when it is an estimate; its source on
// hover; a click opens it.
void figure_cell(const Figure& f, const std::string& text) {
  if (!f.present()) {
    ImGui::TextDisabled("—");
    return;
  }
  if (f.estimate) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette().warn), "%s%s", kEstimateMark, text.c_str());
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
    if (ImGui::IsItemClicked() && s) open_in_new_tab(s->url);
  }
}

// Short names of the pricing models, for column headers.
const char* short_model(PricingModel m) {
  switch (m) {
    case PricingModel::OnDemand: return "On-demand";
    case PricingModel::Reserved1yr: return "1-year";
    case PricingModel::Reserved3yr: return "3-year";
    case PricingModel::Spot: return "Spot";
    case PricingModel::CapacityBlock: return "Capacity";
  }
  return "";
}

// "Use": puts the instance into one of the scenario's options.
void use_button(App& app, const Instance& inst) {
  const Catalog& c = builtin_catalog();
  const bool open = widget::small_button("Use");
  widget::name_last("Use " + inst.id);
  if (open) ImGui::OpenPopup("use");
  if (ImGui::BeginPopup("use")) {
    for (size_t o = 0; o < app.scenario.options.size(); ++o) {
      Option& opt = app.scenario.options[o];
      const std::string item = "in option " + std::to_string(o + 1) + " (" + (opt.label.empty() ? automatic_label(opt, c) : opt.label) + ")";
      if (widget::selectable(item.c_str()) && edit::set_instance(opt, c, inst.id)) app.edited();
    }
    ImGui::EndPopup();
  }
}

}  // namespace

void draw_catalog(App& app) {
  const Catalog& c = builtin_catalog();
  const bool compact = app.ui.compact;
  widget::wrapped("Catalog of " + c.version + ". Hover a figure for its source and date; click to open the source. Figures marked " +
                  kEstimateMark + " are estimates (reasoning in the methodology).");
  ImGui::PushFont(fonts().strong);
  ImGui::TextUnformatted("Chips");
  ImGui::PopFont();
  // Every column fits the pane (no sideways scrolling hides the last ones); on a phone, each chip
  // and each instance is a short block instead of a row.
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
  if (compact) {
    for (const Chip& chip : c.chips) {
      ImGui::PushID(chip.id.c_str());
      ImGui::PushFont(fonts().strong);
      ImGui::TextUnformatted(chip.name.c_str());
      ImGui::PopFont();
      ImGui::TextDisabled("BF16");
      ImGui::SameLine();
      figure_cell(chip.bf16_tflops, figure_text("bf16_tflops", chip.bf16_tflops.value));
      ImGui::SameLine();
      ImGui::TextDisabled("· HBM");
      ImGui::SameLine();
      figure_cell(chip.hbm, fmt::bytes(chip.hbm_bytes()));
      ImGui::SameLine();
      ImGui::TextDisabled("· matmul");
      ImGui::SameLine();
      figure_cell(chip.mamf_bf16_tflops, figure_text("mamf_bf16_tflops", chip.mamf_bf16_tflops.value) + " measured");
      ImGui::PopID();
    }
  } else if (ImGui::BeginTable("chips", 7, flags)) {
    const char* headers[] = {"Chip", "BF16 TFLOP/s", "FP8 TFLOP/s", "HBM", "HBM TB/s", "Link GB/s each way", "Measured matmul TFLOP/s"};
    for (int h = 0; h < 7; ++h) ImGui::TableSetupColumn(headers[h], ImGuiTableColumnFlags_WidthStretch, h == 0 ? 2.2f : 1.0f);
    ImGui::TableHeadersRow();
    for (const Chip& chip : c.chips) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      widget::wrapped(chip.name);
      ImGui::TableSetColumnIndex(1);
      figure_cell(chip.bf16_tflops, fmt::number(chip.bf16_tflops.value));
      ImGui::TableSetColumnIndex(2);
      figure_cell(chip.fp8_tflops, fmt::number(chip.fp8_tflops.value));
      ImGui::TableSetColumnIndex(3);
      figure_cell(chip.hbm, fmt::bytes(chip.hbm_bytes()));
      ImGui::TableSetColumnIndex(4);
      figure_cell(chip.hbm_bandwidth_tbps, fmt::number(chip.hbm_bandwidth_tbps.value));
      ImGui::TableSetColumnIndex(5);
      figure_cell(chip.scale_up_gbps, fmt::number(chip.scale_up_gbps.value) + " × " + fmt::number(chip.scale_up_chips.value));
      ImGui::TableSetColumnIndex(6);
      figure_cell(chip.mamf_bf16_tflops, fmt::number(chip.mamf_bf16_tflops.value));
    }
    ImGui::EndTable();
  }

  ImGui::Spacing();
  ImGui::PushFont(fonts().strong);
  ImGui::TextUnformatted("Instances (USD per instance-hour)");
  ImGui::PopFont();
  if (compact) {
    for (const Instance& inst : c.instances) {
      ImGui::PushID(inst.id.c_str());
      const Chip* chip = c.find_chip(inst.chip);
      ImGui::PushFont(fonts().strong);
      ImGui::TextUnformatted(inst.id.c_str());
      ImGui::PopFont();
      ImGui::SameLine();
      use_button(app, inst);
      ImGui::TextDisabled("%s %s · %d × %s", inst.provider.c_str(), inst.region.c_str(), inst.chips, chip ? chip->name.c_str() : inst.chip.c_str());
      bool first = true;
      for (int m = 0; m < kPricingModels; ++m) {
        const Figure& p = inst.prices[static_cast<size_t>(m)];
        if (!p.present()) continue;
        // Prices flow onto the next line when the screen is full.
        const float w = ImGui::CalcTextSize(short_model(static_cast<PricingModel>(m))).x + ImGui::CalcTextSize(fmt::usd(p.value).c_str()).x + em(1.6f);
        if (!first) {
          ImGui::SameLine(0, em(0.8f));
          if (ImGui::GetContentRegionAvail().x < w) ImGui::NewLine();
        }
        first = false;
        ImGui::TextDisabled("%s", short_model(static_cast<PricingModel>(m)));
        ImGui::SameLine(0, em(0.3f));
        figure_cell(p, fmt::usd(p.value));
      }
      ImGui::PopID();
    }
  } else if (ImGui::BeginTable("instances", 3 + kPricingModels, flags)) {
    ImGui::TableSetupColumn("Instance", ImGuiTableColumnFlags_WidthStretch, 2.4f);
    ImGui::TableSetupColumn("Chips", ImGuiTableColumnFlags_WidthStretch, 1.5f);
    for (int m = 0; m < kPricingModels; ++m)
      ImGui::TableSetupColumn(short_model(static_cast<PricingModel>(m)), ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("Use").x + ImGui::GetStyle().FramePadding.x * 2);
    ImGui::TableHeadersRow();
    for (const Instance& inst : c.instances) {
      ImGui::PushID(inst.id.c_str());
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      widget::wrapped(inst.id);
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      widget::wrapped(inst.provider + " " + inst.region);
      ImGui::PopStyleColor();
      ImGui::TableSetColumnIndex(1);
      const Chip* chip = c.find_chip(inst.chip);
      widget::wrapped(std::to_string(inst.chips) + " × " + (chip ? chip->name : inst.chip));
      for (int m = 0; m < kPricingModels; ++m) {
        ImGui::TableSetColumnIndex(2 + m);
        const Figure& p = inst.prices[static_cast<size_t>(m)];
        figure_cell(p, fmt::usd(p.value));
      }
      ImGui::TableSetColumnIndex(2 + kPricingModels);
      use_button(app, inst);
      ImGui::PopID();
    }
    ImGui::EndTable();
  }

  ImGui::Spacing();
  ImGui::PushFont(fonts().strong);
  ImGui::TextUnformatted("Defaults for what a scenario leaves out");
  ImGui::PopFont();
  const Defaults& d = c.defaults;
  if (ImGui::BeginTable("defaults", 3, flags)) {
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
  if (widget::button("Open the hardware data page")) open_in_new_tab("data.html");
  ImGui::Dummy(ImVec2(0, em(1)));
}

}  // namespace traincost::web
