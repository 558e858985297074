#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/data/family_manifest.hpp"

namespace rooflab {

// Reads and validates a manifest: every key typed, every expression parsed against the default
// parameters, every argument resolved, every source present and every kernel named in it.
// Throws InputError naming the file, the key and the line: InputErrors, one message per error, when
// the manifest has several (every error of the manifest, but those after a TOML syntax error).
FamilyManifest loadFamilyManifest(const std::filesystem::path& path);

struct FamilyDiscovery {
  std::vector<FamilyManifest> families;
  std::vector<std::string> errors;  // each error of a manifest that failed to load, or search-path folder missing
  // The family folder's name -> why its manifest failed to load, one message per error (also in
  // errors): errors only for a batch that studies that family.
  std::map<std::string, std::vector<std::string>> broken;
  std::vector<std::string> warnings;  // entries skipped: unreadable, symlink loops
};

// Every <dir>/<family>/family.toml under the search path; a broken manifest is an error entry, the
// others still load. A later directory cannot redefine a family name (reported as an error), except
// the built-in folder's families, which a family of the same name earlier on the path hides.
FamilyDiscovery discoverFamilies(const std::vector<std::filesystem::path>& search_path);

}  // namespace rooflab
