#pragma once
// What the calculator needs from the browser. The UI code calls only these; platform_web.cpp
// implements them with a few EM_JS bridges (the one place with browser code), so the UI itself
// stays plain C++ and ImGui.
#include <string>
#include <vector>

namespace traincost::web {

struct CanvasSize {
  float css_width = 0;   // CSS pixels
  float css_height = 0;
  float pixel_ratio = 1; // device pixels per CSS pixel (HiDPI screens, browser zoom)
};
CanvasSize canvas_size();
void set_canvas_backbuffer(int width, int height);  // device pixels

bool prefers_dark_theme();

// The URL: fragment (#s=...) and query (?embed=1).
std::string url_fragment();  // without the '#'
void replace_url_fragment(const std::string& fragment);  // history.replaceState: no history entry
void push_url_fragment(const std::string& fragment);     // history.pushState: Back returns to the address before
std::string url_query(const char* name);
std::string page_url_without_fragment();

// Clipboard writes work inside (or shortly after) a user gesture: call from a button handler.
void copy_to_clipboard(const std::string& text);

// localStorage; empty when absent or when storage is unavailable (private mode, sandboxed iframe).
std::string storage_get(const std::string& key);
bool storage_set(const std::string& key, const std::string& value);
void storage_remove(const std::string& key);
std::vector<std::string> storage_keys(const std::string& prefix);

// Saves text as a file the browser downloads.
void download_text(const std::string& filename, const std::string& mime, const std::string& text);
// Saves a rectangle of the canvas (CSS pixels) as a PNG download, after the next frame is drawn.
void download_canvas_png(const std::string& filename, float x, float y, float width, float height);
// Opens the browser's file picker for a JSON file; the text arrives through App::on_file_loaded.
void pick_json_file();
// Opens `url` in a new tab: the calculator never navigates away from the scenario being edited.
void open_in_new_tab(const std::string& url);

// Hides a phone's keyboard when no text field is being edited any more.
void end_text_input();

// Mirrors the verdict and the results table into the page's DOM (an aria-live region), as text.
void publish_results(const std::string& results_json);
// The accessible form's controls (dom_form.hpp) into the page's form, as JSON.
void publish_form(const std::string& form_json);
// Runs `task(arg)` in a task of its own after the current one (a MessageChannel message): work
// split this way lets the browser paint and take input in between.
void run_soon(void (*task)(void*), void* arg);
// The same `ms` milliseconds from now (setTimeout); at once (run_soon) when `ms` <= 0.
void run_after(void (*task)(void*), void* arg, double ms);
// Shows the page's loading / error overlay text; empty hides it.
void set_overlay(const std::string& text);

double now_ms();
// Today's date in UTC, "YYYY-MM-DD", from the browser's clock (how old the prices are).
std::string today_utc();

// A font file the page downloaded before the module started (0 Inter Regular, 1 SemiBold, 2 the
// symbol fallback).
std::vector<unsigned char> font_file(int which);

}  // namespace traincost::web
