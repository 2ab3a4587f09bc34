#include "dom_form.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>

#include "app.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/api/edit.hpp"
#include "traincost/base/format.hpp"
#include "traincost/engine/ranges.hpp"
#include "traincost/scenario/inputs.hpp"
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
    case Owner::FineTune: return has_w ? &s.workloads[w].fine_tune : nullptr;
    // A custom law's constants are read only with the custom law; a custom instance's figures
    // only on a custom instance; a pilot's once it has a block (form_edit makes one).
    case Owner::Law:
      return has_w && s.workloads[w].target.law == ScalingLawKind::Custom ? &s.workloads[w].target.custom_law : nullptr;
    case Owner::Custom: return has_o && s.options[o].custom ? &*s.options[o].custom : nullptr;
    case Owner::Pilot: return has_o && s.options[o].pilot ? &*s.options[o].pilot : nullptr;
    default: return nullptr;  // pins and cost overrides go through edit:: (the pair group), ranges by index
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

// The field controls of one owner struct (`ptr`, or nothing when it is absent), named uniquely
// within their group.
void add_fields(const App& app, OrderedJson& controls, std::set<std::string>& names, Owner owner, const void* ptr,
                const std::string& prefix, bool (*wanted)(const FieldSpec&, const void*) = nullptr) {
  if (!ptr) return;
  for (const FieldSpec* spec : fields_of(owner)) {
    if (wanted && !wanted(*spec, ptr)) continue;
    OrderedJson c = number_control(app, *spec, ptr, prefix + spec->input_name());
    if (!names.insert(c["label"].get<std::string>()).second) c["label"] = c["label"].get<std::string>() + " [" + spec->input_name() + "]";
    controls.push_back(c);
  }
}
void add_fields(const App& app, OrderedJson& controls, std::set<std::string>& names, Owner owner, size_t w, size_t o,
                const std::string& prefix, bool (*wanted)(const FieldSpec&, const void*) = nullptr) {
  add_fields(app, controls, names, owner, owner_of(const_cast<Scenario&>(app.scenario), owner, w, o), prefix, wanted);
}

OrderedJson select_control(const App& app, const std::string& path, const std::string& label, const std::string& value, OrderedJson choices) {
  return {{"path", path}, {"label", label}, {"kind", "select"}, {"value", value}, {"choices", std::move(choices)}, {"problem", problem_at(app, path)}};
}

template <typename E, size_t N>
OrderedJson choices_of(const EnumWord<E> (&table)[N]) {
  OrderedJson choices = OrderedJson::array();
  for (const EnumWord<E>& w : table) choices.push_back(choice(w.word, w.description));
  return choices;
}

OrderedJson on_off() { return OrderedJson::array({choice("on", "on"), choice("off", "off")}); }
const char* on_off(bool on) { return on ? "on" : "off"; }

// The layout keys pinned for workload `w` on option `o` (none pinned: empty).
LayoutPins pins_of(const Workload& w, size_t o) {
  for (const WorkloadOverride& ov : w.overrides)
    if (ov.option == static_cast<int>(o)) return ov.parallelism;
  return {};
}
std::optional<double> override_of(const Workload& w, size_t o, const FieldSpec& cost) {
  for (const WorkloadOverride& ov : w.overrides)
    if (ov.option == static_cast<int>(o)) return cost.get(ov.costs);
  return std::nullopt;
}

// The MFU option `o` runs at now for the selected workload (a custom chip's own figures start from it).
double current_mfu(const App& app, size_t o) {
  if (!app.d.valid || app.d.resolved.workloads.empty()) return 0;
  const auto& pairs = app.d.resolved.workloads[app.selected_workload()].options;
  return o < pairs.size() ? pairs[o].mfu : 0;
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

// The scenario as a whole: the reference option and the analysis settings.
OrderedJson scenario_group(const App& app) {
  const Scenario& s = app.scenario;
  const Catalog& catalog = builtin_catalog();
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
  add_fields(app, controls, names, Owner::Analysis, 0, 0, "");
  return {{"id", "scenario"}, {"title", "Scenario"}, {"controls", controls}, {"actions", OrderedJson::array()}};
}

// Workload `w`: its name, target, model, memory and fine-tune.
OrderedJson workload_group(const App& app, size_t w) {
  const Scenario& s = app.scenario;
  const Workload& wl = s.workloads[w];
  const std::string prefix = "workloads[" + std::to_string(w) + "].";
  OrderedJson controls = OrderedJson::array();
  std::set<std::string> names = {"name", "training target"};
  controls.push_back({{"path", prefix + "name"}, {"label", "name"}, {"kind", "text"}, {"value", wl.name},
                      {"placeholder", "automatic: " + automatic_workload_name(wl)}, {"problem", problem_at(app, prefix + "name")}});
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
  if (wl.target.kind == TargetKind::Loss) {  // the law that turns the loss into tokens, and a custom law's constants
    controls.push_back(select_control(app, prefix + "target.scaling_law", "scaling law", word_of(kLawWords, wl.target.law), choices_of(kLawWords)));
    add_fields(app, controls, names, Owner::Law, w, 0, prefix, nullptr);
  }
  add_fields(app, controls, names, Owner::Workload, w, 0, prefix);
  add_fields(app, controls, names, Owner::Model, w, 0, prefix);
  add_fields(app, controls, names, Owner::Memory, w, 0, prefix);
  // A mixture of experts' token dispatcher on NVIDIA GPUs (all-to-all, or DeepEP/HybridEP's flex).
  if (wl.model.experts > 1)
    controls.push_back(select_control(app, prefix + "moe_dispatcher", "MoE token dispatcher", word_of(kMoeDispatcherWords, wl.moe_dispatcher),
                                      choices_of(kMoeDispatcherWords)));
  // How the weights are trained: full, LoRA or QLoRA; the adapters' rank and matrices; packing.
  const FineTune& ft = wl.fine_tune;
  controls.push_back(select_control(app, prefix + "fine_tune.mode", "fine-tune mode", word_of(kFineTuneWords, ft.mode), choices_of(kFineTuneWords)));
  if (ft.adapters()) {
    add_fields(app, controls, names, Owner::FineTune, w, 0, prefix, [](const FieldSpec& spec, const void*) { return &spec != &fields::fill; });
    for (const EnumWord<unsigned>& target : kLoraTargetWords)
      if ((target.value & (target.value - 1)) == 0)  // one matrix each; the groups are the JSON's shorthands
        controls.push_back(select_control(app, prefix + "fine_tune.targets." + target.word, std::string("adapts the ") + target.description + " matrices",
                                          on_off((ft.targets & target.value) != 0), on_off()));
  }
  controls.push_back(select_control(app, prefix + "fine_tune.packed", "packed sequences", on_off(ft.packed), on_off()));
  if (!ft.packed) add_fields(app, controls, names, Owner::FineTune, w, 0, prefix, [](const FieldSpec& spec, const void*) { return &spec == &fields::fill; });
  OrderedJson actions = OrderedJson::array();
  actions.push_back({{"path", prefix + "duplicate"}, {"label", "Duplicate workload " + std::to_string(w + 1)}});
  if (s.workloads.size() > 1) actions.push_back({{"path", prefix + "remove"}, {"label", "Remove workload " + std::to_string(w + 1)}});
  return {{"id", "w" + std::to_string(w)}, {"title", "Workload " + std::to_string(w + 1) + ": " + workload_title(wl, w)},
          {"controls", controls}, {"actions", actions}};
}

// Option `o`: its instance, pricing, size, precision, costs, reliability and pilot.
OrderedJson option_group(const App& app, size_t o) {
  const Scenario& s = app.scenario;
  const Catalog& catalog = builtin_catalog();
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
  // A custom instance starts as a copy of the catalog instance chosen so far (edit::make_custom).
  instances.push_back(choice("custom", "Custom instance (your own price and specs)"));
  controls.push_back({{"path", prefix + "instance"}, {"label", "instance type"}, {"kind", "select"}, {"value", opt.instance},
                      {"choices", instances}, {"problem", problem_at(app, prefix + "instance")}});
  if (opt.custom) {
    const CustomInstance& ci = *opt.custom;
    OrderedJson chips = OrderedJson::array();
    for (const Chip& each : catalog.chips) chips.push_back(choice(each.id, each.name));
    chips.push_back(choice("", "Own chip figures"));
    controls.push_back(select_control(app, prefix + "custom.chip", "custom instance's chip", ci.chip, chips));
    add_fields(app, controls, names, Owner::Custom, 0, o, prefix, [](const FieldSpec& spec, const void* c) {
      return &spec == &fields::custom_chips || static_cast<const CustomInstance*>(c)->chip.empty();  // own figures only without a catalog chip
    });
    if (ci.chip.empty())
      controls.push_back(select_control(app, prefix + "custom.family", "custom chip's software", word_of(kFamilyWords, ci.family),
                                        OrderedJson::array({choice("trainium", "Trainium-like (porting)"), choice("nvidia", "CUDA (no porting)")})));
  }
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
  controls.push_back(select_control(app, prefix + "precision", "precision", word_of(kPrecisionWords, opt.precision), choices_of(kPrecisionWords)));
  add_fields(app, controls, names, Owner::Costs, 0, o, prefix);
  add_fields(app, controls, names, Owner::Reliability, 0, o, prefix);
  // What a pilot measured: typing a figure makes the option's pilot block (as on the canvas).
  static const PilotMeasurement kNoPilot;
  add_fields(app, controls, names, Owner::Pilot, opt.pilot ? &*opt.pilot : &kNoPilot, prefix);
  OrderedJson actions = OrderedJson::array();
  if (s.options.size() < static_cast<size_t>(kMaxOptions))
    actions.push_back({{"path", prefix + "duplicate"}, {"label", "Duplicate option " + std::to_string(o + 1)}});
  if (s.options.size() > 1) actions.push_back({{"path", prefix + "remove"}, {"label", "Remove option " + std::to_string(o + 1)}});
  return {{"id", "o" + std::to_string(o)},
          {"title", "Option " + std::to_string(o + 1) + ": " + (opt.label.empty() ? automatic : opt.label)},
          {"controls", controls},
          {"actions", actions}};
}

// One workload on one option (the page chooses which): layout pins and cost overrides. Only when
// the scenario has both.
OrderedJson pair_group(const App& app) {
  const Scenario& s = app.scenario;
  const Catalog& catalog = builtin_catalog();
  const size_t w = std::min(app.ui.form_pair_workload, s.workloads.size() - 1), o = std::min(app.ui.form_pair_option, s.options.size() - 1);
  const Workload& wl = s.workloads[w];
  OrderedJson controls = OrderedJson::array(), workloads = OrderedJson::array(), options = OrderedJson::array();
  for (size_t i = 0; i < s.workloads.size(); ++i) workloads.push_back(choice(std::to_string(i), workload_title(s.workloads[i], i)));
  for (size_t i = 0; i < s.options.size(); ++i)
    options.push_back(choice(std::to_string(i), s.options[i].label.empty() ? automatic_label(s.options[i], catalog) : s.options[i].label));
  controls.push_back(select_control(app, "pair.workload", "workload", std::to_string(w), workloads));
  controls.push_back(select_control(app, "pair.option", "option", std::to_string(o), options));
  const LayoutPins pins = pins_of(wl, o);
  for (const FieldSpec* spec : fields_of(Owner::Parallelism)) {
    OrderedJson c = number_control(app, *spec, &pins, "pair.pin." + spec->key());
    c["placeholder"] = "searched: the fastest layout that fits";
    controls.push_back(c);
  }
  OrderedJson recompute = OrderedJson::array({choice("", "searched")});
  for (const EnumWord<Recompute>& r : kRecomputeWords) recompute.push_back(choice(r.word, r.description));
  controls.push_back(select_control(app, "pair.recompute", "recomputation", pins.recompute ? word_of(kRecomputeWords, *pins.recompute) : "", recompute));
  controls.push_back(select_control(app, "pair.sequence_parallel", "sequence parallel", pins.sequence_parallel ? on_off(*pins.sequence_parallel) : "",
                                    OrderedJson::array({choice("", "searched"), choice("on", "on"), choice("off", "off")})));
  for (const FieldSpec* spec : fields_of(Owner::Costs)) {
    const std::optional<double> value = override_of(wl, o, *spec);
    OrderedJson c = {{"path", "pair.cost." + spec->key()}, {"label", label_of(*spec) + " for this workload"}, {"kind", "number"},
                     {"scale", scale_of(*spec)}, {"value", value ? OrderedJson(*value) : OrderedJson(nullptr)},
                     {"placeholder", "the option's own value"}, {"problem", ""}};
    controls.push_back(c);
  }
  const std::string option_name = s.options[o].label.empty() ? automatic_label(s.options[o], catalog) : s.options[o].label;
  return {{"id", "pair"}, {"title", "Layout pins and cost overrides: " + workload_title(wl, w) + " on " + option_name},
          {"controls", controls}, {"actions", OrderedJson::array()}};
}

// The Monte Carlo's ranges.
OrderedJson ranges_group(const App& app) {
  const Scenario& s = app.scenario;
  OrderedJson controls = OrderedJson::array(), actions = OrderedJson::array();
  controls.push_back(select_control(app, "analysis.default_ranges", "default ranges for the guesses", on_off(s.analysis.default_ranges), on_off()));
  for (size_t r = 0; r < s.ranges.size(); ++r) {
    const Range& range = s.ranges[r];
    const std::optional<InputRef> ref = parse_input_path(range.input);
    if (!ref) continue;
    const std::string prefix = "ranges[" + std::to_string(r) + "].", title = input_title(s, *ref, builtin_catalog());
    controls.push_back(select_control(app, prefix + "dist", title + ", distribution", word_of(kDistributionWords, range.dist), choices_of(kDistributionWords)));
    for (const char* end : {"low", "high"}) {
      const FieldSpec& spec = *ref->kind->spec;
      const std::string unit = spec.display == Display::Percent ? "%" : std::string(spec.unit);
      controls.push_back({{"path", prefix + end}, {"label", title + ", " + end + (unit.empty() ? "" : " (" + unit + ")")},
                          {"kind", "number"}, {"scale", scale_of(spec)}, {"value", std::string(end) == "low" ? range.low : range.high},
                          {"problem", problem_at(app, prefix + end)}});
    }
    actions.push_back({{"path", prefix + "remove"}, {"label", "Remove the range on " + title}});
  }
  OrderedJson inputs = OrderedJson::array({choice("", "choose an input…")});
  for (const InputKind& kind : rangeable_inputs()) {
    const size_t count = kind.scope == InputScope::Workload ? s.workloads.size() : s.options.size();
    for (size_t i = 0; i < count; ++i) {
      const InputRef ref{&kind, static_cast<int>(i)};
      const std::string path = ref.path();
      bool taken = false;
      for (const Range& r : s.ranges) taken = taken || r.input == path;
      if (!taken) inputs.push_back(choice(path, input_title(s, ref, builtin_catalog())));
    }
  }
  controls.push_back(select_control(app, "ranges.add", "add a range on", "", inputs));
  return {{"id", "ranges"}, {"title", "Uncertainty ranges"}, {"controls", controls}, {"actions", actions}};
}

}  // namespace

size_t form_group_count(const App& app) {
  const Scenario& s = app.scenario;
  const size_t pair = !s.workloads.empty() && !s.options.empty() ? 1 : 0;
  return 1 + s.workloads.size() + s.options.size() + pair + 1;
}

OrderedJson form_group(const App& app, size_t index) {
  const Scenario& s = app.scenario;
  if (index == 0) return scenario_group(app);
  index -= 1;
  if (index < s.workloads.size()) return workload_group(app, index);
  index -= s.workloads.size();
  if (index < s.options.size()) return option_group(app, index);
  index -= s.options.size();
  if (index == 0 && !s.workloads.empty() && !s.options.empty()) return pair_group(app);
  return ranges_group(app);
}

std::string form_text(const std::string& groups, bool can_undo, bool can_redo) {
  return "{\"groups\":[" + groups + "],\"can_undo\":" + (can_undo ? "true" : "false") + ",\"can_redo\":" + (can_redo ? "true" : "false") + "}";
}

std::string form_json(const App& app) {
  std::string groups;
  for (size_t i = 0; i < form_group_count(app); ++i) groups += (i ? "," : "") + form_group(app, i).dump();
  return form_text(groups, app.can_undo(), app.can_redo());
}


namespace {

// What was typed into `spec`'s control, in the scenario's scale: a value, or nothing (cleared,
// where that is allowed), or the reason it is refused, naming the field.
struct Typed {
  std::optional<double> value;
  std::string problem;
};
enum class Empty { Clears, Refused };
Typed read_typed(const FieldSpec& spec, const std::string& text, Empty empty) {
  const std::string name = label_of(spec);
  if (text.empty()) return {std::nullopt, empty == Empty::Clears ? "" : name + ": a value is needed."};
  const std::optional<double> typed = parse_number(text);
  if (!typed) return {std::nullopt, name + ": \"" + text + "\" is not a number."};
  const double v = *typed / scale_of(spec);
  const std::string problem = spec.check(v, scale_of(spec) == 1 ? text : std::string());
  if (!problem.empty()) return {std::nullopt, name + ": " + problem + "."};
  return {v, ""};
}

std::optional<bool> read_on_off(const std::string& text) {
  if (text == "on") return true;
  if (text == "off") return false;
  return std::nullopt;
}

const FieldSpec* field_by_key(Owner owner, const std::string& key) {
  for (const FieldSpec* spec : fields_of(owner))
    if (spec->key() == key) return spec;
  return nullptr;
}

bool starts_with(const std::string& text, const std::string& head) { return text.compare(0, head.size(), head) == 0; }

// The edits of the group for one workload on one option (`w`, `o`): layout pins and cost overrides.
std::string edit_pair(Workload& w, int o, const std::string& rest, const std::string& value) {
  if (rest == "recompute") {
    const std::optional<Recompute> r = parse_word(kRecomputeWords, value);
    if (!value.empty() && !r) return "recomputation: unknown choice \"" + value + "\".";
    edit::set_recompute_pin(w, o, r);  // "" (searched): no pin
    return "";
  }
  if (rest == "sequence_parallel") {
    const std::optional<bool> on = read_on_off(value);
    if (!value.empty() && !on) return "sequence parallel: unknown choice \"" + value + "\".";
    edit::set_sequence_parallel_pin(w, o, on);  // "" (searched): no pin
    return "";
  }
  const bool pin = starts_with(rest, "pin.");
  const FieldSpec* spec = pin ? field_by_key(Owner::Parallelism, rest.substr(4))
                              : starts_with(rest, "cost.") ? field_by_key(Owner::Costs, rest.substr(5)) : nullptr;
  if (!spec) return "\"pair." + rest + "\" is not a field this form edits.";
  const Typed typed = read_typed(*spec, value, Empty::Clears);  // cleared: searched again, or the option's own value
  if (!typed.problem.empty()) return typed.problem;
  if (pin) edit::set_pin(w, o, *spec, typed.value);
  else edit::set_override(w, o, *spec, typed.value);
  return "";
}

// The edits of the ranges group: a range's distribution, ends or removal, and adding one.
std::string edit_ranges(Scenario& s, const ResolvedScenario& resolved, const std::string& path, const std::string& value) {
  if (path == "ranges.add") {
    const std::optional<InputRef> ref = parse_input_path(value);
    if (!ref) return "add a range on: \"" + value + "\" is not an input a range can vary.";
    for (const Range& r : s.ranges)
      if (r.input == ref->path()) return "add a range on: " + ref->path() + " has a range already.";
    edit::add_range(s, ref->path(), input_value(s, resolved, builtin_catalog(), *ref));
    return "";
  }
  size_t index = 0;
  std::string rest;
  if (!split_indexed(path, "ranges", index, rest) || index >= s.ranges.size()) return "\"" + path + "\" is not a range of this scenario.";
  Range& r = s.ranges[index];
  if (rest == "remove") {
    edit::remove_range(s, static_cast<int>(index));
    return "";
  }
  if (rest == "dist") {
    const std::optional<Distribution> d = parse_word(kDistributionWords, value);
    if (!d) return "distribution: unknown choice \"" + value + "\".";
    r.dist = *d;
    return "";
  }
  const std::optional<InputRef> ref = parse_input_path(r.input);
  if (!ref || (rest != "low" && rest != "high")) return "\"" + path + "\" is not a field this form edits.";
  const Typed typed = read_typed(*ref->kind->spec, value, Empty::Refused);
  if (!typed.problem.empty()) return rest + " of the range on " + r.input + ": " + typed.problem;
  (rest == "low" ? r.low : r.high) = *typed.value;
  return "";
}

}  // namespace

std::string form_edit(App& app, const std::string& path, const std::string& value) {
  if (path == "undo" || path == "redo") {
    if (path == "undo" ? !app.can_undo() : !app.can_redo()) return "Nothing to " + path + ".";
    if (path == "undo") app.undo();
    else app.redo();
    return "";
  }
  Scenario& s = app.scenario;
  const Catalog& catalog = builtin_catalog();
  if (path == "pair.workload" || path == "pair.option") {  // which pair the group shows: the page's state, not the scenario's
    const std::optional<double> n = parse_number(value);
    const size_t count = path == "pair.workload" ? s.workloads.size() : s.options.size();
    if (!n || *n < 0 || *n >= static_cast<double>(count) || *n != std::floor(*n)) return path.substr(5) + ": no " + path.substr(5) + " " + value + ".";
    (path == "pair.workload" ? app.ui.form_pair_workload : app.ui.form_pair_option) = static_cast<size_t>(*n);
    app.publish();
    return "";
  }
  Scenario edited = s;  // edits go to a copy: a refused one leaves the scenario as it was
  std::string refused;
  if (starts_with(path, "pair.")) {
    if (s.workloads.empty() || s.options.empty()) return "There is no workload and option to pin.";
    const size_t w = std::min(app.ui.form_pair_workload, s.workloads.size() - 1), o = std::min(app.ui.form_pair_option, s.options.size() - 1);
    refused = edit_pair(edited.workloads[w], static_cast<int>(o), path.substr(5), value);
  } else if (starts_with(path, "ranges")) {
    refused = edit_ranges(edited, app.d.resolved, path, value);
  } else if (path == "analysis.default_ranges") {
    const std::optional<bool> on = read_on_off(value);
    if (!on) return "default ranges for the guesses: unknown choice "" + value + "".";
    edited.analysis.default_ranges = *on;
  }
  if (!refused.empty()) return refused;
  if (starts_with(path, "pair.") || starts_with(path, "ranges") || path == "analysis.default_ranges") {
    s = edited;
    app.edited();
    return "";
  }
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
    } else if (rest == "target.scaling_law") {
      const std::optional<ScalingLawKind> law = parse_word(kLawWords, value);
      if (!law) return "scaling law" + where + ": unknown law \"" + value + "\".";
      edit::set_scaling_law(w, *law);
    } else if (rest == "moe_dispatcher") {
      const std::optional<MoeDispatcher> dispatcher = parse_word(kMoeDispatcherWords, value);
      if (!dispatcher) return "MoE token dispatcher" + where + ": unknown dispatcher \"" + value + "\".";
      w.moe_dispatcher = *dispatcher;
    } else if (rest == "fine_tune.mode") {
      const std::optional<FineTuneMode> mode = parse_word(kFineTuneWords, value);
      if (!mode) return "fine-tune mode" + where + ": unknown mode \"" + value + "\".";
      w.fine_tune.mode = *mode;
      if (!w.fine_tune.adapters()) w.fine_tune.trainable_share.reset();  // it goes with adapters only
    } else if (rest == "fine_tune.packed") {
      const std::optional<bool> on = read_on_off(value);
      if (!on) return "packed sequences" + where + ": unknown choice \"" + value + "\".";
      w.fine_tune.packed = *on;
      if (*on) w.fine_tune.fill.reset();  // it goes with unpacked data only
    } else if (starts_with(rest, "fine_tune.targets.")) {
      const std::optional<unsigned> bit = parse_word(kLoraTargetWords, rest.substr(18));
      const std::optional<bool> on = read_on_off(value);
      if (!bit || (*bit & (*bit - 1)) != 0) return "\"" + path + "\" is not a matrix LoRA adapts.";
      if (!on) return "adapted matrices" + where + ": unknown choice \"" + value + "\".";
      w.fine_tune.targets = *on ? w.fine_tune.targets | *bit : w.fine_tune.targets & ~*bit;
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
    } else if (rest == "instance" && value == "custom") {
      if (!o.custom && !edit::make_custom(o, catalog)) return "instance type" + where + ": this option cannot become a custom instance.";
    } else if (rest == "instance") {
      if (value != o.instance && !edit::set_instance(o, catalog, value)) return "instance type" + where + ": \"" + value + "\" is not in the catalog.";
    } else if (rest == "custom.chip" || rest == "custom.family") {
      if (!o.custom) return (rest == "custom.chip" ? "custom instance's chip" : "custom chip's software") + where + ": the option is not a custom instance.";
      if (rest == "custom.chip") {
        if (!value.empty() && !catalog.find_chip(value)) return "custom instance's chip" + where + ": \"" + value + "\" is not in the catalog.";
        edit::set_custom_chip(o, catalog, value, current_mfu(app, index));
      } else {
        const std::optional<Family> family = parse_word(kFamilyWords, value);
        if (!family) return "custom chip's software" + where + ": unknown choice \"" + value + "\".";
        o.custom->family = *family;
      }
    } else if (rest == "precision") {
      const std::optional<Precision> precision = parse_word(kPrecisionWords, value);
      if (!precision) return "precision" + where + ": unknown precision \"" + value + "\".";
      o.precision = *precision;
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
      if (spec && spec->access.owner == Owner::Pilot && !o.pilot && !value.empty()) o.pilot.emplace();  // typing a pilot's figure makes its block
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
    const Typed typed = read_typed(*spec, value, spec->access.optional ? Empty::Clears : Empty::Refused);
    if (!typed.problem.empty()) return typed.problem;
    spec->access.set(owner, typed.value);
  } else if (!special) {
    return "\"" + path + "\" is not a field this form edits.";
  }
  s = edited;
  app.edited();
  return "";
}

}  // namespace traincost::web
