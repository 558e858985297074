#include "analyzer/format.hpp"

#include <charconv>
#include <cmath>

namespace rooflab {

std::string formatNumber(double value) {
  char buffer[64];
  if (std::isfinite(value) && std::fabs(value) < 9.0e15 && value == std::trunc(value)) {
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, static_cast<long long>(value));
    return std::string(buffer, end);
  }
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, end);
}

}  // namespace rooflab
