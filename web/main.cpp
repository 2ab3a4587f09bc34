// The calculator page's entry point, in the shape of Dear ImGui's Emscripten example: a GLFW window
// on the page's canvas, ImGui on WebGL2, one main loop. It draws only when pacing.hpp says so and
// otherwise pauses, so an idle tab costs nothing. Input that Emscripten's GLFW gets slightly wrong
// is mended in input_repair.cpp. All state lives in the App (reached through ImGui's io.UserData).
#include <emscripten.h>
#include <emscripten/html5.h>
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "app.hpp"
#include "dom_form.hpp"
#include "imgui.h"
#include "imgui_internal.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"
#include "pacing.hpp"
#include "traincost/api/builtin.hpp"
#include "platform.hpp"
#include "ui/theme.hpp"

namespace {

using traincost::web::App;
namespace pacing = traincost::web::pacing;

App* the_app() { return ImGui::GetCurrentContext() ? static_cast<App*>(ImGui::GetIO().UserData) : nullptr; }

void resume(App& app) {
  if (app.loop.paused && app.loop.started) {
    app.loop.paused = false;
    emscripten_resume_main_loop();
  }
}

void wake(App& app, int frames = pacing::kFramesPerEvent) {
  app.loop.frames_left = pacing::after_event(app.loop.frames_left, frames);
  app.loop.settled_at_frame = std::max(app.loop.settled_at_frame, app.loop.frames_drawn + static_cast<unsigned>(frames));
  resume(app);
}

// A timed wake-up (Monte Carlo due, caret blink); only the earliest one is kept pending.
void wake_later(App& app, double ms) {
  const double at = traincost::web::now_ms() + ms;
  if (app.loop.wake_at_ms > 0 && app.loop.wake_at_ms <= at) return;
  app.loop.wake_at_ms = at;
  emscripten_async_call([](void* p) {
    App& a = *static_cast<App*>(p);
    if (a.loop.wake_at_ms > traincost::web::now_ms() + 1) return;  // superseded by an earlier one
    a.loop.wake_at_ms = 0;
    wake(a, 1);
  }, &app, static_cast<int>(std::ceil(ms)));
}

// The background work's pump (App::work_slice): a slice per task of its own, so that a slice and a
// drawn frame never share a task. A frame is asked for only when what is shown changed (a job
// finished), or every kProgressFrameMs while a job runs, for its progress; the browser draws
// frames and handles input between the tasks. Only the earliest pending pump is kept.
void pump(void* arg);

void schedule_pump(App& app) {
  const double due = app.work_due_ms();
  if (due == pacing::kNever) return;
  const double now = traincost::web::now_ms();
  const double at = std::max(due, now);
  if (app.loop.pump_at_ms > 0 && app.loop.pump_at_ms <= at) return;
  app.loop.pump_at_ms = at;
  traincost::web::run_after(pump, &app, at - now);
}

void pump(void* arg) {
  App& app = *static_cast<App*>(arg);
  const double now = traincost::web::now_ms();
  if (app.loop.pump_at_ms > now + 1) return;  // superseded by an earlier one, which has run
  app.loop.pump_at_ms = 0;
  const bool changed = app.work_slice();
  const int frames = pacing::frames_after_slice(changed, app.working(), now, app.loop.progress_frame_at_ms);
  if (frames > 0) {
    wake(app, frames);
    app.loop.progress_frame_at_ms = now;
  }
  schedule_pump(app);
}

App& app_of(GLFWwindow* window) { return *static_cast<App*>(glfwGetWindowUserPointer(window)); }

// GLFW callbacks installed before ImGui's (the backend chains to them), so every input wakes the
// loop; on_scroll and on_char replace the backend's (input_repair.hpp says why).
void on_cursor(GLFWwindow* w, double, double) {
  app_of(w).input.mouse_moved();
  wake(app_of(w));
}
void on_button(GLFWwindow* w, int, int, int) { wake(app_of(w)); }
void on_scroll(GLFWwindow* w, double dx, double dy) {
  app_of(w).input.scroll(ImGui::GetIO(), dx, dy);
  wake(app_of(w));
}
void on_key(GLFWwindow* w, int key, int, int action, int mods) {
  app_of(w).input.key(key, action, mods);
  wake(app_of(w));
}
void on_char(GLFWwindow* w, unsigned c) {
  app_of(w).input.character(c);
  wake(app_of(w));
}

void rebuild_fonts(App& app, float ratio) {
  const bool first = app.loop.font_ratio == 0;
  app.loop.font_ratio = ratio;
  traincost::web::load_fonts(app.loop.fonts[0], app.loop.fonts[1], app.loop.fonts[2], ratio);
  // The first time, the backend's shaders with the font texture: left to ImGui's first NewFrame,
  // they compiled there and the texture was uploaded a second time, in the first frame's task.
  if (first) {
    ImGui_ImplOpenGL3_CreateDeviceObjects();
    return;
  }
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

void frame(void* arg) {
  App& app = *static_cast<App*>(arg);
  // The backbuffer is the canvas's CSS size times the pixel ratio: crisp on HiDPI screens.
  const traincost::web::CanvasSize size = traincost::web::canvas_size();
  const int w = static_cast<int>(std::lround(size.css_width * size.pixel_ratio));
  const int h = static_cast<int>(std::lround(size.css_height * size.pixel_ratio));
  if (w != app.loop.backbuffer_w || h != app.loop.backbuffer_h) {
    app.loop.backbuffer_w = w;
    app.loop.backbuffer_h = h;
    traincost::web::set_canvas_backbuffer(w, h);
    app.loop.frames_left = pacing::after_event(app.loop.frames_left);
  }
  if (size.pixel_ratio != app.loop.font_ratio) {
    rebuild_fonts(app, size.pixel_ratio);
    app.loop.frames_left = pacing::after_event(app.loop.frames_left);
  }

  pacing::Inputs in;
  in.now_ms = traincost::web::now_ms();
  in.frames_left = app.loop.frames_left;
  in.input_queued = app.input.queued();
  in.work_now = app.work_now();
  in.next_due_ms = app.next_due_ms();
  in.caret_blinking = ImGui::GetIO().WantTextInput;
  const pacing::Decision decision = pacing::decide(in);
  app.loop.frames_left = decision.frames_left;
  if (!decision.draw) {
    app.loop.paused = true;
    emscripten_pause_main_loop();
    if (decision.wake_after_ms != pacing::kNever) wake_later(app, decision.wake_after_ms);
    return;
  }

  const double started = traincost::web::now_ms();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  // The GLFW backend works in backbuffer pixels; ImGui lays out in CSS pixels.
  ImGuiIO& io = ImGui::GetIO();
  const float ratio = size.pixel_ratio;
  io.DisplaySize = ImVec2(size.css_width, size.css_height);
  io.DisplayFramebufferScale = ImVec2(ratio, ratio);
  if (io.MousePos.x > -1e30f) io.MousePos = ImVec2(io.MousePos.x / ratio, io.MousePos.y / ratio);
  app.input.before_frame(io, app.loop.window);
  ImGui::NewFrame();
  app.input.after_new_frame();
  const unsigned recomputes_before = app.d.recomputes;
  app.frame();
  ImGui::Render();

  glViewport(0, 0, w, h);
  const ImVec4 bg = traincost::web::background_color();
  glClearColor(bg.x, bg.y, bg.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  ++app.loop.frames_drawn;
  app.note_frame_time(traincost::web::now_ms() - started, app.d.recomputes != recomputes_before);
  app.after_render();
  schedule_pump(app);  // an edit or a tab opened in this frame may have made work due
}

// Copies a string for JavaScript, which frees it.
char* js_string(const std::string& s) {
  char* p = static_cast<char*>(std::malloc(s.size() + 1));
  std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

}  // namespace

// Called by the page (calculator.js). Events wake the loop; the tc_stats, tc_items and tc_scenario
// hooks are for the browser tests and for measuring (not part of window.TrainCost).
extern "C" {
EMSCRIPTEN_KEEPALIVE void tc_wake() {
  if (App* app = the_app()) wake(*app);
}
EMSCRIPTEN_KEEPALIVE unsigned tc_frames_drawn() { return the_app() ? the_app()->loop.frames_drawn : 0; }
EMSCRIPTEN_KEEPALIVE char* tc_stats() { return js_string(the_app() ? the_app()->stats_json() : "{}"); }
EMSCRIPTEN_KEEPALIVE char* tc_scenario() { return js_string(the_app() ? the_app()->scenario_json() : "{}"); }
EMSCRIPTEN_KEEPALIVE void tc_on_hashchange() {
  if (App* app = the_app()) {
    app->on_hashchange();
    wake(*app);
  }
}
EMSCRIPTEN_KEEPALIVE void tc_on_popstate() {
  if (App* app = the_app()) {
    app->on_popstate();
    wake(*app);
  }
}
EMSCRIPTEN_KEEPALIVE void tc_on_file_loaded(const char* bytes, int length, double size) {
  if (App* app = the_app()) {
    app->on_file_loaded(bytes && length > 0 ? std::string(bytes, static_cast<size_t>(length)) : std::string(), size);
    wake(*app);
  }
}
EMSCRIPTEN_KEEPALIVE void tc_on_paste(const char* text, int length) {
  if (App* app = the_app()) {
    app->on_paste(text && length > 0 ? std::string(text, static_cast<size_t>(length)) : std::string());
    wake(*app);
  }
}
// An edit from the page's accessible form (dom_form.hpp): the field's path and the value as typed.
// Returns "" or why it was refused (malloc'd; the page frees it).
EMSCRIPTEN_KEEPALIVE char* tc_form_edit(const char* path, const char* value, int length) {
  App* app = the_app();
  if (!app) return js_string("The calculator is still loading.");
  const std::string problem = traincost::web::form_edit(*app, path ? path : "", value && length > 0 ? std::string(value, static_cast<size_t>(length)) : std::string());
  app->publish_form();  // the form shows the edit as the scenario took it before this returns
  wake(*app);
  return js_string(problem);
}
EMSCRIPTEN_KEEPALIVE void tc_on_theme_change() {
  if (App* app = the_app()) {
    app->on_system_theme_change();
    wake(*app);
  }
}
// Touch from the page's handlers (CSS pixels): 0 tap, 1 long press (hover), 2 swipe by (dx, dy).
EMSCRIPTEN_KEEPALIVE void tc_touch(int kind, float x, float y, float dx, float dy) {
  if (App* app = the_app()) {
    using Touch = traincost::web::InputRepair::Touch;
    app->input.touch(kind == 0 ? Touch::Tap : kind == 1 ? Touch::Hover : Touch::Scroll, x, y, dx, dy);
    wake(*app);
  }
}
// Text from a phone's keyboard (composed text, and Backspace), which arrives as input events of the
// page's hidden text field rather than as keys.
EMSCRIPTEN_KEEPALIVE void tc_type_text(const char* text) {
  App* app = the_app();
  if (!app || !text) return;
  const char* p = text;
  const char* end = text + std::strlen(text);
  while (p < end) {
    unsigned c = 0;
    const int n = ImTextCharFromUtf8(&c, p, end);
    if (n <= 0) break;
    p += n;
    app->input.character(c);
  }
  wake(*app);
}
EMSCRIPTEN_KEEPALIVE void tc_key(int glfw_key) {
  if (App* app = the_app()) {
    app->input.key(glfw_key, GLFW_PRESS);
    wake(*app);
  }
}
// Whether a text field is at this point (CSS pixels) in the last frame: a tap there opens the
// phone's keyboard.
EMSCRIPTEN_KEEPALIVE int tc_text_input_at(float x, float y) {
  App* app = the_app();
  if (!app) return 0;
  for (const traincost::web::ItemRecord& r : app->items.items())
    if (r.id && r.text_input && r.visible && r.rect.Contains(ImVec2(x, y))) return 1;
  return 0;
}
// The widget registry for tests: recording on or off, the items of the last frame, and a request
// to scroll an item into view.
EMSCRIPTEN_KEEPALIVE void tc_record_items(int on) {
  if (App* app = the_app()) {
    app->record_items(on != 0);
    wake(*app);
  }
}
EMSCRIPTEN_KEEPALIVE char* tc_trace() { return js_string(the_app() ? the_app()->input.trace() : ""); }
EMSCRIPTEN_KEEPALIVE char* tc_items() { return js_string(the_app() ? the_app()->items_json() : "[]"); }
EMSCRIPTEN_KEEPALIVE int tc_reveal(const char* name) {
  App* app = the_app();
  if (!app || !name) return 0;
  const bool found = app->reveal(name);
  wake(*app);
  return found ? 1 : 0;
}
}

namespace {

void start_app(void* window);

// The start runs in four tasks, so that none holds the main thread long (issue 33 item 5; the
// catalog was read before main(), by calculator.js's first call): the replay (main()), the window and ImGui here,
// then the App (start_app), which reads the link and starts evaluating it, then the main loop.
void start_window(void*) {
  if (!glfwInit()) {
    traincost::web::set_overlay("This browser could not start the calculator (no window system).");
    return;
  }
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  const traincost::web::CanvasSize size = traincost::web::canvas_size();
  GLFWwindow* window = glfwCreateWindow(static_cast<int>(size.css_width), static_cast<int>(size.css_height), "TrainCost", nullptr, nullptr);
  if (!window) {
    traincost::web::set_overlay("This calculator needs WebGL2, which this browser did not provide.");
    return;
  }
  glfwMakeContextCurrent(window);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // layout is not persisted; the scenario is (localStorage)
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  ImGui_ImplOpenGL3_Init("#version 300 es");
  emscripten_async_call(start_app, window, 0);
}

void start_app(void* window_pointer) {
  GLFWwindow* window = static_cast<GLFWwindow*>(window_pointer);
  // Input reaches the App from this task on: the callbacks find it through the window's user
  // pointer, set below before any event can run.
  glfwSetCursorPosCallback(window, on_cursor);
  glfwSetMouseButtonCallback(window, on_button);
  glfwSetKeyCallback(window, on_key);
  ImGui_ImplGlfw_InitForOpenGL(window, true);  // chains to the three above; the App then replaces its clipboard
  glfwSetScrollCallback(window, on_scroll);    // replaces the backend's (see input_repair.hpp)
  glfwSetCharCallback(window, on_char);        // replaces the backend's (see input_repair.hpp)

  // The app lives as long as the page (the main loop outlives main()).
  App* app = new App();
  ImGui::GetIO().UserData = app;
  glfwSetWindowUserPointer(window, app);
  app->loop.window = window;
  app->loop.fonts[0] = traincost::web::font_file(0);
  app->loop.fonts[1] = traincost::web::font_file(1);
  app->loop.fonts[2] = traincost::web::font_file(2);
  traincost::web::set_overlay("");
  app->loop.started = true;
  app->loop.frames_left = pacing::kFramesPerEvent;
  // The font atlas (rasterizing the fonts at the screen's pixel ratio, and its texture) in a task
  // of its own before the first frame, which is long enough without it. Should the frame come
  // first, it builds the atlas itself and this task finds nothing to do.
  traincost::web::run_soon([](void* a) {
    App& started = *static_cast<App*>(a);
    const float ratio = traincost::web::canvas_size().pixel_ratio;
    if (ratio != started.loop.font_ratio) rebuild_fonts(started, ratio);
  }, app);
  // The App has computed the answer and put it into the page as text (calculator.js shows it).
  // The loop starts one animation frame later, so the browser paints that text before the first
  // frame rasterizes the fonts (font_ratio is still 0) and draws: on a slow phone that first
  // frame takes a good fraction of a second.
  emscripten_async_call([](void* a) { emscripten_set_main_loop_arg(frame, a, 0, false); }, app, -1);
}

// The replay of the published runs that the catalog's whole-run spread comes from, a few runs per
// task (one 60 ms task before), then the window. A call of the JS API meanwhile replays the rest at
// once (builtin_catalog()); the tasks that follow then find nothing left to do.
void replay_some(void*) {
  constexpr double kReplaySliceMs = 8;
  const double start = traincost::web::now_ms();
  bool done = traincost::builtin_catalog_replay_step();
  while (!done && traincost::web::now_ms() - start < kReplaySliceMs) done = traincost::builtin_catalog_replay_step();
  if (done) emscripten_async_call(start_window, nullptr, 0);
  else traincost::web::run_soon(replay_some, nullptr);
}

}  // namespace

int main() {
  // calculator.js's first call read the catalog (TrainCost.version); the replay follows in tasks of its own.
  emscripten_async_call(replay_some, nullptr, 0);
  return 0;
}
