#include "analyzer/support/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>

#include "analyzer/support/errors.hpp"
#include "analyzer/support/written_files.hpp"

namespace rooflab {

void writeFileAtomically(const std::filesystem::path& path, std::string_view content) {
  std::filesystem::path temporary = path;
  temporary += ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw IoError("cannot write " + temporary.string() + ": " + std::strerror(errno));
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw IoError("cannot write " + temporary.string() + " (disk full?): " + std::strerror(errno));
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw IoError("cannot rename " + temporary.string() + " to " + path.string() + ": " + error.message());
  }
  recordWrittenFile(path);
}

}  // namespace rooflab
