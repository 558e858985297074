#include "reports/text/cost_text.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "reports/text/number_format.hpp"

namespace rooflab::reports {
namespace {

std::string padRight(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}
std::string padLeft(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

double medianOf(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n == 0 ? 0 : n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// Counters per record, by mode, and per pass: what the bridge cost, and where.
void printCountersCost(const ResultsDocument& results, std::ostream& out) {
  struct Tally {
    std::vector<double> record_seconds, pass_seconds;
    double module = 0, timing = 0, config = 0, passes = 0, other = 0;
    std::size_t reused = 0;
  };
  std::map<std::string, Tally> by_mode;
  for (const RunRecord& r : results.records) {
    if (!r.counters.cost) continue;
    const counters::CountersCost& c = *r.counters.cost;
    Tally& t = by_mode[modeName(r.mode)];
    t.record_seconds.push_back(r.phase_seconds.count("counters") ? r.phase_seconds.at("counters") : c.total_seconds);
    double passes = 0;
    for (double p : c.pass_seconds) {
      t.pass_seconds.push_back(p);
      passes += p;
    }
    t.module += c.module_seconds;
    t.timing += c.timing_seconds + c.readback_seconds;
    t.config += c.config_seconds;
    t.passes += passes;
    t.other += std::max(0.0, c.total_seconds - c.module_seconds - c.timing_seconds - c.readback_seconds -
                                 c.config_seconds - passes);
    t.reused += c.session_reused ? 1 : 0;
  }
  if (by_mode.empty()) return;
  out << "\ncounters per record (seconds): mode, records, median a record, passes a record, median a pass; "
         "where they went: JIT, bridged timing, profiler set-up, passes, the rest\n";
  for (const auto& [mode, t] : by_mode) {
    const double n = double(t.record_seconds.size());
    out << "  " << padRight(mode, 13) << padLeft(std::to_string(t.record_seconds.size()), 4) << "  "
        << padLeft(formatFixed(medianOf(t.record_seconds), 3), 7) << "  "
        << padLeft(formatFixed(double(t.pass_seconds.size()) / n, 1), 4) << "  "
        << padLeft(formatFixed(medianOf(t.pass_seconds), 4), 7) << "   JIT " << formatFixed(t.module / n, 3)
        << ", timing " << formatFixed(t.timing / n, 3) << ", set-up " << formatFixed(t.config / n, 3) << ", passes "
        << formatFixed(t.passes / n, 3) << ", rest " << formatFixed(t.other / n, 3) << "; configuration reused by "
        << t.reused << "\n";
  }
}

// The fixed details of the phases whose detail holds no count.
const char* fixedPhaseDetail(const std::string& name) {
  if (name == "start-up") return "config, plan, device, output folder";
  if (name == "finish") return "analysis, results file";
  if (name == "reports") return "every format asked for";
  if (name == "other") return "process start and exit, terminal summary";
  return "";
}

void printEstimate(const BatchEstimateTrace& estimate, std::ostream& out) {
  out << "\nestimate: " << formatFixed(estimate.initial_seconds, 1) << " s before the first point";
  // The updated estimate at a tenth, a quarter and half of the points: elapsed plus what remained.
  const std::size_t points = estimate.updates.empty() ? 0 : estimate.updates.back().points_done;
  std::size_t shown = 0;
  for (double share : {0.1, 0.25, 0.5}) {
    const auto at = std::find_if(estimate.updates.begin(), estimate.updates.end(), [&](const EstimateUpdate& u) {
      return double(u.points_done) >= share * double(points);
    });
    if (at == estimate.updates.end() || at->points_done == shown || at->points_done == points) continue;
    shown = at->points_done;
    out << "; " << formatFixed(at->elapsed_seconds + at->remaining_seconds, 1) << " s after " << at->points_done
        << " points";
  }
  if (estimate.actual_seconds) {
    out << "; took " << formatFixed(*estimate.actual_seconds, 1) << " s";
    if (*estimate.actual_seconds > 0)
      out << " (the first estimate " << (estimate.initial_seconds >= *estimate.actual_seconds ? "+" : "")
          << formatFixed((estimate.initial_seconds / *estimate.actual_seconds - 1) * 100, 0) << "%)";
  }
  out << "\n";
}

}  // namespace

std::string phaseDetailText(const PhaseCost& phase) {
  if (phase.detail_as_saved) return *phase.detail_as_saved;
  if (phase.ceilings_measured)
    return *phase.ceilings_measured ? "measured at the start" : "from the datasheet: not measured";
  if (phase.worker_starts)
    return std::to_string(*phase.worker_starts) + (*phase.worker_starts == 1 ? " worker process" : " worker processes");
  if (phase.programs_built) {
    std::string detail = std::to_string(*phase.programs_built) + " programs, " +
                         formatFixed(phase.compiler_seconds.value_or(0), 1) + " s of compiler time";
    if (phase.build_threads)
      detail += " on " + std::to_string(*phase.build_threads) + " background threads while earlier records ran";
    return detail;
  }
  if (phase.records && phase.counters_mean_seconds)
    return std::to_string(*phase.records) + " records, " + formatFixed(*phase.counters_mean_seconds, 3) + " s and " +
           formatFixed(phase.counters_passes_per_record.value_or(0), 1) +
           " profiling passes a record; metric set configuration reused by " +
           std::to_string(phase.counters_reused.value_or(0));
  if (phase.records)
    return std::to_string(*phase.records) + " records: worker messages, placement, journal, checkpoints";
  return fixedPhaseDetail(phase.name);
}

void printPhaseTable(const ResultsDocument& results, std::ostream& out) {
  if (!results.cost) {
    out << "phases: not recorded (results written before rooflab measured its own phases)\n";
    return;
  }
  const BatchCost& cost = *results.cost;
  out << "phases (wall " << formatFixed(cost.wall_seconds, 1) << " s):\n";
  for (const PhaseCost& phase : cost.phases) {
    const double share = cost.wall_seconds > 0 ? phase.seconds / cost.wall_seconds : 0;
    out << "  " << padRight(phase.name, 26) << padLeft(formatFixed(phase.seconds, 2) + " s", 10)
        << padLeft(formatFixed(share * 100, 0) + "%", 6);
    const std::string detail = phaseDetailText(phase);
    out << (detail.empty() ? "" : "  " + detail) << "\n";
  }
  printCountersCost(results, out);
  if (cost.estimate) printEstimate(*cost.estimate, out);
}

}  // namespace rooflab::reports
