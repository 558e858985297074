// The names of a size choice's limits, in results files and reports.
#include "analyzer/data/size_choice.hpp"

#include "analyzer/support/enum_names.hpp"

namespace rooflab {
namespace {

constexpr EnumName<SizeLimit> kSizeLimitNames[] = {
    {SizeLimit::waves, "waves"},       {SizeLimit::kernel_time, "kernel_time"}, {SizeLimit::cache, "cache"},
    {SizeLimit::smallest, "smallest"}, {SizeLimit::memory, "memory"},           {SizeLimit::max, "max"},
};

}  // namespace

std::string toString(SizeLimit limit) { return nameOf(kSizeLimitNames, limit); }
std::optional<SizeLimit> parseSizeLimit(const std::string& text) { return valueOf(kSizeLimitNames, text); }

}  // namespace rooflab
