#include "analyzer/verify/verification.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "analyzer/support/format.hpp"

namespace rooflab {

namespace {

// compareBuffers over scalars of type T: a loop the compiler sees whole (hundreds of millions of
// elements in a large point's outputs).
template <class T>
BufferComparison compareScalars(const HostBuffer& output, const HostBuffer& reference, double tolerance) {
  BufferComparison c;
  c.compared = output.scalarCount();
  const T* out = output.data<T>();
  const T* ref = reference.data<T>();
  double diff_sq = 0, ref_sq = 0;
  for (std::size_t i = 0; i < c.compared; ++i) {
    const double r = static_cast<double>(ref[i]);
    ref_sq += r * r;
  }
  // An element is wrong when it is off by more than the tolerance relative to its own size, or to
  // the buffer's RMS for elements near zero (where a relative test alone is meaningless).
  const double rms = c.compared ? std::sqrt(ref_sq / static_cast<double>(c.compared)) : 0.0;
  bool any_wrong = false;
  for (std::size_t i = 0; i < c.compared; ++i) {
    const double o = static_cast<double>(out[i]);
    const double r = static_cast<double>(ref[i]);
    const double d = o - r;
    const bool wrong = !std::isfinite(o) || std::fabs(d) > tolerance * std::max(std::fabs(r), rms) + 1e-300;
    // A non-finite output (unwritten, still poisoned) counts as if it were 0.
    diff_sq += std::isfinite(o) ? d * d : r * r;
    if (!std::isfinite(o)) ++c.non_finite;
    if (std::isinf(o)) ++c.infinite;
    if (wrong) {
      if (!any_wrong) c.first_wrong = i;
      any_wrong = true;
      ++c.wrong_elements;
    }
  }
  c.rel_l2_error = ref_sq > 0 ? std::sqrt(diff_sq / ref_sq) : std::sqrt(diff_sq);
  return c;
}

}  // namespace

BufferComparison compareBuffers(const HostBuffer& output, const HostBuffer& reference, double tolerance) {
  if (output.scalarCount() != reference.scalarCount() || output.type.scalar != reference.type.scalar)
    throw std::invalid_argument("compareBuffers: '" + output.name + "' and its reference differ in type or size");
  return visitScalarKind(output.type.scalar,
                         [&](auto scalar) { return compareScalars<decltype(scalar)>(output, reference, tolerance); });
}

namespace {

// "c: 3 of 4096 values NaN or infinite (first at 7)", or "" when every value is finite.
std::string nonFiniteIn(const std::string& name, const HostBuffer& buffer) {
  std::size_t non_finite = 0, first = 0;
  visitScalarKind(buffer.type.scalar, [&](auto scalar) {
    const auto* values = buffer.data<decltype(scalar)>();
    for (std::size_t i = 0; i < buffer.scalarCount(); ++i)
      if (!std::isfinite(static_cast<double>(values[i])) && non_finite++ == 0) first = i;
  });
  if (non_finite == 0) return "";
  return name + ": " + std::to_string(non_finite) + " of " + std::to_string(buffer.scalarCount()) +
         " values NaN or infinite (first at " + std::to_string(first) + ")";
}

void appendFault(std::string& faults, const std::string& fault) {
  if (!fault.empty()) faults += (faults.empty() ? "" : "; ") + fault;
}

// The non-finite outputs by kind: a NaN may be an element never written (outputs start as NaN
// poison), an infinity was computed.
std::string nonFiniteText(const BufferComparison& c) {
  const std::size_t nan = c.non_finite - c.infinite;
  std::string text;
  if (nan) text += ", " + std::to_string(nan) + " NaN (never written, still the poison, or computed NaN)";
  if (c.infinite) text += ", " + std::to_string(c.infinite) + " infinite (computed: an overflow or a division by zero)";
  return text;
}

}  // namespace

std::string nonFiniteValues(const std::map<std::string, HostBuffer>& buffers) {
  std::string faults;
  for (const auto& [name, buffer] : buffers) appendFault(faults, nonFiniteIn(name, buffer));
  return faults;
}

void checkReferenceOutputs(const std::map<std::string, HostBuffer>& outputs, VerificationResult& v) {
  const std::string faults = nonFiniteValues(outputs);
  if (faults.empty()) {
    v.status = VerificationStatus::reference;
    return;
  }
  std::size_t non_finite = 0;
  for (const auto& [name, buffer] : outputs)
    for (std::size_t i = 0; i < buffer.scalarCount(); ++i) non_finite += std::isfinite(buffer.scalarAt(i)) ? 0 : 1;
  v.status = VerificationStatus::failed;
  v.non_finite = v.wrong_elements = non_finite;
  v.detail = "this variant is the family's reference (" + v.reference +
             "), and its output holds NaN or inf, so it cannot judge the others: " + faults;
}

void compareOutputs(const std::map<std::string, HostBuffer>& outputs, const std::map<std::string, HostBuffer>& expected,
                    VerificationResult& v) {
  // A reference that holds NaN or inf cannot judge anyone: the variant would be blamed for it ("never
  // written") while the reference is what is wrong. Nor can the variant pass: nothing showed its
  // results right, so it fails, naming the reference.
  std::string reference_faults;
  for (const auto& [name, out] : outputs) appendFault(reference_faults, nonFiniteIn(name, expected.at(name)));
  if (!reference_faults.empty()) {
    v.status = VerificationStatus::failed;
    v.detail = "the reference (" + v.reference +
               ") is at fault, not this variant: its output holds NaN or inf: " + reference_faults;
    return;
  }
  double worst = 0;
  bool pass = true;
  std::string detail;
  for (const auto& [name, out] : outputs) {
    const BufferComparison c = compareBuffers(out, expected.at(name), v.tolerance);
    worst = std::max(worst, c.rel_l2_error);
    v.wrong_elements += c.wrong_elements;
    v.non_finite += c.non_finite;
    if (!c.passes(v.tolerance)) {
      pass = false;
      detail += (detail.empty() ? "" : "; ") + name + ": rel. L2 error " + formatNumber(c.rel_l2_error) + ", " +
                std::to_string(c.wrong_elements) + " of " + std::to_string(c.compared) + " values wrong (first at " +
                std::to_string(c.first_wrong) + ")" + nonFiniteText(c);
    }
  }
  v.rel_l2_error = worst;
  v.status = pass ? VerificationStatus::passed : VerificationStatus::failed;
  v.detail = detail;
}

void matchNonFiniteExpected(HostBuffer& output, HostBuffer& expected) {
  const std::size_t count = std::min(output.scalarCount(), expected.scalarCount());
  for (std::size_t i = 0; i < count; ++i) {
    const double want = expected.scalarAt(i);
    if (std::isfinite(want)) continue;
    const double got = output.scalarAt(i);
    const bool same = std::isnan(want) ? std::isnan(got) : got == want;
    output.setScalar(i, same ? 0.0 : std::nan(""));
    expected.setScalar(i, 0.0);
  }
}

void noteNondeterminism(bool uses_atomics, VerificationResult& v) {
  if (v.status != VerificationStatus::failed || v.tolerance != 0 || !uses_atomics) return;
  v.detail += "; note: this variant uses atomics, whose order (and so a float result's rounding) may change from "
              "run to run: its result may be nondeterministic, and a tolerance of 0 may fail it at random";
}

}  // namespace rooflab
