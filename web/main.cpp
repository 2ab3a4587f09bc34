// The calculator page's entry point: a GLFW window on the page's canvas, Dear ImGui on WebGL2,
// and a main loop that draws only when something changed (input, resize, pending work) and
// otherwise pauses, so an idle tab costs nothing.
#include <emscripten.h>
#include <emscripten/html5.h>
#include <GLFW/glfw3.h>

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "app.hpp"
#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"
#include "platform.hpp"
#include "ui/theme.hpp"

namespace {

using traincost::web::App;

struct Loop {
  GLFWwindow* window = nullptr;
  App* app = nullptr;
  int frames_left = 0;       // frames still to draw after the last event (ImGui settles in a few)
  bool paused = false;
  unsigned frames_drawn = 0;  // read by the browser tests through tc_frames_drawn()
  int backbuffer_w = 0, backbuffer_h = 0;
  float font_ratio = 0;       // pixel ratio the font atlas was rasterized for
  std::vector<unsigned char> fonts[2];  // Inter Regular, SemiBold (owned here, kept for re-rasterizing)
  bool started = false;
  // Press events held back one frame (see settle_mouse).
  bool held_press[3] = {false, false, false};
  ImVec2 last_mouse = ImVec2(-FLT_MAX, -FLT_MAX);
  // Key presses and characters typed since the last frame, in order, and the keys held down
  // artificially for one frame (see settle_keys).
  struct Typed {
    int key;         // a key press (GLFW key code), or -1
    unsigned ch;     // a character, when key is -1
  };
  std::vector<Typed> typed;
  std::vector<int> forced_keys;
};
Loop g;

void wake(int frames = 3) {
  if (g.frames_left < frames) g.frames_left = frames;
  if (g.paused && g.started) {
    g.paused = false;
    emscripten_resume_main_loop();
  }
}

// GLFW callbacks installed before ImGui's: the backend chains to them, so every input wakes the loop
// (on_scroll and on_char below replace the backend's instead).
void on_cursor(GLFWwindow*, double, double) { wake(); }
void on_button(GLFWwindow*, int, int, int) { wake(); }
// Emscripten 3.1.6's GLFW passes the browser's raw wheel deltas (pixels or lines, positive =
// down) where GLFW promises notches (positive = up), so ImGui's own scroll callback would scroll
// the wrong way by hundreds of lines. This one converts and replaces it.
void on_scroll(GLFWwindow*, double dx, double dy) {
  // Pixel deltas come in tens to hundreds (100 px is one notch); line deltas in ones (3 a notch).
  auto notches = [](double d) { return std::fabs(d) >= 10 ? d / 100 : d / 3; };
  ImGuiIO& io = ImGui::GetIO();
  io.MouseWheel -= static_cast<float>(notches(dy));
  io.MouseWheelH -= static_cast<float>(notches(dx));
  wake();
}
void on_key(GLFWwindow*, int key, int, int action, int) {
  if (action == GLFW_PRESS && key >= 0 && key < 512) g.typed.push_back({key, 0});
  wake();
}
// Replaces the backend's character callback: characters reach ImGui through settle_keys, in order
// with the keys typed around them.
void on_char(GLFWwindow*, unsigned c) {
  g.typed.push_back({-1, c});
  wake();
}

void rebuild_fonts(float ratio) {
  if (g.fonts[0].empty()) return;
  g.font_ratio = ratio;
  traincost::web::load_fonts(g.fonts[0], g.fonts[1], ratio);
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

// A paused loop sees a mouse move and the press that follows it in the same frame. ImGui needs
// the pointer to hover an item for a frame before a press on it counts (items that allow
// overlap, like tabs, check what was hovered the frame before), so a press that arrives together
// with a move is held back one frame: first the pointer moves, then the button goes down.
void settle_mouse(ImGuiIO& io) {
  const bool moved = io.MousePos.x != g.last_mouse.x || io.MousePos.y != g.last_mouse.y;
  for (int b = 0; b < 3; ++b) {
    if (g.held_press[b]) {
      io.MouseDown[b] = true;  // the press, one frame late (the release follows next frame)
      g.held_press[b] = false;
    } else if (moved && io.MouseDown[b] && io.MouseDownDuration[b] < 0.0f) {  // a new press
      io.MouseDown[b] = false;
      g.held_press[b] = true;
      wake(3);
    }
  }
  g.last_mouse = io.MousePos;
}

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

// ImGui 1.86 reads keys as "down now", so a key pressed and released between two frames (a quick
// tap while the loop was paused, or a loaded machine) would go unseen: like the backend does for
// mouse buttons, a key pressed since the last frame is held down for this frame and let go in the
// next one, unless it really is still down.
// Within one frame a text field reads every character before any key, and drops characters while
// Ctrl is down. So typing that outran the frames ("Ctrl+A 24", "Backspace 4") is fed in order: the
// frame stops before a character that follows a command key, or a modifier that follows a
// character, and the rest waits for the next frame.
void settle_keys(ImGuiIO& io) {
  for (int k : g.forced_keys)
    if (glfwGetKey(g.window, k) != GLFW_PRESS) io.KeysDown[k] = false;
  g.forced_keys.clear();
  bool after_command = false, after_char = false;
  size_t n = 0;
  for (; n < g.typed.size(); ++n) {
    const Loop::Typed& t = g.typed[n];
    if (t.key < 0) {
      if (after_command) break;
      io.AddInputCharacter(t.ch);
      after_char = true;
    } else {
      if (after_char && is_modifier(t.key)) break;
      if (!io.KeysDown[t.key]) {
        io.KeysDown[t.key] = true;
        g.forced_keys.push_back(t.key);
      }
      after_command = after_command || is_command_key(t.key);
    }
  }
  g.typed.erase(g.typed.begin(), g.typed.begin() + static_cast<std::ptrdiff_t>(n));
  io.KeyCtrl = io.KeysDown[GLFW_KEY_LEFT_CONTROL] || io.KeysDown[GLFW_KEY_RIGHT_CONTROL];
  io.KeyShift = io.KeysDown[GLFW_KEY_LEFT_SHIFT] || io.KeysDown[GLFW_KEY_RIGHT_SHIFT];
  io.KeyAlt = io.KeysDown[GLFW_KEY_LEFT_ALT] || io.KeysDown[GLFW_KEY_RIGHT_ALT];
  io.KeySuper = io.KeysDown[GLFW_KEY_LEFT_SUPER] || io.KeysDown[GLFW_KEY_RIGHT_SUPER];
  if (!g.forced_keys.empty() || !g.typed.empty()) wake(2);  // frames to let them go, and for the rest
}

void frame() {
  // Size the backbuffer to the canvas's CSS size times the pixel ratio: crisp on HiDPI screens.
  const traincost::web::CanvasSize size = traincost::web::canvas_size();
  const int w = static_cast<int>(std::lround(size.css_width * size.pixel_ratio));
  const int h = static_cast<int>(std::lround(size.css_height * size.pixel_ratio));
  if (w != g.backbuffer_w || h != g.backbuffer_h) {
    g.backbuffer_w = w;
    g.backbuffer_h = h;
    traincost::web::set_canvas_backbuffer(w, h);
    wake();
  }
  if (size.pixel_ratio != g.font_ratio) {
    rebuild_fonts(size.pixel_ratio);
    wake();
  }

  const bool busy = g.app->wants_frames();
  if (g.frames_left <= 0 && !busy) {
    g.paused = true;
    emscripten_pause_main_loop();
    // A focused text field still needs its caret to blink: about two frames a second.
    if (ImGui::GetIO().WantTextInput) emscripten_async_call([](void*) { wake(1); }, nullptr, 530);
    return;
  }
  if (g.frames_left > 0) --g.frames_left;

  const double started = emscripten_get_now();
  const unsigned recomputes_before = g.app->d.recomputes;
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  // The GLFW backend works in backbuffer pixels; ImGui lays out in CSS pixels.
  ImGuiIO& io = ImGui::GetIO();
  const float ratio = size.pixel_ratio;
  io.DisplaySize = ImVec2(size.css_width, size.css_height);
  io.DisplayFramebufferScale = ImVec2(ratio, ratio);
  if (io.MousePos.x > -1e30f) io.MousePos = ImVec2(io.MousePos.x / ratio, io.MousePos.y / ratio);
  settle_mouse(io);
  settle_keys(io);
  ImGui::NewFrame();
  g.app->frame();
  ImGui::Render();

  glViewport(0, 0, w, h);
  const ImVec4 bg = traincost::web::background_color();
  glClearColor(bg.x, bg.y, bg.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  ++g.frames_drawn;
  g.app->note_frame_time(emscripten_get_now() - started, g.app->d.recomputes != recomputes_before);
  g.app->after_render();
}

}  // namespace

extern "C" {
// Called by the page (calculator.js) with each font file before main() runs.
EMSCRIPTEN_KEEPALIVE void tc_font_data(int which, const unsigned char* data, int size) {
  if (which >= 0 && which < 2 && size > 0) g.fonts[which].assign(data, data + size);
}
EMSCRIPTEN_KEEPALIVE void tc_wake() { wake(); }
EMSCRIPTEN_KEEPALIVE unsigned tc_frames_drawn() { return g.frames_drawn; }
// State and timings for the browser tests and for measuring (not part of window.TrainCost).
EMSCRIPTEN_KEEPALIVE char* tc_stats() {
  const std::string s = g.app ? g.app->stats_json() : "{}";
  char* p = static_cast<char*>(std::malloc(s.size() + 1));
  std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}
EMSCRIPTEN_KEEPALIVE void tc_on_hashchange() {
  if (g.app) g.app->on_hashchange();
  wake();
}
EMSCRIPTEN_KEEPALIVE void tc_on_file_loaded(const char* text) {
  if (g.app) g.app->on_file_loaded(text ? text : "");
  wake();
}
EMSCRIPTEN_KEEPALIVE void tc_on_paste(const char* text) {
  if (g.app) g.app->on_paste(text ? text : "");
  wake();
}
EMSCRIPTEN_KEEPALIVE void tc_on_theme_change() {
  if (g.app) g.app->on_system_theme_change();
  wake();
}
}

int main() {
  if (!glfwInit()) {
    traincost::web::set_overlay("This browser could not start the calculator (no window system).");
    return 1;
  }
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  const traincost::web::CanvasSize size = traincost::web::canvas_size();
  g.window = glfwCreateWindow(static_cast<int>(size.css_width), static_cast<int>(size.css_height), "TrainCost", nullptr, nullptr);
  if (!g.window) {
    traincost::web::set_overlay("This calculator needs WebGL2, which this browser did not provide.");
    return 1;
  }
  glfwMakeContextCurrent(g.window);
  glfwSetCursorPosCallback(g.window, on_cursor);
  glfwSetMouseButtonCallback(g.window, on_button);
  glfwSetKeyCallback(g.window, on_key);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // layout is not persisted; the scenario is (localStorage)
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  ImGui_ImplGlfw_InitForOpenGL(g.window, true);
  glfwSetScrollCallback(g.window, on_scroll);  // replaces the backend's (see on_scroll)
  glfwSetCharCallback(g.window, on_char);      // replaces the backend's (see settle_keys)
  ImGui_ImplOpenGL3_Init("#version 300 es");

  static App app;
  g.app = &app;
  rebuild_fonts(size.pixel_ratio);
  traincost::web::set_overlay("");
  g.started = true;
  g.frames_left = 3;
  emscripten_set_main_loop(frame, 0, false);
  return 0;
}
