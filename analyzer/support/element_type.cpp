#include "analyzer/support/element_type.hpp"

#include <cstdint>
#include <cmath>
#include <cstring>
#include <type_traits>

namespace rooflab {
namespace {
struct ScalarName {
  std::string_view name;
  ScalarKind kind;
  std::size_t bytes;
};
constexpr ScalarName kScalars[] = {
    {"float", ScalarKind::f32, 4}, {"double", ScalarKind::f64, 8}, {"char", ScalarKind::i8, 1},
    {"uchar", ScalarKind::u8, 1},  {"short", ScalarKind::i16, 2},  {"ushort", ScalarKind::u16, 2},
    {"int", ScalarKind::i32, 4},   {"uint", ScalarKind::u32, 4},   {"long", ScalarKind::i64, 8},
    {"ulong", ScalarKind::u64, 8},
};

template <class T>
T load(const std::byte* data, std::size_t index) {
  T value;
  std::memcpy(&value, data + index * sizeof(T), sizeof(T));
  return value;
}
template <class T>
void store(std::byte* data, std::size_t index, T value) {
  std::memcpy(data + index * sizeof(T), &value, sizeof(T));
}
}  // namespace

std::size_t ElementType::scalarBytes() const {
  for (const auto& s : kScalars)
    if (s.kind == scalar) return s.bytes;
  return 0;
}

std::string ElementType::name() const {
  for (const auto& s : kScalars)
    if (s.kind == scalar) return std::string(s.name) + (lanes > 1 ? std::to_string(lanes) : "");
  return "?";
}

std::optional<ElementType> ElementType::parse(std::string_view text) {
  for (const auto& s : kScalars) {
    if (text.substr(0, s.name.size()) != s.name) continue;
    std::string_view rest = text.substr(s.name.size());
    // "uint" must not match as "int" with rest "": prefixes are distinct because we compare from 0.
    if (rest.empty()) return ElementType{s.kind, 1};
    for (int lanes : {2, 3, 4, 8, 16})
      if (rest == std::to_string(lanes)) return ElementType{s.kind, lanes};
  }
  return std::nullopt;
}

double readScalarAsDouble(const std::byte* data, ScalarKind kind, std::size_t i) {
  return visitScalarKind(kind, [&](auto scalar) { return static_cast<double>(load<decltype(scalar)>(data, i)); });
}

void writeScalarFromDouble(std::byte* data, ScalarKind kind, std::size_t i, double v) {
  // Integers go through int64 (wrapping to the narrow type, as OpenCL's own conversions would):
  // converting a double outside a narrow type's range straight to it is undefined behaviour.
  const auto wide = std::isfinite(v) && std::fabs(v) < 9.2e18 ? static_cast<std::int64_t>(v) : std::int64_t{0};
  visitScalarKind(kind, [&](auto scalar) {
    using T = decltype(scalar);
    if constexpr (std::is_floating_point_v<T>) store<T>(data, i, static_cast<T>(v));
    else store<T>(data, i, static_cast<T>(wide));
  });
}

}  // namespace rooflab
