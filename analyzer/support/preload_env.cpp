#include "analyzer/support/preload_env.hpp"

#include <cstdlib>
#include <string>

namespace rooflab {

void allowPreloadBeforeSanitizerRuntime() {
  const char* earlier = std::getenv("ASAN_OPTIONS");
  std::string options = earlier != nullptr ? earlier : "";
  if (options.find("verify_asan_link_order") != std::string::npos) return;  // the user's own choice stands
  options += options.empty() ? "verify_asan_link_order=0" : ":verify_asan_link_order=0";
  ::setenv("ASAN_OPTIONS", options.c_str(), 1);
}

}  // namespace rooflab
