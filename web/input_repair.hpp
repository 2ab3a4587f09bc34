#pragma once
// What Emscripten 3.1.6's GLFW hands ImGui 1.86 is not quite what ImGui expects; this mends it,
// between the backend's NewFrame and ImGui's:
// - A paused loop sees a mouse move and the press that follows it in the same frame; ImGui needs
//   the pointer over an item for a frame before a press on it counts, so such a press waits a frame.
// - ImGui reads keys as "down now": a key tapped between two frames is held down for one frame.
// - Typing that outruns frames is fed in order (a frame reads all characters before any key, and
//   drops characters while Ctrl is down); a key waiting its turn is up until then (the backend
//   marks it down as soon as it arrives: an early Enter would commit a field before its text).
//   Keys ImGui acts on (Enter, Backspace, arrows, shortcuts such as Ctrl+V) get a frame each, with
//   the modifiers that were down when they were pressed: ImGui reads keys as a chord, so Ctrl+A
//   and Ctrl+V in one frame would only select, and three Backspaces would delete one character.
// - Wheel deltas arrive as raw browser pixels or lines (positive = down) where GLFW promises
//   notches (positive = up).
// - Tab and Shift+Tab are taken out of ImGui's hands and reported to the app, which moves the
//   focus through every widget in reading order (ImGui 1.86 tabs through text fields only).
// - Touch (from the page's own touch handlers, not GLFW's): a tap is a move, then a press, then a
//   release, one frame each; a long press hovers (tooltips); a swipe scrolls what is under it.
//   Typing waits until a tap queued before it is done (it goes into the field the tap opens).
// It keeps no ImGui state beyond the frame and no globals: the App owns one.
#include <cstddef>
#include <string>
#include <vector>

#include "imgui.h"

struct GLFWwindow;

namespace traincost::web {

class InputRepair {
 public:
  // From GLFW callbacks.
  void key(int glfw_key, int action, int mods = 0);
  void character(unsigned c);
  void scroll(ImGuiIO& io, double dx, double dy);
  void mouse_moved() { touch_ = false; }

  // From the page's touch handlers (CSS pixels).
  enum class Touch { Tap, Hover, Scroll };
  void touch(Touch kind, float x, float y, float dx = 0, float dy = 0);

  // Between ImGui_ImplGlfw_NewFrame() and ImGui::NewFrame().
  void before_frame(ImGuiIO& io, GLFWwindow* window);
  // After ImGui::NewFrame(): scrolling that needs ImGui's windows (touch swipes).
  void after_new_frame();

  // Input still to be fed over the next frames.
  bool queued() const { return !typed_.empty() || !forced_keys_.empty() || held_press_any() || !touch_steps_.empty(); }
  // Tab (+1) or Shift+Tab (-1) pressed in this frame, 0 otherwise.
  int tab() const { return tab_; }
  // The page could not move the focus this frame (its items are not known yet, a dialog is
  // opening): the Tab goes back to the head of the queue, and everything typed after it waits
  // behind it, so a burst of Tabs and a digit land where the same keys land slowly.
  void defer_tab(int direction);
  // Nothing typed is fed in the next frame (a field is activating in it).
  void wait_a_frame() { waiting_ = true; }

  // The last input fed to ImGui, frame by frame, for diagnosing a test ("k257 c49 c50 | …").
  const std::string& trace() const { return trace_; }
  void trace_note(const std::string& text);

 private:
  struct Typed {
    int key;       // a key press (GLFW key code), or -1
    unsigned ch;   // a character, when key is -1
    int mods = 0;  // GLFW_MOD_* bits down at the key's press
  };
  struct TouchStep {
    Touch kind;
    ImVec2 pos;
    ImVec2 delta;
    size_t typed_before;  // typing queued before this step (fed first; the rest waits for a tap)
  };
  bool held_press_any() const { return held_press_[0] || held_press_[1] || held_press_[2]; }
  void settle_mouse(ImGuiIO& io);
  void settle_keys(ImGuiIO& io, GLFWwindow* window);
  void apply_touch(ImGuiIO& io);

  bool held_press_[3] = {false, false, false};
  ImVec2 last_mouse_ = ImVec2(-1e30f, -1e30f);
  std::vector<Typed> typed_;
  std::vector<int> forced_keys_;
  int tab_ = 0;
  bool waiting_ = false;

  // Touch: the pointer ImGui sees while the last input was a touch.
  bool touch_ = false;
  ImVec2 touch_pos_ = ImVec2(-1e30f, -1e30f);
  int tap_phase_ = 0;  // 0 idle, 1 moved (press next), 2 pressed (release next)
  std::vector<TouchStep> touch_steps_;
  ImVec2 scroll_ = ImVec2(0, 0);  // pixels to scroll the window under the touch this frame
  std::string trace_;
};

}  // namespace traincost::web
