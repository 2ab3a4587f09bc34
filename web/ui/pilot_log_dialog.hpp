#pragma once
// The "Pilot results" dialog: a pilot's log pasted, read, shown, then applied (pilot_log_dialog.cpp).
namespace traincost::web {
class App;

void open_pilot_log_dialog(App& app);
void pilot_log_dialog(App& app);

}  // namespace traincost::web
