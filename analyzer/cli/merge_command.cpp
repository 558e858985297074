// `rooflab merge OUT... --out DIR`: the parts of a batch joined into one results.json and report.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "analyzer/batch/merge_parts.hpp"
#include "analyzer/batch/output_folder.hpp"
#include "analyzer/cli/commands.hpp"
#include "analyzer/support/terminal_text.hpp"
#include "analyzer/json/journal_file.hpp"
#include "reports/report_writer.hpp"
#include "reports/text/terminal_report.hpp"

namespace fs = std::filesystem;

namespace rooflab {
namespace {

// A part's results: a file as named, or a run's folder: its results.json, else its journal (a part
// killed outright).
PartDocument readPart(const std::string& named) {
  fs::path path = named;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    path = fs::exists(path / "results.json", ec) ? path / "results.json" : path / "journal.jsonl";
    if (!fs::exists(path, ec)) throw InputError("merge: " + named + " holds no results.json or journal.jsonl");
  }
  ReadResults read = readResultsOrJournal(path);
  for (const std::string& warning : read.warnings) std::fprintf(stderr, "rooflab: warning: %s\n", terminalText(warning, true).c_str());
  // A part whose run still holds its folder has records to come: the merge says so rather than
  // calling them lost.
  return PartDocument{path.string(), std::move(read.document), folderHolder(fs::absolute(path).parent_path())};
}

}  // namespace

int mergeCommand(const MergeCommand& cmd) {
  std::vector<PartDocument> parts;
  std::error_code ec;
  for (const std::string& named : cmd.parts) {
    parts.push_back(readPart(named));
    if (fs::equivalent(fs::path(parts.back().path).parent_path(), cmd.out, ec))
      throw InputError("merge: --out " + cmd.out + " is the folder of part " + named +
                       ": merge into a folder of its own, so that no part is overwritten");
  }
  MergeOutcome outcome = mergeParts(parts);
  for (const std::string& message : outcome.messages) std::fprintf(stderr, "rooflab: merge: %s\n", message.c_str());
  std::vector<std::string> formats = cmd.formats;
  if (formats.empty() && outcome.merged.config) formats = outcome.merged.config->run.formats;
  if (formats.empty()) formats = {"html", "png", "json", "csv"};
  if (std::find(formats.begin(), formats.end(), "json") == formats.end()) formats.push_back("json");
  const OutputFolder folder(cmd.out, OutputFolder::Use::report);
  try {
    reports::writeReports(outcome.merged, folder.dir(), formats);
  } catch (const std::invalid_argument& e) {
    throw InputError(std::string("merge: ") + e.what());
  }
  folder.listWrittenFiles();
  reports::printTerminalSummary(outcome.merged, std::cout);
  std::printf("merged %zu %s (%zu records) into %s\n", parts.size(), parts.size() == 1 ? "part" : "parts", outcome.merged.records.size(),
              (folder.dir() / "results.json").c_str());
  return static_cast<int>(outcome.exit_code);
}

}  // namespace rooflab
