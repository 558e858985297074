#pragma once
// Writing a batch's results document (docs/results-schema.md): started before any kernel runs; each
// record appended to <out>/journal.jsonl as it comes (O(1) per record), behind a header line with the
// document, so that `rooflab report` reads the journal of a run killed outright; results.json
// rewritten whole (atomically) at checkpoints, so that a batch cut short keeps what it measured, and
// when it finishes.
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "analyzer/batch/output_folder.hpp"
#include "analyzer/config/config.hpp"
#include "analyzer/data/device_info.hpp"
#include "analyzer/data/results_document.hpp"
#include "analyzer/roofline/roofline_models.hpp"
#include "analyzer/data/run_record.hpp"

namespace rooflab {

// Creates the output folder (absolute) and checks that a file can be written there: throws
// InputError before any kernel runs if not.
std::filesystem::path prepareOutputFolder(const std::string& out);

// Keeps the batch's ResultsDocument, journals its records and writes it as JSON into the output
// folder, telling the folder when the first record is on disk and after each results.json. Throws
// IoError when a file cannot be written.
class ResultsWriter {
 public:
  ResultsWriter(ResultsDocument& document, OutputFolder& folder);
  ~ResultsWriter();
  ResultsWriter(const ResultsWriter&) = delete;
  ResultsWriter& operator=(const ResultsWriter&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path journalPath() const { return path_.parent_path() / "journal.jsonl"; }

  // A "running" document: schema, tool, start time, the config as run, the device, the input errors.
  void start(const BatchConfig& config, const DeviceInfo& device, const std::vector<std::string>& input_errors);
  void setModels(const RooflineModels& models, double ceilings_seconds);
  void setBuildThreads(int threads);
  void setSizeChoices(const std::vector<SizeChoice>& choices);
  void setLaunchFloor(double ns) { document_.launch_floor_ns = ns; }
  // The host's condition, and why it makes timings noisy (noisyHost), or nothing when it looks quiet.
  void setHost(const HostCondition& host);

  // Appends the record to the document; journal() writes its line once the analysis step has read it.
  std::size_t append(RunRecord record);
  // Writes record `index` as a line of <out>/journal.jsonl: once per record, and again for a normal
  // record whose verdict and diagnosis its group's last mode concluded. The first also writes the
  // journal's header line: the document as it stands, without records.
  void journal(std::size_t index);
  std::size_t records() const { return document_.records.size(); }
  void setSummary(const BatchSummary& summary);
  // Status "interrupted" or "complete", the finish time and the final summary.
  void finish(bool interrupted, const BatchSummary& summary);
  void write();
  // Writes results.json when a checkpoint is due: after the first record, then once the last write
  // is 5 s old and at least 50 times as old as that write took (so that a batch of many points spends
  // at most 2% of its time rewriting a growing file).
  void checkpoint();
  // After a write failed (a full disk): where the records measured so far are, and how to read them
  // back, for the error message.
  std::string recoveryHint(std::size_t points) const;

 private:
  ResultsDocument& document_;
  OutputFolder& folder_;
  std::filesystem::path path_;
  std::FILE* journal_ = nullptr;       // <out>/journal.jsonl
  bool journal_header_ = false;        // its header line is written
  std::size_t journaled_records_ = 0;  // records whose line is complete in the journal
  std::size_t results_records_ = 0;    // records in results.json as last written
  bool results_written_ = false;
  std::chrono::steady_clock::time_point last_write_;
  double last_write_seconds_ = 0;
};

}  // namespace rooflab
