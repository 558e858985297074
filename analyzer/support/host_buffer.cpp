#include "analyzer/support/host_buffer.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <stdexcept>
#include <type_traits>

#include "analyzer/support/parallel_for.hpp"

namespace rooflab {

namespace {

// Random values come in blocks of this many scalars, each from an engine seeded by the block's
// index: a block's values do not depend on how many threads fill the buffer, and a gigabyte of
// inputs fills on every core (one engine over 168 M floats took 3.8 s on the H100's host).
constexpr std::size_t kRandomBlock = std::size_t{1} << 20;

template <class T>
void fillRandom(HostBuffer& buffer, bool positive, std::uint64_t seed) {
  T* values = buffer.data<T>();
  const std::size_t n = buffer.scalarCount();
  const auto name_hash = static_cast<std::uint32_t>(std::hash<std::string>{}(buffer.name));
  const std::size_t blocks = (n + kRandomBlock - 1) / kRandomBlock;
  parallelFor(blocks, 1, [&](std::size_t first_block, std::size_t end_block) {
    for (std::size_t block = first_block; block < end_block; ++block) {
      // The buffer name is part of the seed so that a and b of one family differ.
      std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32), name_hash,
                        static_cast<std::uint32_t>(block), static_cast<std::uint32_t>(block >> 32)};
      std::mt19937_64 engine(seq);
      const std::size_t end = std::min(n, (block + 1) * kRandomBlock);
      if constexpr (std::is_floating_point_v<T>) {
        std::uniform_real_distribution<double> dist(positive ? 0.0 : -1.0, 1.0);
        for (std::size_t i = block * kRandomBlock; i < end; ++i) values[i] = static_cast<T>(dist(engine));
      } else {
        std::uniform_int_distribution<int> dist(positive ? 1 : 0, positive ? 100 : 99);
        for (std::size_t i = block * kRandomBlock; i < end; ++i) values[i] = static_cast<T>(dist(engine));
      }
    }
  });
}

}  // namespace

void fillBuffer(HostBuffer& buffer, BufferInit init, std::uint64_t seed) {
  const std::size_t n = buffer.scalarCount();
  switch (init) {
    case BufferInit::zero: std::memset(buffer.bytes.data(), 0, buffer.bytes.size()); return;
    case BufferInit::ones:
      visitScalarKind(buffer.type.scalar, [&](auto scalar) {
        using T = decltype(scalar);
        std::fill_n(buffer.data<T>(), n, T{1});
      });
      return;
    case BufferInit::iota:
      for (std::size_t i = 0; i < n; ++i) buffer.setScalar(i, static_cast<double>(i));
      return;
    case BufferInit::random:
    case BufferInit::random_positive:
      visitScalarKind(buffer.type.scalar, [&](auto scalar) {
        fillRandom<decltype(scalar)>(buffer, init == BufferInit::random_positive, seed);
      });
      return;
    case BufferInit::file:
      throw std::logic_error("buffer '" + buffer.name + "' is filled from its file, not by a rule");
  }
}

void readBufferFile(HostBuffer& buffer, const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw std::runtime_error("cannot read '" + path + "', the contents of buffer '" + buffer.name + "'");
  const auto size = static_cast<std::uint64_t>(in.tellg());
  if (size != buffer.bytes.size())
    throw std::runtime_error("'" + path + "' holds " + std::to_string(size) + " bytes; buffer '" + buffer.name +
                             "' needs " + std::to_string(buffer.bytes.size()));
  in.seekg(0);
  if (!in.read(reinterpret_cast<char*>(buffer.bytes.data()), static_cast<std::streamsize>(buffer.bytes.size())))
    throw std::runtime_error("reading '" + path + "', the contents of buffer '" + buffer.name + "', failed");
}

void poisonBuffer(HostBuffer& buffer) {
  if (buffer.type.scalar == ScalarKind::f32) {
    std::fill_n(buffer.data<float>(), buffer.scalarCount(), std::numeric_limits<float>::quiet_NaN());
  } else if (buffer.type.scalar == ScalarKind::f64) {
    std::fill_n(buffer.data<double>(), buffer.scalarCount(), std::numeric_limits<double>::quiet_NaN());
  } else {
    std::memset(buffer.bytes.data(), 0xA5, buffer.bytes.size());
  }
}

}  // namespace rooflab
