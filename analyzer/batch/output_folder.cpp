#include "analyzer/batch/output_folder.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <utility>

#include "analyzer/batch/results_writer.hpp"
#include "analyzer/support/atomic_file.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/support/written_files.hpp"

namespace fs = std::filesystem;

namespace rooflab {
namespace {

constexpr const char* kLockFile = ".rooflab.lock";
constexpr const char* kWrittenList = ".rooflab-files";
// A results document and its journal, each with the name it keeps while the next run has no record.
const std::pair<const char*, const char*> kGeneration[] = {{"results.json", "results.previous.json"},
                                                           {"journal.jsonl", "journal.previous.jsonl"}};

std::string lockHolder(int fd) {
  char text[32] = {};
  const ssize_t got = ::pread(fd, text, sizeof text - 1, 0);
  std::string pid = got > 0 ? std::string(text, static_cast<std::size_t>(got)) : "";
  while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
  return pid.empty() ? "unknown" : pid;
}

// A listed name this run may remove: relative, inside the folder, not our own bookkeeping.
bool removable(const fs::path& name) {
  if (name.empty() || name.is_absolute()) return false;
  for (const auto& part : name)
    if (part == "..") return false;
  return name != kLockFile && name != kWrittenList;
}

bool isRegularFile(const fs::path& file) {
  std::error_code ec;
  return fs::is_regular_file(fs::symlink_status(file, ec));
}

void addOnce(std::vector<fs::path>& names, const fs::path& name) {
  if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
}

void renameOrThrow(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::rename(from, to, ec);
  if (ec) throw IoError("cannot rename " + from.string() + " to " + to.string() + ": " + ec.message());
}

}  // namespace

OutputFolder::OutputFolder(const std::string& out, Use use) : use_(use) {
  const fs::path dir = fs::absolute(out).lexically_normal();
  std::error_code ec;
  if (dir == dir.root_path() || fs::weakly_canonical(dir, ec) == dir.root_path())
    throw InputError("output folder '" + out +
                     "': rooflab will not write into the root folder /; choose a folder of its own");
  dir_ = prepareOutputFolder(dir.string());
  lock_fd_ = ::open((dir_ / kLockFile).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd_ < 0)
    throw InputError("output folder '" + dir_.string() + "': cannot open " + kLockFile + ": " + std::strerror(errno));
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    const std::string holder = lockHolder(lock_fd_);
    ::close(lock_fd_);
    throw InputError("output folder '" + dir_.string() + "' is in use by another rooflab run (pid " + holder +
                     "); wait for it to end or choose another --out");
  }
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(lock_fd_, 0) != 0 ||
      ::pwrite(lock_fd_, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
    const std::string why = std::strerror(errno);
    ::close(lock_fd_);
    throw IoError("cannot write " + (dir_ / kLockFile).string() + ": " + why);
  }
  try {
    readEarlierList();
    if (use_ == Use::batch) keepPreviousResults();
  } catch (...) {
    ::close(lock_fd_);
    throw;
  }
}

OutputFolder::~OutputFolder() {
  try {
    if (moved_previous_ && !records_written_ && !replaced_earlier_) restorePreviousResults();
    listWrittenFiles();
  } catch (const std::exception&) {
    // A full disk: the list stays as last written, which names no file of another program.
  }
  if (lock_fd_ >= 0) ::close(lock_fd_);  // releases the lock; the file stays for the next run to take
}

void OutputFolder::readEarlierList() {
  const fs::path list = dir_ / kWrittenList;
  std::error_code ec;
  const fs::file_time_type listed_at = fs::last_write_time(list, ec);
  if (!ec) {
    std::ifstream in(list);
    std::string line;
    while (std::getline(in, line)) {
      const fs::path name(line);
      if (!removable(name) || !isRegularFile(dir_ / name)) continue;
      // A file changed since the list was written is no longer what rooflab wrote (a user's edit, or
      // a log an older rooflab listed because it changed while that run ran): it stays.
      const fs::file_time_type changed_at = fs::last_write_time(dir_ / name, ec);
      if (ec || changed_at > listed_at) continue;
      addOnce(earlier_, name);
    }
  }
  // Kept by a batch that was killed before its first record: the run before it, still rooflab's.
  for (const auto& [name, previous] : kGeneration)
    if (isRegularFile(dir_ / previous)) addOnce(earlier_, previous);
}

void OutputFolder::keepPreviousResults() {
  std::error_code ec;
  const bool results = isRegularFile(dir_ / kGeneration[0].first);
  const bool journal = isRegularFile(dir_ / kGeneration[1].first) && fs::file_size(dir_ / kGeneration[1].first, ec) > 0;
  // No results and an empty journal: the run before put no record on disk, and the one before it
  // keeps its previous names.
  if (!results && !journal) return;
  for (const auto& [name, previous] : kGeneration) {
    if (isRegularFile(dir_ / name)) renameOrThrow(dir_ / name, dir_ / previous);
    else fs::remove(dir_ / previous, ec);  // a pair stays a pair: no journal of an older run beside these results
    earlier_.erase(std::remove(earlier_.begin(), earlier_.end(), fs::path(name)), earlier_.end());
    if (isRegularFile(dir_ / previous)) addOnce(earlier_, previous);
  }
  moved_previous_ = true;
}

void OutputFolder::restorePreviousResults() {
  for (const auto& [name, previous] : kGeneration) {
    if (!isRegularFile(dir_ / previous)) continue;
    renameOrThrow(dir_ / previous, dir_ / name);
    std::replace(earlier_.begin(), earlier_.end(), fs::path(previous), fs::path(name));
  }
  moved_previous_ = false;
}

void OutputFolder::resultsWritten() {
  if (use_ == Use::batch && !replaced_earlier_) {
    replaced_earlier_ = true;
    const std::vector<fs::path> ours = filesWrittenHere();
    std::error_code ec;
    for (const fs::path& name : earlier_)
      if (std::find(ours.begin(), ours.end(), name) == ours.end()) fs::remove(dir_ / name, ec);
    earlier_.clear();
  }
  listWrittenFiles();
}

std::vector<fs::path> OutputFolder::filesWrittenHere() const {
  std::vector<fs::path> names;
  for (const fs::path& file : writtenFiles()) {
    const fs::path name = file.lexically_relative(dir_);
    if (removable(name)) names.push_back(name);
  }
  return names;
}

void OutputFolder::listWrittenFiles() const {
  std::vector<fs::path> names = earlier_;
  for (const fs::path& name : filesWrittenHere()) addOnce(names, name);
  std::string text;
  for (const fs::path& name : names)
    if (isRegularFile(dir_ / name)) text += name.string() + "\n";
  writeFileAtomically(dir_ / kWrittenList, text);
}

std::optional<std::string> folderHolder(const fs::path& dir) {
  const int fd = ::open((dir / kLockFile).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  // A shared lock is refused only while a run holds the folder's exclusive one.
  std::optional<std::string> holder;
  if (::flock(fd, LOCK_SH | LOCK_NB) != 0) holder = lockHolder(fd);
  else ::flock(fd, LOCK_UN);
  ::close(fd);
  return holder;
}

void OutputFolder::refuseForeignFilesUnder(const std::vector<fs::path>& paths) const {
  std::vector<std::string> foreign;
  std::error_code ec;
  for (const fs::path& path : paths) {
    if (fs::is_regular_file(dir_ / path, ec)) {
      if (std::find(earlier_.begin(), earlier_.end(), path) == earlier_.end())
        foreign.push_back((dir_ / path).string());
      continue;
    }
    for (fs::recursive_directory_iterator it(dir_ / path, ec), end; !ec && it != end; it.increment(ec)) {
      const fs::path name = it->path().lexically_relative(dir_);
      if (!it->is_directory(ec) && std::find(earlier_.begin(), earlier_.end(), name) == earlier_.end())
        foreign.push_back((dir_ / name).string());
    }
  }
  if (foreign.empty()) return;
  std::string list;
  for (std::size_t i = 0; i < foreign.size() && i < 5; ++i) list += (i ? ", " : "") + foreign[i];
  if (foreign.size() > 5) list += " and " + std::to_string(foreign.size() - 5) + " more";
  throw InputError("output folder '" + dir_.string() + "': " + list + (foreign.size() == 1 ? " was" : " were") +
                   " not written by rooflab (not in " + kWrittenList +
                   "), and this command writes there: rooflab "
                   "overwrites no file of yours; move " +
                   (foreign.size() == 1 ? "it" : "them") + " or choose another --out");
}

}  // namespace rooflab
