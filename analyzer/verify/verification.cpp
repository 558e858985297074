#include "analyzer/verify/verification.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "analyzer/support/format.hpp"

namespace rooflab {

BufferComparison compareBuffers(const HostBuffer& output, const HostBuffer& reference, double tolerance) {
  if (output.scalarCount() != reference.scalarCount() || output.type.scalar != reference.type.scalar)
    throw std::invalid_argument("compareBuffers: '" + output.name + "' and its reference differ in type or size");
  BufferComparison c;
  c.compared = output.scalarCount();
  double diff_sq = 0, ref_sq = 0;
  for (std::size_t i = 0; i < c.compared; ++i) {
    const double r = reference.scalarAt(i);
    ref_sq += r * r;
  }
  // An element is wrong when it is off by more than the tolerance relative to its own size, or to
  // the buffer's RMS for elements near zero (where a relative test alone is meaningless).
  const double rms = c.compared ? std::sqrt(ref_sq / static_cast<double>(c.compared)) : 0.0;
  bool any_wrong = false;
  for (std::size_t i = 0; i < c.compared; ++i) {
    const double o = output.scalarAt(i);
    const double r = reference.scalarAt(i);
    const double d = o - r;
    const bool wrong = !std::isfinite(o) || std::fabs(d) > tolerance * std::max(std::fabs(r), rms) + 1e-300;
    // A non-finite output (unwritten, still poisoned) counts as if it were 0.
    diff_sq += std::isfinite(o) ? d * d : r * r;
    if (!std::isfinite(o)) ++c.non_finite;
    if (wrong) {
      if (!any_wrong) c.first_wrong = i;
      any_wrong = true;
      ++c.wrong_elements;
    }
  }
  c.rel_l2_error = ref_sq > 0 ? std::sqrt(diff_sq / ref_sq) : std::sqrt(diff_sq);
  return c;
}

void compareOutputs(const std::map<std::string, HostBuffer>& outputs, const std::map<std::string, HostBuffer>& expected,
                    VerificationResult& v) {
  // A reference that holds NaN or inf cannot judge anyone: the variant would be blamed for it ("never
  // written") while the reference is what is wrong.
  std::string reference_faults;
  for (const auto& [name, out] : outputs) {
    const HostBuffer& ref = expected.at(name);
    std::size_t non_finite = 0, first = 0;
    for (std::size_t i = 0; i < ref.scalarCount(); ++i)
      if (!std::isfinite(ref.scalarAt(i)) && non_finite++ == 0) first = i;
    if (non_finite)
      reference_faults += (reference_faults.empty() ? "" : "; ") + name + ": " + std::to_string(non_finite) + " of " +
                          std::to_string(ref.scalarCount()) + " values NaN or infinite (first at " +
                          std::to_string(first) + ")";
  }
  if (!reference_faults.empty()) {
    v.status = VerificationStatus::not_checked;
    v.detail = "the reference (" + v.reference + ") is at fault, not this variant: its output holds NaN or inf: " +
               reference_faults;
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
                std::to_string(c.first_wrong) + ")" +
                (c.non_finite ? ", " + std::to_string(c.non_finite) + " never written (NaN/poison)" : "");
    }
  }
  v.rel_l2_error = worst;
  v.status = pass ? VerificationStatus::passed : VerificationStatus::failed;
  v.detail = detail;
}

void noteNondeterminism(bool uses_atomics, VerificationResult& v) {
  if (v.status != VerificationStatus::failed || v.tolerance != 0 || !uses_atomics) return;
  v.detail += "; note: this variant uses atomics, whose order (and so a float result's rounding) may change from "
              "run to run: its result may be nondeterministic, and a tolerance of 0 may fail it at random";
}

}  // namespace rooflab
