// The capture's names, as its log and results files spell them.
#include "analyzer/data/capture.hpp"

#include "analyzer/support/enum_names.hpp"

namespace rooflab {

constexpr EnumName<CapturedProgramKind> kCapturedProgramKindNames[] = {
    {CapturedProgramKind::source, "source"},
    {CapturedProgramKind::binary, "binary"},
    {CapturedProgramKind::il, "il"},
    {CapturedProgramKind::built_in, "built-in"},
};

std::string toString(CapturedProgramKind kind) { return nameOf(kCapturedProgramKindNames, kind); }
std::optional<CapturedProgramKind> parseCapturedProgramKind(std::string_view text) {
  return valueOf(kCapturedProgramKindNames, text);
}

constexpr EnumName<CapturedArgumentKind> kCapturedArgumentKindNames[] = {
    {CapturedArgumentKind::buffer, "buffer"}, {CapturedArgumentKind::local, "local"},
    {CapturedArgumentKind::scalar, "scalar"}, {CapturedArgumentKind::null_buffer, "null-buffer"},
    {CapturedArgumentKind::unset, "unset"},
};

std::string toString(CapturedArgumentKind kind) { return nameOf(kCapturedArgumentKindNames, kind); }
std::optional<CapturedArgumentKind> parseCapturedArgumentKind(std::string_view text) {
  return valueOf(kCapturedArgumentKindNames, text);
}

constexpr EnumName<CapturedCommandKind> kCapturedCommandKindNames[] = {
    {CapturedCommandKind::kernel, "kernel"},   {CapturedCommandKind::write, "write"},
    {CapturedCommandKind::read, "read"},       {CapturedCommandKind::copy, "copy"},
    {CapturedCommandKind::fill, "fill"},       {CapturedCommandKind::map, "map"},
    {CapturedCommandKind::unmap, "unmap"},     {CapturedCommandKind::marker, "marker"},
    {CapturedCommandKind::barrier, "barrier"}, {CapturedCommandKind::other, "other"},
};

std::string toString(CapturedCommandKind kind) { return nameOf(kCapturedCommandKindNames, kind); }
std::optional<CapturedCommandKind> parseCapturedCommandKind(std::string_view text) {
  return valueOf(kCapturedCommandKindNames, text);
}

}  // namespace rooflab
