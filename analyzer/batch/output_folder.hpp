#pragma once
// The output folder of a run: locked for the run's length (a second run, or a report, into it fails
// at once naming the first one's pid) and cleared of what an earlier rooflab run wrote there, and
// only of that (the list in <out>/.rooflab-files: files rooflab itself created or replaced), so that
// a rerun leaves no stale report or PNG. The earlier run's results stay readable until this run has
// results to put in their place: results.json and journal.jsonl are renamed results.previous.json and
// journal.previous.jsonl when the run takes the folder, and everything the earlier run left goes when
// this run first writes results.json.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace rooflab {

// The pid of the rooflab run that holds `dir`'s lock now (a batch still writing there), or nullopt
// when none does: no lock file, or one that no live process holds (a run that ended or was killed).
std::optional<std::string> folderHolder(const std::filesystem::path& dir);

class OutputFolder {
 public:
  // batch: `rooflab run`, which replaces the earlier run's files; report: `rooflab report`, which
  // adds its files to the folder's list and removes nothing.
  enum class Use { batch, report };

  // Creates the folder and takes its lock (<out>/.rooflab.lock, holding this process's pid); for a
  // batch, keeps the earlier results under their previous names. Throws InputError when `out` is
  // `/`, a file, cannot be written, or another run holds it; IoError when the lock file cannot be
  // written.
  explicit OutputFolder(const std::string& out, Use use = Use::batch);
  // A batch that put no record on disk gives the earlier results their names back; the list is
  // written (as far as the disk allows), and the lock released.
  ~OutputFolder();
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;

  const std::filesystem::path& dir() const { return dir_; }
  // The batch's first record is on disk (its journal line): the earlier results stay where they are.
  void recordsWritten() { records_written_ = true; }
  // After each write of results.json: the first removes what the earlier run left, then the list
  // is written.
  void resultsWritten();
  // Writes <out>/.rooflab-files: the files this process wrote into the folder and those an earlier
  // run wrote that are still there, for the next run to remove.
  void listWrittenFiles() const;
  // Throws InputError naming every file that rooflab did not write (not in the earlier run's list)
  // among these paths of the folder: a file itself, or every file under a subfolder. A command that
  // writes there overwrites no file of a user's.
  void refuseForeignFilesUnder(const std::vector<std::filesystem::path>& paths) const;

 private:
  void readEarlierList();
  void keepPreviousResults();
  void restorePreviousResults();
  // The files this process wrote into the folder, relative to it.
  std::vector<std::filesystem::path> filesWrittenHere() const;

  std::filesystem::path dir_;
  Use use_;
  int lock_fd_ = -1;
  std::vector<std::filesystem::path> earlier_;  // relative names of an earlier run's files, still there
  bool moved_previous_ = false;                 // this batch renamed the earlier results to their previous names
  bool records_written_ = false;
  bool replaced_earlier_ = false;
};

}  // namespace rooflab
