#pragma once
// <out>/tune-journal.jsonl: every configuration `rooflab tune` measured, a line each as it ends, so
// that a search cut short (Ctrl-C, a killed job) keeps what it measured and a second run resumes
// from it: a configuration already in the journal for the same device, variant, point and values is
// not run again. The journal is not among the files a new run clears (support/written_files); `rooflab
// tune --fresh` starts it anew.
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "analyzer/data/tuning.hpp"

namespace rooflab {

class TuneJournal {
 public:
  // Reads the journal at `path`, or empties it when `fresh`. A torn last line (a run cut off while
  // writing it) is cut from the file, so that the next entry starts a line of its own; it and any
  // other line that is not an entry are said in warnings(). Throws IoError when it cannot be opened
  // for appending.
  TuneJournal(std::filesystem::path path, bool fresh);
  ~TuneJournal();
  TuneJournal(const TuneJournal&) = delete;
  TuneJournal& operator=(const TuneJournal&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::size_t size() const { return entries_.size(); }
  // The record measured earlier for this configuration with this identity, or null; when the
  // configuration was measured with another identity, `stale` says by what (the first field that
  // differs, in words).
  const RunRecord* find(const std::string& device, const std::string& family, const std::string& variant,
                        const ParamValues& params, const ParamValues& configuration,
                        const std::map<std::string, std::string>& identity, std::string& stale) const;
  const std::vector<std::string>& warnings() const { return warnings_; }
  // Appends the entry's line and flushes it. Throws IoError when it cannot be written.
  void append(TuneJournalEntry entry);

 private:
  std::filesystem::path path_;
  std::FILE* file_ = nullptr;
  std::vector<TuneJournalEntry> entries_;
  std::vector<std::string> warnings_;
};

}  // namespace rooflab
