#include "analyzer/roofline/device_models.hpp"

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

#include "analyzer/support/errors.hpp"
#include "analyzer/data/device_model_fields.hpp"

namespace rooflab {
namespace {

using namespace device_model_fields;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// "configs/devices/x.toml:12: peak_gflops: must be ...", the shape of every rooflab input error.
[[noreturn]] void fail(const std::string& origin, const toml::node* node, const std::string& key,
                       const std::string& what) {
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
  if (!std::isfinite(*value) || *value <= 0)
    fail(origin, &node, key, "must be a positive finite number (got " + formatReal(*value) + ")");
  return *value;
}

std::uint64_t readCount(const toml::node& node, const std::string& origin, const std::string& key, std::uint64_t max) {
  if (!node.is_integer()) fail(origin, &node, key, "expected an integer, got " + typeName(node));
  std::int64_t value = *node.value<std::int64_t>();
  if (value <= 0 || static_cast<std::uint64_t>(value) > max)
    fail(origin, &node, key,
         "must be a positive integer no larger than " + std::to_string(max) + " (got " + std::to_string(value) + ")");
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
          model.*member =
              static_cast<std::uint32_t>(readCount(node, origin, key, std::numeric_limits<std::uint32_t>::max()));
        }
      },
      field.member);
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

std::filesystem::path defaultDeviceModelDir() {
  return std::filesystem::path(ROOFLAB_SOURCE_DIR) / "configs" / "devices";
}

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
      if (!number_nodes.count(name))
        fail(origin, &node, "sources." + name, "a source for a number the model does not give");
      model.sources[name] = readString(node, origin, "sources." + name);
    }
  }
  for (const auto& [name, node] : number_nodes)
    if (!model.sources.count(name) || model.sources[name].empty())
      fail(origin, node, name,
           "has no source: add `" + name + " = \"...\"` under [sources] saying where the number came from");
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

}  // namespace rooflab
