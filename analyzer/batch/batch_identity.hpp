#pragma once
// A batch's identity: what makes the parts `rooflab merge` joins parts of one batch, and what a
// tuning journal's measurements were made with.
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/data/batch_config.hpp"
#include "analyzer/data/batch_parts.hpp"
#include "analyzer/data/batch_plan.hpp"
#include "analyzer/data/family_manifest.hpp"

namespace rooflab {

// The settings that change a measurement, each by its config key with its value as text, in a fixed
// order: repetitions, warmup, the noise target, counters, ceilings, the reference model, the time
// limit, the seed. Two runs whose lists differ measured differently.
std::vector<std::pair<std::string, std::string>> measurementSettings(const RunSettings& run);

// A 16-digit hash of a variant's program as it is built: its source files and the files they
// include, comments left out (a comment changes nothing the compiler makes).
std::string sourcesHash(const VariantSpec& variant);

// A 16-digit hash of plan.points[point] as resolved (variant, params, mode, work, build options,
// buffers, launches, tolerance): what the manifest and the config make of one point.
std::string pointHash(const BatchPlan& plan, std::size_t point);

// A 16-digit hash of a file's bytes (a manifest's); of its path when it cannot be read.
std::string fileHash(const std::filesystem::path& file);

// The batch's identity over contents: components "plan" (the plan as the worker receives it: every
// point as resolved, with its sizes, geometry and build options), "sources" (every planned variant's
// program, as sourcesHash reads it), "manifests" (the studied families' family.toml files) and
// "settings" (measurementSettings); the id, 16 hexadecimal digits, is the hash of the components, so
// that an id edited by hand no longer matches them. The output folder, the formats and the device
// list are not part of it: parts run into folders of their own, on devices a merge compares apart.
BatchIdentity identifyBatch(const BatchPlan& plan, const RunSettings& run);

// The id the components make: a file whose id differs from it was edited.
std::string idOfComponents(const std::map<std::string, std::string>& components);

// What a component's name means to a user: "kernel sources (the source files or the headers they
// include)" for "sources", and so on.
std::string componentMeaning(const std::string& component);

}  // namespace rooflab
