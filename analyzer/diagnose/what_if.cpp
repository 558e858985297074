#include "analyzer/diagnose/what_if.hpp"

#include <cmath>

#include "analyzer/support/format.hpp"
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

std::string counterUnavailable(const RunRecord& record, const std::string& key, const std::string& which) {
  if (!record.counters.available) return "no counters on the " + which + ": " + record.counters.reason;
  const auto reason = record.counters.derived_reasons.find(key);
  return "no " + key + " on the " + which +
         (reason == record.counters.derived_reasons.end() ? std::string() : ": " + reason->second);
}

void checkExpectation(const RunRecord& original, const RunRecord& what_if, const WhatIfRun& run, WhatIfOutcome& w) {
  if (!run.expectation) {
    w.check_detail = "the manifest states no expected counter change";
    return;
  }
  const WhatIfExpectation& e = *run.expectation;
  w.counter_original = derivedCounter(original, e.counter);
  w.counter_what_if = derivedCounter(what_if, e.counter);
  if (!w.counter_what_if) {
    w.check_detail = counterUnavailable(what_if, e.counter, "what-if");
    return;
  }
  if (!w.counter_original && e.comparison != WhatIfComparison::below) {
    w.check_detail = counterUnavailable(original, e.counter, "original");
    return;
  }
  const double after = *w.counter_what_if;
  bool met = false;
  switch (e.comparison) {
    case WhatIfComparison::to: met = std::fabs(after - e.value) <= kToTolerance * std::fabs(*w.counter_original); break;
    case WhatIfComparison::below: met = after < e.value; break;
    case WhatIfComparison::ratio_below:
      if (*w.counter_original == 0) {
        w.check_detail = e.counter + " is 0 on the original: no ratio to compare";
        return;
      }
      met = after / *w.counter_original < e.value;
      break;
  }
  w.check = met ? WhatIfCheck::met : WhatIfCheck::failed;
  w.check_detail = e.counter + " " + (w.counter_original ? formatNumber(*w.counter_original) : std::string("?")) +
                   " (original) -> " + formatNumber(after) + " (what-if); expected " + describe(e);
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

std::string statusText(RecordStatus status) {
  switch (status) {
    case RecordStatus::ok: return "ran";
    case RecordStatus::error: return "failed with an error";
    case RecordStatus::skipped: return "was skipped";
    case RecordStatus::crashed: return "crashed";
    case RecordStatus::timed_out: return "timed out";
  }
  return "did not run";
}

// Why a normal record's time cannot stand in a gain, with `who` it is ("the original (tiled)",
// "tiled_padded"); "" when it can: it ran, has a median, and verified (or is the family's reference).
std::string unusableBecause(const RunRecord* record, const std::string& who) {
  if (record == nullptr) return who + " did not run at these parameters (study it in normal mode)";
  if (record->status != RecordStatus::ok) {
    const std::string reason = reasonOf(*record);
    return who + " " + statusText(record->status) + (reason.empty() ? "" : ": " + reason);
  }
  if (!record->medianKernelNs()) return who + " has no median time";
  const VerificationResult& v = record->verification;
  if (v.status == VerificationStatus::passed || v.status == VerificationStatus::reference) return "";
  const std::string detail = v.detail.empty() ? "" : " (" + firstLine(v.detail) + ")";
  if (v.status == VerificationStatus::failed) return who + " failed verification" + detail;
  return who + " was not verified" + detail;
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
  const std::string original_unusable = unusableBecause(original, "the original (" + record.variant + ")");
  std::string what_if_unusable;
  if (record.status != RecordStatus::ok || !record.medianKernelNs())
    what_if_unusable =
        "the what-if " + statusText(record.status) + (record.status_reason.empty() ? "" : ": " + reasonOf(record));
  w.t_what_if_ns = what_if_unusable.empty() ? record.medianKernelNs() : std::nullopt;
  w.t_ns = original_unusable.empty() ? original->medianKernelNs() : std::nullopt;
  w.predicted_gain = gain(w.t_ns, w.t_what_if_ns);
  w.predicted_gain_unavailable = !original_unusable.empty() ? original_unusable : what_if_unusable;
  if (record.status != RecordStatus::ok) {
    w.check_detail = "the what-if did not run: " + record.status_reason;
  } else if (!original) {
    w.check_detail = "the original (normal mode) did not run at these parameters";
  } else {
    checkExpectation(*original, record, run, w);
  }
  if (run.realised_by.empty()) return w;
  const RunRecord* realised = normalRecord(records, record, run.realised_by);
  const std::string realised_unusable = unusableBecause(realised, run.realised_by);
  w.t_realised_ns = realised_unusable.empty() ? realised->medianKernelNs() : std::nullopt;
  w.realised_gain = gain(w.t_ns, w.t_realised_ns);
  w.realised_gain_unavailable = !original_unusable.empty() ? original_unusable : realised_unusable;
  return w;
}

}  // namespace rooflab
