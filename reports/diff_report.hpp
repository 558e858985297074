#pragma once
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "analyzer/results_document.hpp"

// `rooflab diff OLD.json NEW.json`: what changed per record between two runs.
namespace rooflab::reports {

// A record is slower by more than this fraction of its old median kernel time: a regression.
// 10% sits above the run-to-run noise of a median over ~10 repetitions on a quiet GPU (CV of a
// few percent) while still catching a lost optimisation; CI on noisy machines can raise it.
inline constexpr double kDefaultRegressionThreshold = 0.10;

// Records match on (family, variant, mode, params); params compare by value.
struct RecordKey {
  std::string family;
  std::string variant;
  std::string mode;
  std::string params;  // "N=1024, TS=16"
  std::string text() const;  // "matmul/tiled16 N=1024 (normal)"
};

struct RecordChange {
  RecordKey key;
  RecordStatus old_status = RecordStatus::ok, new_status = RecordStatus::ok;
  std::string old_verification, new_verification;  // passed | failed | ...
  std::optional<double> old_median_ns, new_median_ns;
  std::optional<double> old_gflops, new_gflops;
  std::optional<double> old_gbps, new_gbps;
  // new / old median time - 1: +0.25 is 25% slower, -0.5 twice as fast. Only when both ran.
  std::optional<double> time_change;
  bool regressed = false;
  std::string regression_reason;  // "25.0% slower (threshold 10%)", "now errors", "now fails verification"
};

struct DiffResult {
  double threshold = kDefaultRegressionThreshold;
  std::vector<RecordChange> matched;  // in the new run's order
  std::vector<RecordKey> added;       // only in the new run
  std::vector<RecordKey> removed;     // only in the old run
  std::vector<std::string> warnings;  // e.g. the runs were made on different devices
  // True when a matched record got slower by more than the threshold, or ran and verified before
  // but now errors or fails verification: both are what a CI job running `rooflab diff` must see.
  bool regressed = false;
};

// Throws std::invalid_argument for a negative threshold.
DiffResult diffResults(const ResultsDocument& old_run, const ResultsDocument& new_run,
                       double threshold = kDefaultRegressionThreshold);

// A table of the matched records (old and new median time, change, GFLOP/s), then added and
// removed records, warnings and a verdict line. Locale-independent like every report.
void printDiff(const DiffResult& diff, std::ostream& out);

}  // namespace rooflab::reports
