#pragma once
// Host memory on a page boundary: what CL_MEM_USE_HOST_PTR needs for a driver to use the array in
// place (zero-copy) instead of keeping a copy of its own.
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

namespace rooflab {

class AlignedBytes {
 public:
  static constexpr std::size_t kAlignment = 4096;

  AlignedBytes() = default;
  // Throws std::bad_alloc. The pages are written once, so that no first touch lands in a timing.
  explicit AlignedBytes(std::size_t size)
      : size_(size), data_(static_cast<std::byte*>(std::aligned_alloc(kAlignment, rounded(size))), &std::free) {
    if (!data_) throw std::bad_alloc();
    std::memset(data_.get(), 0, rounded(size));
  }

  std::byte* data() { return data_.get(); }
  const std::byte* data() const { return data_.get(); }
  std::size_t size() const { return size_; }

 private:
  // aligned_alloc wants a multiple of the alignment.
  static std::size_t rounded(std::size_t size) {
    return (size + kAlignment - 1) / kAlignment * kAlignment + kAlignment * (size == 0);
  }

  std::size_t size_ = 0;
  std::unique_ptr<std::byte, decltype(&std::free)> data_{nullptr, &std::free};
};

}  // namespace rooflab
