#pragma once
// One table per enum for its names in files and on screen: toString and parse both read it, so the
// two directions cannot drift apart.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace rooflab {

template <class Enum>
struct EnumName {
  Enum value;
  const char* name;
};

// The name of `value` in `table`; the first entry's name when the table lacks it (a value no enum
// constant has).
template <class Enum, std::size_t N>
std::string nameOf(const EnumName<Enum> (&table)[N], Enum value) {
  for (const EnumName<Enum>& entry : table)
    if (entry.value == value) return entry.name;
  return table[0].name;
}

template <class Enum, std::size_t N>
std::optional<Enum> valueOf(const EnumName<Enum> (&table)[N], std::string_view name) {
  for (const EnumName<Enum>& entry : table)
    if (name == entry.name) return entry.value;
  return std::nullopt;
}

}  // namespace rooflab
