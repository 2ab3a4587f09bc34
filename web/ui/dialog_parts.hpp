#pragma once
// What every modal dialog of the page shares (dialogs.cpp defines it).
namespace traincost::web {

// Opens the modal `title` when `open_flag` is set (and clears it), centred, `width_em` wide at
// most; true while it is open (the caller ends it with ImGui::EndPopup). Escape closes it.
bool begin_dialog(const char* title, bool& open_flag, float width_em);

}  // namespace traincost::web
