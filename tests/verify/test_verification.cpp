#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>

#include "analyzer/manifest/kernel_source.hpp"
#include "analyzer/verify/verification.hpp"

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

// A reference that holds NaN or inf is at fault: the variant compared with it is not blamed ("never
// written") and the detail names the reference and where its output went wrong; nor does it pass,
// since nothing showed its results right.
TEST(Verification, ANonFiniteReferenceIsBlamedNotTheVariant) {
  HostBuffer reference = floats({1, 2, 3, 4});
  reference.name = "c";
  reference.setScalar(2, std::numeric_limits<double>::quiet_NaN());
  reference.setScalar(3, std::numeric_limits<double>::infinity());
  HostBuffer output = floats({1, 2, 3, 4});
  output.name = "c";
  VerificationResult v;
  v.reference = "variant:naive";
  v.tolerance = 1e-6;
  compareOutputs({{"c", output}}, {{"c", reference}}, v);
  EXPECT_EQ(v.status, VerificationStatus::failed);
  EXPECT_EQ(v.detail,
            "the reference (variant:naive) is at fault, not this variant: its output holds NaN or inf: c: 2 of 4 "
            "values NaN or infinite (first at 2)");
  EXPECT_EQ(v.non_finite, 0u);  // the variant's output is all written
}

TEST(Verification, AFiniteReferenceStillFailsAWrongVariant) {
  VerificationResult v;
  v.tolerance = 1e-6;
  compareOutputs({{"c", floats({1, 2, 4})}}, {{"c", floats({1, 2, 3})}}, v);
  EXPECT_EQ(v.status, VerificationStatus::failed);
  EXPECT_EQ(v.detail.find("reference"), std::string::npos) << v.detail;
}

TEST(Verification, SourcesWithAtomicsAreRecognised) {
  EXPECT_TRUE(sourceUsesAtomics("kernel void k(global int* n) { atomic_inc(n); }"));
  EXPECT_TRUE(sourceUsesAtomics("atom_add(&sum[0], x);"));
  EXPECT_TRUE(sourceUsesAtomics("atomic_fetch_add_explicit(p, 1, memory_order_relaxed);"));
  EXPECT_FALSE(sourceUsesAtomics("kernel void k(global float* c) { c[0] = 1; }"));
}

// A variant with atomics that fails at tolerance 0 is told its result may be nondeterministic; the
// note is not given when the tolerance leaves room, when it passed, or without atomics.
TEST(Verification, AtomicsAtToleranceZeroGetANondeterminismNote) {
  VerificationResult failed;
  failed.status = VerificationStatus::failed;
  failed.tolerance = 0;
  failed.detail = "c: rel. L2 error 1e-07, 1 of 256 values wrong (first at 3)";
  VerificationResult with_tolerance = failed, passed = failed, no_atomics = failed;
  with_tolerance.tolerance = 1e-6;
  passed.status = VerificationStatus::passed;
  noteNondeterminism(true, failed);
  EXPECT_NE(failed.detail.find("; note: this variant uses atomics"), std::string::npos) << failed.detail;
  EXPECT_NE(failed.detail.find("may be nondeterministic"), std::string::npos) << failed.detail;
  EXPECT_EQ(failed.detail.rfind("c: rel. L2 error", 0), 0u);  // the comparison's own detail comes first
  for (VerificationResult* v : {&with_tolerance, &passed}) {
    const std::string before = v->detail;
    noteNondeterminism(true, *v);
    EXPECT_EQ(v->detail, before);
  }
  noteNondeterminism(false, no_atomics);
  EXPECT_EQ(no_atomics.detail.find("note"), std::string::npos);
}

// A captured application computed an infinity and a NaN: the replay that computes the same passes,
// one that computes a finite value where the application had inf fails.
TEST(Verification, AnApplicationsOwnNonFiniteOutputsAreRightWhereTheReplayComputesTheSame) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::map<std::string, HostBuffer> expected{{"x", floats({1, inf, nan, 4})}};
  for (const bool same : {true, false}) {
    HostBuffer out = floats({1, same ? inf : 2.0, nan, 4});
    HostBuffer want = expected.at("x");
    matchNonFiniteExpected(out, want);
    VerificationResult v;
    v.tolerance = 1e-6;
    v.reference = "outputs";
    compareOutputs({{"x", out}}, {{"x", want}}, v);
    EXPECT_EQ(v.status, same ? VerificationStatus::passed : VerificationStatus::failed) << v.detail;
    EXPECT_EQ(v.wrong_elements, same ? 0u : 1u);
  }
}
