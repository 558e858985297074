#pragma once
// A what-if mutation: what a record ran, and what the analysis concludes of it (diagnose/what_if.hpp).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rooflab {

// How an expected counter value is compared: `to` (the what-if's value equals the figure, within 1%
// of the original's value), `below` (under the figure), `ratio_below` (what-if / original under it).
enum class WhatIfComparison { to, below, ratio_below };
std::string toString(WhatIfComparison comparison);  // "to" | "below" | "ratio_below"
std::optional<WhatIfComparison> parseWhatIfComparison(std::string_view text);

// The counter change a what-if expects: `counter` is a derived counter key (derivedCounterTable).
struct WhatIfExpectation {
  std::string counter;
  WhatIfComparison comparison = WhatIfComparison::to;
  double value = 0;
};

enum class WhatIfCheck {
  met,          // the counters show the expected change
  failed,       // they do not: the mutation does not remove what it claims, and its gain is suspect
  not_checked,  // no counters (not NVIDIA, counters off), no expectation, or a record missing
};
std::string toString(WhatIfCheck check);  // "met" | "failed" | "not_checked"
std::optional<WhatIfCheck> parseWhatIfCheck(std::string_view text);

// What the expectation's check rests on: the counters compared, or what kept it from being checked.
enum class WhatIfCheckBasis {
  counters_compared,      // the counter on both records (counter_original, counter_what_if): met or failed
  no_expectation,         // the manifest states no expected counter change
  what_if_did_not_run,    // the what-if record did not run (check_reason: its status reason)
  original_missing,       // no normal-mode original at these parameters
  no_counters,            // check_record has no counters at all (check_reason: why)
  counter_missing,        // check_record has counters, but not the expectation's (check_reason: why, if known)
  original_counter_zero,  // a ratio_below expectation, and the counter is 0 on the original: no ratio
};
std::string toString(WhatIfCheckBasis basis);
std::optional<WhatIfCheckBasis> parseWhatIfCheckBasis(std::string_view text);

// The records a what-if's outcome compares.
enum class WhatIfRecordRole {
  original,     // the normal-mode record of the what-if's own variant
  what_if,      // the what-if record
  realisation,  // the variant that makes the optimisation for real (WhatIfRun::realised_by)
};
std::string toString(WhatIfRecordRole role);  // "original" | "what_if" | "realisation"
std::optional<WhatIfRecordRole> parseWhatIfRecordRole(std::string_view text);

// Why a record's time cannot stand in a gain.
enum class WhatIfGainBlock {
  not_run,              // no such record at these parameters
  run_ended,            // it ended as `status` says (the what-if: or ran, but has no median)
  no_median,            // it ran, but has no median time
  verification_failed,  // its result is wrong
  not_verified,         // its result was not checked
};
std::string toString(WhatIfGainBlock block);
std::optional<WhatIfGainBlock> parseWhatIfGainBlock(std::string_view text);

enum class RecordStatus;  // analyzer/data/run_record.hpp, which holds a WhatIfRun

// A gain withheld: the record that stood in the way and its state.
struct WhatIfGainWithheld {
  WhatIfRecordRole record = WhatIfRecordRole::original;
  std::string variant;  // the original's or the realisation's variant; empty for the what-if
  WhatIfGainBlock because = WhatIfGainBlock::not_run;
  RecordStatus status{};  // run_ended: how the record ended
  // The record's own words: its status reason's first line (run_ended), or its verification's
  // detail's (verification_failed, not_verified); absent when it gave none.
  std::optional<std::string> reason;
  // The sentence a schema-1 results file saved (its figures were not): reports show it as written.
  std::optional<std::string> text_as_saved;
};

// What a what-if record ran: the mutation its manifest declares. Its run is the record's measurement.
struct WhatIfRun {
  std::string name;    // "no-bank-conflicts"
  std::string define;  // "RL_WHATIF_NO_BANK_CONFLICTS", passed as -D <define>=1
  std::optional<WhatIfExpectation> expectation;
  std::string realised_by;  // the variant that makes the optimisation for real; empty: none named
};

// What the analysis concludes of a what-if record against its original (and its realisation):
// whether the counters show the expected change, and the gains. Results files write it with the
// WhatIfRun in one "what_if" object.
struct WhatIfOutcome {
  WhatIfCheck check = WhatIfCheck::not_checked;
  WhatIfCheckBasis check_basis = WhatIfCheckBasis::no_expectation;
  WhatIfRecordRole check_record = WhatIfRecordRole::what_if;  // no_counters, counter_missing: the record
  std::optional<std::string> check_reason;                    // the record's own words (WhatIfCheckBasis says whose)
  std::optional<std::string> check_detail_as_saved;           // the sentence a schema-1 results file saved
  std::optional<double> counter_original;                     // the expectation's counter on the original
  std::optional<double> counter_what_if;                      // and on the what-if
  std::optional<double> t_ns;                                 // the original's median kernel time
  std::optional<double> t_what_if_ns;
  std::optional<double> predicted_gain;  // t / t_what_if: under 1, no gain
  std::optional<double> t_realised_ns;   // realised_by's median at the same parameters
  std::optional<double> realised_gain;   // t / t_realised: what the real optimisation won
  // Why a gain is not given: the record that stood in the way and its state. A gain compares two
  // records, and is given only when both ran and, normal ones, verified. Absent when the gain is
  // given (or, in files written before these reasons, unknown).
  std::optional<WhatIfGainWithheld> predicted_gain_unavailable;
  std::optional<WhatIfGainWithheld> realised_gain_unavailable;
};

}  // namespace rooflab
