#include "analyzer/batch/batch_cost.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "analyzer/support/format.hpp"

namespace rooflab {
namespace {

// The records' phases, in the order a record goes through them, with the words of the table.
struct RecordPhase {
  const char* key;   // RunRecord::phase_seconds
  const char* name;  // the table's
};
constexpr RecordPhase kRecordPhases[] = {
    {"build", "records: build (waiting)"},
    {"prepare", "records: prepare"},
    {"warmup", "records: warm-up runs"},
    {"run", "records: timed runs"},
    {"drift_control", "records: drift control"},
    {"verify", "records: verify"},
    {"counters", "records: counters"},
    {"end-to-end", "records: end to end"},
    {"release", "records: release"},
};

std::string seconds(double s) { return formatFixed(s, 1) + " s"; }

std::string buildDetail(const std::vector<RunRecord>& records, std::optional<int> build_threads) {
  double own = 0;
  std::size_t built = 0;
  for (const RunRecord& r : records)
    if (r.build_seconds > 0) {
      own += r.build_seconds;
      ++built;
    }
  std::string detail = std::to_string(built) + " programs, " + seconds(own) + " of compiler time";
  if (build_threads && *build_threads > 0)
    detail += " on " + std::to_string(*build_threads) + " background threads while earlier records ran";
  return detail;
}

std::string countersDetail(const std::vector<RunRecord>& records) {
  std::size_t measured = 0, passes = 0, reused = 0;
  double total = 0;
  for (const RunRecord& r : records) {
    if (!r.counters.cost) continue;
    ++measured;
    total += r.phase_seconds.count("counters") ? r.phase_seconds.at("counters") : 0;
    passes += r.counters.cost->pass_seconds.size();
    reused += r.counters.cost->session_reused ? 1 : 0;
  }
  if (measured == 0) return "";
  return std::to_string(measured) + " records, " + formatFixed(total / double(measured), 3) + " s and " +
         formatFixed(double(passes) / double(measured), 1) +
         " profiling passes a record; metric set configuration reused by " + std::to_string(reused);
}

}  // namespace

BatchCost batchCost(const BatchTimes& times, const std::vector<RunRecord>& records, std::optional<int> build_threads) {
  BatchCost cost;
  cost.phases.push_back({"start-up", times.startup_seconds, "config, plan, device, output folder"});
  cost.phases.push_back({"ceilings", times.ceilings_seconds,
                         times.ceilings_measured ? "measured at the start" : "from the datasheet: not measured"});
  cost.phases.push_back(
      {"worker start", times.worker_start_seconds,
       std::to_string(times.worker_starts) + (times.worker_starts == 1 ? " worker process" : " worker processes")});
  std::map<std::string, double> sums;
  for (const RunRecord& r : records)
    for (const auto& [key, s] : r.phase_seconds) sums[key] += s;
  double in_records = 0;
  for (const RecordPhase& phase : kRecordPhases) {
    const double s = sums.count(phase.key) ? sums.at(phase.key) : 0;
    in_records += s;
    std::string detail;
    if (std::string(phase.key) == "build") detail = buildDetail(records, build_threads);
    if (std::string(phase.key) == "counters") detail = countersDetail(records);
    cost.phases.push_back({phase.name, s, detail});
  }
  cost.phases.push_back(
      {"records: bookkeeping", std::max(0.0, times.points_seconds - times.worker_start_seconds - in_records),
       std::to_string(records.size()) + " records: worker messages, placement, journal, checkpoints"});
  cost.phases.push_back({"finish", times.finish_seconds, "analysis, results file"});
  for (const PhaseCost& phase : cost.phases) cost.wall_seconds += phase.seconds;
  return cost;
}

void closeBatchCost(BatchCost& cost, double reports_seconds, double wall_seconds) {
  cost.phases.erase(std::remove_if(cost.phases.begin(), cost.phases.end(),
                                   [](const PhaseCost& p) { return p.name == "reports" || p.name == "other"; }),
                    cost.phases.end());
  double accounted = 0;
  for (const PhaseCost& phase : cost.phases) accounted += phase.seconds;
  cost.phases.push_back({"reports", reports_seconds, "every format asked for"});
  cost.phases.push_back(
      {"other", std::max(0.0, wall_seconds - accounted - reports_seconds), "process start and exit, terminal summary"});
  cost.wall_seconds = wall_seconds;
  // The first estimate was printed once the start-up and the ceilings were over.
  if (cost.estimate) {
    double before_estimate = 0;
    for (const PhaseCost& phase : cost.phases)
      if (phase.name == "start-up" || phase.name == "ceilings") before_estimate += phase.seconds;
    cost.estimate->actual_seconds = std::max(0.0, wall_seconds - before_estimate);
  }
}

}  // namespace rooflab
