#pragma once
// The manifest entry that keeps a tuned configuration as a variant of its own: the base variant's
// entry with the configuration's values as defines, ready to paste into family.toml.
#include <string>

#include "analyzer/data/family_manifest.hpp"
#include "analyzer/data/tuning.hpp"

namespace rooflab::reports {

// `[[variants]]` for result.configurations[best] of `base`, named `name`, with a comment saying how
// it was found, on which device and how fast (TunedVariantText).
std::string manifestSnippet(const VariantSpec& base, const TuningResult& result, std::size_t best,
                            const std::string& name, const std::string& device);

}  // namespace rooflab::reports
