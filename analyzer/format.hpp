#pragma once
#include <string>

namespace rooflab {
// Shortest text that reads back as the same double, independent of the C++ locale; integers
// print without a decimal point ("1024", "0.5", "1e-05").
std::string formatNumber(double value);
}  // namespace rooflab
