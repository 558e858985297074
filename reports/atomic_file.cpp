#include "reports/atomic_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include <unistd.h>

namespace rooflab::reports {

void writeFileAtomically(const std::filesystem::path& path, std::string_view content) {
  // The pid keeps two rooflab processes writing into one folder from sharing a temporary file.
  std::filesystem::path temporary = path;
  temporary += ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) {
      throw std::runtime_error("cannot write " + temporary.string() + ": " + std::strerror(errno));
    }
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw std::runtime_error("cannot write " + temporary.string() + ": " + std::strerror(errno));
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw std::runtime_error("cannot rename " + temporary.string() + " to " + path.string() + ": " + error.message());
  }
}

}  // namespace rooflab::reports
