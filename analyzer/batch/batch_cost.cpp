#include "analyzer/batch/batch_cost.hpp"

#include <algorithm>
#include <map>
#include <string>

namespace rooflab {
namespace {

// The records' phases, in the order a record goes through them, with the words of the table.
struct RecordPhase {
  const char* key;   // RunRecord::phase_seconds
  const char* name;  // the table's
};
constexpr RecordPhase kRecordPhases[] = {
    {"build", "records: build (waiting)"},       {"prepare", "records: prepare"},
    {"warmup", "records: warm-up runs"},         {"run", "records: timed runs"},
    {"drift_control", "records: drift control"}, {"verify", "records: verify"},
    {"counters", "records: counters"},           {"line_sampling", "records: line sampling"},
    {"end-to-end", "records: end to end"},       {"release", "records: release"},
};

// The build phase's counts: the programs the records compiled and the compiler time they took.
void countBatchBuilds(const std::vector<RunRecord>& records, std::optional<int> build_threads, PhaseCost& phase) {
  double own = 0;
  std::size_t built = 0;
  for (const RunRecord& r : records)
    if (r.build_seconds > 0) {
      own += r.build_seconds;
      ++built;
    }
  phase.programs_built = built;
  phase.compiler_seconds = own;
  if (build_threads && *build_threads > 0) phase.build_threads = *build_threads;
}

// The counters phase's counts, over the records that read counters; none when no record did.
void countBatchCounters(const std::vector<RunRecord>& records, PhaseCost& phase) {
  std::size_t measured = 0, passes = 0, reused = 0;
  double total = 0;
  for (const RunRecord& r : records) {
    if (!r.counters.cost) continue;
    ++measured;
    total += r.phase_seconds.count("counters") ? r.phase_seconds.at("counters") : 0;
    passes += r.counters.cost->pass_seconds.size();
    reused += r.counters.cost->session_reused ? 1 : 0;
  }
  if (measured == 0) return;
  phase.records = measured;
  phase.counters_mean_seconds = total / double(measured);
  phase.counters_passes_per_record = double(passes) / double(measured);
  phase.counters_reused = reused;
}

PhaseCost batchPhase(const std::string& name, double seconds) {
  PhaseCost phase;
  phase.name = name;
  phase.seconds = seconds;
  return phase;
}

}  // namespace

BatchCost batchCost(const BatchTimes& times, const std::vector<RunRecord>& records, std::optional<int> build_threads) {
  BatchCost cost;
  cost.phases.push_back(batchPhase("start-up", times.startup_seconds));
  cost.phases.push_back(batchPhase("ceilings", times.ceilings_seconds));
  cost.phases.back().ceilings_measured = times.ceilings_measured;
  cost.phases.push_back(batchPhase("worker start", times.worker_start_seconds));
  cost.phases.back().worker_starts = times.worker_starts;
  std::map<std::string, double> sums;
  for (const RunRecord& r : records)
    for (const auto& [key, s] : r.phase_seconds) sums[key] += s;
  double in_records = 0;
  for (const RecordPhase& phase : kRecordPhases) {
    const double s = sums.count(phase.key) ? sums.at(phase.key) : 0;
    in_records += s;
    cost.phases.push_back(batchPhase(phase.name, s));
    if (std::string(phase.key) == "build") countBatchBuilds(records, build_threads, cost.phases.back());
    if (std::string(phase.key) == "counters") countBatchCounters(records, cost.phases.back());
  }
  cost.phases.push_back(batchPhase("records: bookkeeping",
                                   std::max(0.0, times.points_seconds - times.worker_start_seconds - in_records)));
  cost.phases.back().records = records.size();
  cost.phases.push_back(batchPhase("finish", times.finish_seconds));
  for (const PhaseCost& phase : cost.phases) cost.wall_seconds += phase.seconds;
  return cost;
}

void closeBatchCost(BatchCost& cost, double reports_seconds, double wall_seconds) {
  cost.phases.erase(std::remove_if(cost.phases.begin(), cost.phases.end(),
                                   [](const PhaseCost& p) { return p.name == "reports" || p.name == "other"; }),
                    cost.phases.end());
  double accounted = 0;
  for (const PhaseCost& phase : cost.phases) accounted += phase.seconds;
  cost.phases.push_back(batchPhase("reports", reports_seconds));
  cost.phases.push_back(batchPhase("other", std::max(0.0, wall_seconds - accounted - reports_seconds)));
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
