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
  const double memory = chip ? chip->hbm_bytes() * inst.chips : 0;
  return inst.provider + " · " + std::to_string(inst.chips) + " × " + (chip ? chip->name : inst.chip) + " · " +
         fmt::bytes(memory) + " · " + price;
}

// The instance picker: grouped by chip, each entry with provider, chips, memory and price.
bool instance_picker(Option& o) {
  const Catalog& c = builtin_catalog();
  bool changed = false;
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (ImGui::BeginCombo("##instance", o.instance == "custom" ? "Custom instance" : o.instance.c_str(), ImGuiComboFlags_HeightLarge)) {
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

bool custom_editor(Option& o, double current_mfu) {
  bool changed = false;
  CustomInstance& ci = *o.custom;
  const Catalog& c = builtin_catalog();
  ImGui::SetNextItemWidth(-FLT_MIN);
  const Chip* chip = c.find_chip(ci.chip);
  if (ImGui::BeginCombo("##chip", chip ? chip->name.c_str() : "Own chip figures")) {
    for (const Chip& each : c.chips)
      if (ImGui::Selectable(each.name.c_str(), ci.chip == each.id)) changed |= edit::set_custom_chip(o, c, each.id, current_mfu);
    if (ImGui::Selectable("Own chip figures", ci.chip.empty()) && chip) changed |= edit::set_custom_chip(o, c, "", current_mfu);
    ImGui::EndCombo();
  }
  changed |= widget::integer(ci.chips, f::custom_chips);
  if (ci.chip.empty()) {
    changed |= widget::number(ci.peak_tflops, f::custom_peak_tflops);
    changed |= widget::number(ci.memory_gb, f::custom_memory_gb);
    int family = ci.family == Family::Trainium ? 0 : 1;
    const char* families[] = {"Trainium-like (porting)", "CUDA (no porting)"};  // the two of kFamilyWords, for people
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::Combo("##family", &family, families, 2)) {
      ci.family = family == 0 ? Family::Trainium : Family::Nvidia;
      changed = true;
    }
  }
  return changed;
}

// Option `i`'s resolved numbers on the selected workload (nullptr before the first valid scenario).
const PairInputs* current_pair(const App& app, size_t i) {
  if (!app.d.valid || app.d.resolved.workloads.empty()) return nullptr;
  const size_t w = static_cast<size_t>(std::clamp(app.ui.workload, 0, static_cast<int>(app.d.resolved.workloads.size()) - 1));
  return i < app.d.resolved.workloads[w].options.size() ? &app.d.resolved.workloads[w].options[i] : nullptr;
}

// What the step-time model predicts for a pair, for the MFU field's default and its tooltip.
std::string prediction_note(const PairPerformance& p) {
  if (!p.layout_found) return "no layout fits in memory";
  return "predicted by the step-time model from the chip's figures, with " + describe(p.layout) + " (" +
         (p.validated ? "held-out median error " + fmt::percent(p.error_median)
                      : "no published measurement of this chip: Trn1's efficiency, wider range") +
         "; see the validation table on the methodology page)";
}

// The tokens/s per chip option `i` runs at on the selected workload (0 when it cannot run).
double current_rate(const App& app, size_t i) {
  if (!app.d.valid || app.d.results.workloads.empty()) return 0;
  const size_t w = static_cast<size_t>(std::clamp(app.ui.workload, 0, static_cast<int>(app.d.results.workloads.size()) - 1));
  const OptionResult& r = app.d.results.workloads[w].options[i];
  return r.feasible() ? r.tokens_per_sec / r.chips : 0;
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
        ImGui::PushID(i);
        body(static_cast<size_t>(i), s.options[static_cast<size_t>(i)]);
        ImGui::PopID();
      }
    };

    label_cell("Label");
    each([&](size_t, Option& o) { changed |= widget::text("##label", o.label, 40, o.instance.c_str()); });

    label_cell("Compare against");
    each([&](size_t i, Option&) {
      if (ImGui::RadioButton("reference", s.reference == static_cast<int>(i))) {
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
        changed |= custom_editor(o, current_pair(app, i) ? current_pair(app, i)->mfu : 0);
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
      if (ImGui::BeginCombo("##pricing", describe(o.pricing))) {
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
      if (ImGui::Combo("##precision", &p, precisions, 2)) {
        o.precision = p == 1 ? Precision::FP8 : Precision::BF16;
        changed = true;
      }
    });

    label_cell("Throughput from");
    each([&](size_t i, Option& o) {
      int measured = o.measured_tokens_per_sec_per_chip ? 1 : 0;
      const char* sources[] = {"MFU × peak", "My measured run"};
      ImGui::SetNextItemWidth(-FLT_MIN);
      if (ImGui::Combo("##tsource", &measured, sources, 2))
        changed |= edit::use_measured_throughput(o, current_rate(app, i), measured == 1);
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
        // Typed, not a slider: empty shows the prediction; "default" goes back to it.
        // An MFU taken from a published run (mfu_from_run) shows as the default; typing one replaces it.
        const PairInputs* pair = current_pair(app, i);
        const bool from_run = !o.mfu_from_run.empty();
        const double fallback = pair ? (from_run ? pair->mfu : pair->performance.mfu) : 0;
        if (widget::optional_number(o.mfu, fallback, f::mfu,
                                    from_run ? "as realized by run " + o.mfu_from_run : pair ? prediction_note(pair->performance) : "")) {
          if (o.mfu) o.mfu_from_run.clear();
          changed = true;
        }
      }
    });

    label_cell("Layout (predicted)");
    each([&](size_t i, Option&) {
      const PairInputs* pair = current_pair(app, i);
      if (!pair) return;
      const PairPerformance& p = pair->performance;
      ImGui::PushTextWrapPos(0);
      if (p.layout_found) ImGui::TextDisabled("%s", describe(p.layout).c_str());
      else ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette().bad), "no layout fits in memory");
      ImGui::PopTextWrapPos();
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
          // The checkpoint pause, the restart time and the interval are derived per workload:
          // their defaults are what the results computed for the first workload.
          const OptionResult* r = app.d.valid && i < app.d.results.workloads.front().options.size()
                                      ? &app.d.results.workloads.front().options[i]
                                      : nullptr;
          const double derived = spec == &f::checkpoint_interval_hours ? (r ? r->checkpoint_interval_hours : 1.0)
                                 : spec == &f::checkpoint_write_minutes ? (r ? r->checkpoint_pause_hours * 60 : 1.0)
                                 : spec == &f::restart_minutes          ? (r ? r->restart_hours * 60 : 10.0)
                                                                        : -1;
          const Figure* figure = spec->catalog_default ? c.defaults.find(spec->catalog_default, infos[i].family) : nullptr;
          changed |= widget::optional_field(o.reliability, *spec, derived >= 0 ? derived : defaults[i].*(spec->resolved),
                                             derived >= 0 ? std::string("derived for this cluster: ") + spec->default_text : cite(figure));
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
      if (n < kUiMaxOptions && ImGui::SmallButton("Duplicate")) duplicate = static_cast<int>(i);
      if (n > 1) {
        if (n < kUiMaxOptions) ImGui::SameLine();
        if (ImGui::SmallButton("Remove")) remove = static_cast<int>(i);
      }
    });
    ImGui::EndTable();
  }
  if (n < kUiMaxOptions && ImGui::Button("+ Add option")) duplicate = n - 1;

  if (duplicate >= 0 && n < kUiMaxOptions) changed |= edit::duplicate_option(s, duplicate);
  if (remove >= 0) changed |= edit::remove_option(s, remove);
  if (changed) app.edited();
}

}  // namespace traincost::web
