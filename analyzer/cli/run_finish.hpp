#pragma once
// What `rooflab run` and `rooflab ab` share: their options, the run's own JIT cache, the phase table
// closed once the reports are written, and the diff's exit code.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "analyzer/batch/batch.hpp"
#include "analyzer/cli/commands.hpp"
#include "analyzer/data/run_comparison.hpp"
#include "analyzer/tune/tune.hpp"

namespace rooflab {

// `rooflab diff` (and `rooflab ab`) when no record regressed but the drift left one inconclusive.
inline constexpr int kDiffInconclusive = 3;

// Throws InputError for a format writeReports does not know.
void checkFormats(const std::vector<std::string>& formats);

// The batch's options from the command's; reads the environment into config.run.environment.
BatchOptions batchOptionsOf(const RunCommand& cmd, BatchConfig& config);

// The sentences the batch says while it runs, written by reports/ (analyzer/ writes no sentence): the
// start line, the estimate, the ceilings' table and their roofs' sources, the sizes chosen, the noisy
// host and the GPU clock; a tuning search's also its line per evaluation.
void giveBatchTheReportsWords(BatchOptions& options);
void giveTuneTheReportsWords(TuneOptions& options);

// Adds the reports and the rest of the command to the results' phase table, rewrites results.json
// with it, and prints the table when asked.
void closeRunCost(BatchOutcome& outcome, double reports_seconds, std::chrono::steady_clock::time_point command_started,
                  bool print_phases);

// 0 no regression, 1 a regression, kDiffInconclusive when the drift hides what the runs would show,
// 2 (bad input) when they were not compared.
int diffExitCode(const RunComparison& comparison);

// The run's own JIT cache, for as long as the run lasts. This is the one place rooflab writes the
// environment: NVIDIA's OpenCL and CUDA drivers take their JIT cache folder only from
// CUDA_CACHE_PATH, read when they load, so it must be set before the first OpenCL or CUDA call.
class PrivateJitCache {
 public:
  explicit PrivateJitCache(std::string dir) : dir_(std::move(dir)) {
    if (!dir_.empty()) ::setenv("CUDA_CACHE_PATH", dir_.c_str(), 1);
  }
  ~PrivateJitCache() {
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
  }
  PrivateJitCache(const PrivateJitCache&) = delete;
  PrivateJitCache& operator=(const PrivateJitCache&) = delete;

 private:
  std::string dir_;
};

}  // namespace rooflab
