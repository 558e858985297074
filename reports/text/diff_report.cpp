#include "reports/text/diff_report.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <tuple>

#include "analyzer/stats/stats.hpp"
#include "analyzer/support/terminal_text.hpp"
#include "reports/text/diff_run_checks.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/record_text.hpp"

namespace rooflab::reports {
namespace {

// Params compare as the text of their values in name order: two runs that write N=1024 match
// whatever the manifest's order of names.
using MatchKey = std::tuple<std::string, std::string, RunMode, std::string>;

MatchKey matchKeyOf(const RunRecord& record) {
  std::string params;
  for (const auto& [name, value] : record.params) params += name + "=" + paramValueText(value) + "\n";
  if (record.what_if) params += "what-if=" + record.what_if->name + "\n";  // a variant's what-ifs share one mode
  if (record.device) params += "device=" + *record.device + "\n";  // a batch on several devices
  return {record.family, record.variant, record.mode, params};
}

RecordKey recordKeyOf(const RunRecord& record) {
  const std::string mode = modeName(record.mode) + (record.what_if ? " " + record.what_if->name : "");
  return RecordKey{record.family, record.variant, mode, recordParamsText(record)};
}

// A device is its name on its platform: the same CPU under PoCL and under Intel's runtime times
// differently.
std::optional<std::string> deviceText(const ResultsDocument& results) {
  if (!results.device) return std::nullopt;
  return "\"" + results.device->name + "\" (" + results.device->platform + ")";
}

std::string optionalText(const std::optional<double>& value, std::string (*format)(double)) {
  return value ? format(*value) : "-";
}

std::vector<double> repetitionKernelNs(const RunRecord& record) {
  std::vector<double> samples;
  if (!record.timings) return samples;
  for (const RepetitionTiming& repetition : record.timings->repetitions) {
    samples.push_back(static_cast<double>(repetition.kernel_ns));
  }
  return samples;
}

// The smallest two-sided p-value the exact Mann-Whitney test can give m + n values: every value of
// one sample below every value of the other, 2 / C(m + n, m). Above 20 a side the normal
// approximation has no such floor worth telling.
double smallestExactPValue(std::size_t m, std::size_t n) {
  if (m > 20 || n > 20) return 0;
  double orderings = 1;
  for (std::size_t i = 1; i <= std::min(m, n); ++i) orderings = orderings * double(m + n - std::min(m, n) + i) / double(i);
  return std::min(1.0, 2 / orderings);
}

// "0.43", "0.012", "2.0e-06": small p-values in exponent form, where fixed digits would be all zeros.
std::string pValueText(double p) {
  if (!(p > 0) || p >= 1e-3) return formatSignificant(p, 2);
  int exponent = static_cast<int>(std::floor(std::log10(p)));
  double mantissa = p / std::pow(10.0, exponent);
  if (mantissa >= 9.95) {  // would round to "10.0"
    mantissa /= 10;
    ++exponent;
  }
  const std::string digits = std::to_string(-exponent);
  return formatFixed(mantissa, 1) + "e-" + (digits.size() < 2 ? "0" : "") + digits;
}

std::string joined(const std::set<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

// Why two runs share no record, in the words a user can act on.
std::string whyNothingMatched(const ResultsDocument& old_run, const ResultsDocument& new_run) {
  std::string empty;
  for (const auto& [label, run] : {std::pair{"OLD", &old_run}, std::pair{"NEW", &new_run}}) {
    if (!run->records.empty()) continue;
    empty += std::string(empty.empty() ? "" : "; ") + label + " has 0 records (status: " + toString(run->status) + ")";
  }
  if (!empty.empty()) return empty;
  std::set<std::string> old_families, new_families;
  for (const RunRecord& record : old_run.records) old_families.insert(record.family);
  for (const RunRecord& record : new_run.records) new_families.insert(record.family);
  std::set<std::string> common;
  std::set_intersection(old_families.begin(), old_families.end(), new_families.begin(), new_families.end(),
                        std::inserter(common, common.end()));
  if (common.empty()) {
    return "no family in common: OLD holds " + joined(old_families) + ", NEW holds " + joined(new_families);
  }
  // Same families, other points: show one of each side in the first family they share.
  const std::string& family = *common.begin();
  auto firstOf = [&family](const ResultsDocument& run) {
    for (const RunRecord& record : run.records)
      if (record.family == family) return recordKeyOf(record).text();
    return std::string();
  };
  return "no record of OLD has the (family, variant, params, mode) of one in NEW: OLD has " + firstOf(old_run) +
         ", NEW has " + firstOf(new_run) + ", ...";
}

// A record's timed runs, each divided by the control run right after it; empty when the record has
// no control beside every run (results written before drift controls).
std::vector<double> correctedKernelNs(const RunRecord& record, const std::vector<double>& kernel_ns) {
  if (!record.drift_control) return {};
  return correctedSamples(kernel_ns, record.drift_control->repetitions_ns);
}

// Why a record's repetitions cannot stand for it ("" when they can): their median is not the
// median the record states, as in a file edited by hand or written by another tool. The test on the
// repetitions would then judge other timings than the table shows.
std::string medianMismatch(const char* which, const std::optional<double>& stated_ns, const std::vector<double>& samples) {
  if (!stated_ns || samples.empty()) return "";
  const double own_ns = summarize(samples).median;
  if (std::fabs(own_ns - *stated_ns) <= 0.01 * std::fabs(*stated_ns)) return "";
  return std::string(which) + "'s median is " + formatDurationNs(*stated_ns) + " but its repetitions' is " +
         formatDurationNs(own_ns);
}

// A record whose stated medians disagree with its repetitions: judged on the medians alone, against
// the minimum effect (no test is possible on repetitions that do not give them).
void compareStatedMedians(const std::string& mismatch, const DiffOptions& options, RecordChange& change) {
  change.comparison.reset();
  change.time_change = *change.new_median_ns / *change.old_median_ns - 1.0;
  const double ratio = *change.time_change + 1.0;
  change.verdict = ratio > 1 + options.min_effect   ? RecordVerdict::regressed
                   : ratio < 1 - options.min_effect ? RecordVerdict::improved
                                                    : RecordVerdict::unchanged_within_noise;
  change.reason = mismatch + ": compared on the stated medians, without the test on the repetitions";
}

// The verdict of a record whose both runs have timings, from the test on their repetitions and the
// drift beside it.
void compareTimings(const RunRecord& old_record, const RunRecord& new_record, const DiffOptions& options,
                    const std::optional<RunDrift>& run_drift, RecordChange& change) {
  const std::vector<double> old_samples = repetitionKernelNs(old_record);
  const std::vector<double> new_samples = repetitionKernelNs(new_record);
  if (old_samples.empty() || new_samples.empty()) {
    change.verdict = RecordVerdict::not_compared;
    change.reason = std::string(old_samples.empty() ? "OLD" : "NEW") + " has no repetitions to test";
    return;
  }
  if (!(change.old_median_ns && *change.old_median_ns > 0)) {
    change.verdict = RecordVerdict::not_compared;
    change.reason = "OLD's median time is not positive";
    return;
  }
  std::string mismatch = medianMismatch("OLD", change.old_median_ns, old_samples);
  if (const std::string other = medianMismatch("NEW", change.new_median_ns, new_samples); !other.empty())
    mismatch += (mismatch.empty() ? "" : "; ") + other;
  if (!mismatch.empty() && change.new_median_ns) return compareStatedMedians(mismatch, options, change);
  change.comparison = compareSamples(old_samples, new_samples, options.alpha, options.min_effect, Better::lower);
  change.time_change = change.comparison->ratio.ratio - 1.0;
  Change verdict = change.comparison->verdict;
  const std::vector<double> old_corrected = correctedKernelNs(old_record, old_samples);
  const std::vector<double> new_corrected = correctedKernelNs(new_record, new_samples);
  if (run_drift && !old_corrected.empty() && !new_corrected.empty()) {
    const SampleComparison corrected =
        compareSamples(old_corrected, new_corrected, options.alpha, options.min_effect, Better::lower);
    const std::vector<double> old_first(old_samples.begin(), old_samples.begin() + old_corrected.size());
    const std::vector<double> new_first(new_samples.begin(), new_samples.begin() + new_corrected.size());
    change.drift = judgeAgainstDrift(*change.comparison, corrected, options.min_effect,
                                     controlTracks(old_first, new_first, old_corrected, new_corrected, options.min_effect));
    verdict = change.drift->verdict;
  }
  switch (verdict) {
    case Change::regressed: change.verdict = RecordVerdict::regressed; break;
    case Change::improved: change.verdict = RecordVerdict::improved; break;
    case Change::unchanged_within_noise: change.verdict = RecordVerdict::unchanged_within_noise; break;
  }
  if (change.drift && change.drift->call == DriftCall::within_drift) {
    change.verdict = RecordVerdict::unchanged_within_drift;
    change.reason = "the control kernel beside it moved " + signedPercent(change.drift->drift - 1) + ", " +
                    signedPercent(change.drift->corrected_ratio - 1) + " once that is taken out";
    return;
  }
  if (change.drift && change.drift->call == DriftCall::hidden_by_drift) {
    change.verdict = RecordVerdict::inconclusive_drift;
    change.reason = signedPercent(change.comparison->ratio.ratio - 1) + " as measured, " +
                    signedPercent(change.drift->corrected_ratio - 1) + " once the control kernel's " +
                    signedPercent(change.drift->drift - 1) + " is taken out";
    return;
  }
  if (smallestExactPValue(old_samples.size(), new_samples.size()) >= options.alpha) {
    change.reason = std::to_string(old_samples.size()) + " + " + std::to_string(new_samples.size()) +
                    " repetitions cannot reach p < " + settingText(options.alpha);
  }
}

// A matched record whose both runs have timings, compared once every record is matched.
struct PendingComparison {
  const RunRecord* old_record;
  const RunRecord* new_record;
  std::size_t change;  // its index in DiffResult::matched
};

// The test and the bootstrap interval of each pending comparison, on as many threads as the host
// has cores: they are most of what a diff of two large files costs (2000 resamples a record), each
// record's is independent of the others' and seeded alike, so the result is the same on any number
// of threads. The first exception a comparison throws is rethrown.
void compareInParallel(const std::vector<PendingComparison>& pending, const DiffOptions& options,
                       const std::optional<RunDrift>& run_drift, std::vector<RecordChange>& changes) {
  std::atomic<std::size_t> next{0};
  std::mutex failure_mutex;
  std::exception_ptr failure;
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < pending.size();) {
      try {
        compareTimings(*pending[i].old_record, *pending[i].new_record, options, run_drift, changes[pending[i].change]);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(failure_mutex);
        if (!failure) failure = std::current_exception();
      }
    }
  };
  // A thread for fewer than a few hundred records costs more than it saves.
  const std::size_t threads = std::min<std::size_t>(std::max(1u, std::thread::hardware_concurrency()),
                                                     1 + pending.size() / 256);
  std::vector<std::thread> helpers;
  for (std::size_t t = 1; t < threads; ++t) helpers.emplace_back(work);
  work();
  for (std::thread& helper : helpers) helper.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace

std::string RecordKey::text() const {
  return family + "/" + variant + (params.empty() ? "" : " " + params) + " (" + mode + ")";
}

std::string toString(RecordVerdict verdict) {
  switch (verdict) {
    case RecordVerdict::regressed: return "REGRESSED";
    case RecordVerdict::improved: return "IMPROVED";
    case RecordVerdict::unchanged_within_noise: return "unchanged within noise";
    case RecordVerdict::not_compared: return "not compared";
    case RecordVerdict::unchanged_within_drift: return "unchanged within drift";
    case RecordVerdict::inconclusive_drift: return "INCONCLUSIVE (drift)";
  }
  return "unknown";
}

std::size_t DiffResult::count(RecordVerdict verdict) const {
  return static_cast<std::size_t>(std::count_if(matched.begin(), matched.end(),
                                                [verdict](const RecordChange& change) { return change.verdict == verdict; }));
}

DiffResult diffResults(const ResultsDocument& old_run, const ResultsDocument& new_run, const DiffOptions& options) {
  if (!(options.min_effect >= 0)) {
    throw std::invalid_argument("diff: the regression threshold must be >= 0: --min-effect (or --threshold) is a "
                                "fraction of the old median, 0.2 for 20%");
  }
  if (!(options.alpha > 0 && options.alpha < 1)) {
    throw std::invalid_argument("diff: --alpha must lie between 0 and 1 (the test's significance level, e.g. 0.05)");
  }

  DiffResult diff;
  diff.options = options;
  const std::optional<std::string> old_device = deviceText(old_run), new_device = deviceText(new_run);
  if (old_device && new_device && *old_device != *new_device) {
    const std::string both = "OLD ran on " + *old_device + ", NEW on " + *new_device;
    if (!options.allow_other_device) {
      diff.refusal = "the runs were made on different devices: " + both +
                     "; their timings say nothing about a change of the code (--allow-other-device compares them anyway)";
      return diff;
    }
    diff.warnings.push_back("the runs were made on different devices: " + both);
  }

  if (const std::string settings = settingsDifference(old_run, new_run); !settings.empty())
    diff.warnings.push_back("the runs were measured with other settings (" + settings +
                            "): a change may be the settings', not the code's");
  diff.drift = driftBetween(old_run, new_run, diff.warnings);
  std::vector<PendingComparison> to_compare;
  std::map<MatchKey, const RunRecord*> old_by_key;
  for (const RunRecord& record : old_run.records) {
    if (!old_by_key.emplace(matchKeyOf(record), &record).second) {
      diff.warnings.push_back("the old run holds " + recordKeyOf(record).text() + " twice; the first is compared");
    }
  }
  std::map<MatchKey, bool> seen_in_new;
  for (const RunRecord& record : new_run.records) {
    const MatchKey key = matchKeyOf(record);
    if (seen_in_new[key]) {
      diff.warnings.push_back("the new run holds " + recordKeyOf(record).text() + " twice; the first is compared");
      continue;
    }
    seen_in_new[key] = true;
    const auto old = old_by_key.find(key);
    if (old == old_by_key.end()) {
      diff.added.push_back(recordKeyOf(record));
      continue;
    }
    const RunRecord& old_record = *old->second;
    RecordChange change;
    change.key = recordKeyOf(record);
    change.old_status = old_record.status;
    change.new_status = record.status;
    change.old_verification = toString(old_record.verification.status);
    change.new_verification = toString(record.verification.status);
    change.old_median_ns = old_record.medianKernelNs();
    change.new_median_ns = record.medianKernelNs();
    change.old_gflops = old_record.achievedGflops();
    change.new_gflops = record.achievedGflops();
    change.old_gbps = old_record.achievedGbps();
    change.new_gbps = record.achievedGbps();
    const bool both_ran = change.old_status == RecordStatus::ok && change.new_status == RecordStatus::ok;
    if (both_ran && old_record.timings && record.timings) {
      to_compare.push_back({&old_record, &record, diff.matched.size()});
    } else {
      change.verdict = RecordVerdict::not_compared;
      if (change.old_status == change.new_status && change.old_status != RecordStatus::ok) {
        change.reason = toString(change.old_status) + " in both runs";
      } else if (change.old_status != RecordStatus::ok || change.new_status != RecordStatus::ok) {
        change.reason = "OLD: " + toString(change.old_status) + ", NEW: " + toString(change.new_status);
      } else {
        change.reason = "no timings";
      }
    }
    diff.matched.push_back(std::move(change));
  }
  compareInParallel(to_compare, options, diff.drift, diff.matched);
  for (RecordChange& change : diff.matched) {
    // Not noise: a record that ran and verified before but now errors or computes wrong results.
    if (change.old_status == RecordStatus::ok && isFault(change.new_status)) {
      change.verdict = RecordVerdict::regressed;
      change.reason = "ran before, now errors";
    } else if (change.old_verification != "failed" && change.new_verification == "failed") {
      change.verdict = RecordVerdict::regressed;
      change.reason = "now fails verification";
    }
    change.regressed = change.verdict == RecordVerdict::regressed;
    diff.regressed = diff.regressed || change.regressed;
  }
  diff.inconclusive = !diff.regressed && diff.count(RecordVerdict::inconclusive_drift) > 0;
  if (diff.drift && driftIsLarge(*diff.drift, options.min_effect)) diff.warnings.push_back(driftWarning(*diff.drift));
  for (const RunRecord& record : old_run.records) {
    if (!seen_in_new.count(matchKeyOf(record))) diff.removed.push_back(recordKeyOf(record));
  }
  warnAboutNoise(old_run, "OLD", diff.warnings);
  warnAboutNoise(new_run, "NEW", diff.warnings);
  if (diff.matched.empty()) {
    DiffResult refused;
    refused.options = options;
    refused.refusal = "nothing to compare: " + whyNothingMatched(old_run, new_run);
    refused.warnings = std::move(diff.warnings);
    return refused;
  }
  return diff;
}

void printDiff(const DiffResult& diff, std::ostream& out) {
  if (diff.refusal) {
    out << "not compared: " << *diff.refusal << '\n';
    return;
  }
  const std::string confidence = settingText((1 - diff.options.alpha) * 100) + "%";
  std::vector<std::vector<std::string>> rows = {
      {"record", "old median", "new median", "change", "new/old (" + confidence + " interval)", "p-value", "verdict"}};
  // The drift column only where both runs timed the control kernel: older files print as they did.
  if (diff.drift) rows.front().insert(rows.front().end() - 1, "drift");
  for (const RecordChange& change : diff.matched) {
    std::string change_text = change.time_change ? signedPercent(*change.time_change) : "-";
    if (!change.time_change && change.old_status != change.new_status) {
      change_text = toString(change.old_status) + " -> " + toString(change.new_status);
    }
    std::string ratio_text = "-", p_text = "-";
    if (change.comparison) {
      const RatioInterval& ratio = change.comparison->ratio;
      ratio_text = formatFixed(ratio.ratio, 3) + " [" + formatFixed(ratio.lower, 3) + ", " + formatFixed(ratio.upper, 3) + "]";
      p_text = pValueText(change.comparison->p_value);
    }
    rows.push_back({change.key.text(), optionalText(change.old_median_ns, &formatDurationNs),
                    optionalText(change.new_median_ns, &formatDurationNs), change_text, ratio_text, p_text,
                    toString(change.verdict) + (change.reason.empty() ? "" : ": " + change.reason)});
    if (diff.drift) rows.back().insert(rows.back().end() - 1, change.drift ? signedPercent(change.drift->drift - 1) : "-");
  }
  auto width = [](const std::string& text) {
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(),
                                                  [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
  };
  std::vector<std::size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], width(row[i]));
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      const std::string padding(widths[i] - width(row[i]), ' ');
      const bool left = i == 0 || i + 1 == row.size();  // names and verdicts left, numbers right
      line += left ? row[i] + padding : padding + row[i];
      if (i + 1 < row.size()) line += "  ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << terminalText(line) << '\n';
  }
  for (const RecordKey& key : diff.added) out << "added:   " << terminalText(key.text()) << '\n';
  for (const RecordKey& key : diff.removed) out << "removed: " << terminalText(key.text()) << '\n';
  for (const std::string& warning : diff.warnings) out << "warning: " << terminalText(warning) << '\n';

  const std::string rule = "a change counts when p < " + settingText(diff.options.alpha) +
                           " and the median moved by more than " + settingText(diff.options.min_effect * 100) + "%" +
                           (diff.drift ? ", also once the drift beside it is taken out" : "");
  const std::string matched = std::to_string(diff.matched.size()) + " matched records";
  std::string counts;
  for (const RecordVerdict verdict : {RecordVerdict::improved, RecordVerdict::unchanged_within_noise,
                                     RecordVerdict::unchanged_within_drift, RecordVerdict::inconclusive_drift,
                                     RecordVerdict::not_compared}) {
    if (const std::size_t n = diff.count(verdict)) {
      counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " +
                (verdict == RecordVerdict::improved             ? std::string("improved")
                 : verdict == RecordVerdict::inconclusive_drift ? std::string("inconclusive (drift)")
                                                                : toString(verdict));
    }
  }
  if (diff.regressed) {
    out << "REGRESSED: " << diff.count(RecordVerdict::regressed) << " of " << matched
        << (counts.empty() ? "" : "; " + counts) << " (" << rule << ")\n";
  } else if (diff.inconclusive) {
    out << "INCONCLUSIVE: no regression shown among " << matched << ", but the drift may hide a change in "
        << diff.count(RecordVerdict::inconclusive_drift) << " (" << counts << "; " << rule
        << "); rerun, or compare in one batch with rooflab ab\n";
  } else {
    out << "no regression among " << matched << (counts.empty() ? "" : ": " + counts) << " (" << rule << ")\n";
  }
}

}  // namespace rooflab::reports
