// The tuning journal: read once when a search starts, appended to after each configuration.
#include "analyzer/tune/tune_journal.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "analyzer/json/results_json.hpp"
#include "analyzer/support/errors.hpp"

namespace rooflab {

TuneJournal::TuneJournal(std::filesystem::path path, bool fresh) : path_(std::move(path)) {
  if (!fresh) {
    std::ifstream in(path_);
    std::string line;
    while (std::getline(in, line))
      if (auto entry = decodeTuneJournalLine(line)) entries_.push_back(std::move(*entry));
  }
  file_ = std::fopen(path_.c_str(), fresh ? "w" : "a");
  if (file_ == nullptr) throw IoError(path_.string() + ": cannot be opened for appending: " + std::strerror(errno));
}

TuneJournal::~TuneJournal() {
  if (file_ != nullptr) std::fclose(file_);
}

const RunRecord* TuneJournal::find(const std::string& device, const std::string& family, const std::string& variant,
                                   const ParamValues& params, const ParamValues& configuration) const {
  // The last line wins: a configuration measured twice (a --fresh run, then a resumed one) counts once.
  for (auto entry = entries_.rbegin(); entry != entries_.rend(); ++entry)
    if (entry->device == device && entry->family == family && entry->variant == variant && entry->params == params &&
        entry->configuration == configuration)
      return &entry->record;
  return nullptr;
}

void TuneJournal::append(TuneJournalEntry entry) {
  const std::string line = encodeTuneJournalLine(entry) + "\n";
  if (std::fputs(line.c_str(), file_) == EOF || std::fflush(file_) != 0)
    throw IoError(path_.string() + ": writing the tuning journal failed: " + std::strerror(errno));
  entries_.push_back(std::move(entry));
}

}  // namespace rooflab
