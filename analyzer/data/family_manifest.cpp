// A manifest's expressions evaluated with their origin in the error, and look-ups by name.
#include "analyzer/data/family_manifest.hpp"

#include "analyzer/support/errors.hpp"

namespace rooflab {

double ManifestExpression::evaluate(const ParamValues& params) const {
  try {
    return evaluateExpression(text, params);
  } catch (const ExpressionError& e) {
    throw InputError(where.str() + ": " + key + ": " + e.what());
  }
}

std::int64_t ManifestExpression::count(const ParamValues& params, bool allow_zero) const {
  try {
    return evaluateCount(text, params, allow_zero);
  } catch (const ExpressionError& e) {
    throw InputError(where.str() + ": " + key + ": " + e.what());
  }
}

BufferLink BufferSpec::crossing() const {
  if (link) return *link;
  switch (access) {
    case BufferAccess::read: return BufferLink::up;
    case BufferAccess::write: return BufferLink::down;
    case BufferAccess::read_write: return BufferLink::both;
  }
  return BufferLink::up;
}

std::string ReferenceSpec::text() const {
  switch (kind) {
    case Kind::variant: return "variant:" + name;
    case Kind::cpu: return "cpu:" + name;
    case Kind::outputs: return "outputs";
    case Kind::none: break;
  }
  return "";
}

std::optional<ReferenceSpec> ReferenceSpec::parse(std::string_view text) {
  if (text == "outputs") return ReferenceSpec{Kind::outputs, ""};
  for (const auto& [prefix, kind] :
       {std::pair{std::string_view("variant:"), Kind::variant}, std::pair{std::string_view("cpu:"), Kind::cpu}})
    if (text.substr(0, prefix.size()) == prefix && text.size() > prefix.size())
      return ReferenceSpec{kind, std::string(text.substr(prefix.size()))};
  return std::nullopt;
}

const VariantSpec* FamilyManifest::findVariant(const std::string& variant_name) const {
  for (const auto& v : variants)
    if (v.name == variant_name) return &v;
  return nullptr;
}

const BufferSpec* FamilyManifest::findBuffer(const std::string& buffer_name, const VariantSpec* variant) const {
  for (const auto& b : buffers)
    if (b.name == buffer_name) return &b;
  if (variant)
    for (const auto& b : variant->scratch)
      if (b.name == buffer_name) return &b;
  return nullptr;
}

}  // namespace rooflab
