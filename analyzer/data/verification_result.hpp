#pragma once
// A point's outputs against its reference, as typed values: what verify/ decides for a kernel run and
// for each end-to-end run (analyzer/data/end_to_end.hpp). Types and their names only.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace rooflab {

enum class VerificationStatus {
  passed,
  failed,
  reference,    // the variant is its family's reference
  not_checked,  // no reference, or the reference could not be computed (see detail)
  skipped,      // a mutant: its outputs are not results
};
std::string toString(VerificationStatus status);  // "passed", ..., "not_checked", "skipped"
std::optional<VerificationStatus> parseVerificationStatus(std::string_view text);

struct VerificationResult {
  VerificationStatus status = VerificationStatus::not_checked;
  std::string reference;
  std::optional<double> rel_l2_error;
  std::size_t wrong_elements = 0;
  std::size_t non_finite = 0;
  double tolerance = 0;
  std::string detail;
};

}  // namespace rooflab
