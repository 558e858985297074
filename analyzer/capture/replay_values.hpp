#pragma once
// A captured launch's values as a manifest writes them (docs/manifest.md, "Arguments"): scalars with
// their type prefix and a decimal that reads back to the same bits, buffer element types, names.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/data/capture.hpp"

namespace rooflab {

// A scalar argument as a manifest `args` entry ("float:0.100000001", "uint:7", "-3"), or nullopt
// and `why` when the manifest cannot say it exactly (a type it has no prefix for, NaN, a long
// beyond 2^53, which its double arithmetic would round).
std::optional<std::string> manifestScalar(const CapturedArgument& argument, std::string& why);

// The manifest element type of a buffer an argument of `type_name` points at ("float*" -> float,
// "float4*" -> float4), and its size in bytes; uchar (1 byte) for types a manifest has no name for.
struct BufferElement {
  std::string type = "uchar";
  std::uint64_t bytes = 1;
};
BufferElement bufferElement(const std::string& type_name);

// A captured program's build options as a manifest gives them: each `-D NAME[=VALUE]` (or
// `-DNAME[=VALUE]`) a define passed as written ("raw:VALUE", "raw:1" without a value, as OpenCL
// compilers read it), the other options as they were, in order.
struct ManifestBuildOptions {
  std::vector<std::pair<std::string, std::string>> defines;  // name, "raw:..." value
  std::string options;
};
ManifestBuildOptions manifestBuildOptions(const std::string& captured);

// A TOML basic string, quoted.
std::string tomlQuoted(const std::string& text);

// `text` as an identifier (letters, digits, _), never empty and never starting with a digit.
std::string identifierFrom(const std::string& text, const std::string& fallback);

}  // namespace rooflab
