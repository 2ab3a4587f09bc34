#include "ui/price_age_view.hpp"

#include "app.hpp"
#include "imgui.h"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace traincost::web {

std::string price_age_line(const PriceAge& age) { return age.stale ? age.summary + ". " + age.warning : age.summary + "."; }

void draw_price_age(App& app) {
  const PriceAge& age = app.d.prices;
  if (age.summary.empty()) return;
  const ImVec4 color = age.stale ? ImGui::ColorConvertU32ToFloat4(palette().warn) : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  widget::wrapped(price_age_line(age), 0, "price age");
  if (age.stale) widget::note("price age stale", age.warning, palette().warn);
  ImGui::PopStyleColor();
}

OrderedJson price_age_mirror(const PriceAge& age) {
  if (age.summary.empty()) return OrderedJson();
  return {{"text", price_age_line(age)}, {"stale", age.stale}};
}

}  // namespace traincost::web
