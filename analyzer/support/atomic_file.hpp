#pragma once
#include <filesystem>
#include <string_view>

namespace rooflab {

// Writes `content` to a temporary file beside `path` (named with the pid, so two rooflab processes
// writing into one folder never share it), then renames it into place, so a reader (or a batch cut
// short by a signal) only ever sees a complete file, and records it as written by this process
// (written_files.hpp). Throws IoError (errors.hpp).
void writeFileAtomically(const std::filesystem::path& path, std::string_view content);

}  // namespace rooflab
