#pragma once
// JSON files as whole documents: written atomically, read with the file named in every error.
#include <filesystem>

#include <nlohmann/json.hpp>

#include "analyzer/support/atomic_file.hpp"

namespace rooflab {

void writeJsonAtomically(const std::filesystem::path& path, const nlohmann::json& document);
nlohmann::json readJsonFile(const std::filesystem::path& path);  // throws InputError

}  // namespace rooflab
