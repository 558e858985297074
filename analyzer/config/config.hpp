#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/data/batch_config.hpp"

namespace rooflab {

// Throws InputError (file, key, line), InputErrors with every error of the config when it has several.
// Relative kernel folders resolve against `base_dir`.
BatchConfig parseBatchConfig(std::string_view text, const std::string& name, const std::filesystem::path& base_dir);
BatchConfig loadBatchConfig(const std::filesystem::path& path);
// configs/default.toml compiled into the binary; its kernel folders resolve against the source tree.
BatchConfig defaultBatchConfig();

// The built-in families' folder: kernels/ of the source tree this binary was built from.
std::filesystem::path builtinKernelsDir();
// Where families are searched: the config's folders in order, then the built-in folder (unless a
// config lists it itself). A family in a config's folder hides a built-in family of the same name.
std::vector<std::filesystem::path> kernelSearchPath(const RunSettings& run);

// Parses one `--set NAME=VALUE[,VALUE...]`; throws InputError naming the flag.
ParamOverride parseParamOverride(const std::string& text);

bool globMatch(const std::string& pattern, const std::string& text);

}  // namespace rooflab
