#include "analyzer/results_writer.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>

#include "analyzer/diagnosis.hpp"
#include "analyzer/errors.hpp"
#include "analyzer/json_file.hpp"
#include "analyzer/results_json.hpp"
#include "analyzer/results_json_lines.hpp"
#include "mutators/mutation_verdict.hpp"
#include "mutators/what_if.hpp"

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

ResultsWriter::ResultsWriter(ResultsDocument& document, fs::path path) : document_(document), path_(std::move(path)) {}

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
  const fs::path journal_path = path_.parent_path() / "journal.jsonl";
  journal_ = std::fopen(journal_path.c_str(), "we");  // e: not inherited by the worker
  if (journal_ == nullptr) throw IoError("cannot write " + journal_path.string() + ": " + std::strerror(errno));
}

void ResultsWriter::setModels(const RooflineModels& models, double ceilings_seconds) {
  document_.ceilings_seconds = ceilings_seconds;
  document_.models = resultsModels(models);
}

void ResultsWriter::setBuildThreads(int threads) { document_.build_threads = threads; }

void ResultsWriter::setHost(const HostCondition& host) {
  document_.host = host;
  document_.noisy_host = noisyHost(host);
}

void ResultsWriter::addRecord(RunRecord record, bool closes_group, double timer_resolution_ns) {
  std::vector<RunRecord>& records = document_.records;
  const std::string group = record.family + "/" + record.variant + " " + paramsLabel(record.params, record.param_order);
  mode_records_[group][record.mode] = records.size();
  records.push_back(std::move(record));
  if (!closes_group) {
    journal(records.size() - 1);
    return;
  }
  const auto& modes = mode_records_[group];
  auto recordAt = [&](RunMode mode) -> RunRecord* {
    auto it = modes.find(mode);
    return it == modes.end() ? nullptr : &records[it->second];
  };
  RunRecord* normal = recordAt(RunMode::normal);
  const RunRecord* mem = recordAt(RunMode::memory_only);
  const RunRecord* comp = recordAt(RunMode::compute_only);
  if (normal && (mem || comp)) normal->mutation = analyseMutation(*normal, mem, comp, timer_resolution_ns);
  // After placement (batch.cpp) and the verdict: the diagnosis reads both.
  if (normal && normal->status == RecordStatus::ok) normal->diagnosis = diagnose(*normal);
  // One journal line per record, plus one for a normal record that its mutants' group concluded.
  journal(records.size() - 1);
  const std::size_t normal_index = normal ? static_cast<std::size_t>(normal - records.data()) : records.size();
  if (normal_index + 1 < records.size() && (normal->mutation || normal->diagnosis)) journal(normal_index);
}

void ResultsWriter::journal(std::size_t index) {
  const std::string line = journalLine(index, document_.records[index]);
  if (std::fwrite(line.data(), 1, line.size(), journal_) != line.size() || std::fflush(journal_) != 0)
    throw IoError("cannot write " + (path_.parent_path() / "journal.jsonl").string() + ": " + std::strerror(errno));
}

void ResultsWriter::checkpoint() {
  const double since_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - last_write_).count();
  if (document_.records.size() == 1 || since_s >= std::max(5.0, 50 * last_write_seconds_)) write();
}

void ResultsWriter::setSummary(const BatchSummary& summary) { document_.summary = summary; }

void ResultsWriter::finish(bool interrupted, const BatchSummary& summary) {
  document_.status = interrupted ? BatchStatus::interrupted : BatchStatus::complete;
  // A what-if reads two normal records (its original's, its realised_by variant's) that may come in
  // any order: they are all in once the batch is over.
  analyseWhatIfs(document_.records);
  document_.finished_at = utcNow();
  document_.summary = summary;
}

void ResultsWriter::write() {
  const auto started = std::chrono::steady_clock::now();
  writeJsonAtomically(path_, toJson(document_));
  last_write_ = std::chrono::steady_clock::now();
  last_write_seconds_ = std::chrono::duration<double>(last_write_ - started).count();
}

}  // namespace rooflab
