#pragma once
#include <string>

// Round-trip number text for analyzer/ and reports/ alike. Everything goes through std::to_chars,
// which never reads the C or C++ locale, so text written under de_DE is byte-for-byte that under C.
// reports/text/number_format.hpp adds the rounded forms that only reports show.
namespace rooflab {

// Shortest text that reads back as the same double; whole numbers below 9e15 print every digit
// ("1024", "1000000", "0.5", "1e-05"). For messages, keys and parameter values.
std::string formatNumber(double value);

// Shortest text that reads back as the same double, whole numbers included ("1048576", "1e+06",
// "0.1"); "" for NaN and infinities (an empty CSV field), "0" for -0. For report fields.
std::string formatRoundTrip(double value);

}  // namespace rooflab
