// Internal to mutators/: libclang cursors and OpenCL types as the automatic mutants' walk reads them.
#pragma once
#include "mutators/libclang_api.hpp"

#include <set>
#include <string>
#include <vector>

namespace rooflab::auto_mutation::clang_types {

// clang's OpenCL address spaces as libclang reports them for a pointee type.
constexpr unsigned kGlobalSpace = 1, kLocalSpace = 2, kConstantSpace = 3;

std::string text(CXString s);
std::vector<CXCursor> children(CXCursor c);

bool isFloatingKind(CXTypeKind k);
bool isFloating(CXType t);
bool isIntegral(CXType t);
bool isGlobalPointer(CXType t);
// OpenCL's spelling of a scalar or vector type, or "" for any other type.
std::string openclTypeName(CXType t);

// The types the auto prelude has helpers for (mutators/auto_prelude.cl).
bool hasFake(const std::string& type);
bool hasBits(const std::string& type);
bool hasFold(const std::string& type);

const std::set<std::string>& mathBuiltins();

}  // namespace rooflab::auto_mutation::clang_types
