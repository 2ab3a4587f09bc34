#pragma once
// Every ImGui item of the last frame, by name: its rectangle, whether it can be seen, which window
// holds it. The browser tests find widgets by name through it (Module._tc_items), and the app's
// keyboard focus walks it in reading order (ImGui 1.86 tabs through text fields only).
//
// Items are reported by ImGui 1.86's test-engine hooks (imgui_web is compiled with
// IMGUI_ENABLE_TEST_ENGINE; the hooks are implemented in item_registry.cpp, without the test
// engine). ImGui calls them only while GImGui->TestEngineHookItems is on, which the app switches
// on when a test asks or the keyboard starts tabbing; otherwise they cost one branch per item.
//
// Names: a scenario field's input is named by its scenario path ("options[1].porting.engineer_weeks",
// "workloads[0].runs"): panels open a Scope per option or workload, which pushes an ImGui ID and a
// path segment at once, and the field widgets name their item from the field's path. Other items
// are named by their visible label ("Share", "How sure?"), and carry the scope they are in
// ("options[1]") so that the same button in two columns can be told apart.
#include <string>
#include <unordered_map>
#include <vector>

#include "imgui.h"
#include "imgui_internal.h"

namespace traincost::web {

struct ItemRecord {
  ImGuiID id = 0;
  ImRect rect;
  std::string name;    // scenario path, or the visible label
  std::string label;   // the visible label ("" for an unlabelled item)
  std::string scope;   // "options[1]", "workloads[0]", or ""
  ImGuiWindow* window = nullptr;
  bool visible = false;   // inside its window's visible area (not scrolled out, not clipped)
  bool text_input = false;
  std::string text;   // the text an input or a note shows
  float label_w = 0;  // width of the visible label (an item narrower than it cuts it)
  bool disabled = false;
  bool fits = true;   // for notes: the text fits the space it was given
  unsigned color = 0; // for notes: the colour a chart uses (0xAABBGGRR, ImGui's order)
  int order = 0;          // submission order in the frame: reading order
};

class ItemRegistry {
 public:
  bool recording() const;
  void set_recording(bool on);

  void begin_frame();
  void end_frame();

  // From the hooks.
  void item_added(ImGuiContext& g, const ImRect& bb, ImGuiID id);
  void item_info(ImGuiID id, const char* label, ImGuiItemStatusFlags flags);

  // Names the item with this ID (a field's path, a combo's label), in the frame being built.
  void name(ImGuiID id, const std::string& name, bool text_input = false, const std::string& text = "");
  // Records something that is not an ImGui item: a paragraph of wrapped text ("text"), a chart's
  // colour key ("legend: Trn2 x16"), so that tests can read what the page shows.
  void note(const std::string& name, const ImRect& rect, const std::string& text, unsigned color = 0, bool fits = true);
  // Code points the page drew that its fonts do not have (they show as "?").
  const std::vector<unsigned>& missing_glyphs() const { return missing_glyphs_; }
  // Names of items that shared their ImGui ID with another item in the last frame: two inputs
  // with one identity edit each other (the defect of the nine platform-cost inputs, issue 16).
  const std::vector<std::string>& duplicate_ids() const { return duplicates_last_; }
  void check_glyphs(const std::string& text);

  // Scopes: "options" 1 -> path segment "options[1]".
  void push_scope(const std::string& segment);
  void pop_scope();
  const std::string& scope() const { return scope_; }
  // A field's documentation path ("options[].porting.engineer_weeks") with the indices of the
  // open scopes filled in ("options[1].porting.engineer_weeks").
  std::string path_of(const char* field_path) const;

  // The last complete frame.
  const std::vector<ItemRecord>& items() const { return last_; }
  const ItemRecord* find(const std::string& name) const;
  const ItemRecord* find(ImGuiID id) const;
  std::string json() const;

 private:
  ItemRecord& record(ImGuiID id);
  std::vector<ItemRecord> building_, last_;
  std::unordered_map<ImGuiID, size_t> index_;  // id -> position in building_
  std::vector<std::string> segments_;
  std::vector<unsigned> missing_glyphs_;
  std::vector<std::string> duplicates_, duplicates_last_;
  std::string scope_;
};

// An ImGui ID scope that is also a path segment: Scope s("options", 1) pushes "options[1]".
class Scope {
 public:
  Scope(ItemRegistry& registry, const char* array, int index);
  ~Scope();
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  ItemRegistry& registry_;
};

}  // namespace traincost::web
