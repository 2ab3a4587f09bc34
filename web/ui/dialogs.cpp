// Modal dialogs: share (link and embed snippets), import, saved scenarios, Hugging Face config.
#include <algorithm>

#include "app.hpp"
#include "imgui.h"
#include "imgui_internal.h"
#include "platform.hpp"
#include "traincost/io/hf_config.hpp"
#include "traincost/output/report.hpp"
#include "traincost/io/scenario_json.hpp"
#include "ui/dialog_parts.hpp"
#include "ui/panels.hpp"
#include "ui/pilot_log_dialog.hpp"
#include "ui/replay_dialog.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace traincost::web {

bool begin_dialog(const char* title, bool& open_flag, float width_em) {
  if (open_flag) {
    ImGui::OpenPopup(title);
    open_flag = false;
  }
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  // Centred every frame, not only when it appears: a dialog that grows (a run chosen, a problem
  // shown) would otherwise grow off the bottom of a phone's screen.
  ImGui::SetNextWindowPos(vp->GetCenter(), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(em(width_em), vp->Size.x - em(2)), 0), ImGuiCond_Always);
  if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize)) return false;
  // Escape closes a dialog (outside a text field, where it cancels the typing).
  if (!ImGui::GetIO().WantTextInput && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false)) ImGui::CloseCurrentPopup();
  return true;
}

namespace {

constexpr const char* kSavedPrefix = "traincost.saved.";

enum class TextShape { Line, Block };  // a link on one line, or code and Markdown in a box of lines

// Read-only text with a copy button beside it (labelled `copy_label`, "Copy link").
void copyable(App& app, const char* id, const char* copy_label, const std::string& text, TextShape shape = TextShape::Line) {
  ImGui::PushID(id);
  // Room for the button and the "Copied" it shows after a click.
  const float button = ImGui::CalcTextSize(copy_label).x + ImGui::GetStyle().FramePadding.x * 2 + ImGui::CalcTextSize("Copied").x +
                       ImGui::GetStyle().ItemSpacing.x;
  std::string copy = text;
  if (shape == TextShape::Block) {
    ImGui::InputTextMultiline("##text", copy.data(), copy.size() + 1, ImVec2(ImGui::GetContentRegionAvail().x - button - em(0.5f), em(5)),
                              ImGuiInputTextFlags_ReadOnly);
    app.items.name(ImGui::GetItemID(), std::string(copy_label) + " text", true, text);
  } else {
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - button - em(0.5f));
    ImGui::InputText("##text", copy.data(), copy.size() + 1, ImGuiInputTextFlags_ReadOnly | ImGuiInputTextFlags_AutoSelectAll);
    app.items.name(ImGui::GetItemID(), std::string(copy_label) + " text", true, text);
  }
  ImGui::SameLine();
  widget::copy_button(copy_label, text);
  ImGui::PopID();
}

std::string html_attribute(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"') out += "&quot;";
    else if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else out += c;
  }
  return out;
}

void share_dialog(App& app) {
  if (!begin_dialog("Share this scenario", app.ui.open_share, 44)) return;
  const std::string url = app.share_url();
  ImGui::TextWrapped("This link holds the whole scenario (%zu characters). Anyone who opens it sees exactly these inputs and results.",
                     app.d.link.size());
  copyable(app, "link", "Copy link", url);
  ImGui::Spacing();
  ImGui::PushFont(fonts().strong);
  ImGui::TextUnformatted("Embed in a wiki or a web page");
  ImGui::PopFont();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  widget::wrapped("A compact view (verdict, key inputs, chart), about 800 × 600:");
  ImGui::PopStyleColor();
  const std::string page = page_url_without_fragment();
  const std::string embed_url = page + "?embed=1#" + app.d.link;
  const std::string title = app.d.scenario.name.empty() ? "TrainCost comparison" : app.d.scenario.name;
  copyable(app, "iframe", "Copy code",
           "<iframe src=\"" + html_attribute(embed_url) + "\" width=\"800\" height=\"600\" style=\"border:0;max-width:100%\" title=\"" +
               html_attribute(title) + "\" loading=\"lazy\" referrerpolicy=\"no-referrer\"></iframe>",
           TextShape::Block);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  widget::wrapped("Markdown (for wikis without iframes): the verdict and table, with the link:");
  ImGui::PopStyleColor();
  // The link is the edited scenario's at once; its results come a few frames later (sliced). The
  // Markdown pairs results with the link, so it waits for them rather than pair old with new.
  if (app.base_updating()) ImGui::TextDisabled("Computing this scenario's results for the Markdown…");
  else copyable(app, "markdown", "Copy Markdown", report_markdown(app.d.scenario, app.d.resolved, app.d.results, url), TextShape::Block);
  if (widget::button("Preview the embed view")) open_in_new_tab(embed_url);
  ImGui::SameLine();
  if (widget::button("Close")) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

// Import takes a scenario (JSON from Export, from `traincost`, or written by hand), a share link
// (or a page address with one), or a model's Hugging Face config.json; what cannot be read is
// explained here, in the dialog, and the current scenario stays.
void import_dialog(App& app) {
  if (!begin_dialog("Import", app.ui.open_import, 40)) return;
  widget::wrapped("A scenario (a JSON file from Export or from the traincost command), a share link, or a model's "
                  "Hugging Face config.json (it fills the selected workload's model).");
  if (widget::button("Choose a file…")) {
    app.ui.import_problems.clear();
    pick_json_file();
  }
  ImGui::TextDisabled("or paste it here (Ctrl+V):");
  widget::text_area("##paste", "Import text", app.ui.import_text, ImVec2(-FLT_MIN, em(10)));
  if (!app.ui.import_problems.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(palette().bad));
    widget::wrapped(app.ui.import_problems, 0, "import problem");
    ImGui::PopStyleColor();
  }
  if (widget::button("Load") && !app.ui.import_text.empty()) {
    app.ui.import_problems = app.import_text(app.ui.import_text);
    if (app.ui.import_problems.empty()) {
      app.ui.import_text.clear();
      ImGui::CloseCurrentPopup();
    }
  }
  ImGui::SameLine();
  if (widget::button("Cancel")) {
    app.ui.import_problems.clear();
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

void saved_dialog(App& app) {
  if (!begin_dialog("Saved scenarios", app.ui.open_saved, 36)) return;
  ImGui::TextWrapped("Kept in this browser only (localStorage). Your current scenario is also saved automatically.");
  widget::next_width(em(18));
  widget::text("##name", "Saved name", app.ui.save_name, 60, "name, e.g. Q3 pretraining plan");
  ImGui::SameLine();
  if (widget::button("Save current") && !app.ui.save_name.empty()) {
    if (storage_set(kSavedPrefix + app.ui.save_name, scenario_to_json(app.d.scenario, JsonForm::Minimal).dump()))
      app.banner(BannerKind::Info, "Saved as \"" + app.ui.save_name + "\".", 4);
    else
      app.banner(BannerKind::Error, "This browser refused to save (storage blocked or full).");
    app.ui.save_name.clear();
  }
  ImGui::Separator();
  const std::vector<std::string> keys = storage_keys(kSavedPrefix);
  if (keys.empty()) ImGui::TextDisabled("Nothing saved yet.");
  for (const std::string& key : keys) {
    const std::string name = key.substr(std::string(kSavedPrefix).size());
    ImGui::PushID(key.c_str());
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(name.c_str());
    ImGui::SameLine(ImGui::GetContentRegionAvail().x + ImGui::GetCursorPosX() - em(8));
    if (widget::small_button("Open")) {
      if (app.replace_scenario(storage_get(key), "\"" + name + "\"")) ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (widget::small_button("Delete")) storage_remove(key);
    ImGui::PopID();
  }
  ImGui::Separator();
  if (widget::button("Close")) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

void hf_dialog(App& app) {
  if (!begin_dialog("Model from a Hugging Face config.json", app.ui.open_hf, 40)) return;
  ImGui::TextWrapped("Paste the model's config.json. TrainCost fills what it states (layers, hidden size, heads, key/value heads, "
                     "FFN width, vocabulary, experts) and counts the parameters (total and active for mixture-of-experts); "
                     "it keeps your sequence length and every field the config does not state.");
  widget::text_area("##config", "config.json text", app.ui.hf_text, ImVec2(-FLT_MIN, em(12)));
  if (!app.ui.hf_problems.empty()) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette().bad), "%s", app.ui.hf_problems.c_str());
  if (widget::button("Fill the model")) {
    Problems problems;
    if (auto import = import_hf_config(app.ui.hf_text, problems)) {
      Workload& w = app.scenario.workloads[app.edited_workload()];
      const std::vector<std::string> changed = apply_hf_import(*import, w.model);
      app.ui.hf_problems.clear();
      app.ui.hf_text.clear();
      app.edited();
      app.banner(BannerKind::Info, hf_import_summary(changed, w.model), 8);
      ImGui::CloseCurrentPopup();
    } else {
      app.ui.hf_problems = to_string(problems);
    }
  }
  ImGui::SameLine();
  if (widget::button("Cancel")) {
    app.ui.hf_problems.clear();
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

}  // namespace

void draw_dialogs(App& app) {
  share_dialog(app);
  import_dialog(app);
  saved_dialog(app);
  hf_dialog(app);
  replay_dialog(app);
  pilot_log_dialog(app);
}

}  // namespace traincost::web
