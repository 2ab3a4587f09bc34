#pragma once
// Look of the page: fonts rasterized for the screen's pixel ratio, a dark and a light palette,
// and sizes in multiples of the font size (em) so layouts survive zoom and HiDPI.
#include <vector>

#include "imgui.h"

namespace traincost::web {

struct Fonts {
  ImFont* body = nullptr;     // Inter Regular 15 px
  ImFont* strong = nullptr;   // Inter SemiBold 15 px
  ImFont* heading = nullptr;  // Inter SemiBold 19 px
  ImFont* figure = nullptr;   // Inter SemiBold 24 px: the headline number
};
const Fonts& fonts();

// Rebuilds the font atlas for a pixel ratio; the GL texture is re-uploaded by the caller.
// `symbols` (DejaVu Sans, subset) supplies the few glyphs Inter lacks (⌈ ⌉ ⌊ ⌋ ✕).
void load_fonts(const std::vector<unsigned char>& regular, const std::vector<unsigned char>& semibold,
                const std::vector<unsigned char>& symbols, float pixel_ratio);

struct Palette {
  ImU32 text, text_muted, accent, good, bad, warn, grid, panel, series[6], stack[10];
  ImU32 low, high;  // an input at the low / high end of its range (tornado): not option colours
};

// The theme in use: owned by the App, handed over once with use_theme(); load_fonts(),
// apply_theme() and the readers below work on it.
struct ThemeState {
  Fonts fonts;
  Palette palette{};
  ImVec4 background;
};
void use_theme(ThemeState& theme);
void apply_theme(bool dark);
const Palette& palette();
ImVec4 background_color();

// One em: the current font size in CSS pixels.
inline float em(float n = 1.0f) { return ImGui::GetFontSize() * n; }

}  // namespace traincost::web
