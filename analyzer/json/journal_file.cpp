#include "analyzer/json/journal_file.hpp"

#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "analyzer/json/json_file_io.hpp"
#include "analyzer/json/results_json.hpp"
#include "analyzer/support/errors.hpp"

using json = nlohmann::json;
namespace fs = std::filesystem;

namespace rooflab {
namespace {

bool blank(const std::string& line) { return line.find_first_not_of(" \t\r") == std::string::npos; }

// How a line of the journal begins: nlohmann::json writes an object's keys in order.
bool journalLineStart(const std::string& line) {
  const std::size_t start = line.find_first_not_of(" \t\r");
  return start != std::string::npos &&
         (line.compare(start, 12, "{\"document\":") == 0 || line.compare(start, 9, "{\"index\":") == 0);
}

std::string excerpt(const std::string& line) { return line.size() > 80 ? line.substr(0, 80) + "..." : line; }

// Builds the document line by line; a line that does not parse is held back: only the last may be torn.
class JournalReader {
 public:
  explicit JournalReader(const fs::path& path) : path_(path) {}

  void add(const std::string& line, int number) {
    if (blank(line)) return;
    if (torn_) throw InputError(at(torn_->first) + "not valid JSON, and not the last line: " + excerpt(torn_->second));
    json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) {
      torn_ = std::make_pair(number, line);
      return;
    }
    if (!j.is_object()) throw InputError(at(number) + "not a journal line: " + excerpt(line));
    if (const auto header = j.find("document"); header != j.end()) {
      if (document_) throw InputError(at(number) + "a second header line");
      try {
        document_ = resultsDocumentFromJson(*header);
      } catch (const std::invalid_argument& e) {
        throw InputError(at(number) + e.what());
      }
      return;
    }
    const auto index = j.find("index");
    const auto record = j.find("record");
    if (index == j.end() || !index->is_number_unsigned() || record == j.end() || !record->is_object())
      throw InputError(at(number) +
                       "not a journal line (neither {\"document\": ...} nor {\"index\": N, \"record\": "
                       "{...}}): " +
                       excerpt(line));
    if (!document_)
      throw InputError(at(number) + "a record before the journal's header line: a journal of an older rooflab, "
                                    "which cannot be read back (its run's results.json holds the records of its last "
                                    "checkpoint)");
    records_.insert_or_assign(index->get<std::size_t>(), analysedRecordFromJson(*record));
  }

  ReadResults finish() {
    ReadResults read;
    if (torn_)
      read.warnings.push_back(at(torn_->first) + "a torn last line skipped (the run was cut off while writing it): " +
                              excerpt(torn_->second));
    if (!document_)
      throw InputError(path_.string() + ": a journal without its header line: its run put no record on disk");
    read.document = std::move(*document_);
    for (auto& [index, record] : records_) {
      read.document.analysis.records.push_back(std::move(static_cast<RecordConclusions&>(record)));
      read.document.records.push_back(std::move(static_cast<RunRecord&>(record)));
    }
    return read;
  }

 private:
  std::string at(int line) const { return path_.string() + ":" + std::to_string(line) + ": "; }

  fs::path path_;
  std::optional<ResultsDocument> document_;
  std::map<std::size_t, AnalysedRecord> records_;  // the last line of each index wins
  std::optional<std::pair<int, std::string>> torn_;
};

std::ifstream openForReading(const fs::path& path) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (fs::is_directory(status)) throw InputError(path.string() + ": is a folder, not a results file");
  if (fs::exists(status) && !fs::is_regular_file(status)) throw InputError(path.string() + ": is not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": cannot be read");
  return in;
}

}  // namespace

ReadResults readJournalFile(const fs::path& path) {
  std::ifstream in = openForReading(path);
  JournalReader reader(path);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) reader.add(line, number);
  if (in.bad()) throw InputError(path.string() + ": cannot be read");
  return reader.finish();
}

ReadResults readResultsOrJournal(const fs::path& path) {
  std::string first;
  {
    std::ifstream in = openForReading(path);
    std::getline(in, first);
  }
  if (journalLineStart(first) || path.extension() == ".jsonl") return readJournalFile(path);
  return ReadResults{readResultsFile(path), {}};
}

ReadResults readRunFolder(const fs::path& folder) {
  const fs::path results = folder / "results.json", journal = folder / "journal.jsonl";
  std::error_code ec;
  const bool has_results = fs::exists(results, ec), has_journal = fs::exists(journal, ec);
  if (!has_results && !has_journal) throw InputError(folder.string() + " holds no results.json or journal.jsonl");
  if (!has_journal) return readResultsOrJournal(results);
  if (!has_results) return readJournalFile(journal);
  ReadResults checkpoint = readResultsOrJournal(results);
  if (checkpoint.document.status != BatchStatus::running) return checkpoint;
  ReadResults newer = readJournalFile(journal);
  // The journal of the same run (the folder pairs them) with records the last checkpoint lacks.
  if (newer.document.started_at != checkpoint.document.started_at ||
      newer.document.records.size() <= checkpoint.document.records.size())
    return checkpoint;
  newer.warnings.push_back(results.string() + " is a checkpoint of " +
                           std::to_string(checkpoint.document.records.size()) +
                           " records of a run cut off before its end; " + journal.string() + " holds " +
                           std::to_string(newer.document.records.size()) + ": the journal is read");
  return newer;
}

}  // namespace rooflab
