// The end-to-end names, as configs, manifests and results files spell them.
#include "analyzer/data/end_to_end.hpp"

#include "analyzer/support/enum_names.hpp"

namespace rooflab {

constexpr EnumName<EndToEndStrategy> kEndToEndStrategyNames[] = {
    {EndToEndStrategy::copy, "copy"},
    {EndToEndStrategy::map, "map"},
    {EndToEndStrategy::use_host_ptr, "use-host-ptr"},
    {EndToEndStrategy::alloc_host_ptr, "alloc-host-ptr"},
    {EndToEndStrategy::overlap, "overlap"},
};

std::string toString(EndToEndStrategy strategy) { return nameOf(kEndToEndStrategyNames, strategy); }
std::optional<EndToEndStrategy> parseEndToEndStrategy(std::string_view text) {
  return valueOf(kEndToEndStrategyNames, text);
}

constexpr EnumName<BufferLink> kBufferLinkNames[] = {
    {BufferLink::none, "none"},
    {BufferLink::up, "up"},
    {BufferLink::down, "down"},
    {BufferLink::both, "both"},
};

std::string toString(BufferLink link) { return nameOf(kBufferLinkNames, link); }
std::optional<BufferLink> parseBufferLink(std::string_view text) { return valueOf(kBufferLinkNames, text); }

constexpr EnumName<EndToEndBound> kEndToEndBoundNames[] = {
    {EndToEndBound::link_up, "link-up"}, {EndToEndBound::link_down, "link-down"},
    {EndToEndBound::launch, "launch"},   {EndToEndBound::kernel, "kernel"},
    {EndToEndBound::host, "host"},       {EndToEndBound::undetermined, "undetermined"},
};

std::string toString(EndToEndBound bound) { return nameOf(kEndToEndBoundNames, bound); }
std::optional<EndToEndBound> parseEndToEndBound(std::string_view text) { return valueOf(kEndToEndBoundNames, text); }

constexpr EnumName<EndToEndPredictionBasis> kEndToEndPredictionBasisNames[] = {
    {EndToEndPredictionBasis::not_judged, "not-judged"},
    {EndToEndPredictionBasis::ceilings, "ceilings"},
    {EndToEndPredictionBasis::missing_ceiling, "missing-ceiling"},
    {EndToEndPredictionBasis::no_link_ceilings, "no-link-ceilings"},
    {EndToEndPredictionBasis::no_kernel_median, "no-kernel-median"},
};

std::string toString(EndToEndPredictionBasis basis) { return nameOf(kEndToEndPredictionBasisNames, basis); }
std::optional<EndToEndPredictionBasis> parseEndToEndPredictionBasis(std::string_view text) {
  return valueOf(kEndToEndPredictionBasisNames, text);
}

bool EndToEndResult::failed() const {
  for (const EndToEndRun& run : runs)
    if (run.error || run.verification.status == VerificationStatus::failed) return true;
  return false;
}

}  // namespace rooflab
