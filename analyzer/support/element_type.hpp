#pragma once
#include <cstddef>
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
// Writes value into scalar i, converting to the kind.
void writeScalarFromDouble(std::byte* data, ScalarKind kind, std::size_t index, double value);

}  // namespace rooflab
