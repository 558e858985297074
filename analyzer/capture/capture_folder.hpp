#pragma once
// The capture folder of `rooflab capture --out` (docs/capture.md, "The folder"): rooflab writes into
// a new or empty folder, or replaces an earlier capture it made there, and never touches a folder
// of other files.
#include <filesystem>
#include <string>

namespace rooflab {

// Makes `out` ready for a capture and returns its absolute path. An earlier capture's files (and
// only those) are removed. Throws InputError for `/`, a file, a folder of other files, or one that
// cannot be written.
std::filesystem::path prepareCaptureFolder(const std::string& out);

}  // namespace rooflab
