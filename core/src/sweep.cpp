#include "traincost/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "traincost/deadline.hpp"
#include "traincost/format.hpp"
#include "traincost/present.hpp"
#include "traincost/report.hpp"

namespace traincost {

std::vector<double> sweep_sizes(double limit, double extra) {
  std::vector<double> sizes;
  for (double n = 1; n <= limit; n *= 2) {
    sizes.push_back(n);
    if (n >= 2 && n * 1.5 <= limit) sizes.push_back(n * 1.5);
  }
  sizes.push_back(limit);
  if (extra >= 1 && extra <= limit) sizes.push_back(extra);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

Sweep sweep(const Scenario& s, const ResolvedScenario& resolved, const Catalog& catalog, size_t w) {
  Sweep out;
  out.workload = w;
  const WorkloadInputs& wi = resolved.workloads[w];
  out.deadline_days = wi.deadline_days.value_or(0);
  const double target = target_tokens(wi.target, wi.model);
  for (size_t o = 0; o < s.options.size(); ++o) {
    OptionSweep os;
    os.evaluated_instances = wi.options[o].instances;
    os.limit = instance_limit(s.options[o]);
    for (const double n : sweep_sizes(os.limit, os.evaluated_instances)) {
      const PairInputs p = resolve_pair(wi, s.options[o], o, n, catalog, false);
      const OptionResult r = evaluate_pair(wi, p, target);
      SweepPoint point;
      point.instances = n;
      point.chips = r.chips;
      point.feasible = r.infeasible == Infeasible::No || r.infeasible == Infeasible::Deadline;
      point.in_time = r.infeasible != Infeasible::Deadline;
      point.status = status_text(r);
      point.mfu = p.performance.layout_found ? p.performance.mfu : 0;
      point.wall_clock_hours = r.wall_clock_hours;
      point.days_to_model = r.days_to_model;
      point.cost_per_run = r.cost_per_run;
      if (point.feasible && point.in_time &&
          (os.cheapest < 0 || point.cost_per_run < os.points[static_cast<size_t>(os.cheapest)].cost_per_run))
        os.cheapest = static_cast<int>(os.points.size());
      os.points.push_back(point);
      if (r.infeasible == Infeasible::Layout) break;
    }
    out.options.push_back(std::move(os));
  }
  return out;
}

namespace {
OrderedJson number_or_null(bool present, double v) { return present && std::isfinite(v) ? OrderedJson(v) : OrderedJson(); }
}  // namespace

OrderedJson sweep_to_json(const Scenario& s, const ResolvedScenario& r, const Sweep& sw) {
  OrderedJson j = OrderedJson::object();
  j["workload"] = sw.workload;
  j["name"] = workload_title(s.workloads[sw.workload], sw.workload);
  j["deadline_days"] = number_or_null(sw.deadline_days > 0, sw.deadline_days);
  OrderedJson options = OrderedJson::array();
  for (size_t o = 0; o < sw.options.size(); ++o) {
    const OptionSweep& os = sw.options[o];
    OrderedJson points = OrderedJson::array();
    for (const SweepPoint& p : os.points)
      points.push_back({{"instances", p.instances},
                        {"chips", p.chips},
                        {"feasible", p.feasible},
                        {"status", p.status},
                        {"mfu", number_or_null(p.feasible, p.mfu)},
                        {"wall_clock_hours", number_or_null(p.feasible, p.wall_clock_hours)},
                        {"days_to_model", number_or_null(p.feasible, p.days_to_model)},
                        {"cost_per_run_usd", number_or_null(p.feasible, p.cost_per_run)},
                        {"in_time", p.in_time}});
    options.push_back({{"label", r.options[o].label},
                       {"instance", r.options[o].instance},
                       {"evaluated_instances", os.evaluated_instances},
                       {"limit", os.limit},
                       {"cheapest_instances", os.cheapest >= 0 ? OrderedJson(os.points[static_cast<size_t>(os.cheapest)].instances) : OrderedJson()},
                       {"points", points}});
  }
  j["options"] = options;
  return j;
}

std::string sweep_text(const Scenario& s, const ResolvedScenario& r, const Sweep& sw) {
  std::string out = workload_title(s.workloads[sw.workload], sw.workload) + ": cost per run and days until the model is done, by cluster size";
  if (sw.deadline_days > 0) out += " (deadline " + fmt::number(sw.deadline_days) + " days)";
  out += "\n";
  for (size_t o = 0; o < sw.options.size(); ++o) {
    const OptionSweep& os = sw.options[o];
    out += "\n" + r.options[o].label + " (" + r.options[o].instance + "): results at " + fmt::number(os.evaluated_instances) + " instances";
    if (os.cheapest >= 0)
      out += "; cheapest" + std::string(sw.deadline_days > 0 ? " in time" : "") + " at " +
             fmt::number(os.points[static_cast<size_t>(os.cheapest)].instances);
    out += "\n   instances  days to model  cost per run    MFU\n";
    for (size_t i = 0; i < os.points.size(); ++i) {
      const SweepPoint& p = os.points[i];
      const std::string note = std::string(p.in_time ? "" : "  too slow") + (p.instances == os.evaluated_instances ? "  <- results" : "") +
                               (static_cast<int>(i) == os.cheapest ? "  <- cheapest" : "");
      char line[200];
      if (p.feasible)
        std::snprintf(line, sizeof line, "  %10s  %13s  %12s  %5s%s\n", fmt::number(p.instances).c_str(), fmt::days(p.days_to_model).c_str(),
                      fmt::usd(p.cost_per_run).c_str(), fmt::percent(p.mfu).c_str(), note.c_str());
      else
        std::snprintf(line, sizeof line, "  %10s  %s\n", fmt::number(p.instances).c_str(), p.status.c_str());
      out += line;
    }
  }
  return escape_terminal_text(out);
}

std::string sweep_csv(const ResolvedScenario& r, const Sweep& sw) {
  auto num = [](bool present, double v) {
    if (!present || !std::isfinite(v)) return std::string();
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.10g", v);
    return std::string(buffer);
  };
  std::string out = "option,instances,chips,feasible,days_to_model,wall_clock_hours,cost_per_run_usd,mfu,in_time,status\n";
  for (size_t o = 0; o < sw.options.size(); ++o)
    for (const SweepPoint& p : sw.options[o].points)
      out += escape_csv(r.options[o].label) + "," + num(true, p.instances) + "," + num(true, p.chips) + "," +
             (p.feasible ? "true" : "false") + "," + num(p.feasible, p.days_to_model) + "," + num(p.feasible, p.wall_clock_hours) + "," +
             num(p.feasible, p.cost_per_run) + "," + num(p.feasible, p.mfu) + "," + (p.in_time ? "true" : "false") + "," +
             escape_csv(p.status) + "\n";
  return out;
}

}  // namespace traincost
