#include "analyzer/support/element_type.hpp"

#include <cstdint>
#include <cmath>
#include <cstring>

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
  switch (kind) {
    case ScalarKind::f32: return load<float>(data, i);
    case ScalarKind::f64: return load<double>(data, i);
    case ScalarKind::i8: return load<std::int8_t>(data, i);
    case ScalarKind::u8: return load<std::uint8_t>(data, i);
    case ScalarKind::i16: return load<std::int16_t>(data, i);
    case ScalarKind::u16: return load<std::uint16_t>(data, i);
    case ScalarKind::i32: return load<std::int32_t>(data, i);
    case ScalarKind::u32: return load<std::uint32_t>(data, i);
    case ScalarKind::i64: return static_cast<double>(load<std::int64_t>(data, i));
    case ScalarKind::u64: return static_cast<double>(load<std::uint64_t>(data, i));
  }
  return 0.0;
}

void writeScalarFromDouble(std::byte* data, ScalarKind kind, std::size_t i, double v) {
  // Integers go through int64 (wrapping to the narrow type, as OpenCL's own conversions would):
  // converting a double outside a narrow type's range straight to it is undefined behaviour.
  const auto wide = std::isfinite(v) && std::fabs(v) < 9.2e18 ? static_cast<std::int64_t>(v) : std::int64_t{0};
  switch (kind) {
    case ScalarKind::f32: store<float>(data, i, static_cast<float>(v)); break;
    case ScalarKind::f64: store<double>(data, i, v); break;
    case ScalarKind::i8: store<std::int8_t>(data, i, static_cast<std::int8_t>(wide)); break;
    case ScalarKind::u8: store<std::uint8_t>(data, i, static_cast<std::uint8_t>(wide)); break;
    case ScalarKind::i16: store<std::int16_t>(data, i, static_cast<std::int16_t>(wide)); break;
    case ScalarKind::u16: store<std::uint16_t>(data, i, static_cast<std::uint16_t>(wide)); break;
    case ScalarKind::i32: store<std::int32_t>(data, i, static_cast<std::int32_t>(wide)); break;
    case ScalarKind::u32: store<std::uint32_t>(data, i, static_cast<std::uint32_t>(wide)); break;
    case ScalarKind::i64: store<std::int64_t>(data, i, wide); break;
    case ScalarKind::u64: store<std::uint64_t>(data, i, static_cast<std::uint64_t>(wide)); break;
  }
}

}  // namespace rooflab
