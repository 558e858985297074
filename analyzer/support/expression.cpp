#include "analyzer/support/expression.hpp"

#include <muParser.h>

#include "analyzer/support/format.hpp"

#include <cctype>
#include <cmath>
#include <vector>

namespace rooflab {
namespace {
double ceilOf(double x) { return std::ceil(x); }
double floorOf(double x) { return std::floor(x); }
// "WPT divides N" is `N % WPT == 0`, the remainder as C's fmod gives it.
double remainderOf(double x, double y) { return std::fmod(x, y); }
}  // namespace

double evaluateExpression(std::string_view text, const ParamValues& params) {
  const std::string expr(text);
  if (expr.find_first_not_of(" \t") == std::string::npos) throw ExpressionError("empty expression");
  try {
    mu::Parser parser;
    parser.DefineFun("ceil", ceilOf);
    parser.DefineFun("floor", floorOf);
    parser.DefineOprt("%", remainderOf, mu::prMUL_DIV, mu::oaLEFT);
    // muParser binds variables by address; keep the values alive for the evaluation.
    std::vector<double> values;
    values.reserve(params.size());
    for (const auto& [name, value] : params) {
      values.push_back(value);
      parser.DefineVar(name, &values.back());
    }
    parser.SetExpr(expr);
    const double result = parser.Eval();
    if (!std::isfinite(result)) throw ExpressionError("expression '" + expr + "' is not finite (division by zero?)");
    return result;
  } catch (const mu::Parser::exception_type& e) {
    throw ExpressionError("expression '" + expr + "': " + e.GetMsg());
  }
}

struct IndexedExpression::Parsed {
  mu::Parser parser;
  std::string text;
  std::vector<double> values;  // muParser binds variables by address: reserved, never moved
  double* index = nullptr;
};

IndexedExpression::IndexedExpression(std::string_view text, const ParamValues& params, const std::string& index)
    : parsed_(std::make_unique<Parsed>()) {
  Parsed& p = *parsed_;
  p.text = std::string(text);
  if (p.text.find_first_not_of(" \t") == std::string::npos) throw ExpressionError("empty expression");
  try {
    p.parser.DefineFun("ceil", ceilOf);
    p.parser.DefineFun("floor", floorOf);
    p.parser.DefineOprt("%", remainderOf, mu::prMUL_DIV, mu::oaLEFT);
    p.values.reserve(params.size() + 1);
    for (const auto& [name, value] : params) {
      if (name == index) continue;
      p.values.push_back(value);
      p.parser.DefineVar(name, &p.values.back());
    }
    p.values.push_back(0);
    p.index = &p.values.back();
    p.parser.DefineVar(index, p.index);
    p.parser.SetExpr(p.text);
    p.parser.Eval();  // parses now, so that a bad text fails here and not at a repetition
  } catch (const mu::Parser::exception_type& e) {
    throw ExpressionError("expression '" + p.text + "': " + e.GetMsg());
  }
}

IndexedExpression::~IndexedExpression() = default;
IndexedExpression::IndexedExpression(IndexedExpression&&) noexcept = default;
IndexedExpression& IndexedExpression::operator=(IndexedExpression&&) noexcept = default;

double IndexedExpression::evaluate(double index_value) const {
  *parsed_->index = index_value;
  try {
    const double result = parsed_->parser.Eval();
    if (!std::isfinite(result))
      throw ExpressionError("expression '" + parsed_->text + "' is not finite (division by zero?)");
    return result;
  } catch (const mu::Parser::exception_type& e) {
    throw ExpressionError("expression '" + parsed_->text + "': " + e.GetMsg());
  }
}

std::int64_t evaluateCount(std::string_view text, const ParamValues& params, bool allow_zero) {
  return countOf(evaluateExpression(text, params), text, allow_zero);
}

std::int64_t countOf(double value, std::string_view text, bool allow_zero) {
  const double rounded = std::round(value);
  if (std::fabs(value - rounded) > 1e-9 * std::max(1.0, std::fabs(value)))
    throw ExpressionError("expression '" + std::string(text) + "' = " + std::to_string(value) +
                          " is not a whole number");
  if (rounded < 0 || (!allow_zero && rounded == 0))
    throw ExpressionError("expression '" + std::string(text) + "' = " + formatNumber(rounded) +
                          (allow_zero ? " is negative" : " must be positive"));
  if (rounded > 9.0e18) throw ExpressionError("expression '" + std::string(text) + "' is too large");
  return static_cast<std::int64_t>(rounded);
}

bool expressionUses(std::string_view text, const std::string& name) {
  auto isIdent = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    const std::size_t after = at + name.size();
    if ((at > 0 && isIdent(text[at - 1])) || (after < text.size() && isIdent(text[after]))) continue;
    std::size_t next = after;
    while (next < text.size() && std::isspace(static_cast<unsigned char>(text[next]))) ++next;
    if (next < text.size() && text[next] == '(') continue;
    return true;
  }
  return false;
}

}  // namespace rooflab
