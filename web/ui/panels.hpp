#pragma once
#include <string>

// The page's panels. Each draws from the App's state and turns input into scenario edits
// (changing app.scenario and calling app.edited()); none keeps state of its own beyond ImGui's.
namespace traincost::web {
class App;

void draw_topbar(App& app);
void draw_banners(App& app);
void draw_scenario_name(App& app);  // the scenario's title, editable
void draw_workloads(App& app);
void draw_options(App& app);
void draw_verdict(App& app);
void draw_results(App& app);
void draw_uncertainty(App& app);
void draw_catalog(App& app);
void draw_pilot(App& app);  // what would change the answer, and the pilot plan
void draw_chip_comparison(App& app);  // the selected workload on every instance of the catalog
void draw_dialogs(App& app);
void draw_embed(App& app);
// The verdict sentence of a workload, as the page's headline (results and embed view).
void draw_verdict_sentence(App& app, unsigned long workload);
// The headline figure (the cheapest option's cost per run, marked when it rests on an estimate)
// with the Monte Carlo's median and 90% range beside it.
void draw_headline_figures(App& app, unsigned long workload);
// What the marked figures of a workload's results rest on, muted under its table (results and embed).
void draw_estimate_footnote(App& app, unsigned long workload);
// " 40%" while a Monte Carlo runs (a large one takes a few seconds, a slice per frame), else "".
// Only on one-line texts: in a wrapped paragraph a changing figure can change the line breaks,
// and the layout below would move under the user's finger at every frame.
std::string progress_text(const App& app);
// The cumulative-cost chart of a workload (shared by the results and the embed view); 0 height: default.
void draw_cumulative_chart(App& app, unsigned long workload, float height);

}  // namespace traincost::web
