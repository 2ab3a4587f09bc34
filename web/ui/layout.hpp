#pragma once
namespace traincost::web {
class App;
// Draws the whole page for one frame: top bar, banners, inputs, results (or the embed view).
void draw_app(App& app);
}  // namespace traincost::web
