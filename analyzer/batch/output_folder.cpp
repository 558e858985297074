#include "analyzer/batch/output_folder.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "analyzer/support/errors.hpp"
#include "analyzer/support/atomic_file.hpp"
#include "analyzer/batch/results_writer.hpp"

namespace fs = std::filesystem;

namespace rooflab {
namespace {

constexpr const char* kLockFile = ".rooflab.lock";
constexpr const char* kWrittenList = ".rooflab-files";

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

}  // namespace

OutputFolder::OutputFolder(const std::string& out) {
  const fs::path dir = fs::absolute(out).lexically_normal();
  std::error_code ec;
  if (dir == dir.root_path() || fs::weakly_canonical(dir, ec) == dir.root_path())
    throw InputError("output folder '" + out + "': rooflab will not write into the root folder /; choose a folder of its own");
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
  if (::ftruncate(lock_fd_, 0) != 0 || ::pwrite(lock_fd_, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
    const std::string why = std::strerror(errno);
    ::close(lock_fd_);
    throw IoError("cannot write " + (dir_ / kLockFile).string() + ": " + why);
  }
  removeEarlierRunFiles();
  taken_at_ = fs::file_time_type::clock::now();
}

OutputFolder::~OutputFolder() {
  if (lock_fd_ >= 0) ::close(lock_fd_);  // releases the lock; the file stays for the next run to take
}

void OutputFolder::removeEarlierRunFiles() const {
  std::ifstream list(dir_ / kWrittenList);
  std::string line;
  std::error_code ec;
  while (std::getline(list, line)) {
    const fs::path name(line);
    if (!removable(name)) continue;
    const fs::path file = dir_ / name;
    if (fs::is_regular_file(fs::symlink_status(file, ec))) fs::remove(file, ec);
  }
}

void OutputFolder::listWrittenFiles() const {
  std::string names;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir_, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const fs::path name = fs::relative(it->path(), dir_, ec);
    if (!removable(name) || it->last_write_time(ec) < taken_at_) continue;
    names += name.string() + "\n";
  }
  writeFileAtomically(dir_ / kWrittenList, names);
}

}  // namespace rooflab
