#include "analyzer/support/written_files.hpp"

#include <algorithm>
#include <mutex>
#include <utility>

namespace rooflab {
namespace {

std::mutex& filesMutex() {
  static std::mutex mutex;
  return mutex;
}

std::vector<std::filesystem::path>& files() {
  static std::vector<std::filesystem::path> written;
  return written;
}

}  // namespace

void recordWrittenFile(const std::filesystem::path& path) {
  std::error_code ec;
  std::filesystem::path absolute = std::filesystem::absolute(path, ec).lexically_normal();
  if (ec) return;
  const std::lock_guard<std::mutex> lock(filesMutex());
  if (std::find(files().begin(), files().end(), absolute) == files().end()) files().push_back(std::move(absolute));
}

std::vector<std::filesystem::path> writtenFiles() {
  const std::lock_guard<std::mutex> lock(filesMutex());
  return files();
}

std::vector<std::filesystem::path> takeWrittenFiles() {
  const std::lock_guard<std::mutex> lock(filesMutex());
  return std::exchange(files(), {});
}

}  // namespace rooflab
