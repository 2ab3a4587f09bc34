#include "input_repair.hpp"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "imgui_internal.h"

namespace traincost::web {
namespace {

bool is_modifier(int key) {
  return key == GLFW_KEY_LEFT_CONTROL || key == GLFW_KEY_RIGHT_CONTROL || key == GLFW_KEY_LEFT_SUPER ||
         key == GLFW_KEY_RIGHT_SUPER || key == GLFW_KEY_LEFT_ALT || key == GLFW_KEY_RIGHT_ALT;
}
// Keys a text field acts on (printable keys act through their characters instead).
bool is_command_key(int key) {
  return is_modifier(key) || key == GLFW_KEY_ENTER || key == GLFW_KEY_KP_ENTER || key == GLFW_KEY_TAB ||
         key == GLFW_KEY_BACKSPACE || key == GLFW_KEY_DELETE || key == GLFW_KEY_ESCAPE ||
         (key >= GLFW_KEY_RIGHT && key <= GLFW_KEY_END);  // arrows, page up/down, home, end
}

// A key ImGui acts on as a key, not through a character: a command key, or any key with Ctrl,
// Alt or Super (a shortcut).
bool acts_as_key(int key, int mods) {
  if (is_modifier(key) || key == GLFW_KEY_LEFT_SHIFT || key == GLFW_KEY_RIGHT_SHIFT) return false;
  return is_command_key(key) || (mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT | GLFW_MOD_SUPER)) != 0;
}

// The window a swipe scrolls: the one under the finger, or the nearest parent that can scroll.
ImGuiWindow* scrollable_under(ImGuiWindow* w, int axis) {
  while (w && w->ScrollMax[axis] <= 0.0f && (w->Flags & ImGuiWindowFlags_ChildWindow)) w = w->ParentWindow;
  return w && w->ScrollMax[axis] > 0.0f ? w : nullptr;
}

}  // namespace

void InputRepair::key(int glfw_key, int action, int mods) {
  if (glfw_key == GLFW_KEY_TAB && action != GLFW_RELEASE) typed_.push_back({glfw_key, 0, mods});  // repeats tab on
  else if (action == GLFW_PRESS && glfw_key >= 0 && glfw_key < 512) typed_.push_back({glfw_key, 0, mods});
}

void InputRepair::defer_tab(int direction) {
  typed_.insert(typed_.begin(), {GLFW_KEY_TAB, 0, direction < 0 ? GLFW_MOD_SHIFT : 0});
  for (TouchStep& s : touch_steps_) ++s.typed_before;
  tab_ = 0;
}

void InputRepair::character(unsigned c) { typed_.push_back({-1, c}); }

// Pixel deltas come in tens to hundreds (100 px is one notch); line deltas in ones (3 a notch).
void InputRepair::scroll(ImGuiIO& io, double dx, double dy) {
  auto notches = [](double d) { return std::fabs(d) >= 10 ? d / 100 : d / 3; };
  io.MouseWheel -= static_cast<float>(notches(dy));
  io.MouseWheelH -= static_cast<float>(notches(dx));
}

void InputRepair::touch(Touch kind, float x, float y, float dx, float dy) {
  touch_ = true;
  if (kind == Touch::Scroll && !touch_steps_.empty() && touch_steps_.back().kind == Touch::Scroll) {
    touch_steps_.back().pos = ImVec2(x, y);
    touch_steps_.back().delta.x += dx;
    touch_steps_.back().delta.y += dy;
    return;
  }
  touch_steps_.push_back({kind, ImVec2(x, y), ImVec2(dx, dy), typed_.size()});
}

void InputRepair::trace_note(const std::string& text) {
  trace_ += text;
  if (trace_.size() > 4000) trace_.erase(0, trace_.size() - 3000);
}

void InputRepair::before_frame(ImGuiIO& io, GLFWwindow* window) {
  if (touch_) apply_touch(io);
  else settle_mouse(io);
  settle_keys(io, window);
}

// A press that arrives together with a move waits a frame: first the pointer moves, then the
// button goes down (the release follows in the frame after).
void InputRepair::settle_mouse(ImGuiIO& io) {
  const bool moved = io.MousePos.x != last_mouse_.x || io.MousePos.y != last_mouse_.y;
  for (int b = 0; b < 3; ++b) {
    if (held_press_[b]) {
      io.MouseDown[b] = true;
      held_press_[b] = false;
    } else if (moved && io.MouseDown[b] && io.MouseDownDuration[b] < 0.0f) {
      io.MouseDown[b] = false;
      held_press_[b] = true;
    }
  }
  last_mouse_ = io.MousePos;
}

// One touch step per frame: a tap moves the pointer, presses, releases and then lifts the pointer
// away (so nothing stays hovered); a long press leaves the pointer there (its tooltip shows);
// swipes accumulate into this frame's scroll.
void InputRepair::apply_touch(ImGuiIO& io) {
  io.MouseDown[0] = io.MouseDown[1] = io.MouseDown[2] = false;
  io.MousePos = touch_pos_;
  scroll_ = ImVec2(0, 0);
  if (touch_steps_.empty()) return;
  const TouchStep step = touch_steps_.front();
  switch (step.kind) {
    case Touch::Tap:
      if (tap_phase_ == 0) {
        touch_pos_ = io.MousePos = step.pos;
        tap_phase_ = 1;
      } else if (tap_phase_ == 1) {
        io.MouseDown[0] = true;
        tap_phase_ = 2;
      } else if (tap_phase_ == 2) {
        tap_phase_ = 3;  // released
      } else {
        touch_pos_ = io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
        tap_phase_ = 0;
        touch_steps_.erase(touch_steps_.begin());
      }
      return;
    case Touch::Hover:
      touch_pos_ = io.MousePos = step.pos;
      break;
    case Touch::Scroll:
      touch_pos_ = io.MousePos = step.pos;
      scroll_ = step.delta;
      break;
  }
  touch_steps_.erase(touch_steps_.begin());
}

void InputRepair::after_new_frame() {
  if (scroll_.x == 0 && scroll_.y == 0) return;
  ImGuiContext& g = *ImGui::GetCurrentContext();
  for (int axis = 0; axis < 2; ++axis) {
    const float d = axis == 0 ? scroll_.x : scroll_.y;
    if (d == 0) continue;
    if (ImGuiWindow* w = scrollable_under(g.HoveredWindow, axis)) {
      const float target = ImClamp(w->Scroll[axis] + d, 0.0f, w->ScrollMax[axis]);
      if (axis == 0) ImGui::SetScrollX(w, target);
      else ImGui::SetScrollY(w, target);
    }
  }
  scroll_ = ImVec2(0, 0);
}

// A key pressed since the last frame is held down for this frame and let go in the next one,
// unless it really is still down. The frame stops before a character that follows a command key,
// a modifier that follows a character, or a second key that ImGui acts on (or the same key again,
// which is up for a frame in between); the rest waits for the next frame, and its keys are up until
// then. Tab never reaches ImGui: it is reported through tab().
void InputRepair::settle_keys(ImGuiIO& io, GLFWwindow* window) {
  for (int k : forced_keys_)
    if (glfwGetKey(window, k) != GLFW_PRESS) io.KeysDown[k] = false;
  forced_keys_.clear();
  tab_ = 0;
  const auto hold = [&](int k) {
    if (io.KeysDown[k]) return;
    io.KeysDown[k] = true;
    forced_keys_.push_back(k);
  };
  // Typing waits for a tap queued before it: on a phone, the tap that opens the keyboard
  // activates the field over the next frames, and what is typed goes into that field.
  size_t feedable = waiting_ ? 0 : typed_.size();
  waiting_ = false;
  for (const TouchStep& s : touch_steps_)
    if (s.kind == Touch::Tap) feedable = std::min(feedable, s.typed_before);
  bool after_command = false, after_char = false, acted = false;
  size_t n = 0;
  for (; n < feedable; ++n) {
    const Typed& t = typed_[n];
    if (t.key < 0) {
      if (after_command) break;
      io.AddInputCharacter(t.ch);
      after_char = true;
    } else if (t.key == GLFW_KEY_TAB) {
      if (after_char || after_command || tab_ != 0) break;  // one focus move a frame, after what was typed
      const bool shift = (t.mods & GLFW_MOD_SHIFT) || io.KeysDown[GLFW_KEY_LEFT_SHIFT] || io.KeysDown[GLFW_KEY_RIGHT_SHIFT];
      tab_ = shift ? -1 : 1;
      after_command = true;
    } else if (acts_as_key(t.key, t.mods)) {
      if (acted || io.KeysDownDuration[t.key] >= 0.0f) break;
      hold(t.key);
      if (t.mods & GLFW_MOD_SHIFT) hold(GLFW_KEY_LEFT_SHIFT);
      if (t.mods & GLFW_MOD_CONTROL) hold(GLFW_KEY_LEFT_CONTROL);
      if (t.mods & GLFW_MOD_ALT) hold(GLFW_KEY_LEFT_ALT);
      if (t.mods & GLFW_MOD_SUPER) hold(GLFW_KEY_LEFT_SUPER);
      acted = after_command = true;
    } else {
      if (after_char && is_modifier(t.key)) break;
      hold(t.key);
      after_command = after_command || is_command_key(t.key);
    }
  }
  // ImGui's GLFW backend marks a key down the moment its press arrives, ahead of the characters
  // queued before it: a press still waiting its turn is not down yet. (Typing "37%" and Enter
  // between two frames otherwise commits the field before the "37%" reaches it, and a Ctrl that
  // arrives early makes ImGui drop the characters before it.)
  for (size_t i = n; i < typed_.size(); ++i) {
    const int k = typed_[i].key;
    if (k < 0 || k == GLFW_KEY_TAB) continue;
    bool fed_now = false;
    for (size_t j = 0; j < n; ++j) fed_now = fed_now || typed_[j].key == k;
    if (!fed_now) io.KeysDown[k] = false;
  }
  if (n > 0) {
    std::string fed = " |";
    for (size_t i = 0; i < n; ++i) fed += typed_[i].key < 0 ? " c" + std::to_string(typed_[i].ch) : " k" + std::to_string(typed_[i].key);
    trace_note(fed);
  }
  typed_.erase(typed_.begin(), typed_.begin() + static_cast<std::ptrdiff_t>(n));
  for (TouchStep& s : touch_steps_) s.typed_before -= std::min(s.typed_before, n);
  io.KeysDown[GLFW_KEY_TAB] = false;
  io.KeyCtrl = io.KeysDown[GLFW_KEY_LEFT_CONTROL] || io.KeysDown[GLFW_KEY_RIGHT_CONTROL];
  io.KeyShift = io.KeysDown[GLFW_KEY_LEFT_SHIFT] || io.KeysDown[GLFW_KEY_RIGHT_SHIFT];
  io.KeyAlt = io.KeysDown[GLFW_KEY_LEFT_ALT] || io.KeysDown[GLFW_KEY_RIGHT_ALT];
  io.KeySuper = io.KeysDown[GLFW_KEY_LEFT_SUPER] || io.KeysDown[GLFW_KEY_RIGHT_SUPER];
}

}  // namespace traincost::web
