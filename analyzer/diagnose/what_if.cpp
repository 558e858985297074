#include "analyzer/diagnose/what_if.hpp"

#include <cmath>
#include <utility>

#include "analyzer/data/run_record.hpp"

namespace rooflab {
namespace {

// A `to` expectation holds within this fraction of the original's value: a counter that fell from
// 2 M conflicts to 30 has gone "to 0" as far as the time is concerned.
constexpr double kToTolerance = 0.01;

std::optional<double> derivedCounter(const RunRecord& record, const std::string& key) {
  if (!record.counters.available) return std::nullopt;
  const auto it = record.counters.derived.find(key);
  if (it == record.counters.derived.end() || !it->second || !std::isfinite(*it->second)) return std::nullopt;
  return *it->second;
}

// The record has no `key`: no counters at all, or not this one; why, in the counters' own words.
void counterUnavailable(const RunRecord& record, const std::string& key, WhatIfRecordRole role, WhatIfOutcome& w) {
  w.check_record = role;
  if (!record.counters.available) {
    w.check_basis = WhatIfCheckBasis::no_counters;
    w.check_reason = record.counters.reason;
    return;
  }
  w.check_basis = WhatIfCheckBasis::counter_missing;
  if (const auto reason = record.counters.derived_reasons.find(key); reason != record.counters.derived_reasons.end())
    w.check_reason = reason->second;
}

void checkExpectation(const RunRecord& original, const RunRecord& what_if, const WhatIfRun& run, WhatIfOutcome& w) {
  if (!run.expectation) {
    w.check_basis = WhatIfCheckBasis::no_expectation;
    return;
  }
  const WhatIfExpectation& e = *run.expectation;
  w.counter_original = derivedCounter(original, e.counter);
  w.counter_what_if = derivedCounter(what_if, e.counter);
  if (!w.counter_what_if) return counterUnavailable(what_if, e.counter, WhatIfRecordRole::what_if, w);
  if (!w.counter_original && e.comparison != WhatIfComparison::below)
    return counterUnavailable(original, e.counter, WhatIfRecordRole::original, w);
  const double after = *w.counter_what_if;
  bool met = false;
  switch (e.comparison) {
    case WhatIfComparison::to: met = std::fabs(after - e.value) <= kToTolerance * std::fabs(*w.counter_original); break;
    case WhatIfComparison::below: met = after < e.value; break;
    case WhatIfComparison::ratio_below:
      if (*w.counter_original == 0) {
        w.check_basis = WhatIfCheckBasis::original_counter_zero;
        return;
      }
      met = after / *w.counter_original < e.value;
      break;
  }
  w.check = met ? WhatIfCheck::met : WhatIfCheck::failed;
  w.check_basis = WhatIfCheckBasis::counters_compared;
}

const RunRecord* normalRecord(const std::vector<RunRecord>& records, const RunRecord& like,
                              const std::string& variant) {
  for (const RunRecord& r : records)
    if (r.mode == RunMode::normal && r.family == like.family && r.variant == variant && r.params == like.params &&
        r.device == like.device &&  // on several devices: the same device's
        r.ab_side == like.ab_side)  // an A/B run's sides are two runs
      return &r;
  return nullptr;
}

std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

// A record's reason without the "<label> on <device>: " it starts with: the line names the record.
std::string reasonOf(const RunRecord& record) {
  std::string reason = firstLine(record.status_reason);
  const std::string prefix = record.label() + " on ";
  if (reason.rfind(prefix, 0) == 0)
    if (const auto colon = reason.find(": ", prefix.size()); colon != std::string::npos) reason.erase(0, colon + 2);
  return reason;
}

// Why a normal record's time cannot stand in a gain (`role`, `variant`: which record it is); nothing
// when it can: it ran, has a median, and verified (or is the family's reference).
std::optional<WhatIfGainWithheld> unusableBecause(const RunRecord* record, WhatIfRecordRole role,
                                                  const std::string& variant) {
  WhatIfGainWithheld withheld{role, variant, WhatIfGainBlock::not_run, RecordStatus::ok, std::nullopt, std::nullopt};
  if (record == nullptr) return withheld;
  if (record->status != RecordStatus::ok) {
    withheld.because = WhatIfGainBlock::run_ended;
    withheld.status = record->status;
    if (std::string reason = reasonOf(*record); !reason.empty()) withheld.reason = std::move(reason);
    return withheld;
  }
  withheld.because = WhatIfGainBlock::no_median;
  if (!record->medianKernelNs()) return withheld;
  const VerificationResult& v = record->verification;
  if (v.status == VerificationStatus::passed || v.status == VerificationStatus::reference) return std::nullopt;
  if (!v.detail.empty()) withheld.reason = firstLine(v.detail);
  withheld.because =
      v.status == VerificationStatus::failed ? WhatIfGainBlock::verification_failed : WhatIfGainBlock::not_verified;
  return withheld;
}

// The what-if's own time stands in the gain when it ran and has a median.
std::optional<WhatIfGainWithheld> whatIfUnusable(const RunRecord& record) {
  if (record.status == RecordStatus::ok && record.medianKernelNs()) return std::nullopt;
  WhatIfGainWithheld withheld{
      WhatIfRecordRole::what_if, "", WhatIfGainBlock::run_ended, record.status, std::nullopt, std::nullopt};
  if (!record.status_reason.empty()) withheld.reason = reasonOf(record);
  return withheld;
}

std::optional<double> gain(const std::optional<double>& t_ns, const std::optional<double>& faster_ns) {
  if (!t_ns || !faster_ns || *faster_ns <= 0) return std::nullopt;
  return *t_ns / *faster_ns;
}

}  // namespace

WhatIfOutcome whatIfOutcome(const std::vector<RunRecord>& records, const RunRecord& record) {
  const WhatIfRun& run = *record.what_if;
  WhatIfOutcome w;
  const RunRecord* original = normalRecord(records, record, record.variant);
  // A gain compares two times, and is shown only when both records ran and (normal ones) verified:
  // a wrong result's time says nothing of what an optimisation wins.
  const auto original_unusable = unusableBecause(original, WhatIfRecordRole::original, record.variant);
  const auto what_if_unusable = whatIfUnusable(record);
  w.t_what_if_ns = what_if_unusable ? std::nullopt : record.medianKernelNs();
  w.t_ns = original_unusable ? std::nullopt : original->medianKernelNs();
  w.predicted_gain = gain(w.t_ns, w.t_what_if_ns);
  w.predicted_gain_unavailable = original_unusable ? original_unusable : what_if_unusable;
  if (record.status != RecordStatus::ok) {
    w.check_basis = WhatIfCheckBasis::what_if_did_not_run;
    w.check_reason = record.status_reason;
  } else if (!original) {
    w.check_basis = WhatIfCheckBasis::original_missing;
  } else {
    checkExpectation(*original, record, run, w);
  }
  if (run.realised_by.empty()) return w;
  const RunRecord* realised = normalRecord(records, record, run.realised_by);
  const auto realised_unusable = unusableBecause(realised, WhatIfRecordRole::realisation, run.realised_by);
  w.t_realised_ns = realised_unusable ? std::nullopt : realised->medianKernelNs();
  w.realised_gain = gain(w.t_ns, w.t_realised_ns);
  w.realised_gain_unavailable = original_unusable ? original_unusable : realised_unusable;
  return w;
}

}  // namespace rooflab
