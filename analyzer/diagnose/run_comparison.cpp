// `rooflab diff`: two runs' records paired by point, each pair judged against the repetitions' noise
// and the drift beside it, and the whole run's outcome.
#include "analyzer/diagnose/run_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

#include "analyzer/stats/stats.hpp"
#include "analyzer/support/parallel_for.hpp"

namespace rooflab {
namespace {

// A point's identity across two runs: params compare by value in name order, so that two runs that
// set N=1024 match whatever the manifest's order of names; every value that is not a finite number
// is the same missing value. A variant's what-ifs share one mode, and a batch on several devices
// has the device in the key.
struct MatchKey {
  std::string family;
  std::string variant;
  RunMode mode = RunMode::normal;
  std::map<std::string, std::optional<double>> params;
  std::optional<std::string> what_if;
  std::optional<std::string> device;

  bool operator<(const MatchKey& other) const {
    return std::tie(family, variant, mode, params, what_if, device) <
           std::tie(other.family, other.variant, other.mode, other.params, other.what_if, other.device);
  }
};

MatchKey matchKeyOf(const RunRecord& record) {
  MatchKey key{record.family, record.variant, record.mode, {}, std::nullopt, record.device};
  for (const auto& [name, value] : record.params)
    key.params[name] = std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
  if (record.what_if) key.what_if = record.what_if->name;
  return key;
}

PointKey pointKeyOf(const RunRecord& record) {
  return PointKey{record.family, record.variant,
                  record.mode,   record.what_if ? std::optional<std::string>(record.what_if->name) : std::nullopt,
                  record.params, record.param_order,
                  record.device};
}

std::optional<DeviceIdentity> deviceOf(const ResultsDocument& results) {
  if (!results.device) return std::nullopt;
  return DeviceIdentity{results.device->name, results.device->platform};
}

std::vector<double> repetitionKernelNs(const RunRecord& record) {
  std::vector<double> samples_ns;
  if (!record.timings) return samples_ns;
  for (const RepetitionTiming& repetition : record.timings->repetitions)
    samples_ns.push_back(static_cast<double>(repetition.kernel_ns));
  return samples_ns;
}

// Why two runs share no point.
ComparisonRefusal whyNothingMatched(const ResultsDocument& old_run, const ResultsDocument& new_run) {
  EmptyRuns empty;
  if (old_run.records.empty()) empty.empty.emplace_back(RunSide::old_run, old_run.status);
  if (new_run.records.empty()) empty.empty.emplace_back(RunSide::new_run, new_run.status);
  if (!empty.empty.empty()) return empty;
  NoFamilyInCommon families;
  for (const RunRecord& record : old_run.records) families.old_families.insert(record.family);
  for (const RunRecord& record : new_run.records) families.new_families.insert(record.family);
  std::set<std::string> common;
  std::set_intersection(families.old_families.begin(), families.old_families.end(), families.new_families.begin(),
                        families.new_families.end(), std::inserter(common, common.end()));
  if (common.empty()) return families;
  // Same families, other points: one of each side in the first family they share.
  const std::string& family = *common.begin();
  auto firstOf = [&family](const ResultsDocument& run) {
    return pointKeyOf(*std::find_if(run.records.begin(), run.records.end(),
                                    [&family](const RunRecord& record) { return record.family == family; }));
  };
  return NoPointInCommon{firstOf(old_run), firstOf(new_run)};
}

// A record's timed runs, each divided by the control run right after it; empty when the record has
// no control beside every run (results written before drift controls).
std::vector<double> correctedKernelNs(const RunRecord& record, const std::vector<double>& kernel_ns) {
  if (!record.drift_control) return {};
  return correctedSamples(kernel_ns, record.drift_control->repetitions_ns);
}

// A record's repetitions cannot stand for it when their median is not the median the record states,
// as in a file edited by hand or written by another tool: the test on the repetitions would then
// judge other timings than the table shows.
std::optional<MedianMismatch> medianMismatch(const std::optional<double>& stated_ns,
                                             const std::vector<double>& samples_ns) {
  if (!stated_ns || samples_ns.empty()) return std::nullopt;
  const double own_ns = summarize(samples_ns).median;
  if (std::fabs(own_ns - *stated_ns) <= 0.01 * std::fabs(*stated_ns)) return std::nullopt;
  return MedianMismatch{*stated_ns, own_ns};
}

// A point whose stated medians disagree with its repetitions: judged on the medians alone, against
// the minimum effect (no test is possible on repetitions that do not give them).
void compareStatedMedians(const RunComparisonOptions& options, PointComparison& point) {
  point.comparison.reset();
  point.time_change = *point.new_median_ns / *point.old_median_ns - 1.0;
  const double ratio = *point.time_change + 1.0;
  point.verdict = ratio > 1 + options.min_effect   ? PointVerdict::regressed
                  : ratio < 1 - options.min_effect ? PointVerdict::improved
                                                   : PointVerdict::unchanged_within_noise;
  point.reason = VerdictReason::stated_median_mismatch;
}

PointVerdict pointVerdictOf(Change change) {
  switch (change) {
    case Change::regressed: return PointVerdict::regressed;
    case Change::improved: return PointVerdict::improved;
    case Change::unchanged_within_noise: break;
  }
  return PointVerdict::unchanged_within_noise;
}

// The test on both runs' repetitions, and against the drift beside them when both runs timed the
// control kernel beside every repetition.
void testRepetitions(const RunRecord& old_record, const RunRecord& new_record,
                     const std::vector<double>& old_samples_ns, const std::vector<double>& new_samples_ns,
                     const RunComparisonOptions& options, const std::optional<RunDrift>& run_drift,
                     PointComparison& point) {
  point.comparison = compareSamples(old_samples_ns, new_samples_ns, options.alpha, options.min_effect, Better::lower);
  point.time_change = point.comparison->ratio.ratio - 1.0;
  Change verdict = point.comparison->verdict;
  const std::vector<double> old_corrected_ns = correctedKernelNs(old_record, old_samples_ns);
  const std::vector<double> new_corrected_ns = correctedKernelNs(new_record, new_samples_ns);
  if (run_drift && !old_corrected_ns.empty() && !new_corrected_ns.empty()) {
    const SampleComparison corrected =
        compareSamples(old_corrected_ns, new_corrected_ns, options.alpha, options.min_effect, Better::lower);
    const std::vector<double> old_first_ns(old_samples_ns.begin(), old_samples_ns.begin() + old_corrected_ns.size());
    const std::vector<double> new_first_ns(new_samples_ns.begin(), new_samples_ns.begin() + new_corrected_ns.size());
    point.drift = judgeAgainstDrift(
        *point.comparison, corrected, options.min_effect,
        controlTracks(old_first_ns, new_first_ns, old_corrected_ns, new_corrected_ns, options.min_effect));
    verdict = point.drift->verdict;
  }
  point.verdict = pointVerdictOf(verdict);
}

// The verdict of a point whose both runs have timings, from the test on their repetitions and the
// drift beside it.
void compareTimings(const RunRecord& old_record, const RunRecord& new_record, const RunComparisonOptions& options,
                    const std::optional<RunDrift>& run_drift, PointComparison& point) {
  const std::vector<double> old_samples_ns = repetitionKernelNs(old_record);
  const std::vector<double> new_samples_ns = repetitionKernelNs(new_record);
  if (old_samples_ns.empty() || new_samples_ns.empty()) {
    point.verdict = PointVerdict::not_compared;
    point.reason = VerdictReason::no_repetitions;
    point.side_without_repetitions = old_samples_ns.empty() ? RunSide::old_run : RunSide::new_run;
    return;
  }
  if (!(point.old_median_ns && *point.old_median_ns > 0)) {
    point.verdict = PointVerdict::not_compared;
    point.reason = VerdictReason::old_median_not_positive;
    return;
  }
  point.old_median_mismatch = medianMismatch(point.old_median_ns, old_samples_ns);
  point.new_median_mismatch = medianMismatch(point.new_median_ns, new_samples_ns);
  if ((point.old_median_mismatch || point.new_median_mismatch) && point.new_median_ns)
    return compareStatedMedians(options, point);
  point.old_median_mismatch.reset();
  point.new_median_mismatch.reset();
  testRepetitions(old_record, new_record, old_samples_ns, new_samples_ns, options, run_drift, point);
  if (point.drift && point.drift->call == DriftCall::within_drift) {
    point.verdict = PointVerdict::unchanged_within_drift;
    point.reason = VerdictReason::within_drift;
  } else if (point.drift && point.drift->call == DriftCall::hidden_by_drift) {
    point.verdict = PointVerdict::inconclusive_drift;
    point.reason = VerdictReason::hidden_by_drift;
  } else if (smallestExactPValue(old_samples_ns.size(), new_samples_ns.size()) >= options.alpha) {
    point.reason = VerdictReason::too_few_repetitions;
    point.old_repetitions = old_samples_ns.size();
    point.new_repetitions = new_samples_ns.size();
  }
}

// A matched point whose both runs have timings, compared once every point is matched.
struct PendingComparison {
  const RunRecord* old_record;
  const RunRecord* new_record;
  std::size_t point;  // its index in RunComparison::matched
};

// The test and the bootstrap interval of each pending comparison: they are most of what a diff of
// two large files costs (2000 resamples a point), each point's is independent of the others' and
// seeded alike, so the result is the same on any number of threads. A thread for fewer than a few
// hundred points costs more than it saves.
void compareInParallel(const std::vector<PendingComparison>& pending, const RunComparisonOptions& options,
                       const std::optional<RunDrift>& run_drift, std::vector<PointComparison>& points) {
  parallelFor(pending.size(), 256, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
      compareTimings(*pending[i].old_record, *pending[i].new_record, options, run_drift, points[pending[i].point]);
  });
}

// The pair's figures, and why it is not compared when a run did not time it.
PointComparison pairOf(const RunRecord& old_record, const RunRecord& new_record) {
  PointComparison point;
  point.key = pointKeyOf(new_record);
  point.old_status = old_record.status;
  point.new_status = new_record.status;
  point.old_verification = old_record.verification.status;
  point.new_verification = new_record.verification.status;
  point.old_median_ns = old_record.medianKernelNs();
  point.new_median_ns = new_record.medianKernelNs();
  point.old_gflops = old_record.achievedGflops();
  point.new_gflops = new_record.achievedGflops();
  point.old_gbps = old_record.achievedGbps();
  point.new_gbps = new_record.achievedGbps();
  if (point.old_status == RecordStatus::ok && point.new_status == RecordStatus::ok && old_record.timings &&
      new_record.timings)
    return point;
  point.verdict = PointVerdict::not_compared;
  if (point.old_status == point.new_status && point.old_status != RecordStatus::ok) {
    point.reason = VerdictReason::same_fault_in_both;
  } else if (point.old_status != RecordStatus::ok || point.new_status != RecordStatus::ok) {
    point.reason = VerdictReason::status_changed;
  } else {
    point.reason = VerdictReason::no_timings;
  }
  return point;
}

// Pairs the records of both runs by point: matched, added and removed, and the pairs to test.
std::vector<PendingComparison> pairRecords(const ResultsDocument& old_run, const ResultsDocument& new_run,
                                           RunComparison& comparison) {
  std::vector<PendingComparison> to_compare;
  std::map<MatchKey, const RunRecord*> old_by_key;
  for (const RunRecord& record : old_run.records)
    if (!old_by_key.emplace(matchKeyOf(record), &record).second)
      comparison.warnings.push_back(DuplicatePoint{RunSide::old_run, pointKeyOf(record)});
  std::set<MatchKey> seen_in_new;
  for (const RunRecord& record : new_run.records) {
    const MatchKey key = matchKeyOf(record);
    if (!seen_in_new.insert(key).second) {
      comparison.warnings.push_back(DuplicatePoint{RunSide::new_run, pointKeyOf(record)});
      continue;
    }
    const auto old = old_by_key.find(key);
    if (old == old_by_key.end()) {
      comparison.added.push_back(pointKeyOf(record));
      continue;
    }
    comparison.matched.push_back(pairOf(*old->second, record));
    if (comparison.matched.back().verdict != PointVerdict::not_compared)
      to_compare.push_back({old->second, &record, comparison.matched.size() - 1});
  }
  for (const RunRecord& record : old_run.records)
    if (!seen_in_new.count(matchKeyOf(record))) comparison.removed.push_back(pointKeyOf(record));
  return to_compare;
}

// Not noise: a point that ran and verified before but now errors or computes wrong results.
void markNewFaults(PointComparison& point) {
  if (point.old_status == RecordStatus::ok && isFault(point.new_status)) {
    point.verdict = PointVerdict::regressed;
    point.reason = VerdictReason::now_errors;
  } else if (point.old_verification != VerificationStatus::failed &&
             point.new_verification == VerificationStatus::failed) {
    point.verdict = PointVerdict::regressed;
    point.reason = VerdictReason::now_fails_verification;
  }
}

void checkOptions(const RunComparisonOptions& options) {
  if (!(options.min_effect >= 0)) {
    throw std::invalid_argument("diff: the regression threshold must be >= 0: --min-effect (or --threshold) is a "
                                "fraction of the old median, 0.2 for 20%");
  }
  if (!(options.alpha > 0 && options.alpha < 1)) {
    throw std::invalid_argument("diff: --alpha must lie between 0 and 1 (the test's significance level, e.g. 0.05)");
  }
}

}  // namespace

RunComparison compareRuns(const ResultsDocument& old_run, const ResultsDocument& new_run,
                          const RunComparisonOptions& options) {
  checkOptions(options);
  RunComparison comparison;
  comparison.options = options;
  const std::optional<DeviceIdentity> old_device = deviceOf(old_run), new_device = deviceOf(new_run);
  if (old_device && new_device &&
      (old_device->name != new_device->name || old_device->platform != new_device->platform)) {
    if (!options.allow_other_device) {
      comparison.outcome = ComparisonOutcome::refused;
      comparison.refusal = OtherDevices{*old_device, *new_device};
      return comparison;
    }
    comparison.warnings.push_back(OtherDevices{*old_device, *new_device});
  }
  if (std::optional<OtherSettings> settings = settingsDifference(old_run, new_run))
    comparison.warnings.push_back(std::move(*settings));
  comparison.drift = driftBetween(old_run, new_run, comparison.warnings);
  const std::vector<PendingComparison> to_compare = pairRecords(old_run, new_run, comparison);
  compareInParallel(to_compare, options, comparison.drift, comparison.matched);
  for (PointComparison& point : comparison.matched) markNewFaults(point);
  if (comparison.count(PointVerdict::regressed) > 0) {
    comparison.outcome = ComparisonOutcome::regressed;
  } else if (comparison.count(PointVerdict::inconclusive_drift) > 0) {
    comparison.outcome = ComparisonOutcome::inconclusive;
  }
  if (comparison.drift && driftIsLarge(*comparison.drift, options.min_effect))
    comparison.warnings.push_back(LargeDrift{*comparison.drift});
  warnAboutNoise(old_run, RunSide::old_run, comparison.warnings);
  warnAboutNoise(new_run, RunSide::new_run, comparison.warnings);
  if (!comparison.matched.empty()) return comparison;
  RunComparison refused;
  refused.options = options;
  refused.outcome = ComparisonOutcome::refused;
  refused.refusal = whyNothingMatched(old_run, new_run);
  refused.warnings = std::move(comparison.warnings);
  return refused;
}

}  // namespace rooflab
