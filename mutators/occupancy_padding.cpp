#include "mutators/occupancy_padding.hpp"

#include "mutators/kernel_parameters.hpp"

namespace rooflab {

std::string addOccupancyPadParameter(const std::string& source, const std::set<std::string>& kernels) {
  return appendKernelParameter(source, kernels, std::string("local uchar* ") + kOccupancyPadParameter,
                               "occupancy padding");
}

}  // namespace rooflab
