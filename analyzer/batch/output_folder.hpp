#pragma once
// The output folder of a run: locked for the run's length (a second run into it fails at once,
// naming the first one's pid), cleared of what an earlier rooflab run wrote there, and only of that
// (the list in <out>/.rooflab-files), so that a rerun leaves no stale report or PNG.
#include <filesystem>
#include <string>

namespace rooflab {

class OutputFolder {
 public:
  // Creates the folder, takes its lock (<out>/.rooflab.lock, holding this process's pid) and removes
  // the files the previous run listed. Throws InputError when `out` is `/`, a file, cannot be
  // written, or another run holds it; IoError when the lock file cannot be written.
  explicit OutputFolder(const std::string& out);
  ~OutputFolder();
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;

  const std::filesystem::path& dir() const { return dir_; }
  // Lists every file this run wrote (written since it took the folder), for the next run to remove.
  void listWrittenFiles() const;

 private:
  void removeEarlierRunFiles() const;

  std::filesystem::path dir_;
  int lock_fd_ = -1;
  std::filesystem::file_time_type taken_at_;
};

}  // namespace rooflab
