#include "reports/text/what_if_sentences.hpp"

#include "reports/text/number_format.hpp"

namespace rooflab::reports {
namespace {

std::string recordName(WhatIfRecordRole role) { return role == WhatIfRecordRole::original ? "original" : "what-if"; }

std::string counterOf(const WhatIfRun& run) { return run.expectation ? run.expectation->counter : std::string(); }

// The counters compared, with rooflab::formatNumber's round-trip figures.
std::string comparedText(const WhatIfRun& run, const WhatIfOutcome& w) {
  const auto figure = [](const std::optional<double>& value) {
    return value ? formatNumber(*value) : std::string("?");
  };
  std::string text = counterOf(run) + " " + figure(w.counter_original) + " (original) -> " + figure(w.counter_what_if) +
                     " (what-if); expected ";
  return text + (run.expectation ? whatIfExpectationText(*run.expectation) : std::string("?"));
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

std::string whoText(const WhatIfGainWithheld& withheld) {
  switch (withheld.record) {
    case WhatIfRecordRole::original: return "the original (" + withheld.variant + ")";
    case WhatIfRecordRole::what_if: return "the what-if";
    case WhatIfRecordRole::realisation: return withheld.variant;
  }
  return withheld.variant;
}

}  // namespace

std::string whatIfExpectationText(const WhatIfExpectation& expectation) {
  const std::string value = formatNumber(expectation.value);
  switch (expectation.comparison) {
    case WhatIfComparison::to: return expectation.counter + " to " + value;
    case WhatIfComparison::below: return expectation.counter + " below " + value;
    case WhatIfComparison::ratio_below: return expectation.counter + " below " + value + " x the original's";
  }
  return expectation.counter;
}

std::string whatIfCheckDetailText(const WhatIfRun& run, const WhatIfOutcome& w) {
  if (w.check_detail_as_saved) return *w.check_detail_as_saved;
  const std::string reason = w.check_reason.value_or("");
  switch (w.check_basis) {
    case WhatIfCheckBasis::counters_compared: return comparedText(run, w);
    case WhatIfCheckBasis::no_expectation: return "the manifest states no expected counter change";
    case WhatIfCheckBasis::what_if_did_not_run: return "the what-if did not run: " + reason;
    case WhatIfCheckBasis::original_missing: return "the original (normal mode) did not run at these parameters";
    case WhatIfCheckBasis::no_counters: return "no counters on the " + recordName(w.check_record) + ": " + reason;
    case WhatIfCheckBasis::counter_missing:
      return "no " + counterOf(run) + " on the " + recordName(w.check_record) +
             (w.check_reason ? ": " + *w.check_reason : std::string());
    case WhatIfCheckBasis::original_counter_zero: return counterOf(run) + " is 0 on the original: no ratio to compare";
  }
  return "";
}

std::string whatIfGainWithheldText(const WhatIfGainWithheld& withheld) {
  if (withheld.text_as_saved) return *withheld.text_as_saved;
  const std::string who = whoText(withheld);
  switch (withheld.because) {
    case WhatIfGainBlock::not_run: return who + " did not run at these parameters (study it in normal mode)";
    case WhatIfGainBlock::run_ended:
      return who + " " + statusText(withheld.status) + (withheld.reason ? ": " + *withheld.reason : std::string());
    case WhatIfGainBlock::no_median: return who + " has no median time";
    case WhatIfGainBlock::verification_failed:
      return who + " failed verification" + (withheld.reason ? " (" + *withheld.reason + ")" : std::string());
    case WhatIfGainBlock::not_verified:
      return who + " was not verified" + (withheld.reason ? " (" + *withheld.reason + ")" : std::string());
  }
  return who;
}

}  // namespace rooflab::reports
