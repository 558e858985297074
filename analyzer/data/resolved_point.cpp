#include "analyzer/data/resolved_point.hpp"

namespace rooflab {

const ResolvedBuffer* ResolvedPoint::findBuffer(const std::string& name) const {
  for (const ResolvedBuffer& b : buffers)
    if (b.spec->name == name) return &b;
  return nullptr;
}

std::string ResolvedPoint::inputsKey() const {
  std::string key = run_point.family->name;
  for (const ResolvedBuffer& b : buffers)
    if (b.hasHostInput())
      key += ";" + b.spec->name + ":" + b.spec->type.name() + "x" + std::to_string(b.count) + ":" +
             std::to_string(static_cast<int>(b.spec->init)) +
             (b.spec->init_file ? ":" + b.spec->init_file->path.string() : "");
  return key;
}

}  // namespace rooflab
