#pragma once
// A variant's OpenCL C before the compiler sees it: its files joined in order, the family folder as
// the include folder, and what can be read from the text without a compiler (which kernels it
// defines, whether it carries mutation annotations).
#include <filesystem>
#include <string>
#include <vector>

namespace rooflab {

// The files joined in order, each behind `#line 1 "<file>"` (its path relative to `folder`), so
// that the compiler's messages name the user's file and line, as one program.
std::string joinSourceFiles(const std::vector<std::filesystem::path>& files, const std::filesystem::path& folder);

// The compiler option that puts `folder` on the include path: -I <folder>. OpenCL build options are
// split at spaces (PoCL takes no quotes), so a folder whose path has a space is given through a link
// under the temp folder; throws VariantError when that cannot be made.
std::string includeOption(const std::filesystem::path& folder);

// `text` with every comment replaced by a space (line breaks kept); string and character literals
// are left as they are.
std::string withoutComments(const std::string& text);

// The files' text, comments removed, with the text of each file they include with `#include "x"`
// (found beside the including file, else in `include_folder`) appended, recursively, each file once.
// An include found in neither place is left to the compiler to report. Throws InputError for a
// listed file that cannot be read.
std::string sourceTextWithIncludes(const std::vector<std::filesystem::path>& files,
                                   const std::filesystem::path& include_folder);

// The files sourceTextWithIncludes reads, in the order it reads them: each listed file, then what it
// includes. Throws as it does.
std::vector<std::filesystem::path> sourceFilesWithIncludes(const std::vector<std::filesystem::path>& files,
                                                           const std::filesystem::path& include_folder);

// Whether `source` (comments removed) defines a kernel called `kernel`: a "kernel" or "__kernel"
// token, then, before the next ';', '{' or '}', the name followed by '('.
bool sourceDefinesKernel(const std::string& source, const std::string& kernel);

// Whether an OpenCL C source calls atomic functions (atomic_*, atom_*).
bool sourceUsesAtomics(const std::string& source);

}  // namespace rooflab
