#pragma once
#include <filesystem>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rooflab {
// Writes to a temporary file beside `path`, then renames it into place, so a reader (or a batch
// cut short by a signal) only ever sees a complete document. Throws IoError (errors.hpp).
// Writes `content` to a temporary file beside `path` (named with the pid, so two rooflab processes
// writing into one folder never share it), then renames it into place. Throws IoError (errors.hpp).
void writeFileAtomically(const std::filesystem::path& path, std::string_view content);
void writeJsonAtomically(const std::filesystem::path& path, const nlohmann::json& document);
nlohmann::json readJsonFile(const std::filesystem::path& path);  // throws InputError
}  // namespace rooflab
