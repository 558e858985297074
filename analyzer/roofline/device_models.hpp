#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/data/device_info.hpp"
#include "analyzer/data/device_model.hpp"

namespace rooflab {

// ROOFLAB_SOURCE_DIR "/configs/devices": where the shipped models live.
std::filesystem::path defaultDeviceModelDir();

// Parses one model from TOML text; `key` becomes the model's key and `origin` (a path or a label)
// prefixes error messages. Throws InputError naming origin, key and line.
DeviceModel parseDeviceModel(std::string_view toml_text, const std::string& key, const std::string& origin);

// Loads configs/devices/<key>.toml (key = file stem). Throws InputError naming file, key and line.
DeviceModel loadDeviceModel(const std::filesystem::path& path);

// Every *.toml in `dir`, sorted by key. Throws InputError for the first bad file or a missing dir.
std::vector<DeviceModel> loadDeviceModels(const std::filesystem::path& dir = defaultDeviceModelDir());

// The model with this key, if any (e.g. the config's reference_model).
std::optional<DeviceModel> findDeviceModel(const std::vector<DeviceModel>& models, std::string_view key);

// The model whose `match` substring occurs in the device name (case-insensitive) and none of whose
// `match_exclude` substrings do; when several match, the longest matching substring wins (the most
// specific rule), then the first key.
std::optional<DeviceModel> matchDeviceModel(const DeviceInfo& device, const std::vector<DeviceModel>& models);

// The TOML text of a model, in the shipped files' format (without `key`: that is the file name).
// parseDeviceModel(toToml(m), m.key, ...) == m.
std::string toToml(const DeviceModel& model);

}  // namespace rooflab
