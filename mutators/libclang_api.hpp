#pragma once
// libclang's C API, loaded at run time (dlopen, RTLD_LOCAL) rather than linked: the OpenCL CPU
// device (PoCL) runs its own LLVM in this process, of another version than libclang's (Debian 12:
// PoCL on LLVM 15, libclang-dev on 14), and linking both let PoCL's compiler call into LLVM 14 and
// crash. Loaded locally, libclang's LLVM stays out of the global scope, and Debian's libLLVM symbols
// carry their version (LLVM_14, LLVM_15), so each binds to its own. Not RTLD_DEEPBIND: on Ubuntu
// 24.04 (the GPU machine) a deep-bound libclang segfaults on load, and the sanitizer runtime refuses
// it. Call as lc().clang_xxx(...).
#include <clang-c/Index.h>

#include <string>

namespace rooflab::auto_mutation {

#define ROOFLAB_LIBCLANG_FUNCTIONS(X) \
  X(clang_Cursor_getArgument) \
  X(clang_Cursor_getNumArguments) \
  X(clang_Cursor_getVarDeclInitializer) \
  X(clang_Cursor_isNull) \
  X(clang_Location_isFromMainFile) \
  X(clang_Location_isInSystemHeader) \
  X(clang_createIndex) \
  X(clang_disposeDiagnostic) \
  X(clang_disposeIndex) \
  X(clang_disposeString) \
  X(clang_disposeTokens) \
  X(clang_disposeTranslationUnit) \
  X(clang_getDiagnosticLocation) \
  X(clang_getDiagnosticSpelling) \
  X(clang_getAddressSpace) \
  X(clang_getCString) \
  X(clang_getCanonicalType) \
  X(clang_getCursorExtent) \
  X(clang_getCursorKind) \
  X(clang_getCursorLocation) \
  X(clang_getCursorReferenced) \
  X(clang_getCursorSpelling) \
  X(clang_getCursorType) \
  X(clang_getDiagnostic) \
  X(clang_getDiagnosticSeverity) \
  X(clang_getElementType) \
  X(clang_getExpansionLocation) \
  X(clang_getFileName) \
  X(clang_getNumDiagnostics) \
  X(clang_getNumElements) \
  X(clang_getPointeeType) \
  X(clang_getPresumedLocation) \
  X(clang_getRangeEnd) \
  X(clang_getRangeStart) \
  X(clang_getSpellingLocation) \
  X(clang_getTokenLocation) \
  X(clang_getTokenSpelling) \
  X(clang_getTranslationUnitCursor) \
  X(clang_getTypeSpelling) \
  X(clang_isCursorDefinition) \
  X(clang_parseTranslationUnit2) \
  X(clang_tokenize) \
  X(clang_visitChildren)

struct LibclangApi {
#define ROOFLAB_LIBCLANG_MEMBER(f) decltype(&::f) f = nullptr;
  ROOFLAB_LIBCLANG_FUNCTIONS(ROOFLAB_LIBCLANG_MEMBER)
#undef ROOFLAB_LIBCLANG_MEMBER
};

// Loads libclang once; "" when it is loaded, else why not.
const std::string& libclangLoadError();
// The loaded API; call only when libclangLoadError() is "".
const LibclangApi& lc();

}  // namespace rooflab::auto_mutation
