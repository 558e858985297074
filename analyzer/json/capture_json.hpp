#pragma once
// The log `rooflab capture` wrote into a capture folder (docs/capture.md), read into typed values.
#include <filesystem>

#include "analyzer/data/capture.hpp"

namespace rooflab {

// The capture log of `folder`. Throws an InputError (a std::runtime_error) naming the file and the
// line of what cannot be read.
CaptureLog readCaptureFolder(const std::filesystem::path& folder);

}  // namespace rooflab
