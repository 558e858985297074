#pragma once
// A variant's kernel arguments checked against the parameters its kernels declare, before any
// device work: a buffer for a scalar, a scalar for a pointer, a `local:` size for a __global pointer
// (or a buffer for a __local one), a scalar of another type or size, too few or too many arguments.
// Launched as written, these fail late and obscurely (a worker's SIGSEGV, every value wrong).
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/data/family_manifest.hpp"

namespace rooflab {

struct ArgumentProblems {
  std::vector<std::string> errors;    // "<file>:<line>: variants[0].args[1]: variant 'v': ..."
  std::vector<std::string> warnings;  // a buffer whose elements differ from the pointer's type
};

// Every launch of `variant`, compiled with `program_options` (the point's -D defines win over the
// source's own macros), against `source` (its files joined with their includes, comments removed).
// A kernel whose parameter list cannot be read with certainty is not checked (kernel_signature.hpp).
ArgumentProblems checkLaunchArguments(const FamilyManifest& family, const VariantSpec& variant,
                                      const std::string& program_options, const std::string& source);

// The checks of a batch's points, each variant's sources read once and each of its sets of build
// options checked once (the points of a sweep mostly share them).
class ArgumentChecker {
 public:
  // New problems only: a problem already reported for another point is not repeated.
  ArgumentProblems check(const FamilyManifest& family, const VariantSpec& variant, const std::string& program_options);

 private:
  std::map<const VariantSpec*, std::string> sources_;  // "" when they cannot be read
  std::set<std::pair<const VariantSpec*, std::string>> checked_;
  std::set<std::string> reported_;
};

}  // namespace rooflab
