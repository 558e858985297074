#include <gtest/gtest.h>

#include "analyzer/support/expression.hpp"

using namespace rooflab;

TEST(Expression, EvaluatesArithmeticOverParams) {
  const ParamValues p{{"N", 1024}, {"TS", 16}};
  EXPECT_DOUBLE_EQ(evaluateExpression("2*N*N*N", p), 2.0 * 1024 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(evaluateExpression("N/TS", p), 64);
  EXPECT_DOUBLE_EQ(evaluateExpression("2^10", p), 1024);
  EXPECT_DOUBLE_EQ(evaluateExpression("ceil(N/3)", p), 342);
  EXPECT_DOUBLE_EQ(evaluateExpression("floor(N/3)", p), 341);
  EXPECT_DOUBLE_EQ(evaluateExpression("min(N, TS)", p), 16);
  EXPECT_DOUBLE_EQ(evaluateExpression("log2(N)", p), 10);
}

TEST(Expression, RejectsBadSyntaxAndUnknownNames) {
  const ParamValues p{{"N", 8}};
  EXPECT_THROW(evaluateExpression("2*", p), ExpressionError);
  EXPECT_THROW(evaluateExpression("M*2", p), ExpressionError);
  EXPECT_THROW(evaluateExpression("", p), ExpressionError);
  EXPECT_THROW(evaluateExpression("(N", p), ExpressionError);
}

TEST(Expression, DivisionByZeroIsAnError) {
  EXPECT_THROW(evaluateExpression("N/0", {{"N", 8}}), ExpressionError);
  EXPECT_THROW(evaluateExpression("log2(0)", {}), ExpressionError);
}

TEST(Expression, CountsMustBeWholeAndPositive) {
  const ParamValues p{{"N", 10}};
  EXPECT_EQ(evaluateCount("N*N", p), 100);
  EXPECT_THROW(evaluateCount("N/3", p), ExpressionError);
  EXPECT_THROW(evaluateCount("N-10", p), ExpressionError);
  EXPECT_EQ(evaluateCount("N-10", p, /*allow_zero=*/true), 0);
  EXPECT_THROW(evaluateCount("N-11", p, true), ExpressionError);
}

TEST(Expression, ErrorNamesTheExpression) {
  try {
    evaluateExpression("N+Q", {{"N", 1}});
    FAIL();
  } catch (const ExpressionError& e) {
    EXPECT_NE(std::string(e.what()).find("N+Q"), std::string::npos) << e.what();
  }
}
