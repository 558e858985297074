#pragma once
// The pieces of a family manifest that its family-level and variant-level readers share
// (manifest.cpp, manifest_variant.cpp). Each reader records its input errors in an InputErrorList
// and goes on with the next key, so that one run reports every error of a manifest.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/config/toml_reader.hpp"
#include "analyzer/data/family_manifest.hpp"
#include "analyzer/support/input_errors.hpp"

namespace rooflab {

bool isIdentifier(const std::string& s);

ManifestExpression expressionAt(const TomlReader& r, const std::string& key, const std::string& text);
std::optional<ManifestExpression> optionalExpressionAt(const TomlReader& r, const std::string& key);

// inf would pass any output and nan would fail every one (every comparison with it is false).
void checkTolerance(const TomlReader& r, double tolerance);

// A [[buffers]] (or a variant's [[variants.scratch]]) entry; a key in error takes its default.
BufferSpec parseBuffer(const TomlReader& r, bool scratch, InputErrorList& errors);

// The tables of an array of tables; throws InputError when it is not one.
std::vector<const toml::table*> tablesOf(const TomlReader& r, const std::string& key);

// One [[variants]] entry of `family` (whose params, buffers and check are read) in folder `dir`.
VariantSpec parseVariant(const TomlReader& r, const FamilyManifest& family, const std::filesystem::path& dir,
                         InputErrorList& errors);

}  // namespace rooflab
