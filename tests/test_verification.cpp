#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "analyzer/verification.hpp"

using namespace rooflab;

namespace {
HostBuffer floats(const std::vector<double>& values) {
  HostBuffer b("x", ElementType{ScalarKind::f32, 1}, values.size());
  for (std::size_t i = 0; i < values.size(); ++i) b.setScalar(i, values[i]);
  return b;
}
}  // namespace

TEST(Verification, IdenticalBuffersPass) {
  const HostBuffer a = floats({1, 2, 3});
  const BufferComparison c = compareBuffers(a, a, 1e-6);
  EXPECT_EQ(c.rel_l2_error, 0);
  EXPECT_EQ(c.wrong_elements, 0u);
  EXPECT_TRUE(c.passes(1e-6));
}

TEST(Verification, RelativeL2ErrorAndWrongCount) {
  const HostBuffer ref = floats({3, 4, 0, 0});
  const HostBuffer out = floats({3, 4, 0, 0.5});
  const BufferComparison c = compareBuffers(out, ref, 1e-3);
  EXPECT_NEAR(c.rel_l2_error, 0.5 / 5.0, 1e-7);
  EXPECT_EQ(c.wrong_elements, 1u);
  EXPECT_EQ(c.first_wrong, 3u);
  EXPECT_FALSE(c.passes(1e-3));
  EXPECT_TRUE(c.passes(0.2));
}

TEST(Verification, UnwrittenPoisonedElementsFail) {
  HostBuffer out = floats({1, 2, 3});
  out.setScalar(1, std::numeric_limits<double>::quiet_NaN());
  const BufferComparison c = compareBuffers(out, floats({1, 2, 3}), 1.0);
  EXPECT_EQ(c.non_finite, 1u);
  EXPECT_FALSE(c.passes(1.0));  // no tolerance excuses an element that was never written
  EXPECT_TRUE(std::isfinite(c.rel_l2_error));
}

TEST(Verification, MismatchedShapesAreRejected) {
  EXPECT_THROW(compareBuffers(floats({1, 2}), floats({1, 2, 3}), 1e-6), std::invalid_argument);
}

TEST(Verification, ComparesVectorTypesLaneByLane) {
  HostBuffer ref("p", ElementType{ScalarKind::f32, 4}, 2);
  HostBuffer out("p", ElementType{ScalarKind::f32, 4}, 2);
  for (std::size_t i = 0; i < 8; ++i) {
    ref.setScalar(i, double(i + 1));
    out.setScalar(i, double(i + 1));
  }
  out.setScalar(6, 100);
  const BufferComparison c = compareBuffers(out, ref, 1e-6);
  EXPECT_EQ(c.compared, 8u);
  EXPECT_EQ(c.wrong_elements, 1u);
  EXPECT_EQ(c.first_wrong, 6u);
}
