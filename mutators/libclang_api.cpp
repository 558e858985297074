#if ROOFLAB_HAVE_LIBCLANG
#include "mutators/libclang_api.hpp"

#include <dlfcn.h>

namespace rooflab::auto_mutation {
namespace {

struct Loaded {
  LibclangApi api;
  std::string error;
};

Loaded load() {
  Loaded out;
  void* library = nullptr;
  std::string tried;
  for (const char* name : {ROOFLAB_LIBCLANG_LIBRARY, "libclang-14.so.1", "libclang.so.1"}) {
    library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library) break;
    const char* why = dlerror();
    tried += std::string(tried.empty() ? "" : "; ") + (why ? why : name);
  }
  if (!library) {
    out.error = "automatic mutants off: libclang could not be loaded (" + tried + ")";
    return out;
  }
#define ROOFLAB_LIBCLANG_LOAD(f) \
  out.api.f = reinterpret_cast<decltype(&::f)>(dlsym(library, #f)); \
  if (!out.api.f && out.error.empty()) out.error = "automatic mutants off: libclang lacks " #f;
  ROOFLAB_LIBCLANG_FUNCTIONS(ROOFLAB_LIBCLANG_LOAD)
#undef ROOFLAB_LIBCLANG_LOAD
  return out;
}

const Loaded& loaded() {
  static const Loaded instance = load();
  return instance;
}

}  // namespace

const std::string& libclangLoadError() { return loaded().error; }
const LibclangApi& lc() { return loaded().api; }

}  // namespace rooflab::auto_mutation

#endif  // ROOFLAB_HAVE_LIBCLANG
