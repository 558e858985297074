#pragma once
#include <atomic>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/config.hpp"
#include "analyzer/errors.hpp"
#include "analyzer/manifest.hpp"
#include "analyzer/runner.hpp"

namespace rooflab {

// The points a config expands to, and the input problems found while expanding it (a broken
// manifest, an unknown family): those are reported and the rest of the batch still runs.
struct BatchPlan {
  std::vector<FamilyManifest> families;  // owned here; points point into it
  std::vector<PlannedPoint> points;  // each resolved for its parameters, once
  std::vector<std::string> input_errors;
};

BatchPlan planBatch(const BatchConfig& config);

struct BatchOptions {
  std::string device_override;   // --device
  std::string out_override;      // --out
  std::string counters_override;  // --no-counters gives "off"
  std::vector<std::string> formats_override;
  bool progress = true;           // the progress line on stderr
  bool keep_binaries = false;     // write each program binary (PTX on NVIDIA) to <out>/binaries
};

struct BatchOutcome {
  nlohmann::json results;
  std::filesystem::path out_dir;
  ExitCode exit_code = ExitCode::ok;
};

// Measures the device's ceilings (unless [run] ceilings = "datasheet"), runs every point, places
// each record on the roofline models and writes <out>/results.json after each record. Throws InputError for a bad
// output folder and DeviceError when no device can be opened; everything else is recorded.
BatchOutcome runBatch(const BatchConfig& config, const BatchOptions& options);

}  // namespace rooflab
