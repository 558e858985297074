// libFuzzer target: size / work expressions (analyzer/expression.hpp).
// Contract under test: evaluateExpression and evaluateCount return a value or throw
// ExpressionError; they never crash, hang, or hit undefined behaviour.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "analyzer/support/expression.hpp"
#include "fuzz_defaults.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Manifest expressions are short; muParser's cost grows with length, so keep inputs small.
  if (size > 512) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  static const rooflab::ParamValues params{{"N", 1024}, {"M", 3}, {"WG", 256}, {"TS", 16},
                                           {"F", 2.5},  {"Z", 0}, {"NEG", -7}, {"BIG", 1e300}};
  try {
    (void)rooflab::evaluateExpression(text, params);
  } catch (const rooflab::ExpressionError&) {
  }
  for (bool allow_zero : {false, true}) {
    try {
      (void)rooflab::evaluateCount(text, params, allow_zero);
    } catch (const rooflab::ExpressionError&) {
    }
  }
  return 0;
}
