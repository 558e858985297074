#pragma once
// The comparison of two saved runs, point by point, as typed values: what `rooflab diff` and
// `rooflab ab` conclude. diagnose/run_comparison.hpp computes it; reports/text/diff_report.hpp
// writes it out.
#include <cstddef>
#include <optional>
#include <set>
#include <utility>
#include <string>
#include <variant>
#include <vector>

#include "analyzer/data/batch_config.hpp"
#include "analyzer/data/results_document.hpp"
#include "analyzer/data/run_record.hpp"
#include "analyzer/stats/drift.hpp"
#include "analyzer/stats/sample_comparison.hpp"

namespace rooflab {

// Significance level of the Mann-Whitney U test on the repetitions: compare.py's default. It is
// rarely what decides: 10 + 10 repetitions that do not overlap give p = 1.1e-5, and a run whose
// host slowed down for its whole length does not overlap the run before it either. The p-value
// says a change is not one run's scatter; whether it outlasts the next run is for the minimum
// effect to judge. p < 0.05 needs at least 4 + 4 repetitions (2 / C(8, 4) = 0.029).
inline constexpr double kDefaultAlpha = 0.05;

// A point changed only when its median moved by more than this fraction (and the test says so):
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

struct RunComparisonOptions {
  double alpha = kDefaultAlpha;
  double min_effect = kDefaultMinEffect;
  // Timings of two devices say nothing about a change of the code, so by default such runs are not
  // compared at all (exit 2); with this, they are, under a warning.
  bool allow_other_device = false;
};

// Which of the two runs a figure or a warning belongs to.
enum class RunSide { old_run, new_run };
std::string toString(RunSide side);  // "OLD" | "NEW"

// What pairs a record of one run with a record of the other: (family, variant, mode, what-if,
// params by value, device of a batch on several devices).
struct PointKey {
  std::string family;
  std::string variant;
  RunMode mode = RunMode::normal;
  std::optional<std::string> what_if;  // the what-if's name, for what-if records
  ParamValues params;
  std::vector<std::string> param_order;  // the manifest's order, for the text
  std::optional<std::string> device;
};

enum class PointVerdict {
  regressed,  // significantly slower by more than the minimum effect and the drift, or newly errors / fails
              // verification
  improved,   // significantly faster by more than the minimum effect and the drift
  unchanged_within_noise,  // the test or the effect size does not show a change
  not_compared,            // a run has no timings of it (an error, a skipped point, no repetitions)
  unchanged_within_drift,  // it moved, but about as far as the run's control kernel beside it: drift
  inconclusive_drift,      // it looks unchanged, but the drift beside it may hide a change
};
// "REGRESSED", "IMPROVED", "unchanged within noise", "not compared", "unchanged within drift",
// "INCONCLUSIVE (drift)"
std::string toString(PointVerdict verdict);

// Why a point got its verdict, where its medians, ratio and p-value do not say it; the figures it
// names are the row's own (statuses, repetition counts, drift, median mismatches).
enum class VerdictReason {
  none,
  same_fault_in_both,       // not compared: the same non-ok status in both runs
  status_changed,           // not compared: a run did not time it
  no_timings,               // not compared: both ran, one has no timings
  no_repetitions,           // not compared: `side_without_repetitions` has none to test
  old_median_not_positive,  // not compared: no ratio to take
  stated_median_mismatch,   // judged on the stated medians: the repetitions' median is another
  within_drift,             // the control kernel beside it moved about as far
  hidden_by_drift,          // taking out the drift says it changed
  too_few_repetitions,      // the exact test cannot reach p < alpha on so few
  now_errors,               // ran before, now errors
  now_fails_verification,   // verified before, now fails
};

// A record whose stated median is not its repetitions' (a file edited by hand or written by another
// tool): the test on the repetitions would judge other timings than the table shows.
struct MedianMismatch {
  double stated_median_ns = 0;
  double repetitions_median_ns = 0;
};

// One matched point: both runs' figures and what they say.
struct PointComparison {
  PointKey key;
  RecordStatus old_status = RecordStatus::ok, new_status = RecordStatus::ok;
  VerificationStatus old_verification = VerificationStatus::not_checked,
                     new_verification = VerificationStatus::not_checked;
  std::optional<double> old_median_ns, new_median_ns;
  std::optional<double> old_gflops, new_gflops;
  std::optional<double> old_gbps, new_gbps;
  // The test on both runs' repetitions (kernel time per repetition); only when both ran and have them.
  std::optional<SampleComparison> comparison;
  // new / old median time - 1: +0.25 is 25% slower, -0.5 twice as fast. Only when both ran.
  std::optional<double> time_change;
  // The change against the drift the runs' control kernel measured beside the point (docs/cost.md,
  // "Drift"); absent when either run has no control timings.
  std::optional<DriftJudgement> drift;
  PointVerdict verdict = PointVerdict::unchanged_within_noise;
  VerdictReason reason = VerdictReason::none;
  RunSide side_without_repetitions = RunSide::old_run;                     // VerdictReason::no_repetitions
  std::optional<MedianMismatch> old_median_mismatch, new_median_mismatch;  // VerdictReason::stated_median_mismatch
  std::size_t old_repetitions = 0, new_repetitions = 0;                    // VerdictReason::too_few_repetitions
};

// A device as a run names it: the same CPU under PoCL and under Intel's runtime times differently.
struct DeviceIdentity {
  std::string name;
  std::string platform;
};

struct OtherDevices {
  DeviceIdentity old_device, new_device;
};

// A measurement setting of the batch identity (analyzer/batch/batch_identity.hpp).
enum class MeasurementSetting { repetitions, warmup, max_noise, min_time, max_time, counters, seed };
std::string toString(MeasurementSetting setting);  // "repetitions", "max_noise", "min_time", ...

// The runs were measured with other settings: those named, in `old_settings` and `new_settings`.
struct OtherSettings {
  std::vector<MeasurementSetting> differing;
  RunSettings old_settings, new_settings;
};
struct OtherControlKernels {
  std::string old_kernel, new_kernel;
};
// A run holds a point twice; the first is compared.
struct DuplicatePoint {
  RunSide side = RunSide::old_run;
  PointKey key;
};
// The runs' control kernels moved, or moved within a run, by more than the minimum effect.
struct LargeDrift {
  RunDrift drift;
};
struct NoisyHost {
  RunSide side = RunSide::old_run;
  HostNoise condition;  // what the run found noisy
};
// Points whose repetitions did not meet the noise target.
struct MissedNoiseTarget {
  RunSide side = RunSide::old_run;
  std::size_t records = 0;
};
using ComparisonWarning = std::variant<OtherDevices, OtherSettings, OtherControlKernels, DuplicatePoint, LargeDrift,
                                       NoisyHost, MissedNoiseTarget>;

// Why two runs share no point.
struct EmptyRuns {
  std::vector<std::pair<RunSide, BatchStatus>> empty;  // each run with no records, and its status
};
struct NoFamilyInCommon {
  std::set<std::string> old_families, new_families;
};
// The same families, other points: one of each run in the first family they share.
struct NoPointInCommon {
  PointKey old_example, new_example;
};
// Why the runs were not compared: other devices (without allow_other_device), or not one matched point.
using ComparisonRefusal = std::variant<OtherDevices, EmptyRuns, NoFamilyInCommon, NoPointInCommon>;

// What the comparison concludes as a whole: what `rooflab diff` exits with.
enum class ComparisonOutcome {
  no_regression,  // exit 0
  regressed,      // a matched point regressed: what a CI job must see
  inconclusive,   // none regressed, but the drift left one inconclusive (exit 3)
  refused,        // nothing a CI gate could read as "no regression" (exit 2)
};
std::string toString(ComparisonOutcome outcome);  // "no regression", "regressed", "inconclusive", "refused"

struct RunComparison {
  RunComparisonOptions options;
  ComparisonOutcome outcome = ComparisonOutcome::no_regression;
  // Set when outcome is refused; the points are then empty, the warnings kept.
  std::optional<ComparisonRefusal> refusal;
  std::vector<PointComparison> matched;  // in the new run's order
  std::vector<PointKey> added;           // only in the new run
  std::vector<PointKey> removed;         // only in the old run
  std::vector<ComparisonWarning> warnings;
  // The two runs' control kernels compared; absent when either has none (results written before drift
  // controls, or runs on other control shapes).
  std::optional<RunDrift> drift;
  std::size_t count(PointVerdict verdict) const;
};

}  // namespace rooflab
