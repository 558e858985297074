#pragma once
// A kernel's parameters as its source declares them, read from the text without a compiler, so that
// the plan can check a manifest's arguments before any device work. The reading is careful rather
// than complete: object-like macros (the point's -D defines first, then the source's own #defines)
// and simple typedefs are expanded; where a macro, a typedef or a type it does not know hides
// whether a parameter is a pointer, that parameter is left unchecked instead of guessed.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/support/element_type.hpp"

namespace rooflab {

struct KernelParameter {
  enum class Space { none, global, local, constant, private_ };  // where a pointer points
  std::string name;                                              // "alpha"; "" when the declaration names none
  std::string declaration;    // as written, white space collapsed: "const __global float* restrict a"
  bool known = true;          // false: whether it is a pointer is hidden (unknown type, ambiguous macro)
  bool pointer = false;       // a pointer or an array
  Space space = Space::none;  // pointers: the address space written (none: not written or hidden)
  // The scalar's type, or the pointee's, when it is a type this reading knows (float, uint4, size_t).
  std::optional<ElementType> type;
};

// The object-like macros a point's program sees from its build options: "-D NAME=value" and
// "-DNAME" (value 1), in order, the last one of a name winning.
std::map<std::string, std::string> definesOfOptions(const std::string& options);

// The parameters of kernel `kernel` in `source` (comments removed), with the macros in `defines`
// (from the build options; they win over the source's own #defines, as `#ifndef X #define X` does);
// nullopt when its parameter list cannot be read with certainty: the kernel not found, defined more
// than once (under #if branches), a preprocessor directive inside its list, or a parameter written
// as a lone macro (which may expand to several).
std::optional<std::vector<KernelParameter>> readKernelParameters(const std::string& source, const std::string& kernel,
                                                                 const std::map<std::string, std::string>& defines);

}  // namespace rooflab
