#include "analyzer/diagnose/analysis.hpp"

#include "analyzer/diagnose/diagnosis.hpp"
#include "analyzer/diagnose/end_to_end_analysis.hpp"
#include "analyzer/diagnose/mutation_verdict.hpp"
#include "analyzer/diagnose/what_if.hpp"

namespace rooflab {

std::optional<std::size_t> RecordAnalysis::recordAdded(std::vector<RunRecord>& records, std::size_t index,
                                                       bool closes_group) {
  const RunRecord& added = records[index];
  if (added.end_to_end) analyseEndToEnd(records[index], EndToEndCeilings{link_, launchLatencyNs(), queued_launch_ns_});
  // An A/B run's sides are two runs: a side's normal record takes its own side's mutants.
  const std::string group = (added.ab_side ? toString(*added.ab_side) + ": " : std::string()) + added.family + "/" +
                            added.variant + " " + paramsLabel(added.params, added.param_order);
  mode_records_[group][added.mode] = index;
  if (!closes_group) return std::nullopt;
  return conclude(records, group);
}

std::vector<std::size_t> RecordAnalysis::concludeOpenGroups(std::vector<RunRecord>& records) {
  std::vector<std::size_t> concluded;
  for (const auto& [group, modes] : mode_records_)
    if (!concluded_.count(group))
      if (const std::optional<std::size_t> index = conclude(records, group)) concluded.push_back(*index);
  return concluded;
}

std::optional<std::size_t> RecordAnalysis::conclude(std::vector<RunRecord>& records, const std::string& group) {
  concluded_.insert(group);
  const auto& modes = mode_records_[group];
  auto recordAt = [&](RunMode mode) -> RunRecord* {
    auto it = modes.find(mode);
    return it == modes.end() ? nullptr : &records[it->second];
  };
  RunRecord* normal = recordAt(RunMode::normal);
  const RunRecord* memory_only = recordAt(RunMode::memory_only);
  const RunRecord* compute_only = recordAt(RunMode::compute_only);
  if (!normal) return std::nullopt;
  // A variant that failed verification gets no verdict: its time is of a wrong computation.
  if ((memory_only || compute_only) && normal->verification.status != VerificationStatus::failed)
    normal->mutation = analyseMutation(*normal, memory_only, compute_only, timer_resolution_ns_, {},
                                       device_roofs_ ? device_roofs_->computePeak(normal->work.arithmetic) : std::nullopt,
                                       device_roofs_ ? fastestMemoryRoof(*device_roofs_) : std::nullopt, cpu_device_);
  // After placement and the verdict: the diagnosis reads both.
  if (normal->status == RecordStatus::ok) normal->diagnosis = diagnose(*normal, launchLatencyNs());
  if (!normal->mutation && !normal->diagnosis) return std::nullopt;
  return static_cast<std::size_t>(normal - records.data());
}

std::optional<double> RecordAnalysis::launchLatencyNs() const {
  if (launch_latency_ns_) return launch_latency_ns_;
  return device_roofs_ ? device_roofs_->launch_latency_ns : std::nullopt;
}

void RecordAnalysis::batchOver(std::vector<RunRecord>& records) { analyseWhatIfs(records); }

void analyseSavedResults(ResultsDocument& document) { diagnoseRecordsWithout(document); }

}  // namespace rooflab
