#pragma once
// A whole results file (docs/results-schema.md) as typed data: what a batch makes and what
// `rooflab report` and `rooflab diff` read back. JSON only at the edges (analyzer/json/results_json.hpp).
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/data/capture_timeline.hpp"
#include "analyzer/data/ceilings_report.hpp"
#include "analyzer/data/batch_config.hpp"
#include "analyzer/data/batch_parts.hpp"
#include "analyzer/data/device_info.hpp"
#include "analyzer/data/device_model.hpp"
#include "analyzer/data/run_cost.hpp"
#include "analyzer/data/analysis.hpp"
#include "analyzer/data/run_record.hpp"
#include "analyzer/data/size_choice.hpp"
#include "analyzer/data/tuning.hpp"

namespace rooflab {

// The schema this rooflab writes, and the oldest it reads. Schema 2 saves the analysis's findings as
// data (kinds and figures) where schema 1 saved sentences; an item read from a schema-1 file keeps its
// sentence, written back under its schema-1 key (docs/results-schema.md, "Schema versions").
inline constexpr int kResultsSchema = 2;
inline constexpr int kOldestResultsSchema = 1;

// Where the batch stood when the file was written: it is rewritten after every record.
enum class BatchStatus {
  running,
  complete,
  interrupted,  // stopped by a signal between records
  timed_out,    // the watchdog ended a record that hung
  incomplete,   // merged from parts, some of its points missing (MergeSummary)
};
std::string toString(BatchStatus status);
std::optional<BatchStatus> parseBatchStatus(std::string_view text);

struct ToolStamp {
  std::string name = "rooflab";
  std::string version;
};

// Why a device model was placed against.
enum class RooflineModelRole {
  reference,  // the course's reference device (gtx670)
  measured,   // the device that ran, as the ceilings measured it at the start of the run
  datasheet,  // the device that ran, as its datasheet model in configs/devices says
};
std::string toString(RooflineModelRole role);
std::optional<RooflineModelRole> parseRooflineModelRole(std::string_view text);

struct RooflineModelEntry {
  DeviceModel model;
  std::optional<RooflineModelRole> role;  // nullopt: the file did not say
};

// results.models: the roofline models by the key records' placements use, and the ceilings
// micro-benchmarks when they ran (a report, not a model).
struct ResultsModels {
  std::map<std::string, RooflineModelEntry> roofline_models;
  std::optional<CeilingsReport> ceilings;
};

// Counts over the records; the batch rewrites it after each record.
struct BatchSummary {
  std::size_t points = 0;  // planned
  std::size_t ok = 0;
  std::size_t failed = 0;
  std::size_t verification_failed = 0;
  std::size_t skipped = 0;
  std::optional<std::size_t> not_run;  // once the batch ended: points it never reached
};

// One device of a batch on several (ResultsDocument::device_runs); its records carry its key.
struct DeviceRun {
  std::string key;  // "P:D", as `rooflab devices` lists it
  DeviceInfo info;
  // compare: the models its records are placed on (its own ceilings); shard: empty, the document's
  // models serve every device.
  ResultsModels models;
  std::optional<double> ceilings_seconds;
};

// Everything a results file says besides its records.
struct ResultsHeader {
  int schema = kResultsSchema;
  ToolStamp tool;
  BatchStatus status = BatchStatus::running;
  std::string started_at;  // UTC, ISO 8601
  std::optional<std::string> finished_at;
  // The config as run (overrides from the command line applied); nullopt in hand-made files.
  std::optional<BatchConfig> config;
  std::optional<DeviceInfo> device;  // nullopt in hand-made files
  ResultsModels models;
  // Written by older runs, whose batch ran beside its input errors; a batch with any is now refused
  // before it runs.
  std::vector<std::string> input_errors;
  std::optional<BatchSummary> summary;     // nullopt until the first record
  std::optional<double> ceilings_seconds;  // wall time of the ceilings measured at the start
  std::optional<int> build_threads;        // programs built in the background; 0: each record builds its own
  // The host while the batch ran (load and governor at its start, the GPU clock sampled after each
  // point) and, beside it, why its timings may be noisy; absent in results written before.
  std::optional<HostCondition> host;
  std::optional<HostNoise> noisy_host;
  // Where the run's time went and its estimate (docs/cost.md); absent in results written before.
  std::optional<BatchCost> cost;
  // The control kernel timed beside every record, for `rooflab diff` to measure the run's drift.
  std::optional<DriftControlSpec> drift_control;
  std::optional<AbRun> ab;  // an A/B run's two sides (records carry ab_side)
  // A batch on several devices: how it used them and each device, in the order they ran (`device`
  // and `models` above are the first one's). Absent for one device.
  std::optional<DeviceMode> device_mode;
  std::vector<DeviceRun> device_runs;
  // The batch's identity and, for a part, which part; absent in files written before parts.
  std::optional<BatchIdentity> batch;
  std::optional<MergeSummary> merge;  // a document joined from parts by `rooflab merge`
  // What each size rule of the config chose on this device, and why; empty without rules.
  std::vector<SizeChoice> size_choices;
  // The device time of an empty kernel (ceilings/launch_floor.hpp), measured when a study sweeps a
  // size: the floor of the rate-versus-size chart.
  std::optional<double> launch_floor_ns;
  // `rooflab tune`: each search, the whole space as data; empty for `rooflab run`.
  std::vector<TuningResult> tuning;
  // A config with `[capture] folder`: where the captured application's time went; absent otherwise.
  std::optional<CaptureTimeline> capture_timeline;
};

// A run as measured and, beside it, the analysis of its records: what a batch keeps and writes, and
// what reading a results file gives back (the analysis as it was saved).
struct ResultsDocument : ResultsHeader {
  std::vector<RunRecord> records;
  // analysis.records[i] concludes about records[i]; fewer while a run has not analysed them all.
  Analysis analysis;
};

// A run with each record beside its conclusions: what the reports read. Made from a document by
// joining each record to its conclusions (none for a record the analysis has not reached).
struct AnalysedResults : ResultsHeader {
  AnalysedResults() = default;
  // Implicit: wherever a report takes a run, a document is read as its analysed records.
  AnalysedResults(const ResultsDocument& document);
  std::vector<AnalysedRecord> records;
};

}  // namespace rooflab
