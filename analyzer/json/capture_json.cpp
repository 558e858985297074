// Stands in for the capture log's reader until it is built: a batch with [capture] says so.
#include "analyzer/json/capture_json.hpp"

#include "analyzer/support/errors.hpp"

namespace rooflab {

CaptureLog readCaptureFolder(const std::filesystem::path& folder) {
  throw InputError(folder.string() + ": capture reader not built");
}

}  // namespace rooflab
