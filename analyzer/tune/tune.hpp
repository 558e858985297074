#pragma once
// `rooflab tune CONFIG` (docs/tuning.md): for every studied point of a variant that declares a tuning
// space, search the space with the searcher the command line names, within a budget of evaluations or
// seconds. Every configuration is built, verified and timed to the run's noise target in the batch's
// worker process, as any point is; one that fails to build, computes a wrong result or crashes is
// recorded and skipped. The results: each search's space as data, its best configuration placed on
// the family's roofline as a rung of its own beside the other studied variants, and a manifest entry
// that keeps it.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>

#include "analyzer/batch/batch.hpp"
#include "analyzer/data/tuning.hpp"

namespace rooflab {

struct TuneOptions {
  BatchOptions batch;  // --device, --out, --formats, the progress line
  TuneSearcher searcher = TuneSearcher::guided;
  std::optional<std::size_t> budget;  // evaluations per search; default: all (exhaustive), a quarter of the valid ones
  std::optional<double> time_budget_s;  // seconds per search
  std::optional<std::uint64_t> seed;    // the random and guided searchers'; default: [run] seed
  bool fresh = false;                   // ignore and empty the journal
  // The line each evaluation prints (reports::tuneProgressText, from the command line, as analyzer/
  // writes no sentence); empty, none is printed.
  TuneProgressText progress_text;
  // The manifest entry the best configuration is written as (reports::manifestSnippet), for the same
  // reason; empty, none is written.
  TunedVariantText tuned_variant_text;
};

struct TuneOutcome {
  ResultsDocument results;
  std::unique_ptr<OutputFolder> folder;
  std::filesystem::path out_dir;
  ExitCode exit_code = ExitCode::ok;
  std::vector<std::filesystem::path> snippets;  // tuned-<family>-<variant>.toml
};

// Throws InputError (bad config, no studied variant with a tuning space, a space's value that does not
// evaluate on this device), DeviceError, IoError as runBatch does.
TuneOutcome runTune(const BatchConfig& config, const TuneOptions& options);

// The evaluations a search gets without --budget: every valid configuration for the exhaustive
// searcher, else a quarter of them, rounded down (at least 8, at most all).
std::size_t defaultTuneBudget(TuneSearcher searcher, std::size_t valid);

}  // namespace rooflab
