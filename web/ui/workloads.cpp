// The workload editor: one tab per workload (the portfolio), each with its model, its target
// (tokens, steps × batch, or a target loss), how often it runs, and its memory layout.
#include <algorithm>
#include <cmath>

#include "app.hpp"
#include "imgui.h"
#include "presets.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/api/edit.hpp"
#include "traincost/base/format.hpp"
#include "traincost/output/present.hpp"
#include "traincost/model/formulas.hpp"
#include "traincost/output/report.hpp"
#include "traincost/engine/resolve.hpp"
#include "ui/panels.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"
#include "traincost/engine/resolve_pair.hpp"

namespace traincost::web {
namespace {

// Runs per month is shown instead of total runs when the user prefers: not a scenario field (runs
// = per month × months keeps one fact), so it has a spec of its own for the input's bounds.
const FieldSpec kRunsPerMonth = {"workloads[].runs (per month)", "runs per month", "runs per month", Display::Plain, {0, 1e5, kExclusive},
                                 "1 run in total", "How often the recipe runs each month; runs = per month × months.",
                                 "0.25 (quarterly) to 4 (weekly)", {}};
namespace f = traincost::fields;

void section_title(const char* text) {
  ImGui::PushFont(fonts().heading);
  ImGui::TextUnformatted(text);
  ImGui::PopFont();
}

// A form row for a field of the table: its label and tooltip, then its input.
bool field_row(double& value, const FieldSpec& spec) {
  widget::row(field_label(spec).c_str(), &spec);
  return widget::number(value, spec);
}
bool field_row(int& value, const FieldSpec& spec) {
  widget::row(field_label(spec).c_str(), &spec);
  return widget::integer(value, spec);
}

bool model_editor(Workload& w) {
  bool changed = false;
  changed |= field_row(w.model.params, f::params);
  widget::row("Mixture of experts");
  bool moe = w.model.active_params.has_value();
  const bool toggled = widget::checkbox("##moe", &moe);
  widget::name_last("Mixture of experts");
  if (toggled) changed |= edit::set_mixture_of_experts(w, moe);
  ImGui::SameLine();
  ImGui::TextDisabled(moe ? "active parameters below" : "dense model");
  if (w.model.active_params) {
    changed |= field_row(*w.model.active_params, f::active_params);
    changed |= field_row(w.model.experts, f::experts);
    changed |= field_row(w.model.experts_per_token, f::experts_per_token);
  }
  return changed;
}

bool architecture_editor(App& app, Workload& w) {
  bool changed = false;
  changed |= field_row(w.model.layers, f::layers);
  changed |= field_row(w.model.hidden, f::hidden);
  changed |= field_row(w.model.heads, f::heads);
  changed |= field_row(w.model.seq_len, f::seq_len);
  changed |= field_row(w.model.vocab, f::vocab);
  changed |= field_row(w.model.kv_heads, f::kv_heads);
  changed |= field_row(w.model.ffn_hidden, f::ffn_hidden);
  widget::row("Gated feed-forward");
  changed |= widget::checkbox("##gated", &w.model.gated_ffn);
  widget::name_last(widget::scoped("model.gated_ffn"));
  ImGui::SameLine();
  ImGui::TextDisabled(w.model.gated_ffn ? "SwiGLU (three matrices)" : "two matrices");
  widget::row("");
  if (widget::button("Paste a Hugging Face config.json")) app.ui.open_hf = true;
  if (!w.model.has_architecture()) {
    widget::row("");
    ImGui::TextDisabled("Without layers, hidden size and sequence length\nthe attention FLOPs and activations are not counted.");
  }
  return changed;
}

bool target_editor(Workload& w) {
  bool changed = false;
  widget::row("Target");
  // Switching keeps the work about the same (edit::set_target_kind).
  if (widget::begin_combo("##target", widget::scoped("target"), description_of(kTargetWords, w.target.kind))) {
    for (const EnumWord<TargetKind>& kind : kTargetWords)
      if (widget::selectable(kind.description, w.target.kind == kind.value)) changed |= edit::set_target_kind(w, kind.value);
    ImGui::EndCombo();
  }
  switch (w.target.kind) {
    case TargetKind::Tokens:
      changed |= field_row(w.target.tokens, f::tokens);
      break;
    case TargetKind::Steps:
      changed |= field_row(w.target.steps, f::steps);
      changed |= field_row(w.target.tokens_per_step, f::tokens_per_step);
      break;
    case TargetKind::Loss: {
      changed |= field_row(w.target.loss, f::loss);
      widget::row("Scaling law");
      ImGui::SetNextItemWidth(-FLT_MIN);
      if (widget::begin_combo("##law", widget::scoped("target.scaling_law"), description_of(kLawWords, w.target.law))) {
        for (const EnumWord<ScalingLawKind>& law : kLawWords)
          if (widget::selectable(law.description, w.target.law == law.value)) changed |= edit::set_scaling_law(w, law.value);
        ImGui::EndCombo();
      }
      if (w.target.law == ScalingLawKind::Custom)
        for (const FieldSpec* spec : fields_of(Owner::Law)) changed |= field_row(*spec->access.address(&w.target.custom_law), *spec);
      const ScalingLaw law_c = scaling_law_constants(w.target.law, w.target.custom_law);
      widget::row("");
      const double floor = loss_floor(law_c, w.model.active());
      const double tokens = tokens_for_loss(law_c, w.model.active(), w.target.loss);
      if (std::isfinite(tokens))
        ImGui::TextDisabled("= %s tokens; this model can reach %.4g at best", fmt::count(tokens).c_str(), floor);
      else
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette().bad), "Unreachable: this model cannot get below %.4g", floor);
      break;
    }
  }
  return changed;
}

bool schedule_editor(App& app, Workload& w) {
  bool changed = false;
  // The row's visible label is the combo's accessible name (a second "Runs" row follows).
  widget::row("Runs counted");
  ImGui::SetNextItemWidth(-FLT_MIN);
  int mode = app.ui.runs_per_month ? 1 : 0;
  const char* modes[] = {"Total over the horizon", "Per month"};
  widget::name_id("##runsmode", "Runs counted");
  if (ImGui::Combo("##runsmode", &mode, modes, 2)) app.ui.runs_per_month = mode == 1;
  if (app.ui.runs_per_month) {
    // Runs per month × months: runs are derived, so the scenario keeps one fact.
    widget::row("Runs per month", &f::runs);
    double per_month = w.runs / w.horizon_months;
    if (widget::number(per_month, kRunsPerMonth)) {
      w.runs = std::max(1.0, per_month * w.horizon_months);
      changed = true;
    }
  } else {
    changed |= field_row(w.runs, f::runs);
  }
  changed |= field_row(w.horizon_months, f::horizon_months);
  // Constraints: each empty until the user sets one (no deadline, no budget, no cost of delay;
  // a deadline sized for the point estimate).
  // The chance of being on time to size for goes with a deadline (the reader refuses it alone).
  for (const FieldSpec* spec : {&f::deadline_days, &f::deadline_confidence, &f::budget_usd, &f::usd_per_day_of_delay}) {
    if (spec == &f::deadline_confidence && !w.deadline_days && !w.deadline_confidence) continue;
    widget::row(field_label(*spec).c_str(), spec);
    changed |= widget::optional_field(w, *spec, NAN, "none set");
  }
  // How much longer than planned the whole run takes (restarts, rollbacks, evaluation): empty is
  // the plan; the analysis draws it from the published runs' spread.
  widget::row(field_label(f::whole_run_factor).c_str(), &f::whole_run_factor);
  changed |= widget::optional_field(w, f::whole_run_factor, 1.0, "1: the run as planned");
  return changed;
}

bool memory_editor(Workload& w) {
  bool changed = false;
  widget::row("Full recomputation");
  changed |= widget::checkbox("##recompute", &w.recompute);
  widget::name_last(widget::scoped("recompute"));
  ImGui::SameLine();
  ImGui::TextDisabled(w.recompute ? "8·N·D FLOPs, small activations" : "6·N·D FLOPs");
  changed |= field_row(w.memory.bytes_per_param, f::bytes_per_param);
  changed |= field_row(w.memory.micro_batch, f::micro_batch);
  changed |= field_row(w.memory.tensor_parallel, f::tensor_parallel);
  widget::row("Flash attention");
  changed |= widget::checkbox("##flash", &w.memory.flash_attention);
  widget::name_last(widget::scoped("memory.flash_attention"));
  changed |= field_row(w.memory.usable_fraction, f::usable_fraction);
  if (w.model.experts > 1) {  // a mixture of experts' token dispatcher on NVIDIA GPUs
    widget::row("MoE token dispatcher");
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (widget::begin_combo("##moedispatcher", widget::scoped("moe_dispatcher"), description_of(kMoeDispatcherWords, w.moe_dispatcher))) {
      for (const EnumWord<MoeDispatcher>& d : kMoeDispatcherWords)
        if (widget::selectable(d.description, w.moe_dispatcher == d.value) && w.moe_dispatcher != d.value) {
          w.moe_dispatcher = d.value;
          changed = true;
        }
      ImGui::EndCombo();
    }
  }
  widget::row(field_label(f::global_batch_tokens).c_str(), &f::global_batch_tokens);
  const double batch = w.target.kind == TargetKind::Steps && w.target.tokens_per_step > 0 ? w.target.tokens_per_step : kDefaultGlobalBatchTokens;
  changed |= widget::optional_field(w, f::global_batch_tokens, batch, "the steps target's tokens per step, else chosen per option from its cluster and compute");
  return changed;
}

// LoRA, QLoRA and sequence packing (traincost/model/fine_tune.hpp): the mode, the adapters' rank,
// target matrices or trainable share, then packing and, unpacked, the data's fill.
bool fine_tune_editor(Workload& w) {
  bool changed = false;
  FineTune& ft = w.fine_tune;
  widget::row("Mode");
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (widget::begin_combo("##finetune", widget::scoped("fine_tune.mode"), description_of(kFineTuneWords, ft.mode))) {
    for (const EnumWord<FineTuneMode>& mode : kFineTuneWords)
      if (widget::selectable(mode.description, ft.mode == mode.value) && ft.mode != mode.value) {
        ft.mode = mode.value;
        if (!ft.adapters()) ft.trainable_share.reset();  // it goes with adapters only
        changed = true;
      }
    ImGui::EndCombo();
  }
  if (ft.adapters()) {
    changed |= field_row(ft.rank, f::lora_rank);
    widget::row("Adapted matrices");
    for (const EnumWord<unsigned>& target : kLoraTargetWords) {
      if ((target.value & (target.value - 1)) != 0) continue;  // one matrix each; the groups are the JSON's shorthands
      bool on = (ft.targets & target.value) != 0;
      if (widget::checkbox(target.word, &on)) {
        ft.targets = on ? ft.targets | target.value : ft.targets & ~target.value;
        changed = true;
      }
      ImGui::SameLine();
    }
    ImGui::NewLine();
    widget::row(field_label(f::trainable_share).c_str(), &f::trainable_share);
    changed |= widget::optional_field(ft, f::trainable_share, NAN, "derived from the architecture");
  }
  widget::row("Packed sequences");
  if (widget::checkbox("##packed", &ft.packed)) {
    if (ft.packed) ft.fill.reset();  // it goes with unpacked data only
    changed = true;
  }
  widget::name_last(widget::scoped("fine_tune.packed"));
  ImGui::SameLine();
  ImGui::TextDisabled(ft.packed ? "no padding" : "padded to seq_len: give the fill");
  if (!ft.packed) {
    widget::row(field_label(f::fill).c_str(), &f::fill);
    changed |= widget::optional_field(ft, f::fill, NAN, "required: mean example length / seq_len");
  }
  return changed;
}

// The platform costs of this workload alone: per option, the option's value muted until the
// workload sets its own (a workload override). Inputs are named
// "workloads[0].overrides[option 1].engineer_weeks".
bool overrides_editor(App& app, Workload& w, size_t workload) {
  const Scenario& s = app.scenario;
  const Catalog& c = builtin_catalog();
  bool changed = false;
  ImGui::TextDisabled("Where this workload differs from the option's own figures (for example a harder port).");
  const int n = static_cast<int>(s.options.size());
  const ImGuiTableFlags flags = ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchSame;
  if (!ImGui::BeginTable("overrides", n + 1, flags)) return false;
  ImGui::TableSetupColumn("field", ImGuiTableColumnFlags_WidthFixed, em(app.ui.compact ? 7.5f : 10.5f));
  std::vector<PairInputs> option_values;
  for (int i = 0; i < n; ++i) {
    ImGui::TableSetupColumn(("option" + std::to_string(i)).c_str(), ImGuiTableColumnFlags_WidthStretch);
    option_values.push_back(resolve_option(s.options[static_cast<size_t>(i)], c));
  }
  ImGui::TableNextRow();
  for (int i = 0; i < n; ++i) {
    ImGui::TableSetColumnIndex(i + 1);
    const std::string label = app.d.valid && static_cast<size_t>(i) < app.d.resolved.options.size() ? app.d.resolved.options[static_cast<size_t>(i)].label
                                                                                                   : s.options[static_cast<size_t>(i)].instance;
    ImGui::TextDisabled("%s", label.c_str());
  }
  for (const FieldSpec* spec : fields_of(Owner::Costs)) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::AlignTextToFramePadding();
    widget::wrapped(field_label(*spec));
    if (ImGui::IsItemHovered()) widget::field_tooltip(*spec);
    for (int i = 0; i < n; ++i) {
      ImGui::TableSetColumnIndex(i + 1);
      ImGui::PushID(i);
      std::optional<double> value;
      for (const WorkloadOverride& ov : w.overrides)
        if (ov.option == i) value = spec->get(ov.costs);
      const std::string name = "workloads[" + std::to_string(workload) + "].overrides[option " + std::to_string(i) + "]." + spec->key();
      if (widget::optional_number(value, option_values[static_cast<size_t>(i)].*(spec->resolved), *spec, "the option's own value", name.c_str()))
        changed |= edit::set_override(w, i, *spec, value);
      ImGui::PopID();
    }
  }
  ImGui::EndTable();
  return changed;
}

}  // namespace

void draw_scenario_name(App& app) {
  if (!widget::begin_form("scenario-form", 5.5f)) return;
  widget::row("Scenario");
  if (widget::text("##scenario-name", "name", app.scenario.name, 120, "a name for this comparison")) app.edited();
  widget::end_form();
}

void draw_workloads(App& app) {
  Scenario& s = app.scenario;
  section_title("Workloads");
  ImGui::SameLine();
  ImGui::TextDisabled("what you train, and how often");
  if (s.workloads.empty()) return;
  app.ui.workload = static_cast<int>(app.edited_workload());

  bool changed = false;
  if (ImGui::BeginTabBar("workloads", ImGuiTabBarFlags_FittingPolicyScroll | ImGuiTabBarFlags_AutoSelectNewTabs)) {
    for (size_t i = 0; i < s.workloads.size(); ++i) {
      const std::string title = workload_title(s.workloads[i], i) + "###w" + std::to_string(i);
      if (ImGui::BeginTabItem(title.c_str())) {
        app.ui.workload = static_cast<int>(i);
        ImGui::EndTabItem();
      }
    }
    if (static_cast<int>(s.workloads.size()) < kMaxWorkloads &&
        ImGui::TabItemButton("+", ImGuiTabItemFlags_Trailing | ImGuiTabItemFlags_NoTooltip))
      ImGui::OpenPopup("add-workload");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Add a workload (for the portfolio view)");
    if (ImGui::BeginPopup("add-workload")) {
      ImGui::TextDisabled("Add a workload from a preset");
      for (const WorkloadPreset& p : workload_presets())
        if (widget::selectable(p.name.c_str())) {
          Workload w = p.workload;
          w.name.clear();  // named by its numbers (automatic_workload_name), until the user types a name
          if (edit::add_workload(s, w)) {
            app.ui.workload = static_cast<int>(s.workloads.size()) - 1;
            changed = true;
          }
        }
      ImGui::EndPopup();
    }
    ImGui::EndTabBar();
  }
  const size_t index = static_cast<size_t>(app.ui.workload);
  Workload& w = s.workloads[index];
  Scope scope(app.items, "workloads", static_cast<int>(index));

  if (widget::begin_form("workload-form")) {
    widget::row("Name");
    // Empty, the workload is named by its numbers: the hint shows that name.
    const std::string automatic_name = automatic_workload_name(w);
    changed |= widget::text("##name", widget::scoped("name"), w.name, 80, automatic_name.c_str());
    widget::row("Preset");
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (widget::begin_combo("##preset", "Fill from a preset…", "Fill from a preset…")) {
      for (const WorkloadPreset& p : workload_presets())
        if (widget::selectable(p.name.c_str())) {
          const std::vector<WorkloadOverride> keep = w.overrides;
          w = p.workload;
          w.name.clear();  // named by its numbers (automatic_workload_name), until the user types a name
          w.overrides = keep;
          changed = true;
        }
      ImGui::EndCombo();
    }
    changed |= model_editor(w);
    changed |= target_editor(w);
    changed |= schedule_editor(app, w);
    widget::end_form();
  }
  if (ImGui::CollapsingHeader("Architecture (attention FLOPs, activations)")) {
    if (widget::begin_form("arch-form")) {
      changed |= architecture_editor(app, w);
      widget::end_form();
    }
  }
  if (ImGui::CollapsingHeader("Memory and recomputation")) {
    if (widget::begin_form("memory-form")) {
      changed |= memory_editor(w);
      widget::end_form();
    }
  }
  if (ImGui::CollapsingHeader("Fine-tuning (LoRA, QLoRA) and packing")) {
    if (widget::begin_form("finetune-form")) {
      changed |= fine_tune_editor(w);
      widget::end_form();
    }
  }
  if (ImGui::CollapsingHeader("Platform costs for this workload")) changed |= overrides_editor(app, w, index);
  if (s.workloads.size() > 1 || static_cast<int>(s.workloads.size()) < kMaxWorkloads) {
    if (static_cast<int>(s.workloads.size()) < kMaxWorkloads && widget::small_button("Duplicate workload") &&
        edit::duplicate_workload(s, static_cast<int>(index))) {
      app.ui.workload = static_cast<int>(s.workloads.size()) - 1;
      app.edited();
      return;  // `w` refers into the vector that just grew
    }
    if (s.workloads.size() > 1) {
      ImGui::SameLine();
      if (widget::small_button("Remove workload") && edit::remove_workload(s, static_cast<int>(index))) {
        app.ui.workload = std::max(0, app.ui.workload - 1);
        app.edited();
        return;
      }
    }
  }
  if (changed) app.edited();
  ImGui::Spacing();
}

}  // namespace traincost::web
