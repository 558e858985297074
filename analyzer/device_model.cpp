#include "analyzer/device_model.hpp"

#include "rooflab_source_dir.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <type_traits>
#include <variant>

#include <toml++/toml.h>

#include "analyzer/errors.hpp"
#include "analyzer/results_json.hpp"

namespace rooflab {
namespace {

// Every number of a model, once: parsing, writing, JSON and comparison all walk this table, so a new
// field cannot be forgotten by one of them.
using RequiredReal = double DeviceModel::*;
using OptionalReal = std::optional<double> DeviceModel::*;
using OptionalCount64 = std::optional<std::uint64_t> DeviceModel::*;
using OptionalCount32 = std::optional<std::uint32_t> DeviceModel::*;
using NumberMember = std::variant<RequiredReal, OptionalReal, OptionalCount64, OptionalCount32>;

template <class Member>
struct MemberValue;
template <class Class, class Value>
struct MemberValue<Value Class::*> {
  using type = Value;
};

struct NumberField {
  const char* name;
  NumberMember member;
  // Fields added after results schema 1 are written to JSON only when present, so that results
  // files written before them re-render byte for byte.
  bool null_when_absent = true;
};

const NumberField kNumberFields[] = {
    {"peak_gflops", &DeviceModel::peak_gflops},
    {"dram_gbps", &DeviceModel::dram_gbps},
    {"local_gbps", &DeviceModel::local_gbps},
    {"local_mem_bytes", &DeviceModel::local_mem_bytes},
    {"compute_units", &DeviceModel::compute_units},
    {"fp32_lanes_per_cu", &DeviceModel::fp32_lanes_per_cu},
    {"clock_mhz", &DeviceModel::clock_mhz},
    {"base_clock_mhz", &DeviceModel::base_clock_mhz},
    {"last_level_cache_bytes", &DeviceModel::last_level_cache_bytes},
    {"l2_gbps", &DeviceModel::l2_gbps, false},
    {"fp64_gflops", &DeviceModel::fp64_gflops, false},
    {"int32_gops", &DeviceModel::int32_gops, false},
};

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// "configs/devices/x.toml:12: peak_gflops: must be ...", the shape of every rooflab input error.
[[noreturn]] void fail(const std::string& origin, const toml::node* node, const std::string& key, const std::string& what) {
  std::string where = origin;
  if (node && node->source().begin.line > 0) where += ":" + std::to_string(node->source().begin.line);
  throw InputError(where + ": " + key + ": " + what);
}

std::string typeName(const toml::node& node) {
  std::ostringstream out;
  out << node.type();
  return out.str();
}

// Shortest text that reads back as the same double, without locale: "2460.0", "1244.16", "1e+30".
std::string formatReal(double value) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  std::string text(buffer, result.ptr);
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";  // TOML needs a float to look like one
  return text;
}

std::string tomlString(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
          out += escaped;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string tomlStringArray(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + tomlString(items[i]);
  return out + "]";
}

double readPositiveReal(const toml::node& node, const std::string& origin, const std::string& key) {
  // value<double>() also accepts an integer such as `dram_gbps = 240`, which is what a person writes.
  std::optional<double> value = (node.is_floating_point() || node.is_integer()) ? node.value<double>() : std::nullopt;
  if (!value) fail(origin, &node, key, "expected a number, got " + typeName(node));
  if (!std::isfinite(*value) || *value <= 0) fail(origin, &node, key, "must be a positive finite number (got " + formatReal(*value) + ")");
  return *value;
}

std::uint64_t readCount(const toml::node& node, const std::string& origin, const std::string& key, std::uint64_t max) {
  if (!node.is_integer()) fail(origin, &node, key, "expected an integer, got " + typeName(node));
  std::int64_t value = *node.value<std::int64_t>();
  if (value <= 0 || static_cast<std::uint64_t>(value) > max)
    fail(origin, &node, key, "must be a positive integer no larger than " + std::to_string(max) + " (got " + std::to_string(value) + ")");
  return static_cast<std::uint64_t>(value);
}

std::string readString(const toml::node& node, const std::string& origin, const std::string& key) {
  if (!node.is_string()) fail(origin, &node, key, "expected a string, got " + typeName(node));
  return *node.value<std::string>();
}

std::vector<std::string> readStringArray(const toml::node& node, const std::string& origin, const std::string& key) {
  const toml::array* array = node.as_array();
  if (!array) fail(origin, &node, key, "expected an array of strings, got " + typeName(node));
  std::vector<std::string> items;
  for (const toml::node& item : *array) {
    std::string text = readString(item, origin, key);
    if (text.empty()) fail(origin, &item, key, "an empty match string would match every device");
    items.push_back(std::move(text));
  }
  return items;
}

void readNumber(DeviceModel& model, const NumberField& field, const toml::node& node, const std::string& origin) {
  const std::string key = field.name;
  std::visit(
      [&](auto member) {
        using Member = decltype(member);
        if constexpr (std::is_same_v<Member, RequiredReal> || std::is_same_v<Member, OptionalReal>) {
          model.*member = readPositiveReal(node, origin, key);
        } else if constexpr (std::is_same_v<Member, OptionalCount64>) {
          model.*member = readCount(node, origin, key, std::numeric_limits<std::int64_t>::max());
        } else {
          model.*member = static_cast<std::uint32_t>(readCount(node, origin, key, std::numeric_limits<std::uint32_t>::max()));
        }
      },
      field.member);
}

// The number as TOML/JSON text would hold it, or nullopt when the model does not know it.
template <class Visitor>
auto withNumber(const DeviceModel& model, const NumberField& field, Visitor&& visitor) {
  return std::visit(
      [&](auto member) {
        using Member = decltype(member);
        if constexpr (std::is_same_v<Member, RequiredReal>) {
          return visitor(std::optional<double>(model.*member));
        } else {
          return visitor(model.*member);
        }
      },
      field.member);
}

bool hasNumber(const DeviceModel& model, const NumberField& field) {
  return withNumber(model, field, [](const auto& value) { return value.has_value(); });
}

void readMeasured(DeviceModel& model, const toml::node& node, const std::string& origin) {
  const toml::table* table = node.as_table();
  if (!table) fail(origin, &node, "measured", "expected a table with at, device and driver");
  MeasurementStamp stamp;
  for (const auto& [name, value] : *table) {
    std::string key = "measured." + std::string(name.str());
    if (name.str() == "at") stamp.at = readString(value, origin, key);
    else if (name.str() == "device") stamp.device = readString(value, origin, key);
    else if (name.str() == "driver") stamp.driver = readString(value, origin, key);
    else fail(origin, &value, key, "unknown key (expected at, device, driver)");
  }
  if (stamp.at.empty()) fail(origin, &node, "measured.at", "missing: when the numbers were measured");
  model.measured = stamp;
}

}  // namespace

std::optional<double> DeviceModel::computePeak(Arithmetic arithmetic) const {
  switch (arithmetic) {
    case Arithmetic::fp32: return peak_gflops;
    case Arithmetic::fp64: return fp64_gflops;
    case Arithmetic::int32: return int32_gops;
  }
  return peak_gflops;
}

bool DeviceModel::operator==(const DeviceModel& other) const {
  for (const NumberField& field : kNumberFields) {
    auto mine = withNumber(*this, field, [](const auto& v) { return v ? std::optional<double>(double(*v)) : std::nullopt; });
    auto theirs = withNumber(other, field, [](const auto& v) { return v ? std::optional<double>(double(*v)) : std::nullopt; });
    if (mine != theirs) return false;
  }
  return key == other.key && display_name == other.display_name && match_names == other.match_names &&
         match_exclude == other.match_exclude && sources == other.sources && measured == other.measured &&
         notes == other.notes;
}

std::filesystem::path defaultDeviceModelDir() { return std::filesystem::path(ROOFLAB_SOURCE_DIR) / "configs" / "devices"; }

DeviceModel parseDeviceModel(std::string_view toml_text, const std::string& key, const std::string& origin) {
  toml::table root;
  try {
    root = toml::parse(toml_text, origin);
  } catch (const toml::parse_error& error) {
    const auto& begin = error.source().begin;
    throw InputError(origin + ":" + std::to_string(begin.line) + ":" + std::to_string(begin.column) +
                     ": TOML syntax error: " + std::string(error.description()));
  }

  DeviceModel model;
  model.key = key;
  std::map<std::string, const toml::node*> number_nodes;
  for (const auto& [name_key, node] : root) {
    const std::string name(name_key.str());
    auto field = std::find_if(std::begin(kNumberFields), std::end(kNumberFields),
                              [&](const NumberField& f) { return name == f.name; });
    if (field != std::end(kNumberFields)) {
      readNumber(model, *field, node, origin);
      number_nodes[name] = &node;
    } else if (name == "display_name") {
      model.display_name = readString(node, origin, name);
    } else if (name == "match") {
      model.match_names = readStringArray(node, origin, name);
    } else if (name == "match_exclude") {
      model.match_exclude = readStringArray(node, origin, name);
    } else if (name == "notes") {
      model.notes = readString(node, origin, name);
    } else if (name == "measured") {
      readMeasured(model, node, origin);
    } else if (name != "sources") {
      fail(origin, &node, name, "unknown key (see the format at the top of configs/devices/gtx670.toml)");
    }
  }

  for (const char* required : {"peak_gflops", "dram_gbps"})
    if (!number_nodes.count(required)) fail(origin, nullptr, required, "missing (every model needs it for its roofs)");
  if (model.display_name.empty()) model.display_name = key;

  // A number without a source cannot be trusted or checked, so the loader insists on one for each.
  if (const toml::node* sources_node = root.get("sources")) {
    const toml::table* sources = sources_node->as_table();
    if (!sources) fail(origin, sources_node, "sources", "expected a table: number key = \"where it came from\"");
    for (const auto& [name_key, node] : *sources) {
      const std::string name(name_key.str());
      if (!number_nodes.count(name)) fail(origin, &node, "sources." + name, "a source for a number the model does not give");
      model.sources[name] = readString(node, origin, "sources." + name);
    }
  }
  for (const auto& [name, node] : number_nodes)
    if (!model.sources.count(name) || model.sources[name].empty())
      fail(origin, node, name, "has no source: add `" + name + " = \"...\"` under [sources] saying where the number came from");
  return model;
}

DeviceModel loadDeviceModel(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": cannot open device model");
  std::ostringstream text;
  text << in.rdbuf();
  return parseDeviceModel(text.str(), path.stem().string(), path.string());
}

std::vector<DeviceModel> loadDeviceModels(const std::filesystem::path& dir) {
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error)) throw InputError(dir.string() + ": device model folder not found");
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == ".toml") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::vector<DeviceModel> models;
  for (const auto& file : files) models.push_back(loadDeviceModel(file));
  return models;
}

std::optional<DeviceModel> findDeviceModel(const std::vector<DeviceModel>& models, std::string_view key) {
  for (const DeviceModel& model : models)
    if (model.key == key) return model;
  return std::nullopt;
}

std::optional<DeviceModel> matchDeviceModel(const DeviceInfo& device, const std::vector<DeviceModel>& models) {
  const std::string name = lower(device.name);
  const DeviceModel* best = nullptr;
  std::size_t best_length = 0;
  for (const DeviceModel& model : models) {
    bool vetoed = std::any_of(model.match_exclude.begin(), model.match_exclude.end(),
                              [&](const std::string& s) { return name.find(lower(s)) != std::string::npos; });
    if (vetoed) continue;
    for (const std::string& pattern : model.match_names) {
      if (name.find(lower(pattern)) != std::string::npos && pattern.size() > best_length) {
        best = &model;
        best_length = pattern.size();
      }
    }
  }
  if (!best) return std::nullopt;
  return *best;
}

std::string toToml(const DeviceModel& model) {
  std::ostringstream out;
  out << "# rooflab device model '" << model.key << "' (format: see configs/devices/gtx670.toml)\n";
  out << "display_name = " << tomlString(model.display_name) << "\n";
  out << "match = " << tomlStringArray(model.match_names) << "\n";
  if (!model.match_exclude.empty()) out << "match_exclude = " << tomlStringArray(model.match_exclude) << "\n";
  out << "\n";
  for (const NumberField& field : kNumberFields) {
    std::visit(
        [&](auto member) {
          using Member = decltype(member);
          if constexpr (std::is_same_v<Member, RequiredReal>) {
            out << field.name << " = " << formatReal(model.*member) << "\n";
          } else if constexpr (std::is_same_v<Member, OptionalReal>) {
            if (model.*member) out << field.name << " = " << formatReal(*(model.*member)) << "\n";
          } else {
            if (model.*member) out << field.name << " = " << *(model.*member) << "\n";
          }
        },
        field.member);
  }
  if (!model.notes.empty()) out << "\nnotes = " << tomlString(model.notes) << "\n";
  out << "\n[sources]\n";
  for (const NumberField& field : kNumberFields) {
    auto source = model.sources.find(field.name);
    if (hasNumber(model, field) && source != model.sources.end())
      out << field.name << " = " << tomlString(source->second) << "\n";
  }
  if (model.measured) {
    out << "\n[measured]\n";
    out << "at = " << tomlString(model.measured->at) << "\n";
    out << "device = " << tomlString(model.measured->device) << "\n";
    out << "driver = " << tomlString(model.measured->driver) << "\n";
  }
  return out.str();
}

nlohmann::json toJson(const DeviceModel& model) {
  nlohmann::json json;
  json["key"] = model.key;
  json["display_name"] = model.display_name;
  for (const NumberField& field : kNumberFields) {
    std::visit(
        [&](auto member) {
          using Member = decltype(member);
          if constexpr (std::is_same_v<Member, RequiredReal>) {
            json[field.name] = model.*member;
          } else if (model.*member) {
            json[field.name] = *(model.*member);
          } else if (field.null_when_absent) {
            json[field.name] = nullptr;
          }
        },
        field.member);
  }
  json["sources"] = model.sources;
  json["match"] = model.match_names;
  json["match_exclude"] = model.match_exclude;
  json["measured"] = model.measured ? nlohmann::json{{"at", model.measured->at},
                                                      {"device", model.measured->device},
                                                      {"driver", model.measured->driver}}
                                    : nlohmann::json(nullptr);
  json["notes"] = model.notes.empty() ? nlohmann::json(nullptr) : nlohmann::json(model.notes);
  return json;
}

DeviceModel deviceModelFromJson(const nlohmann::json& json) {
  try {
    DeviceModel model;
    model.key = json.at("key").get<std::string>();
    model.display_name = json.value("display_name", model.key);
    for (const NumberField& field : kNumberFields) {
      const auto it = json.find(field.name);
      const bool present = it != json.end() && !it->is_null();
      std::visit(
          [&](auto member) {
            using Member = decltype(member);
            if constexpr (std::is_same_v<Member, RequiredReal>) {
              model.*member = json.at(field.name).get<double>();
            } else if (present) {
              model.*member = it->get<typename MemberValue<Member>::type::value_type>();
            }
          },
          field.member);
    }
    if (json.contains("sources")) model.sources = json["sources"].get<std::map<std::string, std::string>>();
    if (json.contains("match")) model.match_names = json["match"].get<std::vector<std::string>>();
    if (json.contains("match_exclude")) model.match_exclude = json["match_exclude"].get<std::vector<std::string>>();
    if (json.contains("measured") && !json["measured"].is_null()) {
      const auto& stamp = json["measured"];
      model.measured = MeasurementStamp{stamp.value("at", ""), stamp.value("device", ""), stamp.value("driver", "")};
    }
    if (json.contains("notes") && json["notes"].is_string()) model.notes = json["notes"].get<std::string>();
    return model;
  } catch (const nlohmann::json::exception& error) {
    throw InputError(std::string("device model in results JSON: ") + error.what());
  }
}

}  // namespace rooflab
