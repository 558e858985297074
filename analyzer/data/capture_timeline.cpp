// The timeline's part names, as results files and reports spell them.
#include "analyzer/data/capture_timeline.hpp"

#include "analyzer/support/enum_names.hpp"

namespace rooflab {

constexpr EnumName<TimelinePart> kTimelinePartNames[] = {
    {TimelinePart::kernel, "kernel"}, {TimelinePart::write, "write"}, {TimelinePart::read, "read"},
    {TimelinePart::copy, "copy"},     {TimelinePart::fill, "fill"},   {TimelinePart::map, "map"},
    {TimelinePart::unmap, "unmap"},   {TimelinePart::other, "other"}, {TimelinePart::launch, "launch"},
    {TimelinePart::host, "host"},
};

std::string toString(TimelinePart part) { return nameOf(kTimelinePartNames, part); }
std::optional<TimelinePart> parseTimelinePart(std::string_view text) { return valueOf(kTimelinePartNames, text); }

}  // namespace rooflab
