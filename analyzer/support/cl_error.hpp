#pragma once
// One description for every failed OpenCL call (as CLBlast's CheckError does): the call, the status
// code's name and value, and the variant and device when the caller knows them.
#include <string>

#include "analyzer/support/cl.hpp"

namespace rooflab {

// What a caller knows about where an OpenCL call failed; an empty member is left out of the text.
struct ClErrorContext {
  std::string variant;  // e.g. "vecadd/vec4 N=4096 (normal)", or a ceilings benchmark
  std::string device;   // CL_DEVICE_NAME
};

// "CL_INVALID_WORK_GROUP_SIZE (-54)" for an OpenCL status code.
std::string openclErrorName(int code);

// "clEnqueueNDRangeKernel failed: CL_OUT_OF_RESOURCES (-5)", then " in <variant>" and " on <device>"
// where the context gives them. Callers whose message already names the variant and the device (the
// runner prefixes every record error with both) pass no context.
std::string describeClError(const cl::Error& error, const ClErrorContext& context = {});

}  // namespace rooflab
