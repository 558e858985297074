#pragma once
// Reading a variant's `[[variants.what_if]]` entries (docs/manifest.md, "What-if mutations").
#include <string>
#include <vector>

#include "analyzer/config/toml_reader.hpp"
#include "analyzer/manifest/manifest.hpp"
#include "analyzer/support/input_errors.hpp"

namespace rooflab {

// Every what-if of the variant `r` reads: names, defines (tested by `source_text`, the variant's files
// as the compiler reads them), expectations on known counter keys. Each what-if in error is an input
// error at file:line in `errors`, and is left out.
std::vector<WhatIfSpec> parseWhatIfs(const TomlReader& r, const VariantSpec& variant, const std::string& source_text,
                                     InputErrorList& errors);

// Each what-if's realised_by names another variant of the family; each one that does not is an
// input error at its line (InputErrors when there are several).
void checkWhatIfTargets(const FamilyManifest& family);

}  // namespace rooflab
