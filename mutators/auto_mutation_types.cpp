// libclang cursors and OpenCL types as the automatic mutants' walk reads them (libclang builds only).
#if ROOFLAB_HAVE_LIBCLANG
#include "mutators/auto_mutation_types.hpp"

#include <regex>
#include <set>

namespace rooflab::auto_mutation::clang_types {

std::string text(CXString s) {
  std::string out = lc().clang_getCString(s) ? lc().clang_getCString(s) : "";
  lc().clang_disposeString(s);
  return out;
}

std::vector<CXCursor> children(CXCursor c) {
  std::vector<CXCursor> out;
  lc().clang_visitChildren(
      c,
      [](CXCursor child, CXCursor, CXClientData data) {
        static_cast<std::vector<CXCursor>*>(data)->push_back(child);
        return CXChildVisit_Continue;
      },
      &out);
  return out;
}

bool isFloatingKind(CXTypeKind k) { return k == CXType_Float || k == CXType_Double || k == CXType_Half; }

bool isFloating(CXType t) {
  t = lc().clang_getCanonicalType(t);
  if (t.kind == CXType_ExtVector) return isFloatingKind(lc().clang_getCanonicalType(lc().clang_getElementType(t)).kind);
  return isFloatingKind(t.kind);
}

bool isIntegral(CXType t) {
  t = lc().clang_getCanonicalType(t);
  return (t.kind >= CXType_Bool && t.kind <= CXType_Int128) || t.kind == CXType_Enum;
}

bool isGlobalPointer(CXType t) {
  t = lc().clang_getCanonicalType(t);
  if (t.kind != CXType_Pointer) return false;
  const unsigned space = lc().clang_getAddressSpace(lc().clang_getPointeeType(t));
  return space == kGlobalSpace || space == kConstantSpace;
}

// OpenCL's spelling of a scalar or vector type, or "" for any other type.
std::string openclTypeName(CXType t) {
  t = lc().clang_getCanonicalType(t);
  std::string lanes;
  if (t.kind == CXType_ExtVector) {
    lanes = std::to_string(lc().clang_getNumElements(t));
    t = lc().clang_getCanonicalType(lc().clang_getElementType(t));
  }
  switch (t.kind) {
    case CXType_Float: return "float" + lanes;
    case CXType_Double: return "double" + lanes;
    case CXType_Int: return "int" + lanes;
    case CXType_UInt: return "uint" + lanes;
    case CXType_Long: return "long" + lanes;
    case CXType_ULong: return "ulong" + lanes;
    case CXType_Short: return "short" + lanes;
    case CXType_Half: return "half" + lanes;
    case CXType_UShort: return "ushort" + lanes;
    case CXType_Char_S:
    case CXType_SChar: return "char" + lanes;
    case CXType_Char_U:
    case CXType_UChar: return "uchar" + lanes;
    default: return "";
  }
}

// The types the auto prelude has helpers for (mutators/auto_prelude.cl).
bool hasFake(const std::string& type) {
  static const std::regex vector_type("(float|double|int|uint|long|ulong|short|ushort|char|uchar)(2|3|4|8|16)?");
  return std::regex_match(type, vector_type);
}
bool hasBits(const std::string& type) {
  static const std::regex bits_type("(float|double|int|uint|long|ulong|short|ushort|char|uchar)(2|3|4|8|16)?");
  return std::regex_match(type, bits_type);
}
bool hasFold(const std::string& type) {
  static const std::regex fold_type("(float|double|int|uint|long|ulong|short|ushort|char|uchar)(2|3|4|8|16)?");
  return std::regex_match(type, fold_type);
}

const std::set<std::string>& mathBuiltins() {
  static const std::set<std::string> names = [] {
    std::set<std::string> n = {"fma",  "mad",   "sqrt",  "rsqrt", "cbrt", "exp",   "exp2", "exp10", "expm1", "log",
                               "log2", "log10", "log1p", "sin",   "cos",  "tan",   "asin", "acos",  "atan",  "atan2",
                               "sinh", "cosh",  "tanh",  "pow",   "powr", "hypot", "fdim", "mix"};
    for (const char* f : {"sqrt", "rsqrt", "exp", "exp2", "exp10", "log", "log2", "log10", "sin", "cos", "tan", "powr",
                          "divide", "recip"}) {
      n.insert(std::string("native_") + f);
      n.insert(std::string("half_") + f);
    }
    return n;
  }();
  return names;
}

}  // namespace rooflab::auto_mutation::clang_types

#endif  // ROOFLAB_HAVE_LIBCLANG
