#include "analyzer/support/format.hpp"

#include <charconv>
#include <cmath>

namespace rooflab {
namespace {

std::string shortest(double value) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, end);
}

}  // namespace

std::string formatNumber(double value) {
  if (std::isfinite(value) && std::fabs(value) < 9.0e15 && value == std::trunc(value)) {
    char buffer[64];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, static_cast<long long>(value));
    return std::string(buffer, end);
  }
  return shortest(value);
}

std::string formatRoundTrip(double value) {
  if (!std::isfinite(value)) return "";
  return shortest(value == 0.0 ? 0.0 : value);  // -0 prints as "-0"; nobody wants to read that
}

}  // namespace rooflab
