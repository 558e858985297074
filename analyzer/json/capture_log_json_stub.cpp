// Stands in for the capture log's reader (capture_log_json.cpp) on a branch built without it: a
// batch with [capture] says so. Removed when the reader is merged.
#include "analyzer/json/capture_log_json.hpp"

#include "analyzer/support/errors.hpp"

namespace rooflab {

CaptureReading readCaptureFolder(const std::filesystem::path& dir, CaptureAcceptance) {
  throw InputError(dir.string() + ": capture reader not built");
}

}  // namespace rooflab
