#pragma once
// Reading what a batch left: its results file or its journal (docs/results-schema.md, "The
// journal"). `rooflab report` and `rooflab diff` take either, so that every record a run killed
// outright measured can be read back.
#include <filesystem>
#include <string>
#include <vector>

#include "analyzer/data/results_document.hpp"

namespace rooflab {

struct ReadResults {
  ResultsDocument document;
  std::vector<std::string> warnings;  // "<file>:<line>: ..." for a torn last line that was skipped
};

// A journal: the document of its header line, and as its records the last line of each index, in
// index order. A last line that is not JSON (the run was cut off while writing it) is skipped with a
// warning; any other line that is not a journal line throws InputError naming the file and the line.
ReadResults readJournalFile(const std::filesystem::path& path);

// A journal or a results file, told apart by the first line (a journal's begins {"document" or
// {"index") or a name ending .jsonl. Throws InputError naming the file.
ReadResults readResultsOrJournal(const std::filesystem::path& path);

// A run's output folder, read as its newest state: its results.json when the run finished, else the
// journal when it holds more records than the last checkpoint (a run killed outright), said in a
// warning; a torn last journal line is dropped and said. Throws InputError when the folder holds
// neither file.
ReadResults readRunFolder(const std::filesystem::path& folder);

}  // namespace rooflab
