// The options editor: 2 to 4 hardware options. On wide screens they sit side by side, one column
// each, labels on the left; on phone-sized screens each option is a block of its own, one field
// per row. Empty fields show their default (from the catalog, for the chosen chip and family)
// muted, with its source; figures that are estimates say so.
//
// Index of this file (as imgui_demo.cpp's):
// [SECTION] Pickers: the instance and the custom instance
// [SECTION] The editor's parts: columns, rows and groups
// [SECTION] What the results say about an option (its resolved pair, layout, rate)
// [SECTION] Group: the option itself (label, instance, pricing, precision)
// [SECTION] Group: speed and layout
// [SECTION] Group: pin the layout
// [SECTION] Group: porting and platform costs
// [SECTION] Group: reliability and scale
// [SECTION] Group: duplicate and remove
// [SECTION] Layouts: side by side, stacked
// [SECTION] draw_options()
#include <algorithm>
#include <cmath>

#include "app.hpp"
#include "imgui.h"
#include "imgui_internal.h"
#include "platform.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/api/edit.hpp"
#include "traincost/base/format.hpp"
#include "traincost/engine/resolve.hpp"
#include "traincost/engine/resolve_pair.hpp"
#include "traincost/model/formulas.hpp"
#include "traincost/output/present.hpp"
#include "traincost/output/report.hpp"
#include "traincost/scenario/inputs.hpp"
#include "ui/charts.hpp"
#include "ui/panels.hpp"
#include "ui/replay_dialog.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace traincost::web {
namespace {

namespace f = traincost::fields;
// Side by side while each option keeps this much width; more options (up to the scenario's eight)
// than the pane holds at it are stacked, each a block of its own, as on a phone.
constexpr float kMinColumnEm = 6.5f;

//-------------------------------------------------------------------------------------------------
// [SECTION] Pickers: the instance and the custom instance
//-------------------------------------------------------------------------------------------------

std::string cite(const Figure* figure) { return figure ? citation(*figure, builtin_catalog()) : std::string(); }

// "AWS · 16 × Trainium2 (96 GiB each) · $35.76/h": memory per chip in bytes, as the Catalog tab
// shows it.
std::string instance_summary(const Instance& inst) {
  const Catalog& c = builtin_catalog();
  const Chip* chip = c.find_chip(inst.chip);
  const Figure& od = inst.price(PricingModel::OnDemand);
  std::string price = od.present() ? fmt::usd(od.value) + "/h" : "";
  for (int m = 0; price.empty() && m < kPricingModels; ++m)
    if (inst.prices[static_cast<size_t>(m)].present())
      price = fmt::usd(inst.prices[static_cast<size_t>(m)].value) + "/h " + describe(static_cast<PricingModel>(m));
  std::string memory = chip ? " (" + fmt::bytes(chip->hbm_bytes()) + " each)" : "";
  return inst.provider + " · " + std::to_string(inst.chips) + " × " + (chip ? chip->name : inst.chip) + memory + " · " + price;
}

// The instance picker: grouped by chip, each entry with provider, chips, memory and price (on two
// lines where the screen is narrow).
bool instance_picker(Option& o, bool compact) {
  const Catalog& c = builtin_catalog();
  bool changed = false;
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (widget::begin_combo("##instance", widget::scoped("instance"), o.instance == "custom" ? "Custom instance" : o.instance.c_str(),
                          ImGuiComboFlags_HeightLarge)) {
    for (const Chip& chip : c.chips) {
      bool any = false;
      for (const Instance& inst : c.instances) any = any || inst.chip == chip.id;
      if (!any) continue;
      ImGui::PushFont(fonts().strong);
      ImGui::TextDisabled("%s", chip.name.c_str());
      ImGui::PopFont();
      for (const Instance& inst : c.instances) {
        if (inst.chip != chip.id) continue;
        const std::string label = inst.id + (compact ? "\n  " : "   ") + instance_summary(inst) + "###" + inst.id;
        widget::name_id(label.c_str(), inst.id);
        if (ImGui::Selectable(label.c_str(), o.instance == inst.id)) changed |= edit::set_instance(o, c, inst.id);
      }
    }
    ImGui::Separator();
    // A custom instance starts as a copy of the catalog instance chosen so far (its chip, size and
    // price), so nothing changes until the user edits it.
    if (c.find_instance(o.instance) && widget::selectable("Custom instance (your own price and specs)")) changed |= edit::make_custom(o, c);
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
  if (widget::begin_combo("##chip", widget::scoped("custom.chip"), chip ? chip->name.c_str() : "Own chip figures")) {
    for (const Chip& each : c.chips)
      if (widget::selectable(each.name.c_str(), ci.chip == each.id)) changed |= edit::set_custom_chip(o, c, each.id, current_mfu);
    if (widget::selectable("Own chip figures", ci.chip.empty()) && chip) changed |= edit::set_custom_chip(o, c, "", current_mfu);
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

//-------------------------------------------------------------------------------------------------
// [SECTION] The editor's parts: columns, rows and groups
//-------------------------------------------------------------------------------------------------

// What every cell of the editor works with in a frame, and the edits it asks for.
struct Editor {
  App& app;
  Scenario& s;
  const Catalog& c;
  int n;            // options
  size_t wi;        // the selected workload of the scenario being edited (pins are per workload)
  bool compact;     // phone-sized: options stacked
  bool changed = false;
  int remove = -1, duplicate = -1;  // an option to remove or duplicate after the frame
};

// What each option shares: its index, the option, its resolved defaults and catalog facts.
struct Column {
  size_t index;
  Option& option;
  const PairInputs& defaults;
  const OptionInfo& info;
};

// One row of the editor: a label (with the field's tooltip) and a cell per option. `spec` is the
// field the row edits, if any (the cell of a row per field of a table reads it).
struct Row {
  std::string label;
  const FieldSpec* spec = nullptr;
  void (*cell)(Editor&, Column&, const FieldSpec*) = nullptr;
};

// A titled group of rows that can be folded away.
struct Group {
  const char* title;  // "" for the rows always shown
  bool open_by_default;
  std::string (*summary)(Editor&, Column&);  // shown per option while folded (may be null)
  std::vector<Row> rows;
};

//-------------------------------------------------------------------------------------------------
// [SECTION] What the results say about an option (its resolved pair, layout, rate)
//-------------------------------------------------------------------------------------------------

// Option `i`'s resolved numbers on the selected workload (nullptr before the first valid scenario).
const PairInputs* current_pair(const App& app, size_t i) {
  if (!app.d.valid || app.d.resolved.workloads.empty()) return nullptr;
  const size_t w = app.selected_workload();
  return i < app.d.resolved.workloads[w].options.size() ? &app.d.resolved.workloads[w].options[i] : nullptr;
}

// The value of the layout key `pin` (a field of LayoutPins) in a layout.
double layout_value(const Layout& l, const FieldSpec& pin) {
  if (&pin == &f::pin_tensor) return l.tensor;
  if (&pin == &f::pin_pipeline) return l.pipeline;
  if (&pin == &f::pin_data) return l.data;
  if (&pin == &f::pin_context) return l.context;
  if (&pin == &f::pin_expert) return l.expert;
  if (&pin == &f::pin_micro_batch) return l.micro_batch;
  if (&pin == &f::pin_interleave) return l.interleave;
  if (&pin == &f::pin_zero) return l.zero;
  return 0;
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
  const size_t w = app.selected_workload();
  const OptionResult& r = app.d.results.workloads[w].options[i];
  return r.feasible() ? r.tokens_per_sec / r.chips : 0;
}

//-------------------------------------------------------------------------------------------------
// [SECTION] Group: the option itself (label, instance, pricing, precision)
//-------------------------------------------------------------------------------------------------

void label_cell(Editor& e, Column& col, const FieldSpec*) {
  // Without a label of its own, the option shows its automatic one (it follows the instance and count).
  const std::string automatic = automatic_label(col.option, e.c);
  e.changed |= widget::text("##label", widget::scoped("label"), col.option.label, 40, automatic.c_str());
}

void reference_cell(Editor& e, Column& col, const FieldSpec*) {
  if (widget::radio("reference", e.s.reference == static_cast<int>(col.index))) {
    e.s.reference = static_cast<int>(col.index);
    e.changed = true;
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Savings and break-even are shown against this option (usually what you run today)");
}

void instance_cell(Editor& e, Column& col, const FieldSpec*) {
  e.changed |= instance_picker(col.option, e.compact);
  if (col.option.instance != "custom") ImGui::TextDisabled("%s", col.info.chip_name.c_str());
  else if (col.option.custom) e.changed |= custom_editor(col.option, current_pair(e.app, col.index) ? current_pair(e.app, col.index)->mfu : 0);
}

void instances_cell(Editor& e, Column& col, const FieldSpec*) {
  int count = col.option.instances;
  if (widget::integer(count, f::instances)) e.changed |= edit::set_instances(col.option, e.c, count);
  const double chips = col.option.instances * col.defaults.chips_per_instance;
  ImGui::TextDisabled("%s %s", fmt::number(chips).c_str(), chips == 1 ? "chip" : "chips");
}

void pricing_cell(Editor& e, Column& col, const FieldSpec*) {
  Option& o = col.option;
  const Instance* inst = e.c.find_instance(o.instance);
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (widget::begin_combo("##pricing", widget::scoped("pricing"), describe(o.pricing))) {
    for (int m = 0; m < kPricingModels; ++m) {
      const auto model = static_cast<PricingModel>(m);
      const Figure* price = inst ? &inst->price(model) : nullptr;
      if (inst && !price->present() && !o.price_usd_per_hour) continue;
      std::string text = describe(model);
      if (price && price->present()) text += "  " + fmt::usd(price->value) + "/h";
      if (widget::selectable(text.c_str(), o.pricing == model)) {
        edit::set_pricing(o, e.c, model);
        e.changed = true;
      }
    }
    ImGui::EndCombo();
  }
}

void price_cell(Editor& e, Column& col, const FieldSpec*) {
  e.changed |= widget::optional_number(col.option.price_usd_per_hour, col.defaults.price_usd_per_hour, f::price_usd_per_hour,
                                       cite(col.info.catalog_price));
  // A catalog price for another region than the reference option's is flagged where it is typed.
  const Instance* mine = e.c.find_instance(col.option.instance);
  const Instance* ref =
      e.s.reference >= 0 && e.s.reference < e.n ? e.c.find_instance(e.s.options[static_cast<size_t>(e.s.reference)].instance) : nullptr;
  if (!col.option.price_usd_per_hour && mine && ref && mine != ref && mine->provider == ref->provider && mine->region != ref->region)
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette().warn), "%s %s, not %s", kEstimateMark, mine->region.c_str(), ref->region.c_str());
}

void discount_cell(Editor& e, Column& col, const FieldSpec*) { e.changed |= widget::number(col.option.discount, f::discount); }

void precision_cell(Editor& e, Column& col, const FieldSpec*) {
  int p = col.option.precision == Precision::FP8 ? 1 : 0;
  const char* precisions[] = {"BF16", "FP8"};
  ImGui::SetNextItemWidth(-FLT_MIN);
  widget::name_id("##precision", widget::scoped("precision"));
  if (ImGui::Combo("##precision", &p, precisions, 2)) {
    col.option.precision = p == 1 ? Precision::FP8 : Precision::BF16;
    e.changed = true;
  }
}

Group basics_group() {
  return {"", true, nullptr,
          {{"Label", nullptr, label_cell},
           {"Compare against", nullptr, reference_cell},
           {"Instance", nullptr, instance_cell},
           {field_label(f::instances), &f::instances, instances_cell},
           {"Pricing", nullptr, pricing_cell},
           {"Price per instance-hour", &f::price_usd_per_hour, price_cell},
           {field_label(f::discount), &f::discount, discount_cell},
           {"Precision", nullptr, precision_cell}}};
}

//-------------------------------------------------------------------------------------------------
// [SECTION] Group: speed and layout
//-------------------------------------------------------------------------------------------------
// Where the throughput comes from (predicted, the user's MFU or a measured rate), the prediction's
// layout and step time, and how far to trust it.

std::string speed_summary(Editor& e, Column& col) {
  const PairInputs* pair = current_pair(e.app, col.index);
  return pair ? "MFU " + fmt::percent(pair->mfu) : std::string();
}

void throughput_source_cell(Editor& e, Column& col, const FieldSpec*) {
  int measured = col.option.measured_tokens_per_sec_per_chip ? 1 : 0;
  const char* sources[] = {"Predicted, or my MFU", "My measured run"};
  ImGui::SetNextItemWidth(-FLT_MIN);
  widget::name_id("##tsource", widget::scoped("throughput source"));
  if (ImGui::Combo("##tsource", &measured, sources, 2))
    e.changed |= edit::use_measured_throughput(col.option, current_rate(e.app, col.index), measured == 1);
}

void mfu_cell(Editor& e, Column& col, const FieldSpec*) {
  Option& o = col.option;
  if (o.measured_tokens_per_sec_per_chip) {
    double v = *o.measured_tokens_per_sec_per_chip;
    if (widget::number(v, f::measured_tokens_per_sec_per_chip)) {
      o.measured_tokens_per_sec_per_chip = v;
      e.changed = true;
    }
    ImGui::TextDisabled("tokens/s per chip, measured");
    return;
  }
  // Typed like every other field (a slider jumped to wherever it was clicked). Empty, it shows the
  // predicted MFU; what the user types is the option's own MFU.
  // An MFU taken from a published run (mfu_from_run) shows in its place; typing one replaces it.
  const PairInputs* pair = current_pair(e.app, col.index);
  const bool from_run = !o.mfu_from_run.empty();
  const double shown = pair ? (from_run ? pair->mfu : pair->performance.mfu) : 0;
  const double predicted = std::round(shown * 1000) / 1000;  // as typed: 0.382
  if (widget::optional_field(o, f::mfu, predicted,
                             from_run ? "as realized by run " + o.mfu_from_run : pair ? prediction_note(pair->performance) : "")) {
    if (o.mfu) o.mfu_from_run.clear();
    e.changed = true;
  }
  if (!o.mfu && from_run) {
    ImGui::TextDisabled("as realized by %s", o.mfu_from_run.c_str());
    widget::note(widget::scoped("mfu source"), "as realized by " + o.mfu_from_run);
  } else if (!o.mfu && pair) {
    const bool estimate = !pair->performance.validated;
    const std::string text = std::string(estimate ? kEstimateMark : "") + "predicted";
    if (estimate) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette().warn), "%s", text.c_str());
    else ImGui::TextDisabled("%s", text.c_str());
    widget::note(widget::scoped("mfu source"), text);
  } else if (o.mfu) {
    ImGui::TextDisabled("yours");
    widget::note(widget::scoped("mfu source"), "yours");
  }
  // A published run's realized utilization as the assumption (replay_dialog.hpp).
  if (widget::small_button("Published runs…")) open_replay_dialog(e.app, static_cast<int>(col.index));
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Compare with a published run: predicted vs published chip-hours, and use a run's realized utilization here");
}

void layout_cell(Editor& e, Column& col, const FieldSpec*) {
  const PairInputs* pair = current_pair(e.app, col.index);
  if (!pair) return;
  const PairPerformance& p = pair->performance;
  if (p.layout_found) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    widget::wrapped(describe(p.layout), 0, "layout");
    ImGui::PopStyleColor();
  } else {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette().bad), "no layout fits in memory");
    widget::note("layout", "no layout fits in memory");
  }
}

void step_time_cell(Editor& e, Column& col, const FieldSpec*) {
  const PairInputs* pair = current_pair(e.app, col.index);
  if (!pair || !pair->performance.layout_found) return;
  const StepBreakdown& b = pair->performance.time.breakdown;
  const Palette& pal = palette();
  chart::ShareBarSpec bar;
  bar.id = "step time";
  static_assert(std::size(Palette{}.stack) >= kStepPartCount, "the theme needs a colour for every part of a step");
  for (size_t k = 0; k < kStepPartCount; ++k) {
    bar.segments.push_back({kStepParts[k].label, pal.stack[k]});
    bar.values.push_back(b.*kStepParts[k].member);
  }
  chart::share_bar(bar);
  std::string parts;
  for (size_t k = 0; k < bar.values.size(); ++k)
    if (bar.values[k] > 0) parts += (parts.empty() ? "" : ", ") + bar.segments[k].label + " " + fmt::percent(bar.values[k] / b.total());
  widget::note(widget::scoped("step time"), chart::format(b.total(), chart::Unit::Seconds) + ": " + parts);
  // The parts worth naming, in the bar's colours, so the bar reads without hovering.
  ImGui::TextDisabled("%s per step:", chart::format(b.total(), chart::Unit::Seconds).c_str());
  for (size_t k = 0; k < bar.values.size(); ++k) {
    if (!(bar.values[k] >= 0.05 * b.total())) continue;
    ImGui::SameLine(0, em(0.4f));
    if (ImGui::GetContentRegionAvail().x < em(7)) ImGui::NewLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(bar.segments[k].color), "%s %s", bar.segments[k].label.c_str(),
                       fmt::percent(bar.values[k] / b.total()).c_str());
  }
}

void how_sure_cell(Editor& e, Column& col, const FieldSpec*) {
  const PairInputs* pair = current_pair(e.app, col.index);
  if (!pair) return;
  const PairPerformance& p = pair->performance;
  std::string text = "Predicted from hardware specs and " + fmt::number(p.measurements) + " public measurements (median error " +
                     fmt::percent(p.error_median) + (!p.validated ? ", doubled: none of them on " + col.info.chip_name + ")"
                                                     : p.few_measurements ? ", at least doubled: too few to show a spread)"
                                                     : p.estimate_band ? ", an estimate: at least twice the dense-model error)" : ")");
  if (!p.validated || p.estimate_band) text = kEstimateMark + text;
  if (col.info.throughput != ThroughputSource::Predicted) text = "Prediction unused: " + text;
  // The step time is not the whole run: what published runs realized against their plan.
  const std::string whole = whole_run_note(e.c);
  if (!whole.empty()) text += "; " + whole;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  widget::wrapped(text, 0, "prediction");
  ImGui::PopStyleColor();
  if (widget::small_button("Validation table")) open_in_new_tab("methodology.html#validation");
}

Group speed_group() {
  return {"Speed and layout", true, speed_summary,
          {{"Throughput from", nullptr, throughput_source_cell},
           {"MFU", &f::mfu, mfu_cell},
           {"Layout", nullptr, layout_cell},
           {"Step time", nullptr, step_time_cell},
           {"How sure", nullptr, how_sure_cell}}};
}

//-------------------------------------------------------------------------------------------------
// [SECTION] Group: pin the layout
//-------------------------------------------------------------------------------------------------
// Layout keys pinned per workload (the selected one): a key left empty shows what the search chose.

// The keys option `option` pins on the selected workload.
LayoutPins pins_of(const Editor& e, size_t option) {
  LayoutPins none;
  for (const WorkloadOverride& ov : e.s.workloads[e.wi].overrides)
    if (ov.option == static_cast<int>(option)) return ov.parallelism;
  return none;
}

// "workloads[1].overrides[option 0].parallelism.tensor": a pin's name in the widget registry.
std::string pin_name(const Editor& e, const Column& col, const std::string& key) {
  return "workloads[" + std::to_string(e.wi) + "].overrides[option " + std::to_string(col.index) + "].parallelism." + key;
}

std::string pins_summary(Editor& e, Column& col) {
  if (e.s.workloads.empty()) return std::string();
  int pinned = 0;
  for (const WorkloadOverride& ov : e.s.workloads[e.wi].overrides)
    if (ov.option == static_cast<int>(col.index))
      for (const FieldSpec* spec : fields_of(Owner::Parallelism)) pinned += spec->get(ov.parallelism).has_value();
  return pinned ? std::to_string(pinned) + " pinned" : std::string("all searched");
}

void pinned_workload_cell(Editor& e, Column&, const FieldSpec*) { ImGui::TextDisabled("%s", workload_title(e.s.workloads[e.wi], e.wi).c_str()); }

void pin_cell(Editor& e, Column& col, const FieldSpec* spec) {
  if (e.s.workloads.empty()) return;
  const PairInputs* pair = current_pair(e.app, col.index);
  const double chosen = pair && pair->performance.layout_found ? layout_value(pair->performance.layout, *spec) : 0;
  std::optional<double> value = spec->get(pins_of(e, col.index));
  const std::string name = pin_name(e, col, spec->key());
  if (widget::optional_number(value, chosen, *spec, "searched: the fastest layout that fits", name.c_str()))
    e.changed |= edit::set_pin(e.s.workloads[e.wi], static_cast<int>(col.index), *spec, value);
}

void recompute_pin_cell(Editor& e, Column& col, const FieldSpec*) {
  if (e.s.workloads.empty()) return;
  const std::optional<Recompute> pinned = pins_of(e, col.index).recompute;
  const PairInputs* pair = current_pair(e.app, col.index);
  const std::string searched = "searched" + (pair && pair->performance.layout_found
                                                 ? std::string(" (") + word_of(kRecomputeWords, pair->performance.layout.recompute) + ")"
                                                 : std::string());
  ImGui::SetNextItemWidth(-FLT_MIN);
  Workload& w = e.s.workloads[e.wi];
  const int option = static_cast<int>(col.index);
  if (widget::begin_combo("##pin_recompute", pin_name(e, col, "recompute"), pinned ? word_of(kRecomputeWords, *pinned) : searched.c_str())) {
    if (widget::selectable(searched.c_str(), !pinned)) e.changed |= edit::set_recompute_pin(w, option, std::nullopt);
    for (const EnumWord<Recompute>& r : kRecomputeWords)
      if (widget::selectable(r.word, pinned == r.value)) e.changed |= edit::set_recompute_pin(w, option, r.value);
    ImGui::EndCombo();
  }
}

void sequence_parallel_pin_cell(Editor& e, Column& col, const FieldSpec*) {
  if (e.s.workloads.empty()) return;
  const std::optional<bool> pinned = pins_of(e, col.index).sequence_parallel;
  const PairInputs* pair = current_pair(e.app, col.index);
  const std::string searched = "searched" + (pair && pair->performance.layout_found
                                                 ? std::string(pair->performance.layout.sequence_parallel ? " (on)" : " (off)")
                                                 : std::string());
  ImGui::SetNextItemWidth(-FLT_MIN);
  Workload& w = e.s.workloads[e.wi];
  const int option = static_cast<int>(col.index);
  if (widget::begin_combo("##pin_sp", pin_name(e, col, "sequence_parallel"), pinned ? (*pinned ? "on" : "off") : searched.c_str())) {
    if (widget::selectable(searched.c_str(), !pinned)) e.changed |= edit::set_sequence_parallel_pin(w, option, std::nullopt);
    if (widget::selectable("on", pinned == true)) e.changed |= edit::set_sequence_parallel_pin(w, option, true);
    if (widget::selectable("off", pinned == false)) e.changed |= edit::set_sequence_parallel_pin(w, option, false);
    ImGui::EndCombo();
  }
}

Group pins_group(const Editor& e) {
  Group pins{"Pin the layout", false, pins_summary, {}};
  if (e.s.workloads.size() > 1) pins.rows.push_back({"Workload", nullptr, pinned_workload_cell});
  for (const FieldSpec* spec : fields_of(Owner::Parallelism)) pins.rows.push_back({field_label(*spec), spec, pin_cell});
  pins.rows.push_back({"Recomputation", nullptr, recompute_pin_cell});
  pins.rows.push_back({"Sequence parallel", nullptr, sequence_parallel_pin_cell});
  return pins;
}

//-------------------------------------------------------------------------------------------------
// [SECTION] Group: porting and platform costs
//-------------------------------------------------------------------------------------------------

std::string costs_summary(Editor&, Column& col) {
  return col.defaults.engineer_weeks > 0 ? fmt::number(col.defaults.engineer_weeks) + " engineer-weeks" : std::string("no port");
}

// A platform cost: its field in the scenario, its resolved value, and the catalog figure its
// default comes from (for the tooltip's source).
void cost_cell(Editor& e, Column& col, const FieldSpec* spec) {
  const Figure* figure = spec->catalog_default ? e.c.defaults.find(spec->catalog_default, col.info.family) : nullptr;
  e.changed |= widget::optional_field(col.option.porting, *spec, col.defaults.*(spec->resolved), cite(figure));
}

Group costs_group() {
  Group costs{"Porting and platform costs", true, costs_summary, {}};
  for (const FieldSpec* spec : fields_of(Owner::Costs)) costs.rows.push_back({field_label(*spec), spec, cost_cell});
  return costs;
}

//-------------------------------------------------------------------------------------------------
// [SECTION] Group: reliability and scale
//-------------------------------------------------------------------------------------------------

std::string reliability_summary(Editor&, Column& col) {
  return "MTBF " + fmt::number(std::round(col.defaults.mtbf_hours_per_instance)) + " h per instance";
}

void reliability_cell(Editor& e, Column& col, const FieldSpec* spec) {
  // The checkpoint pause, the restart time and the interval are derived per workload: their
  // defaults are what the results computed for the first workload.
  const Derived& d = e.app.d;
  const OptionResult* r =
      d.valid && !d.results.workloads.empty() && col.index < d.results.workloads.front().options.size() ? &d.results.workloads.front().options[col.index]
                                                                                                         : nullptr;
  const double derived = spec == &f::checkpoint_interval_hours ? (r ? r->checkpoint_interval_hours : 1.0)
                         : spec == &f::checkpoint_write_minutes ? (r ? r->checkpoint_pause_hours * 60 : 1.0)
                         : spec == &f::restart_minutes          ? (r ? r->restart_hours * 60 : 10.0)
                                                                : -1;
  const Figure* figure = spec->catalog_default ? e.c.defaults.find(spec->catalog_default, col.info.family) : nullptr;
  e.changed |= widget::optional_field(col.option.reliability, *spec, derived >= 0 ? derived : col.defaults.*(spec->resolved),
                                      derived >= 0 ? std::string("derived for this cluster: ") + spec->default_text : cite(figure));
}

void scaling_reference_cell(Editor& e, Column& col, const FieldSpec*) {
  e.changed |= widget::optional_number(col.option.scaling_reference_chips, col.option.instances * col.defaults.chips_per_instance,
                                       f::scaling_reference_chips, "none: no loss from scaling");
}

void scaling_per_doubling_cell(Editor& e, Column& col, const FieldSpec*) {
  e.changed |= widget::number(col.option.scaling_per_doubling, f::scaling_per_doubling);
}

// Capacity: what a deadline or the sweep may use, and when it is there.
void max_instances_cell(Editor& e, Column& col, const FieldSpec*) {
  e.changed |= widget::optional_field(col.option, f::max_instances, 4096, "none: up to 4,096 instances");
}

void wait_days_cell(Editor& e, Column& col, const FieldSpec*) {
  e.changed |= widget::optional_field(col.option, f::wait_days, 0, "none: capacity is there now");
}

Group reliability_group() {
  Group reliability{"Reliability and scale", false, reliability_summary, {}};
  for (const FieldSpec* spec : fields_of(Owner::Reliability)) reliability.rows.push_back({field_label(*spec), spec, reliability_cell});
  reliability.rows.push_back({field_label(f::scaling_reference_chips), &f::scaling_reference_chips, scaling_reference_cell});
  reliability.rows.push_back({field_label(f::scaling_per_doubling), &f::scaling_per_doubling, scaling_per_doubling_cell});
  reliability.rows.push_back({field_label(f::max_instances), &f::max_instances, max_instances_cell});
  reliability.rows.push_back({field_label(f::wait_days), &f::wait_days, wait_days_cell});
  return reliability;
}

// What a pilot measured (issue 31): the pilot block's numbers; typing one creates the block, and
// clearing them all removes it. `traincost pilot-results` reads logs into it.
std::string pilot_summary(Editor&, Column& col) {
  return col.option.pilot && col.option.pilot->has_rate() ? "measured: replaces the prediction" : "none";
}

void pilot_cell(Editor& e, Column& col, const FieldSpec* spec) {
  PilotMeasurement pilot = col.option.pilot.value_or(PilotMeasurement{});
  if (!widget::optional_field(pilot, *spec, std::nan(""), spec->default_text)) return;
  col.option.pilot = pilot;
  e.changed = true;
}

Group pilot_group() {
  Group pilot{"Pilot results", false, pilot_summary, {}};
  for (const FieldSpec* spec : fields_of(Owner::Pilot)) pilot.rows.push_back({field_label(*spec), spec, pilot_cell});
  return pilot;
}

//-------------------------------------------------------------------------------------------------
// [SECTION] Group: duplicate and remove
//-------------------------------------------------------------------------------------------------

void actions_cell(Editor& e, Column& col, const FieldSpec*) {
  if (e.n < kMaxOptions && widget::small_button("Duplicate")) e.duplicate = static_cast<int>(col.index);
  if (e.n > 1) {
    if (e.n < kMaxOptions) ImGui::SameLine();
    if (widget::small_button("Remove")) e.remove = static_cast<int>(col.index);
  }
}

Group actions_group() { return {"", true, nullptr, {{"", nullptr, actions_cell}}}; }

//-------------------------------------------------------------------------------------------------
// [SECTION] Layouts: side by side, stacked
//-------------------------------------------------------------------------------------------------

void label_text(const Row& row) {
  ImGui::AlignTextToFramePadding();
  widget::wrapped(row.label);
  if (row.spec && ImGui::IsItemHovered()) widget::field_tooltip(*row.spec);
}

// The field names' column beside `n` options side by side.
float label_width(int n) { return em(n > 2 ? 8.5f : 10.5f); }

// Side by side: one table per group (so a group's title spans the whole width), the same columns.
void draw_side_by_side(Editor& e, std::vector<Group>& groups, std::vector<Column>& columns) {
  const int n = static_cast<int>(columns.size());
  const float label_w = label_width(n);
  const ImGuiTableFlags flags = ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchSame;
  for (size_t g = 0; g < groups.size(); ++g) {
    Group& group = groups[g];
    if (group.title[0]) {
      ImGui::SetNextItemOpen(group.open_by_default, ImGuiCond_Once);
      const bool open = ImGui::CollapsingHeader(group.title);
      if (!open) {
        // While folded, each option's summary (porting effort, MTBF) stays in view.
        if (group.summary && ImGui::BeginTable(("summary" + std::to_string(g)).c_str(), n + 1, flags)) {
          ImGui::TableSetupColumn("field", ImGuiTableColumnFlags_WidthFixed, label_w);
          for (int i = 0; i < n; ++i) ImGui::TableSetupColumn(("option" + std::to_string(i)).c_str(), ImGuiTableColumnFlags_WidthStretch);
          ImGui::TableNextRow();
          for (Column& col : columns) {
            ImGui::TableSetColumnIndex(static_cast<int>(col.index) + 1);
            ImGui::TextDisabled("%s", group.summary(e, col).c_str());
          }
          ImGui::EndTable();
        }
        continue;
      }
    }
    if (!ImGui::BeginTable(("options" + std::to_string(g)).c_str(), n + 1, flags)) continue;
    ImGui::TableSetupColumn("field", ImGuiTableColumnFlags_WidthFixed, label_w);
    for (int i = 0; i < n; ++i) ImGui::TableSetupColumn(("option" + std::to_string(i)).c_str(), ImGuiTableColumnFlags_WidthStretch);
    for (const Row& row : group.rows) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      label_text(row);
      for (Column& col : columns) {
        ImGui::TableSetColumnIndex(static_cast<int>(col.index) + 1);
        Scope scope(e.app.items, "options", static_cast<int>(col.index));
        row.cell(e, col, row.spec);
      }
    }
    ImGui::EndTable();
  }
}

// Stacked: each option a block of its own, with its name as the title.
void draw_stacked(Editor& e, std::vector<Group>& groups, std::vector<Column>& columns) {
  const Derived& d = e.app.d;
  for (Column& col : columns) {
    Scope scope(e.app.items, "options", static_cast<int>(col.index));
    ImGui::Spacing();
    ImGui::PushFont(fonts().strong);
    ImGui::TextUnformatted(d.valid && col.index < d.resolved.options.size() ? d.resolved.options[col.index].label.c_str() : col.option.instance.c_str());
    ImGui::PopFont();
    ImGui::Separator();
    for (size_t g = 0; g < groups.size(); ++g) {
      Group& group = groups[g];
      if (group.title[0]) {
        ImGui::SetNextItemOpen(group.open_by_default, ImGuiCond_Once);
        if (!ImGui::CollapsingHeader(group.title)) {
          if (group.summary) ImGui::TextDisabled("%s", group.summary(e, col).c_str());
          continue;
        }
      }
      if (!widget::begin_form(("form" + std::to_string(g)).c_str(), 9.5f)) continue;
      for (const Row& row : group.rows) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        label_text(row);
        ImGui::TableSetColumnIndex(1);
        row.cell(e, col, row.spec);
      }
      widget::end_form();
    }
  }
}

}  // namespace

//-------------------------------------------------------------------------------------------------
// [SECTION] draw_options()
//-------------------------------------------------------------------------------------------------

void draw_options(App& app) {
  Scenario& s = app.scenario;
  const Catalog& c = builtin_catalog();
  ImGui::PushFont(fonts().heading);
  ImGui::TextUnformatted("Options");
  ImGui::PopFont();
  ImGui::SameLine();
  ImGui::TextDisabled("the hardware you compare");

  Editor e{app, s, c, static_cast<int>(s.options.size()), app.edited_workload(), app.ui.compact};
  // Defaults each empty field falls back to, per option (without a workload's overrides).
  std::vector<PairInputs> defaults;
  std::vector<OptionInfo> infos(s.options.size());
  for (size_t i = 0; i < s.options.size(); ++i) defaults.push_back(resolve_option(s.options[i], c, {}, &infos[i]));
  std::vector<Column> columns;
  for (size_t i = 0; i < s.options.size(); ++i) columns.push_back({i, s.options[i], defaults[i], infos[i]});

  std::vector<Group> groups = {basics_group(), speed_group(), pins_group(e), costs_group(), reliability_group(), pilot_group(), actions_group()};
  const bool fits = (ImGui::GetContentRegionAvail().x - label_width(e.n)) / static_cast<float>(std::max(1, e.n)) >= em(kMinColumnEm);
  if (e.compact || !fits) draw_stacked(e, groups, columns);
  else draw_side_by_side(e, groups, columns);

  const int n = e.n;
  if (n < kMaxOptions && widget::button("+ Add option")) e.duplicate = n - 1;
  if (e.duplicate >= 0 && n < kMaxOptions) e.changed |= edit::duplicate_option(s, e.duplicate);
  if (e.remove >= 0) e.changed |= edit::remove_option(s, e.remove);
  if (e.changed) app.edited();
}

}  // namespace traincost::web
