#pragma once
#include <string>

// formatRoundTrip (CSV fields, params) is shared with analyzer/ and lives there.
#include "analyzer/support/format.hpp"

// Number text that only reports show, rounded for people. All of it goes through std::to_chars,
// which never reads the C or C++ locale, so a report written under de_DE is byte-for-byte the one
// written under C.
namespace rooflab::reports {

std::string formatFixed(double value, int decimals);

// std::to_chars's fixed form as it is ("-0.0", "inf"): the form the analysis's findings were written
// in when they were sentences, which the sentences that replaced them keep.
std::string formatFixedAsWritten(double value, int decimals);

// `significant_digits` digits, never in exponent form between 1e-6 and 1e9 ("1.23", "1230", "0.00123").
std::string formatSignificant(double value, int significant_digits);

// std::to_chars's general form with `significant_digits` digits, exponent form where it is shorter
// ("0.25", "1.23e+04"): the form the diagnosis's intensities and counts have always been written in.
std::string formatGeneral(double value, int significant_digits);

// A rate for people: 20413 -> "20413", 231.63 -> "231.6", 7.219 -> "7.22", 0.0123 -> "0.0123".
std::string formatRate(double value);

// A kernel time in the unit that keeps 3 significant digits: "812 ns", "61.0 µs", "1.23 ms", "2.50 s".
std::string formatDurationNs(double nanoseconds);

// A byte count with a binary-free SI unit, as bandwidths are SI: "4.19 MB", "512 B".
std::string formatBytes(double bytes);

// A large count with SI suffix ("2.15 G", "1.05 M"); counts below 10000 stay exact.
std::string formatCount(double count);

// "2.35×" for a time ratio (old / new).
std::string formatSpeedup(double ratio);

// "83.2%" for a fraction 0.832.
std::string formatPercent(double fraction);

}  // namespace rooflab::reports
