// The workload editor: one tab per workload (the portfolio), each with its model, its target
// (tokens, steps × batch, or a target loss), how often it runs, and its memory layout.
#include <algorithm>

#include "app.hpp"
#include "imgui.h"
#include "presets.hpp"
#include "traincost/format.hpp"
#include "traincost/formulas.hpp"
#include "traincost/report.hpp"
#include "ui/panels.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace traincost::web {
namespace {

using widget::Style;
namespace f = traincost::fields;

void section_title(const char* text) {
  ImGui::PushFont(fonts().heading);
  ImGui::TextUnformatted(text);
  ImGui::PopFont();
}

bool model_editor(Workload& w) {
  bool changed = false;
  widget::row("Parameters", &f::params);
  changed |= widget::number("##params", w.model.params, f::params, Style::Quantity);
  widget::row("Mixture of experts");
  bool moe = w.model.active_params.has_value();
  if (ImGui::Checkbox("##moe", &moe)) {
    if (moe) w.model.active_params = w.model.params / 4;
    else w.model.active_params.reset();
    changed = true;
  }
  ImGui::SameLine();
  ImGui::TextDisabled(moe ? "active parameters below" : "dense model");
  if (moe) {
    widget::row("Active parameters", &f::active_params);
    double active = *w.model.active_params;
    if (widget::number("##active", active, f::active_params, Style::Quantity)) {
      w.model.active_params = active;
      changed = true;
    }
  }
  return changed;
}

bool architecture_editor(App& app, Workload& w) {
  bool changed = false;
  widget::row("Layers", &f::layers);
  changed |= widget::integer("##layers", w.model.layers, f::layers);
  widget::row("Hidden size", &f::hidden);
  changed |= widget::integer("##hidden", w.model.hidden, f::hidden);
  widget::row("Attention heads", &f::heads);
  changed |= widget::integer("##heads", w.model.heads, f::heads);
  widget::row("Sequence length", &f::seq_len);
  changed |= widget::integer("##seq", w.model.seq_len, f::seq_len);
  widget::row("Vocabulary", &f::vocab);
  changed |= widget::integer("##vocab", w.model.vocab, f::vocab);
  widget::row("");
  if (ImGui::Button("Paste a Hugging Face config.json")) app.ui.open_hf = true;
  if (!w.model.has_architecture()) {
    widget::row("");
    ImGui::TextDisabled("Without layers, hidden size and sequence length\nthe attention FLOPs and activations are not counted.");
  }
  return changed;
}

bool target_editor(Workload& w) {
  bool changed = false;
  widget::row("Target");
  int kind = static_cast<int>(w.target.kind);
  const char* kinds[] = {"Tokens", "Steps × batch", "Target loss"};
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (ImGui::Combo("##target", &kind, kinds, 3)) {
    // Switching keeps the work about the same: steps × batch and tokens convert into each other;
    // a loss target starts just above what the model can reach.
    const double tokens = target_tokens(w.target, w.model);
    w.target.kind = static_cast<TargetKind>(kind);
    if (w.target.kind == TargetKind::Tokens) w.target.tokens = std::isfinite(tokens) && tokens > 0 ? tokens : 20 * w.model.params;
    if (w.target.kind == TargetKind::Steps) {
      w.target.tokens_per_step = 4194304;
      w.target.steps = std::max(1.0, std::round((std::isfinite(tokens) && tokens > 0 ? tokens : 20 * w.model.params) / 4194304));
    }
    if (w.target.kind == TargetKind::Loss) {
      const ScalingLaw law = scaling_law_constants(w.target.law, w.target.custom_law);
      w.target.loss = std::round((loss_floor(law, w.model.active()) + 0.15) * 100) / 100;
    }
    changed = true;
  }
  switch (w.target.kind) {
    case TargetKind::Tokens:
      widget::row("Tokens", &f::tokens);
      changed |= widget::number("##tokens", w.target.tokens, f::tokens, Style::Quantity);
      break;
    case TargetKind::Steps:
      widget::row("Steps", &f::steps);
      changed |= widget::number("##steps", w.target.steps, f::steps, Style::Quantity);
      widget::row("Tokens per step", &f::tokens_per_step);
      changed |= widget::number("##tps", w.target.tokens_per_step, f::tokens_per_step, Style::Quantity);
      break;
    case TargetKind::Loss: {
      widget::row("Target loss", &f::loss);
      changed |= widget::number("##loss", w.target.loss, f::loss);
      widget::row("Scaling law");
      int law = static_cast<int>(w.target.law);
      const char* laws[] = {"Hoffmann et al. 2022", "Besiroglu et al. 2024", "Custom constants"};
      ImGui::SetNextItemWidth(-FLT_MIN);
      if (ImGui::Combo("##law", &law, laws, 3)) {
        if (law == 2 && w.target.law != ScalingLawKind::Custom)
          w.target.custom_law = scaling_law_constants(w.target.law, {});
        w.target.law = static_cast<ScalingLawKind>(law);
        changed = true;
      }
      if (w.target.law == ScalingLawKind::Custom) {
        ScalingLaw& c = w.target.custom_law;
        widget::row("E", &f::law_E);
        changed |= widget::number("##E", c.E, f::law_E);
        widget::row("A", &f::law_A);
        changed |= widget::number("##A", c.A, f::law_A);
        widget::row("B", &f::law_B);
        changed |= widget::number("##B", c.B, f::law_B);
        widget::row("alpha", &f::law_alpha);
        changed |= widget::number("##alpha", c.alpha, f::law_alpha);
        widget::row("beta", &f::law_beta);
        changed |= widget::number("##beta", c.beta, f::law_beta);
      }
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
  widget::row("Runs");
  ImGui::SetNextItemWidth(-FLT_MIN);
  int mode = app.ui.runs_per_month ? 1 : 0;
  const char* modes[] = {"Total over the horizon", "Per month"};
  if (ImGui::Combo("##runsmode", &mode, modes, 2)) app.ui.runs_per_month = mode == 1;
  if (app.ui.runs_per_month) {
    // Runs per month × months: runs are derived, so the scenario keeps one fact.
    widget::row("Runs per month", &f::runs);
    double per_month = w.runs / w.horizon_months;
    static const FieldSpec per_month_spec = {"workloads[].runs (per month)", "runs per month", 0, 1e5, true, false, "1 run in total",
                                             "How often the recipe runs each month; runs = per month × months.", "0.25 (quarterly) to 4 (weekly)"};
    if (widget::number("##permonth", per_month, per_month_spec)) {
      w.runs = std::max(1.0, per_month * w.horizon_months);
      changed = true;
    }
  } else {
    widget::row("Expected runs", &f::runs);
    changed |= widget::number("##runs", w.runs, f::runs);
  }
  widget::row("Horizon (months)", &f::horizon_months);
  changed |= widget::number("##horizon", w.horizon_months, f::horizon_months);
  return changed;
}

bool memory_editor(Workload& w) {
  bool changed = false;
  widget::row("Full recomputation");
  changed |= ImGui::Checkbox("##recompute", &w.recompute);
  ImGui::SameLine();
  ImGui::TextDisabled(w.recompute ? "8·N·D FLOPs, small activations" : "6·N·D FLOPs");
  widget::row("Bytes per parameter", &f::bytes_per_param);
  changed |= widget::number("##bpp", w.memory.bytes_per_param, f::bytes_per_param);
  widget::row("Micro-batch", &f::micro_batch);
  changed |= widget::integer("##mb", w.memory.micro_batch, f::micro_batch);
  widget::row("Tensor parallel", &f::tensor_parallel);
  changed |= widget::integer("##tp", w.memory.tensor_parallel, f::tensor_parallel);
  widget::row("Flash attention");
  changed |= ImGui::Checkbox("##flash", &w.memory.flash_attention);
  widget::row("Usable HBM", &f::usable_fraction);
  changed |= widget::number("##usable", w.memory.usable_fraction, f::usable_fraction, Style::Percent);
  return changed;
}

}  // namespace

void draw_workloads(App& app) {
  Scenario& s = app.scenario;
  section_title("Workloads");
  ImGui::SameLine();
  ImGui::TextDisabled("what you train, and how often");
  if (s.workloads.empty()) return;
  app.ui.workload = std::clamp(app.ui.workload, 0, static_cast<int>(s.workloads.size()) - 1);

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
        if (ImGui::Selectable(p.name.c_str())) {
          Workload w = p.workload;
          w.name = p.name;
          s.workloads.push_back(w);
          app.ui.workload = static_cast<int>(s.workloads.size()) - 1;
          changed = true;
        }
      ImGui::EndPopup();
    }
    ImGui::EndTabBar();
  }
  const size_t index = static_cast<size_t>(app.ui.workload);
  Workload& w = s.workloads[index];
  ImGui::PushID(static_cast<int>(index));

  if (widget::begin_form("workload-form")) {
    widget::row("Name");
    changed |= widget::text("##name", w.name, 80, "e.g. 8B pretraining");
    widget::row("Preset");
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::BeginCombo("##preset", "Fill from a preset…")) {
      for (const WorkloadPreset& p : workload_presets())
        if (ImGui::Selectable(p.name.c_str())) {
          const std::vector<WorkloadOverride> keep = w.overrides;
          w = p.workload;
          w.name = p.name;
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
  if (s.workloads.size() > 1 || static_cast<int>(s.workloads.size()) < kMaxWorkloads) {
    if (static_cast<int>(s.workloads.size()) < kMaxWorkloads && ImGui::SmallButton("Duplicate workload")) {
      Workload copy = w;
      copy.name = workload_title(w, index) + " (copy)";
      s.workloads.push_back(copy);
      app.ui.workload = static_cast<int>(s.workloads.size()) - 1;
      changed = true;
    }
    if (s.workloads.size() > 1) {
      ImGui::SameLine();
      if (ImGui::SmallButton("Remove workload")) {
        s.workloads.erase(s.workloads.begin() + static_cast<long>(index));
        app.ui.workload = std::max(0, app.ui.workload - 1);
        changed = true;
      }
    }
  }
  ImGui::PopID();
  if (changed) app.edited();
  ImGui::Spacing();
}

}  // namespace traincost::web
