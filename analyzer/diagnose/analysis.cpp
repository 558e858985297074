#include "analyzer/diagnose/analysis.hpp"

#include "analyzer/diagnose/diagnosis.hpp"
#include "analyzer/diagnose/end_to_end_analysis.hpp"
#include "analyzer/diagnose/mutation_verdict.hpp"
#include "analyzer/diagnose/what_if.hpp"
#include "analyzer/place/place_record.hpp"

namespace rooflab {

namespace {

// The conclusions a record gets when it comes: its placements, when it ran, and its end-to-end
// runs' predictions.
RecordConclusions recordConclusions(const RunRecord& record, const RooflineModels& models,
                                    const EndToEndCeilings& ceilings) {
  RecordConclusions concluded;
  if (record.status == RecordStatus::ok) concluded.roofline = placeRecord(record, models);
  if (record.end_to_end) concluded.end_to_end_analysis = analyseEndToEnd(record, ceilings);
  return concluded;
}

}  // namespace

RecordAnalysis::RecordAnalysis(DeviceAnalysisInputs inputs) : inputs_(std::move(inputs)) {}

std::optional<std::size_t> RecordAnalysis::recordAdded(const std::vector<RunRecord>& records, Analysis& analysis,
                                                       std::size_t index, bool closes_group) {
  const RunRecord& added = records[index];
  const std::optional<CeilingsReport>& ceilings = inputs_.models.ceilings;
  const EndToEndCeilings end_to_end{ceilings && ceilings->link ? &*ceilings->link : nullptr, launchLatencyNs(),
                                    ceilings && ceilings->link && ceilings->launch
                                        ? std::optional<double>(ceilings->launch->back_to_back.median_ns)
                                        : std::nullopt};
  if (analysis.records.size() <= index) analysis.records.resize(index + 1);
  analysis.records[index] = recordConclusions(added, inputs_.models, end_to_end);
  // An A/B run's sides are two runs: a side's normal record takes its own side's mutants.
  const std::string group = (added.ab_side ? toString(*added.ab_side) + ": " : std::string()) + added.family + "/" +
                            added.variant + " " + paramsLabel(added.params, added.param_order);
  mode_records_[group][added.mode] = index;
  if (!closes_group) return std::nullopt;
  return conclude(records, analysis, group);
}

std::vector<std::size_t> RecordAnalysis::concludeOpenGroups(const std::vector<RunRecord>& records, Analysis& analysis) {
  std::vector<std::size_t> concluded;
  for (const auto& [group, modes] : mode_records_)
    if (!concluded_.count(group))
      if (const std::optional<std::size_t> index = conclude(records, analysis, group)) concluded.push_back(*index);
  return concluded;
}

std::optional<std::size_t> RecordAnalysis::conclude(const std::vector<RunRecord>& records, Analysis& analysis,
                                                    const std::string& group) {
  concluded_.insert(group);
  const auto& modes = mode_records_[group];
  auto indexOf = [&](RunMode mode) -> std::optional<std::size_t> {
    auto it = modes.find(mode);
    return it == modes.end() ? std::nullopt : std::optional<std::size_t>(it->second);
  };
  auto recordAt = [&](RunMode mode) -> const RunRecord* {
    const std::optional<std::size_t> i = indexOf(mode);
    return i ? &records[*i] : nullptr;
  };
  const std::optional<std::size_t> normal_index = indexOf(RunMode::normal);
  if (!normal_index) return std::nullopt;
  const RunRecord& normal = records[*normal_index];
  RecordConclusions& concluded = analysis.records[*normal_index];
  const RunRecord* memory_only = recordAt(RunMode::memory_only);
  const RunRecord* compute_only = recordAt(RunMode::compute_only);
  const std::optional<DeviceModel>& roofs = deviceRoofs();
  // A variant that failed verification gets no verdict: its time is of a wrong computation.
  if ((memory_only || compute_only) && normal.verification.status != VerificationStatus::failed)
    concluded.mutation =
        analyseMutation(normal, memory_only, compute_only, static_cast<double>(inputs_.models.timer_resolution_ns), {},
                        roofs ? roofs->computePeak(normal.work.arithmetic) : std::nullopt,
                        roofs ? fastestMemoryRoof(*roofs) : std::nullopt, inputs_.cpu_device);
  // After placement and the verdict: the diagnosis reads both.
  if (normal.status == RecordStatus::ok)
    concluded.diagnosis = diagnose(AnalysedRecord(normal, concluded), launchLatencyNs());
  if (!concluded.mutation && !concluded.diagnosis) return std::nullopt;
  return *normal_index;
}

std::optional<double> RecordAnalysis::launchLatencyNs() const {
  const std::optional<CeilingsReport>& ceilings = inputs_.models.ceilings;
  if (ceilings && ceilings->link && ceilings->launch && ceilings->launch->latencyNs())
    return ceilings->launch->latencyNs();
  const std::optional<DeviceModel>& roofs = deviceRoofs();
  return roofs ? roofs->launch_latency_ns : std::nullopt;
}

const std::optional<DeviceModel>& RecordAnalysis::deviceRoofs() const {
  return inputs_.models.device ? inputs_.models.device : inputs_.models.datasheet;
}

void RecordAnalysis::batchOver(const std::vector<RunRecord>& records, Analysis& analysis) {
  if (analysis.records.size() < records.size()) analysis.records.resize(records.size());
  for (std::size_t i = 0; i < records.size(); ++i)
    if (records[i].mode == RunMode::what_if && records[i].what_if)
      analysis.records[i].what_if_outcome = whatIfOutcome(records, records[i]);
}

Analysis analyse(const std::vector<RunRecord>& records, const ResultsHeader& run, Analysis saved) {
  saved.records.resize(records.size());
  std::optional<double> launch_latency_ns;
  if (const auto device = run.models.roofline_models.find("device"); device != run.models.roofline_models.end())
    launch_latency_ns = device->second.model.launch_latency_ns;
  // Files written before a verdict recorded its device's kind: the document's device tells it.
  const bool cpu_device = run.device && run.device->type == "CPU";
  for (std::size_t i = 0; i < records.size(); ++i) {
    const RunRecord& record = records[i];
    RecordConclusions& concluded = saved.records[i];
    if (record.mode == RunMode::what_if && record.what_if && !concluded.what_if_outcome)
      concluded.what_if_outcome = whatIfOutcome(records, record);
    if (record.mode != RunMode::normal || concluded.diagnosis) continue;
    AnalysedRecord seen(record, concluded);
    if (cpu_device && seen.mutation) seen.mutation->cpu_device = true;
    concluded.diagnosis = diagnose(seen, launch_latency_ns);
    concluded.diagnosis->derived_when_read = true;
  }
  return saved;
}

}  // namespace rooflab
