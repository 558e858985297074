#pragma once
// The PTX bridge's device memory and CUDA events, owned (freed with the object). Internal to the
// bridge_*.cpp files, which need the CUDA Toolkit's headers.
#include <algorithm>
#include <cstddef>
#include <memory>

#include "analyzer/counters/bridge_context.hpp"
#include "analyzer/counters/cuda_driver.hpp"

namespace rooflab::counters::bridge_detail {

class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    // cuMemAlloc refuses 0 bytes; an empty OpenCL buffer still needs a valid pointer to pass.
    checkCuda(driver().memAlloc(&pointer_, std::max<std::size_t>(bytes, 1)), "cuMemAlloc");
  }
  // nullptr where the device has no room left: the caller keeps the bytes on the host instead.
  static std::unique_ptr<DeviceBuffer> tryAllocate(std::size_t bytes) {
    CUdeviceptr pointer = 0;
    if (driver().memAlloc(&pointer, std::max<std::size_t>(bytes, 1)) != CUDA_SUCCESS) return nullptr;
    return std::unique_ptr<DeviceBuffer>(new DeviceBuffer(pointer, bytes));
  }
  ~DeviceBuffer() { driver().memFree(pointer_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  CUdeviceptr pointer() const { return pointer_; }
  std::size_t bytes() const { return bytes_; }

 private:
  DeviceBuffer(CUdeviceptr pointer, std::size_t bytes) : pointer_(pointer), bytes_(bytes) {}
  CUdeviceptr pointer_ = 0;
  std::size_t bytes_;
};

class Event {
 public:
  Event() { checkCuda(driver().eventCreate(&event_, CU_EVENT_DEFAULT), "cuEventCreate"); }
  ~Event() { driver().eventDestroy(event_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  CUevent get() const { return event_; }

 private:
  CUevent event_ = nullptr;
};

}  // namespace rooflab::counters::bridge_detail
