#include "traincost/output/sweep_report.hpp"

#include <cmath>
#include <cstdio>

#include "traincost/base/format.hpp"
#include "traincost/output/present.hpp"
#include "traincost/output/report.hpp"

namespace traincost {

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
                        {"status", status_text(p.infeasible, p.memory)},
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
        std::snprintf(line, sizeof line, "  %10s  %s\n", fmt::number(p.instances).c_str(), status_text(p.infeasible, p.memory).c_str());
      out += line;
    }
  }
  return escape_terminal_text(out);
}

std::string sweep_csv(const ResolvedScenario& r, const Sweep& sw) {
  auto num = [](bool present, double v) {
    if (!present || !std::isfinite(v)) return std::string();
    return fmt::printf_c("%.10g", v);
  };
  std::string out = "option,instances,chips,feasible,days_to_model,wall_clock_hours,cost_per_run_usd,mfu,in_time,status\n";
  for (size_t o = 0; o < sw.options.size(); ++o)
    for (const SweepPoint& p : sw.options[o].points)
      out += escape_csv(r.options[o].label) + "," + num(true, p.instances) + "," + num(true, p.chips) + "," +
             (p.feasible ? "true" : "false") + "," + num(p.feasible, p.days_to_model) + "," + num(p.feasible, p.wall_clock_hours) + "," +
             num(p.feasible, p.cost_per_run) + "," + num(p.feasible, p.mfu) + "," + (p.in_time ? "true" : "false") + "," +
             escape_csv(status_text(p.infeasible, p.memory)) + "\n";
  return out;
}

}  // namespace traincost
