#include "dom_form.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>

#include "app.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/api/edit.hpp"
#include "traincost/base/format.hpp"
#include "traincost/scenario/fields.hpp"
#include "traincost/scenario/labels.hpp"

namespace traincost::web {
namespace {

// The owner structs the form edits, for one workload (w) or option (o) index.
void* owner_of(Scenario& s, Owner owner, size_t w, size_t o) {
  const bool has_w = w < s.workloads.size(), has_o = o < s.options.size();
  switch (owner) {
    case Owner::Scenario: return &s;
    case Owner::Analysis: return &s.analysis;
    case Owner::Workload: return has_w ? &s.workloads[w] : nullptr;
    case Owner::Model: return has_w ? &s.workloads[w].model : nullptr;
    case Owner::Target: return has_w ? &s.workloads[w].target : nullptr;
    case Owner::Memory: return has_w ? &s.workloads[w].memory : nullptr;
    case Owner::Option: return has_o ? &s.options[o] : nullptr;
    case Owner::Costs: return has_o ? &s.options[o].porting : nullptr;
    case Owner::Reliability: return has_o ? &s.options[o].reliability : nullptr;
    default: return nullptr;  // pins, pilots, custom instances, laws, ranges: on the canvas only
  }
}

// A percentage is typed as one (30 for 0.30), as the canvas shows it.
double scale_of(const FieldSpec& spec) { return spec.display == Display::Percent ? 100 : 1; }

// "deadline (days)": the field table's label with its unit, so the name says what to type.
std::string label_of(const FieldSpec& spec) {
  const std::string label = spec.label, unit = spec.display == Display::Percent ? "%" : spec.unit;
  return unit.empty() || unit == label ? label : label + " (" + unit + ")";
}

std::string problem_at(const App& app, const std::string& path) {
  for (const Problem& p : app.d.problems)
    if (p.path == path) return p.message;
  return "";
}

OrderedJson number_control(const App& app, const FieldSpec& spec, const void* owner, const std::string& path) {
  OrderedJson c = {{"path", path}, {"label", label_of(spec)}, {"kind", "number"}, {"scale", scale_of(spec)}};
  const std::optional<double> value = spec.access.get(owner);
  c["value"] = value ? OrderedJson(*value) : OrderedJson(nullptr);
  if (spec.access.optional) c["placeholder"] = std::string("default: ") + spec.default_text;
  c["problem"] = problem_at(app, path);
  return c;
}

OrderedJson choice(const std::string& value, const std::string& text) { return {{"value", value}, {"text", text}}; }

// The field controls of one owner struct, named uniquely within their group.
void add_fields(const App& app, OrderedJson& controls, std::set<std::string>& names, Owner owner, size_t w, size_t o,
                const std::string& prefix, bool (*wanted)(const FieldSpec&, const void*) = nullptr) {
  const void* ptr = owner_of(const_cast<Scenario&>(app.scenario), owner, w, o);
  if (!ptr) return;
  for (const FieldSpec* spec : fields_of(owner)) {
    if (wanted && !wanted(*spec, ptr)) continue;
    OrderedJson c = number_control(app, *spec, ptr, prefix + spec->input_name());
    if (!names.insert(c["label"].get<std::string>()).second) c["label"] = c["label"].get<std::string>() + " [" + spec->input_name() + "]";
    controls.push_back(c);
  }
}

// Parses a number as typed: decimal or e-notation, nothing after it.
std::optional<double> parse_number(const std::string& text) {
  const char* begin = text.c_str();
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(begin, &end);
  if (end == begin || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
  while (*end == ' ') ++end;
  if (*end != '\0') return std::nullopt;
  return v;
}

// "workloads[2].target.tokens" -> index 2, rest "target.tokens".
bool split_indexed(const std::string& path, const std::string& head, size_t& index, std::string& rest) {
  if (path.compare(0, head.size() + 1, head + "[") != 0) return false;
  const size_t close = path.find(']', head.size() + 1);
  if (close == std::string::npos || close == head.size() + 1 || close + 1 >= path.size() || path[close + 1] != '.') return false;
  const std::string digits = path.substr(head.size() + 1, close - head.size() - 1);
  if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 3) return false;
  index = static_cast<size_t>(std::stoul(digits));
  rest = path.substr(close + 2);
  return true;
}

}  // namespace

OrderedJson form_json(const App& app) {
  const Scenario& s = app.scenario;
  const Catalog& catalog = builtin_catalog();
  OrderedJson groups = OrderedJson::array();

  {  // The scenario as a whole.
    OrderedJson controls = OrderedJson::array();
    std::set<std::string> names;
    OrderedJson reference = {{"path", "reference"}, {"label", "reference option (savings are against it)"}, {"kind", "select"},
                             {"value", std::to_string(s.reference)}, {"problem", problem_at(app, "reference")}};
    OrderedJson choices = OrderedJson::array();
    for (size_t o = 0; o < s.options.size(); ++o)
      choices.push_back(choice(std::to_string(o), "Option " + std::to_string(o + 1) + ": " +
                                                      (s.options[o].label.empty() ? automatic_label(s.options[o], catalog) : s.options[o].label)));
    reference["choices"] = choices;
    controls.push_back(reference);
    add_fields(app, controls, names, Owner::Analysis, 0, 0, "analysis.");
    groups.push_back({{"id", "scenario"}, {"title", "Scenario"}, {"controls", controls}, {"actions", OrderedJson::array()}});
  }

  for (size_t w = 0; w < s.workloads.size(); ++w) {
    const Workload& wl = s.workloads[w];
    const std::string prefix = "workloads[" + std::to_string(w) + "].";
    OrderedJson controls = OrderedJson::array();
    std::set<std::string> names = {"name", "training target"};
    controls.push_back({{"path", prefix + "name"}, {"label", "name"}, {"kind", "text"}, {"value", wl.name},
                        {"placeholder", "automatic: " + workload_title(Workload{}, w)}, {"problem", problem_at(app, prefix + "name")}});
    OrderedJson kinds = OrderedJson::array();
    for (const auto& k : kTargetWords) kinds.push_back(choice(k.word, k.description));
    controls.push_back({{"path", prefix + "target.kind"}, {"label", "training target"}, {"kind", "select"},
                        {"value", word_of(kTargetWords, wl.target.kind)}, {"choices", kinds}, {"problem", ""}});
    // Only the target fields of the chosen kind (the others are not read).
    add_fields(app, controls, names, Owner::Target, w, 0, prefix, [](const FieldSpec& spec, const void* t) {
      const TargetKind kind = static_cast<const Target*>(t)->kind;
      if (&spec == &fields::tokens) return kind == TargetKind::Tokens;
      if (&spec == &fields::steps || &spec == &fields::tokens_per_step) return kind == TargetKind::Steps;
      if (&spec == &fields::loss) return kind == TargetKind::Loss;
      return true;
    });
    add_fields(app, controls, names, Owner::Workload, w, 0, prefix);
    add_fields(app, controls, names, Owner::Model, w, 0, prefix);
    add_fields(app, controls, names, Owner::Memory, w, 0, prefix);
    OrderedJson actions = OrderedJson::array();
    actions.push_back({{"path", prefix + "duplicate"}, {"label", "Duplicate workload " + std::to_string(w + 1)}});
    if (s.workloads.size() > 1) actions.push_back({{"path", prefix + "remove"}, {"label", "Remove workload " + std::to_string(w + 1)}});
    groups.push_back({{"id", "w" + std::to_string(w)}, {"title", "Workload " + std::to_string(w + 1) + ": " + workload_title(wl, w)},
                      {"controls", controls}, {"actions", actions}});
  }

  for (size_t o = 0; o < s.options.size(); ++o) {
    const Option& opt = s.options[o];
    const std::string prefix = "options[" + std::to_string(o) + "].";
    const std::string automatic = automatic_label(opt, catalog);
    OrderedJson controls = OrderedJson::array();
    std::set<std::string> names = {"label", "instance type", "pricing", "instances"};
    controls.push_back({{"path", prefix + "label"}, {"label", "label"}, {"kind", "text"}, {"value", opt.label},
                        {"placeholder", "automatic: " + automatic}, {"problem", problem_at(app, prefix + "label")}});
    OrderedJson instances = OrderedJson::array();
    for (const Instance& inst : catalog.instances) {
      const Chip* chip = catalog.find_chip(inst.chip);
      instances.push_back(choice(inst.id, inst.id + ", " + std::to_string(inst.chips) + " × " + (chip ? chip->name : inst.chip) + ", " + inst.provider));
    }
    if (opt.instance == "custom") instances.push_back(choice("custom", "Custom instance (edited on the canvas)"));
    controls.push_back({{"path", prefix + "instance"}, {"label", "instance type"}, {"kind", "select"}, {"value", opt.instance},
                        {"choices", instances}, {"problem", problem_at(app, prefix + "instance")}});
    OrderedJson pricing = OrderedJson::array();
    const Instance* inst = catalog.find_instance(opt.instance);
    for (int m = 0; m < kPricingModels; ++m) {
      const auto model = static_cast<PricingModel>(m);
      const Figure* price = inst ? &inst->price(model) : nullptr;
      if (inst && !price->present() && !opt.price_usd_per_hour && model != opt.pricing) continue;
      pricing.push_back(choice(to_string(model), std::string(describe(model)) + (price && price->present() ? ", " + fmt::usd(price->value) + " per hour" : "")));
    }
    controls.push_back({{"path", prefix + "pricing"}, {"label", "pricing"}, {"kind", "select"}, {"value", to_string(opt.pricing)},
                        {"choices", pricing}, {"problem", problem_at(app, prefix + "pricing")}});
    OrderedJson count = number_control(app, fields::instances, &opt, prefix + "instances");
    count["label"] = "instances";
    if (opt.sized_by_default()) count["value"] = nullptr;
    count["placeholder"] = std::string("default: ") + fields::instances.default_text;
    controls.push_back(count);
    add_fields(app, controls, names, Owner::Option, 0, o, prefix, [](const FieldSpec& spec, const void*) { return &spec != &fields::instances; });
    add_fields(app, controls, names, Owner::Costs, 0, o, prefix + "porting.");
    add_fields(app, controls, names, Owner::Reliability, 0, o, prefix + "reliability.");
    OrderedJson actions = OrderedJson::array();
    if (s.options.size() < static_cast<size_t>(kMaxOptions))
      actions.push_back({{"path", prefix + "duplicate"}, {"label", "Duplicate option " + std::to_string(o + 1)}});
    if (s.options.size() > 1) actions.push_back({{"path", prefix + "remove"}, {"label", "Remove option " + std::to_string(o + 1)}});
    groups.push_back({{"id", "o" + std::to_string(o)},
                      {"title", "Option " + std::to_string(o + 1) + ": " + (opt.label.empty() ? automatic : opt.label)},
                      {"controls", controls},
                      {"actions", actions}});
  }
  return {{"groups", groups}, {"can_undo", app.can_undo()}, {"can_redo", app.can_redo()}};
}

std::string form_edit(App& app, const std::string& path, const std::string& value) {
  if (path == "undo" || path == "redo") {
    if (path == "undo" ? !app.can_undo() : !app.can_redo()) return "Nothing to " + path + ".";
    if (path == "undo") app.undo();
    else app.redo();
    return "";
  }
  Scenario& s = app.scenario;
  const Catalog& catalog = builtin_catalog();
  Scenario edited = s;  // edits go to a copy: a refused one leaves the scenario as it was
  size_t index = 0;
  std::string rest;
  bool special = true;  // a choice, a name or an action rather than a field of the table
  const FieldSpec* spec = nullptr;
  void* owner = nullptr;
  if (split_indexed(path, "workloads", index, rest)) {
    if (index >= edited.workloads.size()) return "There is no workload " + std::to_string(index + 1) + ".";
    Workload& w = edited.workloads[index];
    const std::string where = " (workload " + std::to_string(index + 1) + ")";
    if (rest == "duplicate" || rest == "remove") {
      if (!(rest == "duplicate" ? edit::duplicate_workload(edited, static_cast<int>(index)) : edit::remove_workload(edited, static_cast<int>(index))))
        return "Workload " + std::to_string(index + 1) + " cannot be " + (rest == "duplicate" ? "duplicated (at most " + std::to_string(kMaxWorkloads) + ")" : "removed (it is the only one)") + ".";
    } else if (rest == "name") {
      w.name = value;
    } else if (rest == "target.kind") {
      bool known = false;
      for (const auto& k : kTargetWords)
        if (value == k.word) {
          known = true;
          edit::set_target_kind(w, k.value);
        }
      if (!known) return "training target" + where + ": unknown kind \"" + value + "\".";
    } else {
      special = false;
      spec = find_field("workloads[]." + rest);
      if (spec) owner = owner_of(edited, spec->access.owner, index, 0);
    }
  } else if (split_indexed(path, "options", index, rest)) {
    if (index >= edited.options.size()) return "There is no option " + std::to_string(index + 1) + ".";
    Option& o = edited.options[index];
    const std::string where = " (option " + std::to_string(index + 1) + ")";
    if (rest == "duplicate" || rest == "remove") {
      if (!(rest == "duplicate" ? edit::duplicate_option(edited, static_cast<int>(index)) : edit::remove_option(edited, static_cast<int>(index))))
        return "Option " + std::to_string(index + 1) + " cannot be " + (rest == "duplicate" ? "duplicated (at most " + std::to_string(kMaxOptions) + ")" : "removed (it is the only one)") + ".";
    } else if (rest == "label") {
      o.label = value;
    } else if (rest == "instance") {
      if (value != o.instance && !edit::set_instance(o, catalog, value)) return "instance type" + where + ": \"" + value + "\" is not in the catalog.";
    } else if (rest == "pricing") {
      bool known = false;
      for (int m = 0; m < kPricingModels; ++m)
        if (value == to_string(static_cast<PricingModel>(m))) {
          known = true;
          edit::set_pricing(o, catalog, static_cast<PricingModel>(m));
        }
      if (!known) return "pricing" + where + ": unknown pricing \"" + value + "\".";
    } else if (rest == "instances" && value.empty()) {  // back to the default size
      o.instances = 1;
      o.instances_default = true;
    } else if (rest == "instances") {
      const std::optional<double> n = parse_number(value);
      if (!n) return "instances" + where + ": \"" + value + "\" is not a number.";
      const std::string problem = fields::instances.check(*n, value);
      if (!problem.empty()) return "instances" + where + ": " + problem + ".";
      edit::set_instances(o, catalog, static_cast<int>(*n));
    } else {
      special = false;
      spec = find_field("options[]." + rest);
      if (spec) owner = owner_of(edited, spec->access.owner, 0, index);
    }
  } else if (path == "reference") {
    const std::optional<double> n = parse_number(value);
    if (!n || *n < 0 || *n >= static_cast<double>(s.options.size()) || *n != std::floor(*n)) return "reference option: no option " + value + ".";
    edited.reference = static_cast<int>(*n);
  } else {
    special = false;
    spec = find_field(path);
    if (spec) owner = owner_of(edited, spec->access.owner, 0, 0);
  }
  if (spec) {
    if (!owner) return "\"" + path + "\" is not edited by this form.";
    const std::string name = label_of(*spec);
    if (value.empty()) {
      if (!spec->access.optional) return name + ": a value is needed.";
      spec->access.set(owner, std::nullopt);
    } else {
      const std::optional<double> typed = parse_number(value);
      if (!typed) return name + ": \"" + value + "\" is not a number.";
      const double v = *typed / scale_of(*spec);
      const std::string problem = spec->check(v, scale_of(*spec) == 1 ? value : std::string());
      if (!problem.empty()) return name + ": " + problem + ".";
      spec->access.set(owner, v);
    }
  } else if (!special) {
    return "\"" + path + "\" is not a field this form edits.";
  }
  s = edited;
  app.edited();
  return "";
}

}  // namespace traincost::web
