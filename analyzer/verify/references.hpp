#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "analyzer/support/host_buffer.hpp"

namespace rooflab {

using ParamValues = std::map<std::string, double>;

// What a C++ reference sees: the point's parameters, the family's input buffers (as initialised),
// and the write buffers to fill, already sized and typed as the manifest declares them.
struct ReferenceContext {
  const ParamValues& params;
  const std::map<std::string, HostBuffer>& inputs;
  std::map<std::string, HostBuffer>& outputs;

  double param(const std::string& name) const;  // throws VariantError if missing
  const HostBuffer& input(const std::string& name) const;
  HostBuffer& output(const std::string& name) const;
};

using ReferenceFunction = std::function<void(ReferenceContext&)>;

// Explicit registry of "cpu:<name>" references (no self-registering statics: a static library
// would drop them). registerBuiltinReferences() is the one place that adds rooflab's own.
class ReferenceRegistry {
 public:
  void add(const std::string& name, ReferenceFunction fn);
  const ReferenceFunction* find(const std::string& name) const;
  std::vector<std::string> names() const;

  static const ReferenceRegistry& builtin();

 private:
  std::map<std::string, ReferenceFunction> functions_;
};

void registerBuiltinReferences(ReferenceRegistry& registry);

}  // namespace rooflab
