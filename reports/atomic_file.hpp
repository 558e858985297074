#pragma once
#include <filesystem>
#include <string_view>

namespace rooflab::reports {

// Writes `content` to a temporary file beside `path` and renames it into place, so a browser or a
// CI job reading the report never sees half a file. Throws std::runtime_error naming the path.
void writeFileAtomically(const std::filesystem::path& path, std::string_view content);

}  // namespace rooflab::reports
