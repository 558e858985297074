#include "analyzer/data/resolved_point.hpp"

namespace rooflab {

const ResolvedBuffer* ResolvedPoint::findBuffer(const std::string& name) const {
  for (const ResolvedBuffer& b : buffers)
    if (b.spec->name == name) return &b;
  return nullptr;
}

}  // namespace rooflab
