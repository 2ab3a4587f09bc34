#include "item_registry.hpp"

#include <cstdarg>
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "traincost/io/scenario_json.hpp"

namespace traincost::web {
namespace {

// The label ImGui shows: the text before "##" (all of it for "###id" labels too).
std::string visible_label(const char* label) {
  if (!label) return {};
  const char* end = std::strstr(label, "##");
  return end ? std::string(label, end) : std::string(label);
}

// The window the user sees an item in: popups and tooltips are their own root windows.
ImGuiWindow* root_of(ImGuiWindow* w) { return w ? w->RootWindow : nullptr; }

}  // namespace

bool ItemRegistry::recording() const { return GImGui && GImGui->TestEngineHookItems; }

void ItemRegistry::set_recording(bool on) {
  if (!GImGui) return;
  GImGui->TestEngine = on ? this : nullptr;
  GImGui->TestEngineHookItems = on;
  if (!on) {
    building_.clear();
    last_.clear();
    index_.clear();
  }
}

void ItemRegistry::begin_frame() {
  building_.clear();
  index_.clear();
}

void ItemRegistry::end_frame() {
  if (!recording()) return;
  ImGuiContext& g = *GImGui;
  ImGuiWindow* modal = ImGui::GetTopMostPopupModal();
  for (ItemRecord& r : building_) {
    if (!r.visible || !r.window) continue;
    ImGuiWindow* root = root_of(r.window);
    // Behind an open modal dialog, nothing can be clicked.
    if (modal && root != modal && root_of(root->ParentWindow) != modal) r.visible = false;
    // Under a window drawn in front of it (a popup, a menu, a combo's list).
    const ImVec2 c = r.rect.GetCenter();
    bool after = false;
    for (ImGuiWindow* w : g.Windows) {
      if (w == root) {
        after = true;
        continue;
      }
      if (!after || !w->WasActive || w->Hidden || (w->Flags & ImGuiWindowFlags_ChildWindow) || (w->Flags & ImGuiWindowFlags_Tooltip))
        continue;
      if (w->RootWindow == root) continue;
      if (w->Rect().Contains(c)) {
        r.visible = false;
        break;
      }
    }
  }
  last_.swap(building_);
  building_.clear();
  index_.clear();
  duplicates_last_.swap(duplicates_);
  duplicates_.clear();
}

ItemRecord& ItemRegistry::record(ImGuiID id) {
  const auto it = index_.find(id);
  if (it != index_.end()) return building_[it->second];
  index_[id] = building_.size();
  building_.emplace_back();
  ItemRecord& r = building_.back();
  r.id = id;
  r.order = static_cast<int>(building_.size()) - 1;
  return r;
}

void ItemRegistry::item_added(ImGuiContext& g, const ImRect& bb, ImGuiID id) {
  ImGuiWindow* window = g.CurrentWindow;
  const bool seen = index_.count(id) > 0;
  ItemRecord& r = record(id);
  // The same ID again this frame, somewhere else: two items share one identity. (A widget may
  // report itself twice, from ItemAdd and ButtonBehavior, with the same rectangle.)
  if (seen && r.window && (r.rect.Min.x != bb.Min.x || r.rect.Min.y != bb.Min.y || r.window != window))
    duplicates_.push_back(r.name.empty() ? std::to_string(id) : r.name);
  r.rect = bb;
  r.window = window;
  r.scope = scope_;
  const ImRect clip = window ? window->ClipRect : ImRect();
  r.visible = window && !window->Hidden && clip.Contains(bb.GetCenter());
  if (g.LastItemData.ID == id && (g.LastItemData.InFlags & ImGuiItemFlags_Inputable)) r.text_input = true;
  r.disabled = (g.CurrentItemFlags & ImGuiItemFlags_Disabled) != 0;
}

void ItemRegistry::item_info(ImGuiID id, const char* label, ImGuiItemStatusFlags) {
  ItemRecord& r = record(id);
  r.label = visible_label(label);
  r.label_w = ImGui::CalcTextSize(r.label.c_str()).x;
  check_glyphs(r.label);
  if (r.name.empty()) r.name = r.label;
}

void ItemRegistry::name(ImGuiID id, const std::string& name, bool text_input, const std::string& text) {
  if (!recording()) return;
  ItemRecord& r = record(id);
  r.name = name;
  if (text_input) r.text_input = true;
  if (!text.empty()) r.text = text;
}

void ItemRegistry::check_glyphs(const std::string& text) {
  if (!recording()) return;
  ImFont* font = ImGui::GetFont();
  const char* p = text.c_str();
  const char* end = p + text.size();
  while (p < end) {
    unsigned c = 0;
    const int n = ImTextCharFromUtf8(&c, p, end);
    if (n <= 0) break;
    p += n;
    if (c >= 0x20 && !font->FindGlyphNoFallback(static_cast<ImWchar>(c)) &&
        std::find(missing_glyphs_.begin(), missing_glyphs_.end(), c) == missing_glyphs_.end())
      missing_glyphs_.push_back(c);
  }
}

void ItemRegistry::note(const std::string& name, const ImRect& rect, const std::string& text, unsigned color, bool fits) {
  if (!recording()) return;
  check_glyphs(text);
  ImGuiContext& g = *GImGui;
  building_.emplace_back();
  ItemRecord& r = building_.back();
  r.order = static_cast<int>(building_.size()) - 1;
  r.name = name;
  r.rect = rect;
  r.window = g.CurrentWindow;
  r.scope = scope_;
  r.text = text;
  r.color = color;
  r.fits = fits;
  r.visible = g.CurrentWindow && g.CurrentWindow->ClipRect.Overlaps(rect);
}

void ItemRegistry::push_scope(const std::string& segment) {
  segments_.push_back(segment);
  scope_.clear();
  for (const std::string& s : segments_) scope_ += (scope_.empty() ? "" : ".") + s;
}

void ItemRegistry::pop_scope() {
  if (!segments_.empty()) segments_.pop_back();
  scope_.clear();
  for (const std::string& s : segments_) scope_ += (scope_.empty() ? "" : ".") + s;
}

std::string ItemRegistry::path_of(const char* field_path) const {
  std::string path = field_path;
  // Each "name[]" takes the index of the open scope "name[i]".
  for (const std::string& segment : segments_) {
    const size_t bracket = segment.find('[');
    if (bracket == std::string::npos) continue;
    const std::string array = segment.substr(0, bracket) + "[]";
    const size_t at = path.find(array);
    if (at != std::string::npos) path.replace(at, array.size(), segment);
  }
  return path;
}

const ItemRecord* ItemRegistry::find(const std::string& name) const {
  for (const ItemRecord& r : last_)
    if (r.name == name) return &r;
  return nullptr;
}

const ItemRecord* ItemRegistry::find(ImGuiID id) const {
  for (const ItemRecord& r : last_)
    if (r.id == id) return &r;
  return nullptr;
}

std::string ItemRegistry::json() const {
  const ImGuiContext* g = GImGui;
  OrderedJson items = OrderedJson::array();
  for (const ItemRecord& r : last_) {
    OrderedJson j;
    j["name"] = r.name;
    j["label"] = r.label;
    j["scope"] = r.scope;
    j["id"] = r.id;
    j["x"] = r.rect.Min.x;
    j["y"] = r.rect.Min.y;
    j["w"] = r.rect.GetWidth();
    j["h"] = r.rect.GetHeight();
    j["visible"] = r.visible;
    j["window"] = r.window ? r.window->Name : "";
    j["text_input"] = r.text_input;
    if (!r.text.empty()) j["text"] = r.text;
    if (r.label_w > 0) j["label_w"] = r.label_w;
    if (r.disabled) j["disabled"] = true;
    if (!r.fits) j["fits"] = false;
    if (r.color) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "#%02x%02x%02x", r.color & 0xFF, (r.color >> 8) & 0xFF, (r.color >> 16) & 0xFF);
      j["color"] = hex;
    }
    j["focused"] = g && r.id && (g->ActiveId == r.id || (g->NavId == r.id && !g->NavDisableHighlight));
    j["active"] = g && r.id && g->ActiveId == r.id;
    items.push_back(j);
  }
  return items.dump();
}

Scope::Scope(ItemRegistry& registry, const char* array, int index) : registry_(registry) {
  const std::string segment = std::string(array) + "[" + std::to_string(index) + "]";
  ImGui::PushID(segment.c_str());
  registry_.push_scope(segment);
}

Scope::~Scope() {
  registry_.pop_scope();
  ImGui::PopID();
}

}  // namespace traincost::web

// ImGui 1.86's test-engine hooks, implemented without the test engine: they feed the registry
// that the app put in the context's TestEngine pointer.
void ImGuiTestEngineHook_ItemAdd(ImGuiContext* ctx, const ImRect& bb, ImGuiID id) {
  if (auto* r = static_cast<traincost::web::ItemRegistry*>(ctx->TestEngine)) r->item_added(*ctx, bb, id);
}
void ImGuiTestEngineHook_ItemInfo(ImGuiContext* ctx, ImGuiID id, const char* label, ImGuiItemStatusFlags flags) {
  if (auto* r = static_cast<traincost::web::ItemRegistry*>(ctx->TestEngine)) r->item_info(id, label, flags);
}
void ImGuiTestEngineHook_Log(ImGuiContext*, const char*, ...) {}
const char* ImGuiTestEngine_FindItemDebugLabel(ImGuiContext* ctx, ImGuiID id) {
  const auto* r = static_cast<const traincost::web::ItemRegistry*>(ctx->TestEngine);
  const traincost::web::ItemRecord* item = r ? r->find(id) : nullptr;
  return item ? item->name.c_str() : nullptr;
}
