// The options editor: 2 to 4 hardware options side by side, one column each. Empty fields show
// their default (from the catalog, for the chosen chip and family) muted, with its source.
#include <algorithm>
#include <cmath>

#include "app.hpp"
#include "imgui.h"
#include "imgui_internal.h"
#include "traincost/format.hpp"
#include "traincost/formulas.hpp"
#include "traincost/inputs.hpp"
#include "traincost/resolve.hpp"
#include "ui/panels.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace traincost::web {
namespace {

using widget::Style;
namespace f = traincost::fields;
constexpr int kUiMaxOptions = 4;

std::string cite(const Figure* figure) {
  if (!figure || !figure->present()) return {};
  const Source* s = builtin_catalog().find_source(figure->source);
  std::string text = (s ? s->title : figure->source) + ", " + figure->as_of;
  if (figure->estimate) text += " (estimate)";
  if (!figure->note.empty()) text += ". " + figure->note;
  return text;
}

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
        if (ImGui::Selectable(inst.id.c_str(), o.instance == inst.id)) {
          o.instance = inst.id;
          o.custom.reset();
          if (!inst.price(o.pricing).present())
            for (int m = 0; m < kPricingModels; ++m)
              if (inst.prices[static_cast<size_t>(m)].present()) {
                o.pricing = static_cast<PricingModel>(m);
                break;
              }
          if (o.precision == Precision::FP8 && !chip.fp8_tflops.present()) o.precision = Precision::BF16;
          changed = true;
        }
        ImGui::SameLine(em(11));
        ImGui::TextDisabled("%s", instance_summary(inst).c_str());
        ImGui::PopID();
      }
    }
    ImGui::Separator();
    // A custom instance starts as a copy of the catalog instance chosen so far (its chip, size and
    // price), so nothing changes until the user edits it.
    const Instance* current = c.find_instance(o.instance);
    if (current && ImGui::Selectable("Custom instance (your own price and specs)", false)) {
      CustomInstance ci;
      ci.chip = current->chip;
      ci.chips = current->chips;
      if (const Chip* chip = c.find_chip(ci.chip)) ci.family = chip->family;
      const PairInputs p = resolve_option(o, c);
      if (p.price_usd_per_hour > 0) o.price_usd_per_hour = p.price_usd_per_hour;
      o.instance = "custom";
      o.custom = ci;
      changed = true;
    }
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
  if (ImGui::BeginCombo("##chip", chip ? chip->name.c_str() : "Own chip figures")) {
    for (const Chip& each : c.chips)
      if (ImGui::Selectable(each.name.c_str(), ci.chip == each.id)) {
        ci.chip = each.id;
        ci.family = each.family;
        changed = true;
      }
    if (ImGui::Selectable("Own chip figures", ci.chip.empty()) && chip) {
      // Start from the chip chosen so far, so nothing changes until the user edits the figures.
      if (ci.peak_tflops <= 0) ci.peak_tflops = chip->peak_tflops(o.precision).value;
      if (ci.memory_gb <= 0) ci.memory_gb = chip->hbm_bytes() / 1e9;
      if (!o.mfu) o.mfu = chip->mfu.value;
      ci.chip.clear();
      changed = true;
    }
    ImGui::EndCombo();
  }
  changed |= widget::integer("##cchips", ci.chips, f::custom_chips);
  if (ci.chip.empty()) {
    changed |= widget::number("##cpeak", ci.peak_tflops, f::custom_peak_tflops);
    changed |= widget::number("##cmem", ci.memory_gb, f::custom_memory_gb);
    int family = ci.family == Family::Trainium ? 0 : 1;
    const char* families[] = {"Trainium-like (porting)", "CUDA (no porting)"};
    ImGui::SetNextItemWidth(-FLT_MIN);
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
  const float lo = static_cast<float>(f::mfu.min), hi = static_cast<float>(f::mfu.max);
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
        changed |= custom_editor(o);
      }
    });

    label_cell("Instances", &f::instances);
    each([&](size_t i, Option& o) {
      changed |= widget::integer("##count", o.instances, f::instances);
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
      changed |= widget::optional_number("##price", o.price_usd_per_hour, defaults[i].price_usd_per_hour, f::price_usd_per_hour,
                                         Style::Usd, cite(infos[i].catalog_price));
    });

    label_cell("Discount", &f::discount);
    each([&](size_t, Option& o) { changed |= widget::number("##discount", o.discount, f::discount, Style::Percent); });

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
      if (ImGui::Combo("##tsource", &measured, sources, 2)) {
        if (measured) {
          // Start from what the current MFU implies, so switching changes nothing until edited.
          const Workload& w = s.workloads[static_cast<size_t>(app.ui.workload)];
          const double per_token = flops_per_token(w.model, w.recompute);
          o.measured_tokens_per_sec_per_chip =
              std::round(defaults[i].mfu * defaults[i].peak_flops_per_chip / per_token);
          if (!(*o.measured_tokens_per_sec_per_chip > 0)) o.measured_tokens_per_sec_per_chip = 1000;
        } else {
          o.measured_tokens_per_sec_per_chip.reset();
        }
        changed = true;
      }
    });

    label_cell("MFU", &f::mfu);
    each([&](size_t i, Option& o) {
      if (o.measured_tokens_per_sec_per_chip) {
        double v = *o.measured_tokens_per_sec_per_chip;
        if (widget::number("##measured", v, f::measured_tokens_per_sec_per_chip, Style::Quantity)) {
          o.measured_tokens_per_sec_per_chip = v;
          changed = true;
        }
        ImGui::TextDisabled("tokens/s per chip, measured");
      } else {
        changed |= mfu_slider(o, defaults[i].mfu, infos[i].catalog_mfu);
        if (o.mfu && ImGui::SmallButton("catalog default")) {
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
      using CatalogFigure = const Figure& (*)(const Defaults&, const PlatformDefaults&);
      struct CostRow {
        const char* label;
        const FieldSpec* spec;
        std::optional<double> PlatformCosts::*field;
        double PairInputs::*fallback;
        Style style;
        CatalogFigure figure;
      };
      static const Figure none;
      const CostRow rows[] = {
          {"Porting effort (weeks)", &f::engineer_weeks, &PlatformCosts::engineer_weeks, &PairInputs::engineer_weeks, Style::Plain,
           [](const Defaults&, const PlatformDefaults& p) -> const Figure& { return p.engineer_weeks; }},
          {"Cost per engineer-week", &f::usd_per_engineer_week, &PlatformCosts::usd_per_engineer_week, &PairInputs::usd_per_engineer_week, Style::Usd,
           [](const Defaults& d, const PlatformDefaults&) -> const Figure& { return d.usd_per_engineer_week; }},
          {"Validation runs", &f::validation_runs, &PlatformCosts::validation_runs, &PairInputs::validation_runs, Style::Plain,
           [](const Defaults&, const PlatformDefaults& p) -> const Figure& { return p.validation_runs; }},
          {"Each, share of a run", &f::validation_run_fraction, &PlatformCosts::validation_run_fraction, &PairInputs::validation_run_fraction,
           Style::Percent, [](const Defaults&, const PlatformDefaults& p) -> const Figure& { return p.validation_run_fraction; }},
          {"Convergence penalty", &f::convergence_penalty, &PlatformCosts::convergence_penalty, &PairInputs::convergence_penalty, Style::Percent,
           [](const Defaults&, const PlatformDefaults& p) -> const Figure& { return p.convergence_penalty; }},
          {"Compile hours per run", &f::compile_hours_per_run, &PlatformCosts::compile_hours_per_run, &PairInputs::compile_hours_per_run,
           Style::Plain, [](const Defaults&, const PlatformDefaults& p) -> const Figure& { return p.compile_hours_per_run; }},
          {"Maintenance per year", &f::maintenance_usd_per_year, &PlatformCosts::maintenance_usd_per_year, &PairInputs::maintenance_usd_per_year,
           Style::Usd, [](const Defaults&, const PlatformDefaults& p) -> const Figure& { return p.maintenance_usd_per_year; }},
          {"Data egress per run (TB)", &f::egress_tb_per_run, &PlatformCosts::egress_tb_per_run, &PairInputs::egress_tb_per_run, Style::Plain,
           [](const Defaults&, const PlatformDefaults&) -> const Figure& { return none; }},
          {"Egress price per TB", &f::egress_usd_per_tb, &PlatformCosts::egress_usd_per_tb, &PairInputs::egress_usd_per_tb, Style::Usd,
           [](const Defaults& d, const PlatformDefaults&) -> const Figure& { return d.egress_usd_per_tb; }},
      };
      const Defaults& d = c.defaults;
      for (const CostRow& row : rows) {
        label_cell(row.label, row.spec);
        each([&](size_t i, Option& o) {
          const Figure& figure = row.figure(d, d.platform(infos[i].family));
          changed |= widget::optional_number("##cost", o.porting.*(row.field), defaults[i].*(row.fallback), *row.spec, row.style,
                                             cite(&figure));
        });
      }
    }

    const bool reliability_open = group_row("Reliability and scale", false);
    each([&](size_t i, Option&) {
      ImGui::TextDisabled("MTBF %s h per instance", fmt::number(std::round(defaults[i].mtbf_hours_per_instance)).c_str());
    });
    if (reliability_open) {
      label_cell("MTBF per instance (h)", &f::mtbf_hours_per_instance);
      each([&](size_t i, Option& o) {
        changed |= widget::optional_number("##mtbf", o.reliability.mtbf_hours_per_instance, defaults[i].mtbf_hours_per_instance,
                                           f::mtbf_hours_per_instance, Style::Plain, cite(&c.defaults.mtbf_hours_per_chip));
      });
      label_cell("Checkpoint write (min)", &f::checkpoint_write_minutes);
      each([&](size_t i, Option& o) {
        changed |= widget::optional_number("##ckpt", o.reliability.checkpoint_write_minutes, defaults[i].checkpoint_write_minutes,
                                           f::checkpoint_write_minutes, Style::Plain, cite(&c.defaults.checkpoint_write_minutes));
      });
      label_cell("Restart (min)", &f::restart_minutes);
      each([&](size_t i, Option& o) {
        changed |= widget::optional_number("##restart", o.reliability.restart_minutes, defaults[i].restart_minutes, f::restart_minutes,
                                           Style::Plain, cite(&c.defaults.restart_minutes));
      });
      label_cell("Checkpoint every (h)", &f::checkpoint_interval_hours);
      each([&](size_t i, Option& o) {
        const double optimum = app.d.valid && i < app.d.results.workloads.front().options.size()
                                   ? app.d.results.workloads.front().options[i].checkpoint_interval_hours
                                   : 1.0;
        changed |= widget::optional_number("##interval", o.reliability.checkpoint_interval_hours, optimum, f::checkpoint_interval_hours,
                                           Style::Plain, "the Young/Daly optimum for this cluster");
      });
      label_cell("Throughput measured at (chips)", &f::scaling_reference_chips);
      each([&](size_t i, Option& o) {
        changed |= widget::optional_number("##refchips", o.scaling_reference_chips, o.instances * defaults[i].chips_per_instance,
                                           f::scaling_reference_chips, Style::Plain, "none: no loss from scaling");
      });
      label_cell("Kept per doubling", &f::scaling_per_doubling);
      each([&](size_t, Option& o) { changed |= widget::number("##perdoubling", o.scaling_per_doubling, f::scaling_per_doubling, Style::Percent); });
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

  if (duplicate >= 0 && n < kUiMaxOptions) {
    Option copy = s.options[static_cast<size_t>(duplicate)];
    copy.label = (copy.label.empty() ? copy.instance : copy.label) + " (2)";
    s.options.insert(s.options.begin() + duplicate + 1, copy);
    // Workload overrides point at options by index: shift those after the insertion.
    for (Workload& w : s.workloads)
      for (WorkloadOverride& ov : w.overrides)
        if (ov.option > duplicate) ++ov.option;
    for (Range& r : s.ranges)
      if (auto ref = parse_input_path(r.input); ref && ref->kind->scope == InputScope::Option && ref->index > duplicate) {
        ++ref->index;
        r.input = ref->path();
      }
    if (s.reference > duplicate) ++s.reference;
    changed = true;
  }
  if (remove >= 0) {
    s.options.erase(s.options.begin() + remove);
    for (Workload& w : s.workloads) {
      w.overrides.erase(std::remove_if(w.overrides.begin(), w.overrides.end(), [&](const WorkloadOverride& ov) { return ov.option == remove; }),
                        w.overrides.end());
      for (WorkloadOverride& ov : w.overrides)
        if (ov.option > remove) --ov.option;
    }
    // Ranges on options point by index too.
    s.ranges.erase(std::remove_if(s.ranges.begin(), s.ranges.end(),
                                  [&](const Range& r) { return r.input.rfind("options[" + std::to_string(remove) + "]", 0) == 0; }),
                   s.ranges.end());
    for (Range& r : s.ranges)
      if (auto ref = parse_input_path(r.input); ref && ref->kind->scope == InputScope::Option && ref->index > remove) {
        --ref->index;
        r.input = ref->path();
      }
    if (s.reference == remove) s.reference = 0;
    else if (s.reference > remove) --s.reference;
    changed = true;
  }
  if (changed) app.edited();
}

}  // namespace traincost::web
