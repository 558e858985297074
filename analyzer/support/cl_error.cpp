#include "analyzer/support/cl_error.hpp"

namespace rooflab {

std::string openclErrorName(int code) {
  const char* name = nullptr;
  switch (code) {
    case 0: name = "CL_SUCCESS"; break;
    case -1: name = "CL_DEVICE_NOT_FOUND"; break;
    case -2: name = "CL_DEVICE_NOT_AVAILABLE"; break;
    case -3: name = "CL_COMPILER_NOT_AVAILABLE"; break;
    case -4: name = "CL_MEM_OBJECT_ALLOCATION_FAILURE"; break;
    case -5: name = "CL_OUT_OF_RESOURCES"; break;
    case -6: name = "CL_OUT_OF_HOST_MEMORY"; break;
    case -7: name = "CL_PROFILING_INFO_NOT_AVAILABLE"; break;
    case -11: name = "CL_BUILD_PROGRAM_FAILURE"; break;
    case -30: name = "CL_INVALID_VALUE"; break;
    case -33: name = "CL_INVALID_DEVICE"; break;
    case -34: name = "CL_INVALID_CONTEXT"; break;
    case -36: name = "CL_INVALID_COMMAND_QUEUE"; break;
    case -38: name = "CL_INVALID_MEM_OBJECT"; break;
    case -42: name = "CL_INVALID_BINARY"; break;
    case -43: name = "CL_INVALID_BUILD_OPTIONS"; break;
    case -44: name = "CL_INVALID_PROGRAM"; break;
    case -45: name = "CL_INVALID_PROGRAM_EXECUTABLE"; break;
    case -46: name = "CL_INVALID_KERNEL_NAME"; break;
    case -47: name = "CL_INVALID_KERNEL_DEFINITION"; break;
    case -48: name = "CL_INVALID_KERNEL"; break;
    case -49: name = "CL_INVALID_ARG_INDEX"; break;
    case -50: name = "CL_INVALID_ARG_VALUE"; break;
    case -51: name = "CL_INVALID_ARG_SIZE"; break;
    case -52: name = "CL_INVALID_KERNEL_ARGS"; break;
    case -53: name = "CL_INVALID_WORK_DIMENSION"; break;
    case -54: name = "CL_INVALID_WORK_GROUP_SIZE"; break;
    case -55: name = "CL_INVALID_WORK_ITEM_SIZE"; break;
    case -56: name = "CL_INVALID_GLOBAL_OFFSET"; break;
    case -58: name = "CL_INVALID_EVENT"; break;
    case -59: name = "CL_INVALID_OPERATION"; break;
    case -61: name = "CL_INVALID_BUFFER_SIZE"; break;
    case -63: name = "CL_INVALID_GLOBAL_WORK_SIZE"; break;
    case -1001: name = "CL_PLATFORM_NOT_FOUND_KHR"; break;
    default: break;
  }
  return std::string(name ? name : "CL error") + " (" + std::to_string(code) + ")";
}

std::string describeClError(const cl::Error& error, const ClErrorContext& context) {
  std::string text = std::string(error.what()) + " failed: " + openclErrorName(error.err());
  if (!context.variant.empty()) text += " in " + context.variant;
  if (!context.device.empty()) text += " on " + context.device;
  return text;
}

}  // namespace rooflab
