#pragma once
#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "analyzer/data/results_document.hpp"
#include "analyzer/stats/drift.hpp"
#include "analyzer/stats/sample_comparison.hpp"

// `rooflab diff OLD.json NEW.json`: what changed per record between two runs, as a test on the two
// runs' repetitions (google/benchmark's tools/compare.py) plus a minimum effect.
namespace rooflab::reports {

// Significance level of the Mann-Whitney U test on the repetitions: compare.py's default. It is
// rarely what decides: 10 + 10 repetitions that do not overlap give p = 1.1e-5, and a run whose
// host slowed down for its whole length does not overlap the run before it either. The p-value
// says a change is not one run's scatter; whether it outlasts the next run is for the minimum
// effect to judge. p < 0.05 needs at least 4 + 4 repetitions (2 / C(8, 4) = 0.029).
inline constexpr double kDefaultAlpha = 0.05;

// A record changed only when its median moved by more than this fraction (and the test says so):
// the minimum effect must cover how far a median moves between two runs of the same code, which the
// repetitions of one run cannot show. Measured (2026-11):
// - H100 (NVIDIA OpenCL): 63 records that ran in two or more runs under bench/results: 90% of
//   them moved by less than 1.6%, the most by 21% (a reduce kernel of a few microseconds);
// - PoCL on a 2-core host that other processes' builds loaded (load average 1.4 to 4), a kernel of
//   one work-group (2.4 ms): of 318 pairs of consecutive identical runs, half moved by less than
//   2%, 9 in 10 by less than 9%, 8 (2.5%) by more than 20%, the most by 29%;
// - PoCL, kernels of many work-groups on a 2-core host that other processes share: medians jump by
//   2x between runs (the host lends the kernel one core or two). No minimum effect below 1 covers
//   that; quiet the host, or raise --min-effect there.
// 20% sits above the spread of nearly every measured pair and well below the 1.5x slow-down that
// tests/binary/test_diff_noise.cpp must catch (1.2 is about sqrt(1.5): a run may be as far off either way);
// gating a quiet GPU tighter is one flag away (--min-effect 0.05).
inline constexpr double kDefaultMinEffect = 0.20;

struct DiffOptions {
  double alpha = kDefaultAlpha;
  double min_effect = kDefaultMinEffect;
  // Timings of two devices say nothing about a change of the code, so by default such runs are not
  // compared at all (exit 2); with this, they are, under a warning.
  bool allow_other_device = false;
};

// Records match on (family, variant, mode, params); params compare by value.
struct RecordKey {
  std::string family;
  std::string variant;
  std::string mode;
  std::string params;  // "N=1024, TS=16"
  std::string text() const;  // "matmul/tiled16 N=1024 (normal)"
};

enum class RecordVerdict {
  regressed,               // significantly slower by more than the minimum effect and the drift, or newly errors / fails verification
  improved,                // significantly faster by more than the minimum effect and the drift
  unchanged_within_noise,  // the test or the effect size does not show a change
  not_compared,            // a run has no timings of it (an error, a skipped point, no repetitions)
  unchanged_within_drift,  // it moved, but about as far as the run's control kernel beside it: drift
  inconclusive_drift,      // it looks unchanged, but the drift beside it may hide a change
};
// "REGRESSED", "IMPROVED", "unchanged within noise", "not compared", "unchanged within drift",
// "INCONCLUSIVE (drift)"
std::string toString(RecordVerdict verdict);

struct RecordChange {
  RecordKey key;
  RecordStatus old_status = RecordStatus::ok, new_status = RecordStatus::ok;
  std::string old_verification, new_verification;  // passed | failed | ...
  std::optional<double> old_median_ns, new_median_ns;
  std::optional<double> old_gflops, new_gflops;
  std::optional<double> old_gbps, new_gbps;
  // The test on both runs' repetitions (kernel time per repetition); only when both ran and have them.
  std::optional<SampleComparison> comparison;
  // new / old median time - 1: +0.25 is 25% slower, -0.5 twice as fast. Only when both ran.
  std::optional<double> time_change;
  // The change against the drift the runs' control kernel measured beside the record (docs/cost.md,
  // "Drift"); absent when either run has no control timings.
  std::optional<DriftJudgement> drift;
  RecordVerdict verdict = RecordVerdict::unchanged_within_noise;
  bool regressed = false;  // verdict == regressed
  // Why the verdict, when the table's numbers do not say it: "ran before, now errors", "now fails
  // verification", "3 + 3 repetitions cannot reach p < 0.05", "OLD: error".
  std::string reason;
};

struct DiffResult {
  DiffOptions options;
  // Set when the two runs cannot be compared: other devices (without allow_other_device), or not
  // one matched record, with why. The rest of the result is then empty; `rooflab diff` exits 2.
  std::optional<std::string> refusal;
  std::vector<RecordChange> matched;  // in the new run's order
  std::vector<RecordKey> added;       // only in the new run
  std::vector<RecordKey> removed;     // only in the old run
  std::vector<std::string> warnings;  // e.g. the runs were made on different devices
  // The two runs' control kernels compared; absent when either has none (results written before drift
  // controls, or runs on other control shapes).
  std::optional<RunDrift> drift;
  // True when a matched record regressed: what a CI job running `rooflab diff` must see.
  bool regressed = false;
  // True when no record regressed but the drift left one inconclusive: `rooflab diff` exits 3.
  bool inconclusive = false;
  std::size_t count(RecordVerdict verdict) const;
};

// Throws std::invalid_argument for alpha outside (0, 1) or a negative minimum effect.
DiffResult diffResults(const ResultsDocument& old_run, const ResultsDocument& new_run, const DiffOptions& options = {});

// A table of the matched records (old and new median time, change, the ratio new/old with its
// interval, the test's p-value, the verdict), then added and removed records, warnings and a
// verdict line. Locale-independent like every report. Not for a refused diff (see `refusal`).
void printDiff(const DiffResult& diff, std::ostream& out);

}  // namespace rooflab::reports
