#include "analyzer/verify/references.hpp"

#include "analyzer/support/errors.hpp"

namespace rooflab {

double ReferenceContext::param(const std::string& name) const {
  auto it = params.find(name);
  if (it == params.end()) throw VariantError("reference needs parameter '" + name + "'");
  return it->second;
}

const HostBuffer& ReferenceContext::input(const std::string& name) const {
  auto it = inputs.find(name);
  if (it == inputs.end()) throw VariantError("reference needs input buffer '" + name + "'");
  return it->second;
}

HostBuffer& ReferenceContext::output(const std::string& name) const {
  auto it = outputs.find(name);
  if (it == outputs.end()) throw VariantError("reference needs output buffer '" + name + "'");
  return it->second;
}

void ReferenceRegistry::add(const std::string& name, ReferenceFunction fn) { functions_[name] = std::move(fn); }

const ReferenceFunction* ReferenceRegistry::find(const std::string& name) const {
  auto it = functions_.find(name);
  return it == functions_.end() ? nullptr : &it->second;
}

std::vector<std::string> ReferenceRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& [name, fn] : functions_) out.push_back(name);
  return out;
}

const ReferenceRegistry& ReferenceRegistry::builtin() {
  static const ReferenceRegistry registry = [] {
    ReferenceRegistry r;
    registerBuiltinReferences(r);
    return r;
  }();
  return registry;
}

}  // namespace rooflab
