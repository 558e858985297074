#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace rooflab {

using ParamValues = std::map<std::string, double>;

// A size, work or geometry expression failed: the message says which expression and why; the
// caller adds where it came from (file, key, line).
class ExpressionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Evaluates a muParser expression over the parameters (N, TS, ...). Besides muParser's built-ins
// (+ - * / ^, min, max, sqrt, log2, abs, rint, ...) it knows ceil, floor and the remainder a % b
// (C's fmod, as tight as * and /). A result that is not
// finite (division by zero, log of 0) is an error.
double evaluateExpression(std::string_view text, const ParamValues& params);

// As evaluateExpression, for counts and sizes: the result must be a non-negative integer (within
// 1e-9 relative), or positive when `allow_zero` is false.
std::int64_t evaluateCount(std::string_view text, const ParamValues& params, bool allow_zero = false);
// The checks of evaluateCount on a value already evaluated from `text`.
std::int64_t countOf(double value, std::string_view text, bool allow_zero = false);

// An expression parsed once and evaluated for many values of one variable (the repetition index of
// a repeated launch, which may take a million values): evaluateExpression parses on every call.
class IndexedExpression {
 public:
  // Throws ExpressionError when the text does not parse over params and `index`.
  IndexedExpression(std::string_view text, const ParamValues& params, const std::string& index);
  ~IndexedExpression();
  IndexedExpression(IndexedExpression&&) noexcept;
  IndexedExpression& operator=(IndexedExpression&&) noexcept;
  // As evaluateExpression, with the index at `index_value`.
  double evaluate(double index_value) const;

 private:
  struct Parsed;
  std::unique_ptr<Parsed> parsed_;
};

// Whether the expression names `name` as a variable (a whole identifier, not a function call):
// which parameters an expression depends on.
bool expressionUses(std::string_view text, const std::string& name);

}  // namespace rooflab
