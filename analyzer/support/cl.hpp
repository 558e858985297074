#pragma once
// The one place that configures OpenCL-CLHPP for every rooflab file: OpenCL 1.2 API (NVIDIA, PoCL
// and older devices all have it) and exceptions, so a failing call carries its name and code.
#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 120
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#endif
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
