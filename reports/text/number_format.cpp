#include "reports/text/number_format.hpp"

#include <charconv>
#include <cmath>
#include <system_error>

namespace rooflab::reports {
namespace {

std::string toChars(double value, std::chars_format format, int precision) {
  char buffer[128];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, format, precision);
  if (result.ec != std::errc()) return "?";
  return std::string(buffer, result.ptr);
}

// -0.0 prints as "-0" or "-0.00"; nobody wants to read that in a table.
double withoutNegativeZero(double value) { return value == 0.0 ? 0.0 : value; }

}  // namespace

std::string formatFixed(double value, int decimals) {
  if (!std::isfinite(value)) return "–";
  return toChars(withoutNegativeZero(value), std::chars_format::fixed, decimals);
}

std::string formatFixedAsWritten(double value, int decimals) {
  return toChars(value, std::chars_format::fixed, decimals);
}

std::string formatGeneral(double value, int significant_digits) {
  return toChars(value, std::chars_format::general, significant_digits);
}

std::string formatSignificant(double value, int significant_digits) {
  if (!std::isfinite(value)) return "–";
  if (value == 0.0) return "0";
  const int exponent = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  if (exponent < -6 || exponent >= 9) {
    return toChars(value, std::chars_format::scientific, significant_digits - 1);
  }
  const int decimals = significant_digits - 1 - exponent;
  return formatFixed(value, decimals > 0 ? decimals : 0);
}

std::string formatRate(double value) {
  const double magnitude = std::fabs(value);
  if (magnitude >= 1000.0) return formatFixed(value, 0);
  if (magnitude >= 100.0) return formatFixed(value, 1);
  if (magnitude >= 1.0) return formatFixed(value, 2);
  return formatSignificant(value, 3);
}

std::string formatDurationNs(double nanoseconds) {
  const double magnitude = std::fabs(nanoseconds);
  if (magnitude < 1e3) return formatFixed(nanoseconds, 0) + " ns";
  if (magnitude < 1e6) return formatSignificant(nanoseconds / 1e3, 3) + " µs";
  if (magnitude < 1e9) return formatSignificant(nanoseconds / 1e6, 3) + " ms";
  return formatSignificant(nanoseconds / 1e9, 3) + " s";
}

std::string formatBytes(double bytes) {
  const double magnitude = std::fabs(bytes);
  if (magnitude < 1e3) return formatFixed(bytes, 0) + " B";
  if (magnitude < 1e6) return formatSignificant(bytes / 1e3, 3) + " kB";
  if (magnitude < 1e9) return formatSignificant(bytes / 1e6, 3) + " MB";
  return formatSignificant(bytes / 1e9, 3) + " GB";
}

std::string formatCount(double count) {
  const double magnitude = std::fabs(count);
  if (magnitude < 1e4) {
    return count == std::floor(count) ? formatFixed(count, 0) : formatSignificant(count, 4);
  }
  if (magnitude < 1e6) return formatSignificant(count / 1e3, 3) + " k";
  if (magnitude < 1e9) return formatSignificant(count / 1e6, 3) + " M";
  if (magnitude < 1e12) return formatSignificant(count / 1e9, 3) + " G";
  return formatSignificant(count / 1e12, 3) + " T";
}

std::string formatSpeedup(double ratio) { return formatFixed(ratio, 2) + "×"; }

std::string formatPercent(double fraction) {
  const double percent = fraction * 100.0;
  return (std::fabs(percent) >= 100.0 ? formatFixed(percent, 0) : formatSignificant(percent, 3)) + "%";
}

}  // namespace rooflab::reports
