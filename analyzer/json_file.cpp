#include "analyzer/json_file.hpp"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "analyzer/errors.hpp"

namespace rooflab {

void writeJsonAtomically(const std::filesystem::path& path, const nlohmann::json& document) {
  const std::filesystem::path tmp = path.string() + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
    // nlohmann::json formats numbers without the C++ locale; NaN/Inf would become null anyway.
    out << document.dump(2) << '\n';
    out.flush();
    if (!out) throw std::runtime_error("writing " + tmp.string() + " failed (disk full?)");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw std::runtime_error("cannot move " + tmp.string() + " to " + path.string());
  }
}

nlohmann::json readJsonFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": cannot be read");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(path.string() + ": not valid JSON: " + e.what());
  }
}

}  // namespace rooflab
