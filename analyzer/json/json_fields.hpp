#pragma once
// Field helpers of the results JSON edge (results_json*.cpp). Writers keep the number kinds the
// results have always had; readers take a fallback for a missing key, a null or a mistyped value,
// because reports must render files of older versions and hand-made ones.
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace rooflab::json_fields {

using nlohmann::json;

// A measured quantity: always a double (538624.0, never 538624), null when not finite.
inline json finiteOrNull(double value) { return std::isfinite(value) ? json(value) : json(nullptr); }
inline json finiteOrNull(const std::optional<double>& value) { return value ? finiteOrNull(*value) : json(nullptr); }
// Writes `key` only when there is a value (null when it is not finite).
inline void putNumber(json& j, const char* key, const std::optional<double>& value) {
  if (value) j[key] = finiteOrNull(*value);
}

// A counter value: counts are integers and are written as such (16777216, not 1.6777216e7); other
// values are doubles; null when not finite.
inline json countOrReal(double value) {
  if (!std::isfinite(value)) return nullptr;
  if (value == std::floor(value) && std::fabs(value) < 9007199254740992.0)  // 2^53: exact in a double
    return static_cast<std::int64_t>(value);
  return value;
}

// Text that is null when there is none.
inline json textOrNull(const std::string& text) { return text.empty() ? json(nullptr) : json(text); }
inline json textOrNull(const std::optional<std::string>& text) { return text ? json(*text) : json(nullptr); }

// The member, or nullptr when `object` is not an object, lacks `key` or holds null there.
inline const json* member(const json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return nullptr;
  return &*found;
}

inline std::optional<double> optionalNumber(const json& object, std::string_view key) {
  const json* value = member(object, key);
  if (value == nullptr || !value->is_number()) return std::nullopt;
  return value->get<double>();
}

inline double numberOr(const json& object, std::string_view key, double fallback) {
  return optionalNumber(object, key).value_or(fallback);
}

// For a field written with finiteOrNull: null (or nothing) stands for a value that was not finite,
// and reads back as NaN so that it is written back as null.
inline double numberOrNaN(const json& object, std::string_view key) {
  return numberOr(object, key, std::numeric_limits<double>::quiet_NaN());
}

// An integer field; a float that holds a whole number counts (files written by other tools).
template <class Int>
std::optional<Int> optionalInteger(const json& object, std::string_view key) {
  const json* value = member(object, key);
  if (value == nullptr) return std::nullopt;
  if (value->is_number_unsigned()) return static_cast<Int>(value->get<std::uint64_t>());
  if (value->is_number_integer()) return static_cast<Int>(value->get<std::int64_t>());
  if (value->is_number_float()) {
    const double number = value->get<double>();
    if (number == std::floor(number) && std::fabs(number) < 9.2e18) return static_cast<Int>(number);
  }
  return std::nullopt;
}

template <class Int>
Int integerOr(const json& object, std::string_view key, Int fallback) {
  return optionalInteger<Int>(object, key).value_or(fallback);
}

inline bool boolOr(const json& object, std::string_view key, bool fallback) {
  const json* value = member(object, key);
  return value != nullptr && value->is_boolean() ? value->get<bool>() : fallback;
}

inline std::optional<std::string> optionalText(const json& object, std::string_view key) {
  const json* value = member(object, key);
  if (value == nullptr || !value->is_string()) return std::nullopt;
  return value->get<std::string>();
}

inline std::string textOr(const json& object, std::string_view key, std::string fallback = "") {
  return optionalText(object, key).value_or(std::move(fallback));
}

// An array of strings; other elements are skipped.
inline std::vector<std::string> textList(const json& object, std::string_view key) {
  std::vector<std::string> out;
  const json* value = member(object, key);
  if (value == nullptr || !value->is_array()) return out;
  for (const json& element : *value)
    if (element.is_string()) out.push_back(element.get<std::string>());
  return out;
}

// An object of strings; other members are skipped.
inline std::map<std::string, std::string> textMap(const json& object, std::string_view key) {
  std::map<std::string, std::string> out;
  const json* value = member(object, key);
  if (value == nullptr || !value->is_object()) return out;
  for (const auto& [name, element] : value->items())
    if (element.is_string()) out[name] = element.get<std::string>();
  return out;
}

// The object at `key`, or an empty object: nested reads then fall back field by field.
inline const json& objectOrEmpty(const json& object, std::string_view key) {
  static const json empty = json::object();
  const json* value = member(object, key);
  return value != nullptr && value->is_object() ? *value : empty;
}

}  // namespace rooflab::json_fields
