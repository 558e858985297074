#pragma once
// Evaluating a manifest's expressions for one point's parameters (data/resolved_point.hpp): what
// loading a manifest checks with the defaults, and what the plan does once per point.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/support/input_errors.hpp"
#include "analyzer/data/resolved_point.hpp"

namespace rooflab {

// The record of a point before it runs: family, variant, mode and parameters.
RunRecord recordFor(const RunPoint& point);

// Throws InputError (file, key, line) for a parameter that is not finite, or not whole where it
// sizes a buffer, a launch or local memory, an expression that does not evaluate for the point's
// parameters or a global size that is not a multiple of its local size, and VariantError for a
// scalar argument whose value does not fit its type.
ResolvedPoint resolvePoint(const RunPoint& point);

// The values a variant's expressions (geometry, arguments, scratch counts, its own flops, bytes and
// accesses) see: the point's parameters, overlaid with each define written as a number or an
// expression (evaluated over the parameters). A define wins over a parameter of the same name: its
// value is the one the kernel is compiled with. Family expressions ([work], buffers) see params only.
// Throws the first define's InputError; with `errors`, keeps each there, the define standing in as 1.
ParamValues variantValues(const VariantSpec& variant, const ParamValues& params, InputErrorList* errors = nullptr);

// Every expression of the variant evaluates for `params` (what loading a manifest checks with the
// defaults); throws InputError as resolvePoint does, InputErrors with every error when there are
// several. Scalar arguments' types are not checked.
void validateForParams(const FamilyManifest& family, const VariantSpec& variant, const ParamValues& params);

PlannedPoint planPoint(RunPoint point);  // never throws

// A scalar argument's value in its type, as clSetKernelArg takes it; throws VariantError naming
// `what` when it does not fit.
std::vector<std::byte> encodeScalarArgument(ScalarKind kind, double value, const std::string& what);

}  // namespace rooflab
