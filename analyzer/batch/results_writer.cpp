#include "analyzer/batch/results_writer.hpp"

#include "analyzer/device/host_condition.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>

#include "analyzer/support/errors.hpp"
#include "analyzer/json/json_file_io.hpp"
#include "analyzer/json/results_json.hpp"
#include "analyzer/json/results_json_lines.hpp"
#include "analyzer/support/written_files.hpp"

namespace fs = std::filesystem;

namespace rooflab {
namespace {

std::string utcNow() {
  std::time_t now = std::time(nullptr);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return buffer;
}

}  // namespace

fs::path prepareOutputFolder(const std::string& out) {
  const fs::path dir = fs::absolute(out);
  std::error_code ec;
  fs::create_directories(dir, ec);
  const fs::path probe = dir / ".rooflab-write-test";
  std::ofstream test(probe);
  if (ec || !test) throw InputError("output folder '" + dir.string() + "' cannot be created or written");
  test.close();
  fs::remove(probe, ec);
  return dir;
}

ResultsWriter::ResultsWriter(ResultsDocument& document, OutputFolder& folder)
    : document_(document), folder_(folder), path_(folder.dir() / "results.json") {}

ResultsWriter::~ResultsWriter() {
  if (journal_ != nullptr) std::fclose(journal_);
}

void ResultsWriter::start(const BatchConfig& config, const DeviceInfo& device,
                          const std::vector<std::string>& input_errors) {
  document_ = ResultsDocument{};
  document_.tool = {"rooflab", ROOFLAB_VERSION};
  document_.status = BatchStatus::running;
  document_.started_at = utcNow();
  document_.config = config;
  document_.device = device;
  document_.input_errors = input_errors;
  const fs::path journal_path = journalPath();
  journal_ = std::fopen(journal_path.c_str(), "we");  // e: not inherited by the worker
  if (journal_ == nullptr) throw IoError("cannot write " + journal_path.string() + ": " + std::strerror(errno));
  recordWrittenFile(journal_path);
}

void ResultsWriter::setModels(const RooflineModels& models, double ceilings_seconds) {
  document_.ceilings_seconds = ceilings_seconds;
  document_.models = resultsModels(models);
}

void ResultsWriter::setBuildThreads(int threads) { document_.build_threads = threads; }

void ResultsWriter::setSizeChoices(const std::vector<SizeChoice>& choices) { document_.size_choices = choices; }

void ResultsWriter::setHost(const HostCondition& host) {
  document_.host = host;
  document_.noisy_host = noisyHost(host);
}

std::size_t ResultsWriter::append(RunRecord record) {
  document_.records.push_back(std::move(record));
  return document_.records.size() - 1;
}

void ResultsWriter::journal(std::size_t index) {
  // The header goes with the first record, when the models, the host and the device are known.
  const std::string line = (journal_header_ ? "" : journalHeaderLine(document_)) +
                           journalLine(index, document_.records[index], conclusionsOf(document_.analysis, index));
  if (std::fwrite(line.data(), 1, line.size(), journal_) != line.size() || std::fflush(journal_) != 0)
    throw IoError("cannot write " + journalPath().string() + ": " + std::strerror(errno));
  journal_header_ = true;
  journaled_records_ = std::max(journaled_records_, index + 1);
  folder_.recordsWritten();
}

void ResultsWriter::checkpoint() {
  const double since_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - last_write_).count();
  if (document_.records.size() == 1 || since_s >= std::max(5.0, 50 * last_write_seconds_)) write();
}

void ResultsWriter::setSummary(const BatchSummary& summary) { document_.summary = summary; }

void ResultsWriter::finish(bool interrupted, const BatchSummary& summary) {
  document_.status = interrupted ? BatchStatus::interrupted : BatchStatus::complete;
  document_.finished_at = utcNow();
  document_.summary = summary;
}

void ResultsWriter::write() {
  const auto started = std::chrono::steady_clock::now();
  writeJsonAtomically(path_, toJson(document_));
  results_written_ = true;
  results_records_ = document_.records.size();
  folder_.resultsWritten();
  last_write_ = std::chrono::steady_clock::now();
  last_write_seconds_ = std::chrono::duration<double>(last_write_ - started).count();
}

std::string ResultsWriter::recoveryHint(std::size_t points) const {
  const std::size_t measured = document_.records.size();
  const std::string stopped =
      "the batch stopped after " + std::to_string(measured) + " of " + std::to_string(points) + " points";
  if (measured == 0) return stopped;
  if (results_written_ && results_records_ == measured) return stopped + "; their records are in " + path_.string();
  const std::string journal = journalPath().string();
  std::string where =
      journal + " holds " +
      (journaled_records_ == measured ? "their " + std::to_string(measured)
                                      : std::to_string(journaled_records_) + " of their " + std::to_string(measured)) +
      " records";
  if (results_written_) where += " (" + path_.string() + " the first " + std::to_string(results_records_) + ")";
  return stopped + ": " + where + "; `rooflab report " + journal +
         " --out DIR` reads them back into DIR, on a disk with room";
}

}  // namespace rooflab
