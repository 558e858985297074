#pragma once
// The JSON edge of the results types (docs/results-schema.md): one toJson and one *FromJson per type.
//
// toJson writes what rooflab has always written, byte for byte after dump(2): integers stay integers
// and measured quantities doubles, keys that are written only sometimes stay so, and a value that
// cannot be computed is null (JSON has no NaN or Infinity).
//
// *FromJson reads files of older rooflab versions and hand-made ones: a missing key, a null or a
// value of the wrong type takes the field's default. Only resultsDocumentFromJson rejects anything:
// a document that is not schema-1 results.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/data/analysis.hpp"
#include "analyzer/data/results_document.hpp"

namespace rooflab {

nlohmann::json toJson(const ResultsDocument& document);
// Throws std::invalid_argument ("results: ...", without the file name: the caller knows it) for a
// document that is not an object, has no schema 1 or no records array, or a record that is not an object.
ResultsDocument resultsDocumentFromJson(const nlohmann::json& json);
// Reads a results file (`rooflab report`, `rooflab diff`). Throws InputError naming the file when it
// cannot be read, is not JSON or is not results, and InputErrors, a line per problem (the file, the
// record, the field), when resultsProblems finds any.
ResultsDocument readResultsFile(const std::filesystem::path& path);
// What makes a results document unfit to read (docs/results-schema.md, "Reading a results file"),
// one line each, "records[3] (<label>): <field>: <why>": a number field that holds something else,
// or is not finite, or out of its range (a negative time); a record whose (family, variant, params,
// mode) another has already. `read` is resultsDocumentFromJson(document).
std::vector<std::string> resultsProblems(const nlohmann::json& document, const ResultsDocument& read);

// A record with its conclusions at their places in it (none: as a worker sends it).
nlohmann::json toJson(const RunRecord& record, const RecordConclusions& conclusions = {});
// A record as measured, and with what the file concluded of it.
RunRecord runRecordFromJson(const nlohmann::json& json);
AnalysedRecord analysedRecordFromJson(const nlohmann::json& json);

// The record.roofline.<key> object. Never NaN or Infinity.
nlohmann::json toJson(const RooflinePlacement& placement);
// Why a point stands above its roof, as a diagnosis's evidence item carries it: the fraction and the
// causes, or the sentence a schema-1 file saved.
nlohmann::json toJson(const AboveRoof& above);
std::optional<AboveRoof> aboveRoofFromJson(const nlohmann::json& json);
RooflinePlacement rooflinePlacementFromJson(const nlohmann::json& json);

nlohmann::json toJson(const MutationVerdict& verdict);
MutationVerdict mutationVerdictFromJson(const nlohmann::json& json);
// A verdict's mutant validation and note, also quoted by a diagnosis's evidence.
nlohmann::json toJson(const MutantValidation& validation);
MutantValidation mutantValidationFromJson(const nlohmann::json& json);
nlohmann::json toJson(const MutationNote& note);
std::optional<MutationNote> mutationNoteFromJson(const nlohmann::json& json);

// The record.mutant_source_check object (automatic mutants only).
nlohmann::json toJson(const MutantSourceCheck& check);
MutantSourceCheck mutantSourceCheckFromJson(const nlohmann::json& json);

// A noisy host beside its host condition, into the object `j` (a results file's top level, a
// ceilings report): "host_noise" as data, or "noisy_host" as a schema-1 file saved it.
void writeHostNoise(nlohmann::json& j, const std::optional<HostCondition>& host, const std::optional<HostNoise>& noise);
std::optional<HostNoise> hostNoiseFromJson(const nlohmann::json& j);

// The record.what_if object (what-if records only): what ran, and its outcome.
nlohmann::json toJson(const WhatIfRun& run, const WhatIfOutcome& outcome);
WhatIfRun whatIfRunFromJson(const nlohmann::json& json);
WhatIfOutcome whatIfOutcomeFromJson(const nlohmann::json& json);
// The record.diagnosis object (normal records; not written for one derived when read).
nlohmann::json toJson(const Diagnosis& diagnosis);
Diagnosis diagnosisFromJson(const nlohmann::json& json);

// The record.verification object, also each end-to-end run's.
nlohmann::json verificationJson(const VerificationResult& verification);
VerificationResult verificationFromJson(const nlohmann::json& json);

// A record's source lines (results_json_source_lines.cpp): "source_files", "line_sampling" and
// "mutant_line_changes", each written only when the record holds it.
void writeSourceLines(const RunRecord& record, nlohmann::json& out);
void readSourceLines(const nlohmann::json& in, RunRecord& record);
// The record.line_sampling object: {"available": false, "reason"} when none was taken, else the
// figures and the lines.
nlohmann::json toJson(const LineSampling& sampling);
LineSampling lineSamplingFromJson(const nlohmann::json& json);

// The record.end_to_end object (results_json_link.cpp): the runs, each with its prediction, then
// what they conclude.
nlohmann::json toJson(const EndToEndResult& result, const std::optional<EndToEndAnalysis>& analysis);
EndToEndResult endToEndResultFromJson(const nlohmann::json& json);
EndToEndAnalysis endToEndAnalysisFromJson(const nlohmann::json& json);

// The ceilings' "link" and "launch" objects (results_json_link.cpp).
nlohmann::json toJson(const LinkCeilings& link);
LinkCeilings linkCeilingsFromJson(const nlohmann::json& json);
nlohmann::json toJson(const LaunchCeilings& launch);
LaunchCeilings launchCeilingsFromJson(const nlohmann::json& json);

nlohmann::json toJson(const OccupancyMatch& match);
OccupancyMatch occupancyMatchFromJson(const nlohmann::json& json);

// The `models.<key>` object; unknown numbers are null. Defined in device_model.cpp, beside the table
// of number fields it walks. deviceModelFromJson throws InputError (no key, or a roof missing).
nlohmann::json toJson(const DeviceModel& model);
DeviceModel deviceModelFromJson(const nlohmann::json& json);

nlohmann::json toJson(const DeviceInfo& info);
DeviceInfo deviceInfoFromJson(const nlohmann::json& json);

nlohmann::json toJson(const CeilingBenchmark& benchmark);
nlohmann::json toJson(const CeilingsReport& report);
CeilingsReport ceilingsReportFromJson(const nlohmann::json& json);

// The "config" echo: the config as run, without the source lines of its studies.
nlohmann::json toJson(const BatchConfig& config);
BatchConfig batchConfigFromJson(const nlohmann::json& json);

// A size rule, as the config's study params hold it ({"rule": "fill", "waves": 4, ...}), and what
// a rule chose (results.size_choices).
nlohmann::json toJson(const SizeRuleSpec& rule);
SizeRuleSpec sizeRuleFromJson(const std::string& param, const nlohmann::json& json);
nlohmann::json toJson(const SizeChoice& choice);
SizeChoice sizeChoiceFromJson(const nlohmann::json& json);

// results.tuning: one search of `rooflab tune` each; and a line of <out>/tune-journal.jsonl
// (nullopt for a line that is not one: a torn last line).
nlohmann::json toJson(const TuningResult& result);
TuningResult tuningResultFromJson(const nlohmann::json& json);
std::string encodeTuneJournalLine(const TuneJournalEntry& entry);
std::optional<TuneJournalEntry> decodeTuneJournalLine(const std::string& line);

// results.capture_timeline: a captured application's timeline (results_json_capture.cpp).
nlohmann::json toJson(const CaptureTimeline& timeline);
CaptureTimeline captureTimelineFromJson(const nlohmann::json& json);

nlohmann::json toJson(const ResultsModels& models);
ResultsModels resultsModelsFromJson(const nlohmann::json& json);

// The several-devices and parts fields of a document (results_json_parts.cpp): "device_mode" and
// "devices", "batch", "merge"; each written only when present.
void writeDevicesAndParts(const ResultsDocument& document, nlohmann::json& out);
void readDevicesAndParts(const nlohmann::json& in, ResultsDocument& document);

nlohmann::json toJson(const BatchSummary& summary);
BatchSummary batchSummaryFromJson(const nlohmann::json& json);

// What a run cost rooflab (docs/cost.md), its drift control and an A/B run's sides; each written only
// when present, so that older results re-write unchanged.
nlohmann::json toJson(const BatchCost& cost);
BatchCost batchCostFromJson(const nlohmann::json& json);
nlohmann::json toJson(const DriftControlSpec& spec);
DriftControlSpec driftControlSpecFromJson(const nlohmann::json& json);
nlohmann::json toJson(const DriftControlSample& sample);
DriftControlSample driftControlSampleFromJson(const nlohmann::json& json);
nlohmann::json toJson(const AbRun& ab);
AbRun abRunFromJson(const nlohmann::json& json);

namespace counters {
nlohmann::json toJson(const CountersCost& cost);
CountersCost countersCostFromJson(const nlohmann::json& json);
// {"available", "reason" (null when available)} and, unless not_attempted: "values", "missing",
// "derived", "derived_reasons", "bridged_kernel_ns" (null when the bridge did not time), "profiler_passes",
// "l2_flushed_before_profiling" (and "l2_flush_error" when it failed), "kernels", and the runner's fields.
nlohmann::json toJson(const CounterSet& counters);
CounterSet counterSetFromJson(const nlohmann::json& json);
}  // namespace counters

}  // namespace rooflab
