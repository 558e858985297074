#pragma once

namespace rooflab {

// A library preloaded ahead of AddressSanitizer's runtime makes an ASan-built program abort at start
// ("ASan runtime does not come first in initial library list"). Both the capture's preload shim and
// oclgrind's runtime only forward OpenCL calls and never replace malloc, so the order does not
// matter to them: this turns the runtime's check off for the child about to be run (an exec'ing
// child calls it), keeping whatever ASAN_OPTIONS the user set. Programs built without ASan never
// read the variable.
void allowPreloadBeforeSanitizerRuntime();

}  // namespace rooflab
