#pragma once
#include <cstddef>
#include <map>
#include <string>

#include "analyzer/support/host_buffer.hpp"
#include "analyzer/data/run_record.hpp"

namespace rooflab {

// How far one output buffer is from its reference.
struct BufferComparison {
  double rel_l2_error = 0;         // ||out - ref|| / ||ref|| (absolute when ||ref|| is 0)
  std::size_t wrong_elements = 0;  // scalars off by more than tolerance x max(|ref|, rms(ref)), or non-finite
  std::size_t first_wrong = 0;     // scalar index of the first wrong one (when any)
  std::size_t non_finite = 0;      // NaN or infinite outputs (a poisoned element was never written)
  std::size_t infinite = 0;        // of them, +inf or -inf: computed so, not the poison (a NaN)
  std::size_t compared = 0;

  // The verdict: the L2 error within tolerance and every element finite. wrong_elements is a
  // diagnostic (where the error sits), not part of the verdict.
  bool passes(double tolerance) const { return non_finite == 0 && rel_l2_error <= tolerance; }
};

// Both buffers must have the same type and count (throws std::invalid_argument otherwise).
// Accumulates in double so that float rounding of the comparison itself does not count.
BufferComparison compareBuffers(const HostBuffer& output, const HostBuffer& reference, double tolerance);

// Compares every output with the buffer of the same name in `expected` at v.tolerance, and sets v's
// status (passed or failed), worst error, wrong and non-finite counts, and the detail of each
// buffer that fails. Throws std::out_of_range when `expected` lacks an output.
// A reference output that holds NaN or inf fails v, with a detail that blames the reference.
void compareOutputs(const std::map<std::string, HostBuffer>& outputs, const std::map<std::string, HostBuffer>& expected,
                    VerificationResult& v);

// An application's own outputs (reference = "outputs") may hold NaN or inf where the program computed
// them: the replay is right there when it computed the same (NaN where NaN, the same infinity). Such
// elements are set to 0 in both copies; an element the replay got otherwise stays wrong (its output
// NaN, the expected 0), so that compareOutputs judges the rest as any output.
void matchNonFiniteExpected(HostBuffer& output, HostBuffer& expected);

// "c: 3 of 4096 values NaN or infinite (first at 7)" for each buffer that holds any; "" when all are finite.
std::string nonFiniteValues(const std::map<std::string, HostBuffer>& buffers);

// The verification of a family's reference variant itself: v.status reference when its outputs
// are all finite, else failed, saying so (it judges the others, so its output must be usable).
void checkReferenceOutputs(const std::map<std::string, HostBuffer>& outputs, VerificationResult& v);

// Appends to v.detail a note that the result may be nondeterministic, when v failed at tolerance 0
// and the variant uses atomics.
void noteNondeterminism(bool uses_atomics, VerificationResult& v);

}  // namespace rooflab
