#pragma once
#include <filesystem>

#include <nlohmann/json.hpp>

namespace rooflab {
// Writes to a temporary file beside `path`, then renames it into place, so a reader (or a batch
// cut short by a signal) only ever sees a complete document. Throws std::runtime_error.
void writeJsonAtomically(const std::filesystem::path& path, const nlohmann::json& document);
nlohmann::json readJsonFile(const std::filesystem::path& path);  // throws InputError
}  // namespace rooflab
