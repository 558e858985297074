#pragma once
// The config as run, written back as TOML: what the report shows a reader, in the form they wrote it.
#include <string>

#include "analyzer/data/batch_config.hpp"

namespace rooflab {

// A [run] table and one [[study]] table per study, with the keys a config file spells (configs/*.toml,
// docs/config.md): the settings the batch ran with, command-line overrides applied. The
// settings the results file records and no others (a results file does not keep max_points), keys
// in alphabetical order (toml++'s tables are ordered maps), whole numbers as integers.
std::string configTomlText(const BatchConfig& config);

}  // namespace rooflab
