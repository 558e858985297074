// The tuning journal: read once when a search starts, appended to after each configuration.
#include "analyzer/tune/tune_journal.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "analyzer/json/results_json.hpp"
#include "analyzer/support/errors.hpp"

namespace rooflab {

namespace {

std::string excerpt(const std::string& line) { return line.size() > 60 ? line.substr(0, 60) + "..." : line; }

// What differs between the identity an entry was measured with and the one asked for, in words.
std::string identityDifference(const std::map<std::string, std::string>& was,
                               const std::map<std::string, std::string>& now) {
  if (was.empty()) return "it carries no identity (a journal of an older rooflab)";
  std::string differences;
  for (const auto& [name, value] : now) {
    const auto old = was.find(name);
    const std::string before = old == was.end() ? "unset" : old->second;
    if (before == value) continue;
    differences += differences.empty() ? "" : "; ";
    if (name == "kernel sources")
      differences += "the kernel sources (the source files or the headers they include) changed";
    else if (name == "point")
      differences += "the point as resolved from the manifest (sizes, geometry, arguments, build options) changed";
    else differences += name + " was " + before + ", is " + value;
  }
  return differences.empty() ? "it was measured with other settings" : differences;
}

}  // namespace

TuneJournal::TuneJournal(std::filesystem::path path, bool fresh) : path_(std::move(path)) {
  bool terminate_last_line = false;
  if (!fresh) {
    std::ifstream in(path_, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::size_t complete = 0;   // bytes of the file up to its last whole line
    bool unterminated = false;  // the last line is a whole entry without its line break
    int number = 0;
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t end = text.find('\n', at);
      const std::string line = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
      ++number;
      const bool last = end == std::string::npos;
      if (auto entry = decodeTuneJournalLine(line)) {
        entries_.push_back(std::move(*entry));
        if (last) complete = text.size(), unterminated = true;
      } else if (line.find_first_not_of(" \t\r") != std::string::npos) {
        warnings_.push_back(path_.string() + ":" + std::to_string(number) +
                            (last ? ": a torn last line dropped (the run was cut off while writing it); its "
                                    "configuration is measured again: "
                                  : ": not a journal entry, skipped: ") +
                            excerpt(line));
      }
      if (last) break;
      at = end + 1;
      complete = at;
    }
    if (complete < text.size()) {
      std::error_code ec;
      std::filesystem::resize_file(path_, complete, ec);
      if (ec) throw IoError(path_.string() + ": cannot cut its torn last line: " + ec.message());
    }
    terminate_last_line = unterminated;
  }
  file_ = std::fopen(path_.c_str(), fresh ? "w" : "a");
  if (file_ != nullptr && terminate_last_line) std::fputs("\n", file_);
  if (file_ == nullptr) throw IoError(path_.string() + ": cannot be opened for appending: " + std::strerror(errno));
}

TuneJournal::~TuneJournal() {
  if (file_ != nullptr) std::fclose(file_);
}

const RunRecord* TuneJournal::find(const std::string& device, const std::string& family, const std::string& variant,
                                   const ParamValues& params, const ParamValues& configuration,
                                   const std::map<std::string, std::string>& identity, std::string& stale) const {
  // The last line wins: a configuration measured twice (a --fresh run, then a resumed one) counts once.
  stale.clear();
  for (auto entry = entries_.rbegin(); entry != entries_.rend(); ++entry)
    if (entry->device == device && entry->family == family && entry->variant == variant && entry->params == params &&
        entry->configuration == configuration) {
      if (entry->identity == identity) return &entry->record;
      if (stale.empty()) stale = identityDifference(entry->identity, identity);
    }
  return nullptr;
}

void TuneJournal::append(TuneJournalEntry entry) {
  const std::string line = encodeTuneJournalLine(entry) + "\n";
  if (std::fputs(line.c_str(), file_) == EOF || std::fflush(file_) != 0)
    throw IoError(path_.string() + ": writing the tuning journal failed: " + std::strerror(errno));
  entries_.push_back(std::move(entry));
}

}  // namespace rooflab
