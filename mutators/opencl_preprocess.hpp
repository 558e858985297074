#pragma once
// A variant's program as the OpenCL compiler sees it: preprocessed by clang with the point's own
// build options, so that the automatic mutants rewrite what is compiled (macros expanded, the `#if`
// branches the defines choose, included headers inlined) instead of what is written. OpenCL's own
// header is not expanded (CLK_LOCAL_MEM_FENCE, FLT_MAX stay names for the device's compiler), and
// line directives keep every line's origin, so messages and build logs name the user's files.
#include <string>
#include <vector>

namespace rooflab {

struct PreprocessRequest {
  std::string source_text;                 // the program as joined for the compiler (files behind #line)
  std::string source_path;                 // the first file's path: its folder is on the include path
  std::vector<std::string> build_options;  // the point's options, split into words: -D, -U, -I, -cl-std reach clang
  std::vector<std::string>
      device_extensions;  // cl_khr_fp64, ...: what `#ifdef cl_khr_fp64` sees (empty: clang's SPIR set)
};

struct PreprocessedSource {
  std::string text;   // the expanded program, with `#line N "file"` wherever the origin changes; "" on failure
  std::string error;  // why it could not be preprocessed ("file:line: error: ..."), "" when it was
};

// The OpenCL C version a point's options ask for (-cl-std=CL2.0 -> "CL2.0"); "CL1.2" when they name none.
std::string openclStandard(const std::vector<std::string>& build_options);

// Whether this build can preprocess (it found clang beside libclang), and why not.
bool openclPreprocessorAvailable();
std::string openclPreprocessorOffReason();

PreprocessedSource preprocessOpenclSource(const PreprocessRequest& request);

// clang's GNU line markers (`# 12 "file.cl" 2`) as `#line 12 "file.cl"`, the form every OpenCL C
// compiler accepts; the markers of clang's built-in definitions and of the command line are dropped,
// and the scratch file clang read (`scratch_input`) is named `shown_name`.
std::string lineMarkersAsLineDirectives(const std::string& preprocessed, const std::string& scratch_input = "",
                                        const std::string& shown_name = "");

}  // namespace rooflab
