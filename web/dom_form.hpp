#pragma once
// The page's accessible form: every scenario input the canvas edits that the field table declares
// (fields.cpp), plus the choices around them (instance, pricing, precision, target kind, scaling
// law, fine-tune mode and matrices, a custom instance's chip, layout pins and cost overrides per
// workload and option, the Monte Carlo's ranges, reference option, names), as labelled DOM controls that a screen reader and the keyboard can use. The app
// describes the form from the scenario after every change (form_json, sent with the text mirror);
// calculator.js builds the controls from it and sends each edit back here (form_edit), which
// changes exactly that field through the same edit functions and App::edited() as the canvas, so
// undo, the share link and the autosave follow.
#include <string>

#include "traincost/base/json_text.hpp"

namespace traincost::web {

class App;

// The form as JSON text: {"groups": [{"id", "title", "controls": [{"path", "label", "kind": "number" |
// "select" | "text", "value", "scale", "placeholder", "choices", "problem"}], "actions": [...]}],
// "can_undo", "can_redo"}. Paths are the scenario's own ("options[1].mfu").
std::string form_json(const App& app);

// The same a group at a time, so that the page can build a heavy scenario's form over several
// tasks (App::publish_form_slice): its groups in order are the scenario, each workload, each
// option, one workload on one option (when there are both) and the ranges. form_text puts the
// groups' texts, joined by commas, into the form's JSON; form_json is all of them at once.
size_t form_group_count(const App& app);
OrderedJson form_group(const App& app, size_t index);
std::string form_text(const std::string& groups, bool can_undo, bool can_redo);

// Sets the field at `path` to `value` as typed (a number in the control's scale, an id, a name; ""
// resets an optional field to its default), or runs an action ("undo", "redo",
// "options[1].duplicate", "options[1].remove", "workloads[0].remove"). Returns "" or the reason
// it was refused, naming the field; a refused value leaves the scenario as it was.
std::string form_edit(App& app, const std::string& path, const std::string& value);

}  // namespace traincost::web
