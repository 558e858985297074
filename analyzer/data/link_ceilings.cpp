// The link ceilings' names, as results files spell them, and their look-ups.
#include "analyzer/data/link_ceilings.hpp"

#include "analyzer/support/enum_names.hpp"

namespace rooflab {

constexpr EnumName<LinkStrategy> kLinkStrategyNames[] = {
    {LinkStrategy::copy, "copy"},
    {LinkStrategy::copy_async, "copy-async"},
    {LinkStrategy::map, "map"},
    {LinkStrategy::alloc_host_ptr, "alloc-host-ptr"},
    {LinkStrategy::use_host_ptr, "use-host-ptr"},
    {LinkStrategy::host_memcpy, "host-memcpy"},
};

std::string toString(LinkStrategy strategy) { return nameOf(kLinkStrategyNames, strategy); }
std::optional<LinkStrategy> parseLinkStrategy(std::string_view text) { return valueOf(kLinkStrategyNames, text); }

constexpr EnumName<LinkDirection> kLinkDirectionNames[] = {
    {LinkDirection::host_to_device, "host-to-device"},
    {LinkDirection::device_to_host, "device-to-host"},
};

std::string toString(LinkDirection direction) { return nameOf(kLinkDirectionNames, direction); }
std::optional<LinkDirection> parseLinkDirection(std::string_view text) { return valueOf(kLinkDirectionNames, text); }

constexpr EnumName<ZeroCopyReason> kZeroCopyReasonNames[] = {
    {ZeroCopyReason::time_flat, "time-flat"},
    {ZeroCopyReason::beyond_any_link, "beyond-any-link"},
    {ZeroCopyReason::faster_than_copy, "faster-than-copy"},
};

std::string toString(ZeroCopyReason reason) { return nameOf(kZeroCopyReasonNames, reason); }
std::optional<ZeroCopyReason> parseZeroCopyReason(std::string_view text) { return valueOf(kZeroCopyReasonNames, text); }

constexpr EnumName<MappedPointer> kMappedPointerNames[] = {
    {MappedPointer::not_checked, "not-checked"},
    {MappedPointer::own_array, "own-array"},
    {MappedPointer::same_every_map, "same-every-map"},
};

std::string toString(MappedPointer pointer) { return nameOf(kMappedPointerNames, pointer); }
std::optional<MappedPointer> parseMappedPointer(std::string_view text) { return valueOf(kMappedPointerNames, text); }

std::optional<double> LinkCeiling::predictNs(double bytes) const {
  if (!latency_ns) return std::nullopt;
  return *latency_ns + (gbps && *gbps > 0 ? bytes / *gbps : 0.0);
}

const LinkCeiling* LinkCeilings::find(LinkStrategy strategy, LinkDirection direction) const {
  if (strategy == LinkStrategy::host_memcpy) return host_memcpy ? &*host_memcpy : nullptr;
  for (const LinkCeiling& ceiling : transfers)
    if (ceiling.strategy == strategy && ceiling.direction == direction) return &ceiling;
  return nullptr;
}

const LinkCeiling* LinkCeilings::fastestLink(LinkDirection direction) const {
  const LinkCeiling* best = nullptr;
  for (const LinkCeiling& ceiling : transfers)
    if (ceiling.direction == direction && !ceiling.zero_copy && ceiling.gbps && (!best || *ceiling.gbps > *best->gbps))
      best = &ceiling;
  return best;
}

}  // namespace rooflab
