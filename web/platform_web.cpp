// The browser side of platform.hpp: every call into JavaScript lives in this file, as EM_JS
// bridges. Text crosses the boundary as UTF-8; nothing from a link or a file is ever handed to
// the DOM as HTML (only textContent) or evaluated.
#include <emscripten.h>
#include <emscripten/html5.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "platform.hpp"

namespace {

// Takes ownership of a malloc'd UTF-8 string returned by a bridge.
std::string adopt(char* text) {
  if (!text) return {};
  std::string s(text);
  std::free(text);
  return s;
}

}  // namespace

// clang-format off

EM_JS(int, tc_js_prefers_dark, (), {
  return (window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches) ? 1 : 0;
});

// The fragment exactly as the address holds it: the core's link grammar (link.cpp) decides what
// it means, as it does for the CLI. (Percent-decoding it here gave one URL two meanings.)
EM_JS(char*, tc_js_url_fragment, (), {
  var s = window.location.hash ? window.location.hash.substring(1) : "";
  var n = lengthBytesUTF8(s) + 1, p = _malloc(n);
  stringToUTF8(s, p, n);
  return p;
});

EM_JS(void, tc_js_replace_url_fragment, (const char* fragment), {
  var f = UTF8ToString(fragment);
  var url = window.location.pathname + window.location.search + (f ? "#" + f : "");
  try { window.history.replaceState(null, "", url); } catch (e) {}
});

EM_JS(void, tc_js_push_url_fragment, (const char* fragment), {
  var f = UTF8ToString(fragment);
  var url = window.location.pathname + window.location.search + (f ? "#" + f : "");
  try { window.history.pushState(null, "", url); } catch (e) {}
});

EM_JS(int, tc_js_font_size, (int which), {
  var f = Module.tcFonts && Module.tcFonts[which];
  return f ? f.byteLength : 0;
});

EM_JS(void, tc_js_font_copy, (int which, unsigned char* out), {
  writeArrayToMemory(new Uint8Array(Module.tcFonts[which]), out);
});

EM_JS(char*, tc_js_url_query, (const char* name), {
  var v = "";
  try { v = new URLSearchParams(window.location.search).get(UTF8ToString(name)) || ""; } catch (e) {}
  var n = lengthBytesUTF8(v) + 1, p = _malloc(n);
  stringToUTF8(v, p, n);
  return p;
});

EM_JS(char*, tc_js_today_utc, (), {
  var v = new Date().toISOString().substring(0, 10);
  var n = lengthBytesUTF8(v) + 1, p = _malloc(n);
  stringToUTF8(v, p, n);
  return p;
});

EM_JS(char*, tc_js_page_url, (), {
  var v = window.location.origin + window.location.pathname;
  var n = lengthBytesUTF8(v) + 1, p = _malloc(n);
  stringToUTF8(v, p, n);
  return p;
});

EM_JS(void, tc_js_copy, (const char* text), {
  var t = UTF8ToString(text);
  if (navigator.clipboard && navigator.clipboard.writeText) {
    navigator.clipboard.writeText(t).catch(function() { window.TrainCostShell && window.TrainCostShell.copyFallback(t); });
  } else if (window.TrainCostShell) {
    window.TrainCostShell.copyFallback(t);
  }
});

// The stored text with its length in bytes first (4 bytes): a NUL inside it is kept, so an
// autosave holding "scenario\0junk" is refused by the reader as a file would be, not loaded up
// to the NUL (issue 33, item 1).
EM_JS(char*, tc_js_storage_get, (const char* key), {
  var v = null;
  try { v = window.localStorage.getItem(UTF8ToString(key)); } catch (e) {}
  if (v === null) return 0;
  var n = lengthBytesUTF8(v) + 1, p = _malloc(n + 4);
  if (!p) return 0;
  HEAPU32[p >> 2] = n - 1;
  stringToUTF8(v, p + 4, n);
  return p;
});

EM_JS(int, tc_js_storage_set, (const char* key, const char* value), {
  try { window.localStorage.setItem(UTF8ToString(key), UTF8ToString(value)); return 1; } catch (e) { return 0; }
});

EM_JS(void, tc_js_storage_remove, (const char* key), {
  try { window.localStorage.removeItem(UTF8ToString(key)); } catch (e) {}
});

EM_JS(char*, tc_js_storage_keys, (const char* prefix), {
  var keys = [];
  try {
    var p = UTF8ToString(prefix);
    for (var i = 0; i < window.localStorage.length; i++) {
      var k = window.localStorage.key(i);
      if (k && k.indexOf(p) === 0) keys.push(k);
    }
  } catch (e) {}
  keys.sort();
  var v = keys.join(String.fromCharCode(10));
  var n = lengthBytesUTF8(v) + 1, q = _malloc(n);
  stringToUTF8(v, q, n);
  return q;
});

EM_JS(void, tc_js_download_text, (const char* filename, const char* mime, const char* text), {
  window.TrainCostShell && window.TrainCostShell.downloadText(UTF8ToString(filename), UTF8ToString(mime), UTF8ToString(text));
});

EM_JS(void, tc_js_request_png, (const char* filename, float x, float y, float w, float h), {
  window.TrainCostShell && window.TrainCostShell.requestCanvasPng(UTF8ToString(filename), x, y, w, h);
});

EM_JS(void, tc_js_pick_file, (), {
  window.TrainCostShell && window.TrainCostShell.pickJsonFile();
});

EM_JS(void, tc_js_open_url, (const char* url, int new_tab), {
  window.TrainCostShell && window.TrainCostShell.openUrl(UTF8ToString(url), new_tab !== 0);
});

EM_JS(void, tc_js_publish_results, (const char* json), {
  window.TrainCostShell && window.TrainCostShell.publishResults(UTF8ToString(json));
});

EM_JS(void, tc_js_publish_form, (const char* json), {
  window.TrainCostShell && window.TrainCostShell.publishForm(UTF8ToString(json));
});

// A task posted on a MessageChannel: it runs as soon as the browser has handled what is pending
// (input, a frame that is due), without the 4 ms a chain of setTimeout(0) calls is clamped to.
EM_JS(void, tc_js_post_task, (void* task, void* arg), {
  if (!Module.tcTasks) {
    const channel = new MessageChannel();
    const queue = [];
    channel.port1.onmessage = () => { const t = queue.shift(); if (t) Module._tc_run_task(t[0], t[1]); };
    Module.tcTasks = { queue: queue, port: channel.port2 };
  }
  Module.tcTasks.queue.push([task, arg]);
  Module.tcTasks.port.postMessage(0);
});

EM_JS(void, tc_js_end_text_input, (), {
  window.TrainCostShell && window.TrainCostShell.blurTextProxy && window.TrainCostShell.blurTextProxy();
});

EM_JS(void, tc_js_set_overlay, (const char* text), {
  window.TrainCostShell && window.TrainCostShell.setOverlay(UTF8ToString(text));
});
// clang-format on

namespace traincost::web {

CanvasSize canvas_size() {
  CanvasSize s;
  double w = 0, h = 0;
  emscripten_get_element_css_size("#canvas", &w, &h);
  s.css_width = static_cast<float>(w);
  s.css_height = static_cast<float>(h);
  s.pixel_ratio = static_cast<float>(emscripten_get_device_pixel_ratio());
  if (!(s.pixel_ratio > 0)) s.pixel_ratio = 1;
  return s;
}

void set_canvas_backbuffer(int width, int height) { emscripten_set_canvas_element_size("#canvas", width, height); }

bool prefers_dark_theme() { return tc_js_prefers_dark() != 0; }
std::string url_fragment() { return adopt(tc_js_url_fragment()); }
void replace_url_fragment(const std::string& fragment) { tc_js_replace_url_fragment(fragment.c_str()); }
void push_url_fragment(const std::string& fragment) { tc_js_push_url_fragment(fragment.c_str()); }
std::string url_query(const char* name) { return adopt(tc_js_url_query(name)); }
std::string page_url_without_fragment() { return adopt(tc_js_page_url()); }
void copy_to_clipboard(const std::string& text) { tc_js_copy(text.c_str()); }
std::string storage_get(const std::string& key) {
  char* stored = tc_js_storage_get(key.c_str());
  if (!stored) return {};
  uint32_t length = 0;
  std::memcpy(&length, stored, sizeof length);
  std::string text(stored + 4, length);
  std::free(stored);
  return text;
}
bool storage_set(const std::string& key, const std::string& value) { return tc_js_storage_set(key.c_str(), value.c_str()) != 0; }
void storage_remove(const std::string& key) { tc_js_storage_remove(key.c_str()); }

std::vector<std::string> storage_keys(const std::string& prefix) {
  const std::string joined = adopt(tc_js_storage_keys(prefix.c_str()));
  std::vector<std::string> keys;
  size_t start = 0;
  while (start < joined.size()) {
    const size_t end = joined.find('\n', start);
    keys.push_back(joined.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return keys;
}

void download_text(const std::string& filename, const std::string& mime, const std::string& text) {
  tc_js_download_text(filename.c_str(), mime.c_str(), text.c_str());
}
void download_canvas_png(const std::string& filename, float x, float y, float width, float height) {
  tc_js_request_png(filename.c_str(), x, y, width, height);
}
void pick_json_file() { tc_js_pick_file(); }
void open_in_new_tab(const std::string& url) { tc_js_open_url(url.c_str(), 1); }
void publish_results(const std::string& results_json) { tc_js_publish_results(results_json.c_str()); }
void publish_form(const std::string& form_json) { tc_js_publish_form(form_json.c_str()); }
void run_soon(void (*task)(void*), void* arg) { tc_js_post_task(reinterpret_cast<void*>(task), arg); }
void run_after(void (*task)(void*), void* arg, double ms) {
  if (ms <= 0) run_soon(task, arg);
  else emscripten_async_call(task, arg, static_cast<int>(std::ceil(ms)));
}
void set_overlay(const std::string& text) { tc_js_set_overlay(text.c_str()); }
void end_text_input() { tc_js_end_text_input(); }
double now_ms() { return emscripten_get_now(); }
std::string today_utc() { return adopt(tc_js_today_utc()); }

std::vector<unsigned char> font_file(int which) {
  std::vector<unsigned char> bytes(static_cast<size_t>(tc_js_font_size(which)));
  if (!bytes.empty()) tc_js_font_copy(which, bytes.data());
  return bytes;
}

}  // namespace traincost::web

// The other end of tc_js_post_task.
extern "C" EMSCRIPTEN_KEEPALIVE void tc_run_task(void (*task)(void*), void* arg) { task(arg); }
