#pragma once
// Reading a variant's `[[variants.what_if]]` entries (docs/manifest.md, "What-if mutations").
#include <string>
#include <vector>

#include "analyzer/config/toml_reader.hpp"
#include "analyzer/manifest/manifest.hpp"

namespace rooflab {

// Every what-if of the variant `r` reads: names, defines (tested by `source_text`, the variant's files
// as the compiler reads them), expectations on known counter keys. Throws InputError at file:line.
std::vector<WhatIfSpec> parseWhatIfs(const TomlReader& r, const VariantSpec& variant, const std::string& source_text);

// Each what-if's realised_by names another variant of the family; throws InputError at its line.
void checkWhatIfTargets(const FamilyManifest& family);

}  // namespace rooflab
