#include "analyzer/support/host_buffer.hpp"

#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <stdexcept>

namespace rooflab {

void fillBuffer(HostBuffer& buffer, BufferInit init, std::uint64_t seed) {
  const std::size_t n = buffer.scalarCount();
  switch (init) {
    case BufferInit::zero:
      std::memset(buffer.bytes.data(), 0, buffer.bytes.size());
      return;
    case BufferInit::ones:
      for (std::size_t i = 0; i < n; ++i) buffer.setScalar(i, 1.0);
      return;
    case BufferInit::iota:
      for (std::size_t i = 0; i < n; ++i) buffer.setScalar(i, static_cast<double>(i));
      return;
    case BufferInit::random:
    case BufferInit::random_positive: {
      const bool positive = init == BufferInit::random_positive;
      // The buffer name is part of the seed so that a and b of one family differ.
      std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                        static_cast<std::uint32_t>(std::hash<std::string>{}(buffer.name))};
      std::mt19937_64 engine(seq);
      if (buffer.type.isFloat()) {
        std::uniform_real_distribution<double> dist(positive ? 0.0 : -1.0, 1.0);
        for (std::size_t i = 0; i < n; ++i) buffer.setScalar(i, dist(engine));
      } else {
        std::uniform_int_distribution<int> dist(positive ? 1 : 0, positive ? 100 : 99);
        for (std::size_t i = 0; i < n; ++i) buffer.setScalar(i, dist(engine));
      }
      return;
    }
    case BufferInit::file: throw std::logic_error("buffer '" + buffer.name + "' is filled from its file, not by a rule");
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
  if (buffer.type.isFloat()) {
    const std::size_t n = buffer.scalarCount();
    for (std::size_t i = 0; i < n; ++i) buffer.setScalar(i, std::numeric_limits<double>::quiet_NaN());
  } else {
    std::memset(buffer.bytes.data(), 0xA5, buffer.bytes.size());
  }
}

}  // namespace rooflab
