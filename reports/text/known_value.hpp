#pragma once
#include <cmath>
#include <optional>

// Typed results mark a quantity that is not known with NaN (a double field) or nullopt; the JSON edge
// writes both, and infinities, as null. Every report shows them alike: as unknown.
namespace rooflab::reports {

inline std::optional<double> known(double value) {
  return std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
}
inline std::optional<double> known(const std::optional<double>& value) { return value ? known(*value) : std::nullopt; }

}  // namespace rooflab::reports
