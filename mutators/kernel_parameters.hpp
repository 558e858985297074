#pragma once
// Parameters rooflab appends to the kernels a mutant launches (the occupancy pad, the compute-only
// key), written into the program's text so that annotated and automatic mutants get them alike.
#include <set>
#include <string>

namespace rooflab {

// `source` with `declaration` (e.g. "uint rl_mutant_key") appended to the parameter list of every
// kernel named in `kernels` (their OpenCL argument count grows by one, the new parameter last).
// Comments and string literals are skipped; a lone `void` list becomes the parameter alone. Throws
// std::invalid_argument, starting with `purpose`, naming a kernel whose definition is not found.
std::string appendKernelParameter(const std::string& source, const std::set<std::string>& kernels,
                                  const std::string& declaration, const std::string& purpose);

}  // namespace rooflab
