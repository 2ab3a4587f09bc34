#include "ui/theme.hpp"

namespace traincost::web {
namespace {

ThemeState* current = nullptr;  // set by use_theme(): the App's
ThemeState& theme() { return *current; }

ImU32 rgb(int r, int g, int b, int a = 255) { return IM_COL32(r, g, b, a); }
ImVec4 rgbf(int r, int g, int b, float a = 1.0f) { return ImVec4(r / 255.0f, g / 255.0f, b / 255.0f, a); }

// Glyphs the page draws beyond ASCII: Latin-1, typographic punctuation, arrows, math (× − ≤ ≥ ≈ √ ⌈⌉ Σ),
// the Greek letters of the formulas (Δ Σ α β δ μ σ τ), check/cross marks, triangles. Keep in sync
// with the font subset in web/CMakeLists.txt.
const ImWchar kGlyphs[] = {0x0020, 0x007E, 0x00A0, 0x00FF, 0x0394, 0x0394, 0x03A3, 0x03A3, 0x03B1, 0x03B2, 0x03B4, 0x03B4,
                           0x03BC, 0x03BC, 0x03C3, 0x03C4, 0x2013, 0x2014, 0x2018, 0x2019,
                           0x201C, 0x201D, 0x2022, 0x2022, 0x2026, 0x2026, 0x2190, 0x2193, 0x2211, 0x2212,
                           0x221A, 0x221A, 0x2248, 0x2248, 0x2264, 0x2265, 0x2308, 0x230B, 0x2713, 0x2713,
                           0x2715, 0x2715, 0x25B2, 0x25B2, 0x25B6, 0x25B6, 0x25BC, 0x25BC, 0};

// The glyphs Inter lacks, from the symbol font (web/CMakeLists.txt subsets DejaVu Sans to these).
const ImWchar kSymbolGlyphs[] = {0x2308, 0x230B, 0x2715, 0x2715, 0};

ImFont* add(const std::vector<unsigned char>& data, const std::vector<unsigned char>& symbols, float pixels, float ratio) {
  ImFontConfig cfg;
  cfg.FontDataOwnedByAtlas = false;  // the bytes stay with the App for the next re-rasterization
  cfg.OversampleH = 2;
  cfg.OversampleV = 1;
  cfg.PixelSnapH = false;
  ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
  ImFont* font = atlas.AddFontFromMemoryTTF(const_cast<unsigned char*>(data.data()), static_cast<int>(data.size()), pixels * ratio, &cfg, kGlyphs);
  if (!symbols.empty()) {
    cfg.MergeMode = true;
    atlas.AddFontFromMemoryTTF(const_cast<unsigned char*>(symbols.data()), static_cast<int>(symbols.size()), pixels * ratio, &cfg,
                               kSymbolGlyphs);
  }
  return font;
}

// Every colour the page sets on ImGui's style, dark and light side by side; the rest are ImGui's
// own dark or light defaults. Light buttons are pale blue under the theme's dark text.
struct Swatch {
  ImGuiCol slot;
  ImVec4 dark, light;
};
const Swatch kSwatches[] = {
    {ImGuiCol_WindowBg, rgbf(17, 20, 26), rgbf(246, 247, 250)},
    {ImGuiCol_ChildBg, rgbf(24, 28, 36), rgbf(255, 255, 255)},
    {ImGuiCol_PopupBg, rgbf(30, 34, 44, 0.98f), rgbf(255, 255, 255, 0.98f)},
    {ImGuiCol_Border, rgbf(52, 58, 72), rgbf(214, 219, 228)},
    {ImGuiCol_FrameBg, rgbf(36, 41, 53), rgbf(244, 246, 250)},
    {ImGuiCol_FrameBgHovered, rgbf(46, 53, 68), rgbf(232, 238, 248)},
    {ImGuiCol_FrameBgActive, rgbf(54, 62, 80), rgbf(222, 232, 250)},
    {ImGuiCol_Button, rgbf(44, 70, 120), rgbf(232, 238, 250)},
    {ImGuiCol_ButtonHovered, rgbf(56, 88, 150), rgbf(214, 226, 248)},
    {ImGuiCol_ButtonActive, rgbf(64, 100, 170), rgbf(196, 214, 246)},
    {ImGuiCol_Header, rgbf(40, 48, 64), rgbf(228, 234, 245)},
    {ImGuiCol_HeaderHovered, rgbf(50, 62, 84), rgbf(214, 226, 246)},
    {ImGuiCol_HeaderActive, rgbf(58, 72, 98), rgbf(200, 216, 244)},
    {ImGuiCol_Tab, rgbf(30, 36, 48), rgbf(228, 233, 242)},
    {ImGuiCol_TabHovered, rgbf(56, 88, 150), rgbf(59, 130, 246)},
    {ImGuiCol_TabActive, rgbf(44, 70, 120), rgbf(37, 99, 235)},
    {ImGuiCol_TableHeaderBg, rgbf(32, 37, 48), rgbf(236, 240, 247)},
    {ImGuiCol_TableRowBgAlt, rgbf(255, 255, 255, 0.025f), rgbf(0, 0, 0, 0.025f)},
    {ImGuiCol_Text, rgbf(228, 232, 240), rgbf(22, 27, 38)},
    {ImGuiCol_TextDisabled, rgbf(140, 148, 164), rgbf(100, 108, 124)},
    {ImGuiCol_SliderGrab, rgbf(110, 160, 255), rgbf(37, 99, 235)},
    {ImGuiCol_CheckMark, rgbf(110, 160, 255), rgbf(37, 99, 235)},
    {ImGuiCol_NavHighlight, rgbf(250, 204, 21), rgbf(202, 138, 4)},
};

// Chart colours: text, muted text, accent, good, bad, warn, grid, panel, the six option series,
// the stack segments (one per cost part, kCostParts order), and the tornado's low and high ends.
const Palette kDarkPalette = {rgb(228, 232, 240), rgb(150, 158, 175), rgb(110, 160, 255), rgb(72, 199, 142), rgb(240, 100, 100),
                 rgb(240, 180, 70), rgb(255, 255, 255, 28), rgb(24, 28, 36),
                 {rgb(255, 159, 64), rgb(96, 165, 250), rgb(52, 211, 153), rgb(244, 114, 182), rgb(250, 204, 21), rgb(167, 139, 250)},
                 {rgb(96, 165, 250), rgb(129, 140, 248), rgb(244, 114, 182), rgb(251, 146, 60), rgb(250, 204, 21), rgb(163, 230, 53),
                  rgb(45, 212, 191), rgb(248, 113, 113), rgb(192, 132, 252), rgb(148, 163, 184)},
                 rgb(148, 163, 184), rgb(226, 232, 240)};
const Palette kLightPalette = {rgb(22, 27, 38), rgb(96, 104, 120), rgb(37, 99, 235), rgb(22, 140, 90), rgb(200, 40, 40),
                 rgb(180, 110, 0), rgb(0, 0, 0, 24), rgb(255, 255, 255),
                 {rgb(234, 88, 12), rgb(37, 99, 235), rgb(5, 150, 105), rgb(219, 39, 119), rgb(202, 138, 4), rgb(124, 58, 237)},
                 {rgb(59, 130, 246), rgb(99, 102, 241), rgb(236, 72, 153), rgb(249, 115, 22), rgb(234, 179, 8), rgb(101, 163, 13),
                  rgb(20, 184, 166), rgb(220, 38, 38), rgb(147, 51, 234), rgb(100, 116, 139)},
                 rgb(100, 116, 139), rgb(30, 41, 59)};

}  // namespace

void use_theme(ThemeState& t) { current = &t; }

const Fonts& fonts() { return theme().fonts; }

void load_fonts(const std::vector<unsigned char>& regular, const std::vector<unsigned char>& semibold,
                const std::vector<unsigned char>& symbols, float ratio) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const std::vector<unsigned char>& bold = semibold.empty() ? regular : semibold;
  Fonts& f = theme().fonts;
  f.body = add(regular, symbols, 15, ratio);
  f.strong = add(bold, symbols, 15, ratio);
  f.heading = add(bold, symbols, 19, ratio);
  f.figure = add(bold, symbols, 24, ratio);
  io.Fonts->Build();
  // Glyphs are rasterized at ratio × size; drawing them at 1/ratio keeps layouts in CSS pixels.
  io.FontGlobalScale = 1.0f / ratio;
  io.FontDefault = f.body;
}

void apply_theme(bool dark) {
  ImGuiStyle style;
  if (dark) ImGui::StyleColorsDark(&style);
  else ImGui::StyleColorsLight(&style);
  style.WindowRounding = 0;
  style.ChildRounding = 6;
  style.FrameRounding = 4;
  style.PopupRounding = 6;
  style.GrabRounding = 4;
  style.TabRounding = 4;
  style.ScrollbarRounding = 6;
  style.WindowBorderSize = 0;
  style.ChildBorderSize = 1;
  style.FrameBorderSize = dark ? 0 : 1;
  style.WindowPadding = ImVec2(14, 12);
  style.FramePadding = ImVec2(8, 5);
  style.ItemSpacing = ImVec2(8, 7);
  style.ItemInnerSpacing = ImVec2(6, 4);
  style.CellPadding = ImVec2(7, 4);
  style.IndentSpacing = 16;
  style.ScrollbarSize = 12;
  style.GrabMinSize = 10;
  for (const Swatch& s : kSwatches) style.Colors[s.slot] = dark ? s.dark : s.light;
  theme().background = style.Colors[ImGuiCol_WindowBg];
  theme().palette = dark ? kDarkPalette : kLightPalette;
  ImGui::GetStyle() = style;
}

const Palette& palette() { return theme().palette; }
ImVec4 background_color() { return theme().background; }

}  // namespace traincost::web
