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
std::string describe(const WhatIfExpectation& expectation);  // "shared_bank_conflicts to 0"

enum class WhatIfCheck {
  met,          // the counters show the expected change
  failed,       // they do not: the mutation does not remove what it claims, and its gain is suspect
  not_checked,  // no counters (not NVIDIA, counters off), no expectation, or a record missing
};
std::string toString(WhatIfCheck check);  // "met" | "failed" | "not_checked"
std::optional<WhatIfCheck> parseWhatIfCheck(std::string_view text);

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
  std::string check_detail;                // the figures, or why the expectation was not checked
  std::optional<double> counter_original;  // the expectation's counter on the original
  std::optional<double> counter_what_if;   // and on the what-if
  std::optional<double> t_ns;              // the original's median kernel time
  std::optional<double> t_what_if_ns;
  std::optional<double> predicted_gain;  // t / t_what_if: under 1, no gain
  std::optional<double> t_realised_ns;   // realised_by's median at the same parameters
  std::optional<double> realised_gain;   // t / t_realised: what the real optimisation won
  // Why a gain is not given: the record that stood in the way and its state ("the original (tiled)
  // crashed: ...", "tiled_padded failed verification (...)"). A gain compares two records, and is
  // given only when both ran and, normal ones, verified. Empty when the gain is given (or, in files
  // written before these reasons, unknown).
  std::string predicted_gain_unavailable;
  std::string realised_gain_unavailable;
};

}  // namespace rooflab
