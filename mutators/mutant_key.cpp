#include "mutators/mutant_key.hpp"

#include "mutators/kernel_parameters.hpp"

namespace rooflab {

std::string addMutantKeyParameter(const std::string& source, const std::set<std::string>& kernels) {
  return appendKernelParameter(source, kernels, std::string("const uint ") + kMutantKeyParameter, "compute-only key");
}

}  // namespace rooflab
