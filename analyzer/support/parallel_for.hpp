#pragma once
#include <algorithm>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace rooflab {

// Runs fn(begin, end) over [0, count) split into contiguous chunks, one per hardware thread: the
// references for N=4096 matmul and 32768-body n-body must finish in seconds on a many-core host.
// Chunks are multiples of `grain` (the last one may be shorter), so a blocked loop keeps its blocks.
template <class Fn>
void parallelFor(std::size_t count, std::size_t grain, Fn fn) {
  const std::size_t blocks = (count + grain - 1) / grain;
  const std::size_t threads =
      std::max<std::size_t>(1, std::min<std::size_t>(std::thread::hardware_concurrency(), blocks));
  if (threads <= 1) {
    fn(std::size_t{0}, count);
    return;
  }
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(threads);
  const std::size_t per_thread = (blocks + threads - 1) / threads;
  for (std::size_t t = 0; t < threads; ++t) {
    const std::size_t begin = std::min(count, t * per_thread * grain);
    const std::size_t end = std::min(count, (t + 1) * per_thread * grain);
    if (begin >= end) break;
    pool.emplace_back([&, t, begin, end] {
      try {
        fn(begin, end);
      } catch (...) {
        errors[t] = std::current_exception();
      }
    });
  }
  for (auto& thread : pool) thread.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace rooflab
