#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/support/element_type.hpp"

namespace rooflab {

// The host copy of one kernel buffer: `count` elements of `type`, stored as raw bytes.
struct HostBuffer {
  std::string name;
  ElementType type;
  std::size_t count = 0;
  std::vector<std::byte> bytes;

  HostBuffer() = default;
  HostBuffer(std::string name_, ElementType type_, std::size_t count_)
      : name(std::move(name_)), type(type_), count(count_), bytes(type_.bytes() * count_) {}

  std::size_t sizeBytes() const { return bytes.size(); }
  // Scalars stored, counting every lane (a float4 buffer of n elements holds 4n floats).
  std::size_t scalarCount() const { return count * type.storageLanes(); }
  double scalarAt(std::size_t i) const { return readScalarAsDouble(bytes.data(), type.scalar, i); }
  void setScalar(std::size_t i, double v) { writeScalarFromDouble(bytes.data(), type.scalar, i, v); }

  template <class T>
  T* data() {
    return reinterpret_cast<T*>(bytes.data());
  }
  template <class T>
  const T* data() const {
    return reinterpret_cast<const T*>(bytes.data());
  }
};

// random: uniform in [-1, 1) (floats) or 0..99 (integers); random_positive: [0, 1) or 1..100, for
// sums whose relative rounding error must stay small; file: the bytes of a file (readBufferFile).
enum class BufferInit { random, random_positive, iota, ones, zero, file };

// Fills a buffer reproducibly: the same seed and buffer name give the same contents on every run.
// BufferInit::file is not a rule: readBufferFile fills those (std::logic_error here).
void fillBuffer(HostBuffer& buffer, BufferInit init, std::uint64_t seed);
// The buffer's bytes from `path`, whose size must be the buffer's; throws std::runtime_error naming
// the file, and the expected and actual bytes, otherwise.
void readBufferFile(HostBuffer& buffer, const std::string& path);
// Writes a NaN (floats) or 0xA5A5... (integers) pattern, so elements a kernel did not write are seen.
void poisonBuffer(HostBuffer& buffer);

}  // namespace rooflab
