#pragma once
// Writing a batch's results document (docs/results-schema.md): started before any kernel runs,
// rewritten whole after every record (so that a batch cut short keeps what it measured), finished
// with the batch's status.
#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "analyzer/config.hpp"
#include "analyzer/device_info.hpp"
#include "analyzer/results_document.hpp"
#include "analyzer/roofline_models.hpp"
#include "analyzer/run_record.hpp"

namespace rooflab {

// Creates the output folder (absolute) and checks that a file can be written there: throws
// InputError before any kernel runs if not.
std::filesystem::path prepareOutputFolder(const std::string& out);

// Keeps the batch's ResultsDocument and writes it as JSON (a Watchdog may write it too: callers hold
// its lock around every change once the points run).
class ResultsWriter {
 public:
  ResultsWriter(ResultsDocument& document, std::filesystem::path path);
  const std::filesystem::path& path() const { return path_; }

  // A "running" document: schema, tool, start time, the config as run, the device, the input errors.
  void start(const BatchConfig& config, const DeviceInfo& device, const std::vector<std::string>& input_errors);
  void setModels(const RooflineModels& models, double ceilings_seconds);
  void setBuildThreads(int threads);
  // The host's condition, and why it makes timings noisy (noisyHost), or nothing when it looks quiet.
  void setHost(const HostCondition& host);

  // Appends the record. Once `closes_group` (the variant's last mode at these parameters has run),
  // the normal record of the group gets the reading of its mutants ("mutation").
  void addRecord(RunRecord record, bool closes_group, double timer_resolution_ns);
  std::size_t records() const { return document_.records.size(); }
  void setSummary(const BatchSummary& summary);
  // Status "interrupted" or "complete", the finish time and the final summary.
  void finish(bool interrupted, const BatchSummary& summary);
  void write() const;

 private:
  ResultsDocument& document_;
  std::filesystem::path path_;
  std::map<std::string, std::map<RunMode, std::size_t>> mode_records_;  // group -> mode -> record index
};

}  // namespace rooflab
