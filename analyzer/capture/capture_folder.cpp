#include "analyzer/capture/capture_folder.hpp"

#include <fstream>

#include "analyzer/support/errors.hpp"

namespace fs = std::filesystem;

namespace rooflab {
namespace {

// The mark of a folder `rooflab capture` made, and what it writes there.
constexpr const char* kMark = ".rooflab-capture";
const char* const kCaptureNames[] = {"log.jsonl", "seal.json", "capture.toml", "data", "families", kMark};

}  // namespace

fs::path prepareCaptureFolder(const std::string& out) {
  const fs::path dir = fs::absolute(out).lexically_normal();
  std::error_code ec;
  if (dir == dir.root_path()) throw InputError("capture: output folder '" + out + "': rooflab will not write into /");
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    throw InputError("capture: output folder '" + out + "' is a file; choose a folder");
  if (fs::exists(dir / kMark, ec)) {
    for (const char* name : kCaptureNames) fs::remove_all(dir / name, ec);
    for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {  // other processes' logs
      const std::string name = entry.path().filename().string();
      if (name.rfind("log-", 0) == 0 && name.size() > 10 && name.compare(name.size() - 6, 6, ".jsonl") == 0)
        fs::remove(entry.path(), ec);
    }
  } else if (fs::exists(dir, ec) && !fs::is_empty(dir, ec)) {
    throw InputError("capture: output folder '" + out +
                     "' holds files rooflab did not write; choose a new or empty folder with --out");
  }
  fs::create_directories(dir / "data", ec);
  std::ofstream mark(dir / kMark);
  mark << "A capture folder of rooflab capture: the next capture into it replaces its files.\n";
  if (ec || !mark) throw InputError("capture: output folder '" + out + "' cannot be created or written");
  return dir;
}

}  // namespace rooflab
