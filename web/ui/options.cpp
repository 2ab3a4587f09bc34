// The options editor: 2 to 4 hardware options side by side, one column each. Empty fields show
// their default (from the catalog, for the chosen chip and family) muted, with its source.
#include <algorithm>
#include <cmath>

#include "app.hpp"
#include "imgui.h"
#include "imgui_internal.h"
#include "traincost/edit.hpp"
#include "traincost/format.hpp"
#include "traincost/present.hpp"
#include "traincost/formulas.hpp"
#include "traincost/inputs.hpp"
#include "traincost/resolve.hpp"
#include "ui/panels.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace traincost::web {
namespace {

namespace f = traincost::fields;
constexpr int kUiMaxOptions = 4;

std::string cite(const Figure* figure) { return figure ? citation(*figure, builtin_catalog()) : std::string(); }

std::string instance_summary(const Instance& inst) {
  const Catalog& c = builtin_catalog();
  const Chip* chip = c.find_chip(inst.chip);
  const Figure& od = inst.price(PricingModel::OnDemand);
  std::string price = od.present() ? fmt::usd(od.value) + "/h" : "";
  for (int m = 0; price.empty() && m < kPricingModels; ++m)
    if (inst.prices[static_cast<size_t>(m)].present())
      price = fmt::usd(inst.prices[static_cast<size_t>(m)].value) + "/h " + describe(static_cast<PricingModel>(m));
  const double memory_gb = chip ? chip->hbm_bytes() * inst.chips / 1e9 : 0;
  return inst.provider + " · " + std::to_string(inst.chips) + " × " + (chip ? chip->name : inst.chip) + " · " +
         fmt::number(memory_gb, 4) + " GB · " + price;
}

// The instance picker: grouped by chip, each entry with provider, chips, memory and price.
bool instance_picker(Option& o) {
  const Catalog& c = builtin_catalog();
  bool changed = false;
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (widget::begin_combo("##instance", widget::scoped("instance"), o.instance == "custom" ? "Custom instance" : o.instance.c_str(), ImGuiComboFlags_HeightLarge)) {
    for (const Chip& chip : c.chips) {
      bool any = false;
      for (const Instance& inst : c.instances) any = any || inst.chip == chip.id;
      if (!any) continue;
      ImGui::PushFont(fonts().strong);
      ImGui::TextDisabled("%s", chip.name.c_str());
      ImGui::PopFont();
      for (const Instance& inst : c.instances) {
        if (inst.chip != chip.id) continue;
        ImGui::PushID(inst.id.c_str());
        if (ImGui::Selectable(inst.id.c_str(), o.instance == inst.id)) changed |= edit::set_instance(o, c, inst.id);
        ImGui::SameLine(em(11));
        ImGui::TextDisabled("%s", instance_summary(inst).c_str());
        ImGui::PopID();
      }
    }
    ImGui::Separator();
    // A custom instance starts as a copy of the catalog instance chosen so far (its chip, size and
    // price), so nothing changes until the user edits it.
    if (c.find_instance(o.instance) && ImGui::Selectable("Custom instance (your own price and specs)", false))
      changed |= edit::make_custom(o, c);
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered() && o.instance != "custom")
    if (const Instance* inst = c.find_instance(o.instance)) ImGui::SetTooltip("%s", instance_summary(*inst).c_str());
  return changed;
}

bool custom_editor(Option& o) {
  bool changed = false;
  CustomInstance& ci = *o.custom;
  const Catalog& c = builtin_catalog();
  ImGui::SetNextItemWidth(-FLT_MIN);
  const Chip* chip = c.find_chip(ci.chip);
  if (widget::begin_combo("##chip", widget::scoped("custom.chip"), chip ? chip->name.c_str() : "Own chip figures")) {
    for (const Chip& each : c.chips)
      if (ImGui::Selectable(each.name.c_str(), ci.chip == each.id)) changed |= edit::set_custom_chip(o, c, each.id);
    if (ImGui::Selectable("Own chip figures", ci.chip.empty()) && chip) changed |= edit::set_custom_chip(o, c, "");
    ImGui::EndCombo();
  }
  changed |= widget::integer(ci.chips, f::custom_chips);
  if (ci.chip.empty()) {
    changed |= widget::number(ci.peak_tflops, f::custom_peak_tflops);
    changed |= widget::number(ci.memory_gb, f::custom_memory_gb);
    int family = ci.family == Family::Trainium ? 0 : 1;
    const char* families[] = {"Trainium-like (porting)", "CUDA (no porting)"};  // the two of kFamilyWords, for people
    ImGui::SetNextItemWidth(-FLT_MIN);
    widget::name_id("##family", widget::scoped("custom.family"));
    if (ImGui::Combo("##family", &family, families, 2)) {
      ci.family = family == 0 ? Family::Trainium : Family::Nvidia;
      changed = true;
    }
  }
  return changed;
}

// MFU slider with the catalog's default marked on the track.
bool mfu_slider(Option& o, double fallback, const Figure* catalog_mfu) {
  float v = static_cast<float>(o.mfu.value_or(fallback));
  ImGui::SetNextItemWidth(-FLT_MIN);
  const float lo = static_cast<float>(f::mfu.bounds.min), hi = static_cast<float>(f::mfu.bounds.max);
  const bool changed = ImGui::SliderFloat("##mfu", &v, lo, hi, "%.2f", ImGuiSliderFlags_AlwaysClamp);
  const ImRect r(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  if (catalog_mfu && catalog_mfu->present()) {
    const float grab = ImGui::GetStyle().GrabMinSize;
    const float t = (static_cast<float>(catalog_mfu->value) - lo) / (hi - lo);
    const float x = r.Min.x + grab * 0.5f + t * (r.GetWidth() - grab);
    ImGui::GetWindowDrawList()->AddTriangleFilled(ImVec2(x - 4, r.Max.y + 1), ImVec2(x + 4, r.Max.y + 1), ImVec2(x, r.Max.y - 5),
                                                  palette().warn);
  }
  if (ImGui::IsItemHovered()) {
    widget::field_tooltip(f::mfu, catalog_mfu ? "catalog default " + fmt::number(catalog_mfu->value) + " (marked ▲): " + cite(catalog_mfu) : "");
  }
  if (changed) o.mfu = std::round(static_cast<double>(v) * 100) / 100;
  return changed;
}

// A row whose label column opens or closes the rows below it (collapsible groups in the table).
bool group_row(const char* label, bool default_open) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  return ImGui::TreeNodeEx(label, ImGuiTreeNodeFlags_SpanFullWidth | ImGuiTreeNodeFlags_NoTreePushOnOpen |
                                      (default_open ? ImGuiTreeNodeFlags_DefaultOpen : 0));
}

void label_cell(const char* label, const FieldSpec* spec = nullptr) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  if (spec && ImGui::IsItemHovered()) widget::field_tooltip(*spec);
}
void label_cell(const FieldSpec& spec) { label_cell(field_label(spec).c_str(), &spec); }

}  // namespace

void draw_options(App& app) {
  Scenario& s = app.scenario;
  const Catalog& c = builtin_catalog();
  ImGui::PushFont(fonts().heading);
  ImGui::TextUnformatted("Options");
  ImGui::PopFont();
  ImGui::SameLine();
  ImGui::TextDisabled("the hardware you compare");

  const int n = static_cast<int>(s.options.size());
  bool changed = false;
  int remove = -1, duplicate = -1;
  // Defaults each empty field falls back to, per option (for the first workload's overrides-free view).
  std::vector<PairInputs> defaults;
  std::vector<OptionInfo> infos(s.options.size());
  for (size_t i = 0; i < s.options.size(); ++i) defaults.push_back(resolve_option(s.options[i], c, {}, &infos[i]));

  // One column per option, sharing the width; labels on the left.
  const ImGuiTableFlags flags = ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchSame;
  const float label_w = em(n > 2 ? 8.5f : 10.5f);
  if (ImGui::BeginTable("options", n + 1, flags)) {
    ImGui::TableSetupColumn("field", ImGuiTableColumnFlags_WidthFixed, label_w);
    for (int i = 0; i < n; ++i) ImGui::TableSetupColumn(("option" + std::to_string(i)).c_str(), ImGuiTableColumnFlags_WidthStretch);

    auto each = [&](auto&& body) {
      for (int i = 0; i < n; ++i) {
        ImGui::TableSetColumnIndex(i + 1);
        Scope scope(app.items, "options", i);
        body(static_cast<size_t>(i), s.options[static_cast<size_t>(i)]);
      }
    };

    label_cell("Label");
    each([&](size_t, Option& o) { changed |= widget::text("##label", widget::scoped("label"), o.label, 40, o.instance.c_str()); });

    label_cell("Compare against");
    each([&](size_t i, Option&) {
      if (widget::radio("reference", s.reference == static_cast<int>(i))) {
        s.reference = static_cast<int>(i);
        changed = true;
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Savings and break-even are shown against this option (usually what you run today)");
    });

    label_cell("Instance");
    each([&](size_t, Option& o) { changed |= instance_picker(o); });
    label_cell("");
    each([&](size_t i, Option& o) {
      if (o.instance != "custom") {
        ImGui::TextDisabled("%s", infos[i].chip_name.c_str());
      } else if (o.custom) {
        changed |= custom_editor(o);
      }
    });

    label_cell(f::instances);
    each([&](size_t i, Option& o) {
      changed |= widget::integer(o.instances, f::instances);
      ImGui::TextDisabled("%s chips", fmt::number(o.instances * defaults[i].chips_per_instance).c_str());
    });

    label_cell("Pricing");
    each([&](size_t, Option& o) {
      const Instance* inst = c.find_instance(o.instance);
      ImGui::SetNextItemWidth(-FLT_MIN);
      if (widget::begin_combo("##pricing", widget::scoped("pricing"), describe(o.pricing))) {
        for (int m = 0; m < kPricingModels; ++m) {
          const auto model = static_cast<PricingModel>(m);
          const Figure* price = inst ? &inst->price(model) : nullptr;
          const bool available = !inst || price->present() || o.price_usd_per_hour;
          if (!available) continue;
          std::string text = describe(model);
          if (price && price->present()) text += "  " + fmt::usd(price->value) + "/h";
          if (ImGui::Selectable(text.c_str(), o.pricing == model)) {
            o.pricing = model;
            changed = true;
          }
        }
        ImGui::EndCombo();
      }
    });

    label_cell("Price per instance-hour", &f::price_usd_per_hour);
    each([&](size_t i, Option& o) {
      changed |= widget::optional_number(o.price_usd_per_hour, defaults[i].price_usd_per_hour, f::price_usd_per_hour,
                                         cite(infos[i].catalog_price));
    });

    label_cell(f::discount);
    each([&](size_t, Option& o) { changed |= widget::number(o.discount, f::discount); });

    label_cell("Precision");
    each([&](size_t, Option& o) {
      int p = o.precision == Precision::FP8 ? 1 : 0;
      const char* precisions[] = {"BF16", "FP8"};
      ImGui::SetNextItemWidth(-FLT_MIN);
      widget::name_id("##precision", widget::scoped("precision"));
      if (ImGui::Combo("##precision", &p, precisions, 2)) {
        o.precision = p == 1 ? Precision::FP8 : Precision::BF16;
        changed = true;
      }
    });

    label_cell("Throughput from");
    each([&](size_t, Option& o) {
      int measured = o.measured_tokens_per_sec_per_chip ? 1 : 0;
      const char* sources[] = {"MFU × peak", "My measured run"};
      ImGui::SetNextItemWidth(-FLT_MIN);
      widget::name_id("##tsource", widget::scoped("throughput source"));
      if (ImGui::Combo("##tsource", &measured, sources, 2))
        changed |= edit::use_measured_throughput(o, c, s.workloads[static_cast<size_t>(app.ui.workload)], measured == 1);
    });

    label_cell("MFU", &f::mfu);
    each([&](size_t i, Option& o) {
      if (o.measured_tokens_per_sec_per_chip) {
        double v = *o.measured_tokens_per_sec_per_chip;
        if (widget::number(v, f::measured_tokens_per_sec_per_chip)) {
          o.measured_tokens_per_sec_per_chip = v;
          changed = true;
        }
        ImGui::TextDisabled("tokens/s per chip, measured");
      } else {
        changed |= mfu_slider(o, defaults[i].mfu, infos[i].catalog_mfu);
        if (o.mfu && widget::small_button("catalog default")) {
          o.mfu.reset();
          changed = true;
        }
      }
    });

    const bool costs_open = group_row("Porting and platform costs", true);
    each([&](size_t i, Option&) {
      ImGui::TextDisabled("%s", defaults[i].engineer_weeks > 0 ? (fmt::number(defaults[i].engineer_weeks) + " engineer-weeks").c_str() : "no port");
    });
    if (costs_open) {
      // Each platform cost: its field in the scenario, its resolved value, and the catalog
      // figure its default comes from (for the tooltip's source).
      for (const FieldSpec* spec : fields_of(Owner::Costs)) {
        label_cell(*spec);
        each([&](size_t i, Option& o) {
          const Figure* figure = spec->catalog_default ? c.defaults.find(spec->catalog_default, infos[i].family) : nullptr;
          changed |= widget::optional_field(o.porting, *spec, defaults[i].*(spec->resolved), cite(figure));
        });
      }
    }

    const bool reliability_open = group_row("Reliability and scale", false);
    each([&](size_t i, Option&) {
      ImGui::TextDisabled("MTBF %s h per instance", fmt::number(std::round(defaults[i].mtbf_hours_per_instance)).c_str());
    });
    if (reliability_open) {
      for (const FieldSpec* spec : fields_of(Owner::Reliability)) {
        label_cell(*spec);
        each([&](size_t i, Option& o) {
          // The checkpoint interval's default is the Young/Daly optimum the results computed.
          const bool interval = spec == &f::checkpoint_interval_hours;
          const double optimum = app.d.valid && i < app.d.results.workloads.front().options.size()
                                     ? app.d.results.workloads.front().options[i].checkpoint_interval_hours
                                     : 1.0;
          const Figure* figure = spec->catalog_default ? c.defaults.find(spec->catalog_default, infos[i].family) : nullptr;
          changed |= widget::optional_field(o.reliability, *spec, interval ? optimum : defaults[i].*(spec->resolved),
                                             interval ? "the Young/Daly optimum for this cluster" : cite(figure));
        });
      }
      label_cell(f::scaling_reference_chips);
      each([&](size_t i, Option& o) {
        changed |= widget::optional_number(o.scaling_reference_chips, o.instances * defaults[i].chips_per_instance,
                                           f::scaling_reference_chips, "none: no loss from scaling");
      });
      label_cell(f::scaling_per_doubling);
      each([&](size_t, Option& o) { changed |= widget::number(o.scaling_per_doubling, f::scaling_per_doubling); });
    }

    label_cell("");
    each([&](size_t i, Option&) {
      if (n < kUiMaxOptions && widget::small_button("Duplicate")) duplicate = static_cast<int>(i);
      if (n > 1) {
        if (n < kUiMaxOptions) ImGui::SameLine();
        if (widget::small_button("Remove")) remove = static_cast<int>(i);
      }
    });
    ImGui::EndTable();
  }
  if (n < kUiMaxOptions && widget::button("+ Add option")) duplicate = n - 1;

  if (duplicate >= 0 && n < kUiMaxOptions) changed |= edit::duplicate_option(s, duplicate);
  if (remove >= 0) changed |= edit::remove_option(s, remove);
  if (changed) app.edited();
}

}  // namespace traincost::web
