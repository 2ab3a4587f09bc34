#pragma once
// The "Compare with a published run" dialog (replay_dialog.cpp).
namespace traincost::web {
class App;

// Opens it for option `option` (whose utilization its button sets), replaying the library the
// first time (the replay depends on the catalog only, so it is kept for the page's life).
void open_replay_dialog(App& app, int option);
void replay_dialog(App& app);

}  // namespace traincost::web
