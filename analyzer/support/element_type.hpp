#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rooflab {

enum class ScalarKind { f32, f64, i8, u8, i16, u16, i32, u32, i64, u64 };

// An OpenCL C element type such as float, uint or float4.
struct ElementType {
  ScalarKind scalar = ScalarKind::f32;
  int lanes = 1;  // 1, 2, 3, 4, 8 or 16 (a 3-vector occupies 4 lanes of storage, as in OpenCL)

  std::size_t scalarBytes() const;
  std::size_t storageLanes() const { return lanes == 3 ? 4 : static_cast<std::size_t>(lanes); }
  std::size_t bytes() const { return scalarBytes() * storageLanes(); }
  bool isFloat() const { return scalar == ScalarKind::f32 || scalar == ScalarKind::f64; }
  std::string name() const;

  static std::optional<ElementType> parse(std::string_view text);
};

// Reads scalar i (counting lanes) of a buffer of this type as a double.
double readScalarAsDouble(const std::byte* data, ScalarKind kind, std::size_t index);
// Calls f with a value-initialised scalar of the kind's C++ type (float, std::int32_t, ...), so that a
// loop over a buffer's scalars is compiled per type instead of converting through a switch per element.
template <class F>
decltype(auto) visitScalarKind(ScalarKind kind, F&& f) {
  switch (kind) {
    case ScalarKind::f32: return f(float{});
    case ScalarKind::f64: return f(double{});
    case ScalarKind::i8: return f(std::int8_t{});
    case ScalarKind::u8: return f(std::uint8_t{});
    case ScalarKind::i16: return f(std::int16_t{});
    case ScalarKind::u16: return f(std::uint16_t{});
    case ScalarKind::i32: return f(std::int32_t{});
    case ScalarKind::u32: return f(std::uint32_t{});
    case ScalarKind::i64: return f(std::int64_t{});
    case ScalarKind::u64: break;
  }
  return f(std::uint64_t{});
}
// Writes value into scalar i, converting to the kind.
void writeScalarFromDouble(std::byte* data, ScalarKind kind, std::size_t index, double value);

}  // namespace rooflab
