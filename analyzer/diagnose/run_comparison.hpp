#pragma once
// `rooflab diff OLD.json NEW.json` and `rooflab ab`: what changed per point between two runs, as a
// test on the two runs' repetitions (google/benchmark's tools/compare.py) plus a minimum effect,
// judged against the drift of the control kernel timed beside every record.
#include "analyzer/data/results_document.hpp"
#include "analyzer/data/run_comparison.hpp"

namespace rooflab {

// Points match on (family, variant, mode, params by value); the test and the bootstrap interval of
// each pair run on as many threads as the host has cores, with the same result on any number.
// Throws std::invalid_argument for alpha outside (0, 1) or a negative minimum effect.
RunComparison compareRuns(const ResultsDocument& old_run, const ResultsDocument& new_run,
                          const RunComparisonOptions& options = {});

// The checks of two whole runs that compareRuns makes before it compares their points.

// The drift of the control kernel between two runs; nullopt when either timed none, or they timed
// other control kernels (then a warning says so).
std::optional<RunDrift> driftBetween(const ResultsDocument& old_run, const ResultsDocument& new_run,
                                     std::vector<ComparisonWarning>& warnings);
// The measurement settings the two runs' configs differ in; nullopt when they agree or a file names none.
std::optional<OtherSettings> settingsDifference(const ResultsDocument& old_run, const ResultsDocument& new_run);
// What a run's own results say about how far its medians can be trusted: a noisy host, and records
// whose repetitions did not meet the noise target.
void warnAboutNoise(const ResultsDocument& run, RunSide side, std::vector<ComparisonWarning>& warnings);

}  // namespace rooflab
