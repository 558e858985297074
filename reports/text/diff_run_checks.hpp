#pragma once
// What `rooflab diff` checks of two whole runs before it compares their records: each run's noise,
// the drift of the control kernel between them, and the measurement settings they differ in.
#include <optional>
#include <string>
#include <vector>

#include "analyzer/data/results_document.hpp"
#include "analyzer/stats/drift.hpp"

namespace rooflab::reports {

// "+12.5%", "-3.0%": a relative change.
std::string signedPercent(double change);
// 0.05 -> "0.05", 20 -> "20": a setting as the user typed it.
std::string settingText(double value);
// What a run's own results say about how far its medians can be trusted: a noisy host, and records
// whose repetitions did not meet the noise target.
void warnAboutNoise(const ResultsDocument& run, const std::string& which, std::vector<std::string>& warnings);
// Every control kernel median of a run, one per record that timed it.
std::vector<double> controlMedians(const ResultsDocument& run);
// Both runs timed the same control kernel: nullopt otherwise (older results, other control shapes).
std::optional<RunDrift> driftBetween(const ResultsDocument& old_run, const ResultsDocument& new_run,
                                     std::vector<std::string>& warnings);
// The measurement settings the two runs' configs differ in, named; "" when they agree.
std::string settingsDifference(const ResultsDocument& old_run, const ResultsDocument& new_run);
std::string driftWarning(const RunDrift& drift);

}  // namespace rooflab::reports
