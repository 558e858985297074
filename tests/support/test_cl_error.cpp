#include <gtest/gtest.h>

#include "analyzer/support/cl_error.hpp"

namespace rooflab {
namespace {

TEST(ClError, NamesTheCallTheCodeAndWhereKnownTheVariantAndDevice) {
  const cl::Error error(CL_OUT_OF_RESOURCES, "clEnqueueNDRangeKernel");
  EXPECT_EQ(describeClError(error), "clEnqueueNDRangeKernel failed: CL_OUT_OF_RESOURCES (-5)");
  EXPECT_EQ(describeClError(error, {"vecadd/vec4 N=4096 (normal)", "NVIDIA H100 80GB HBM3"}),
            "clEnqueueNDRangeKernel failed: CL_OUT_OF_RESOURCES (-5) in vecadd/vec4 N=4096 (normal) on NVIDIA H100 "
            "80GB HBM3");
  EXPECT_EQ(describeClError(error, {"", "cpu"}), "clEnqueueNDRangeKernel failed: CL_OUT_OF_RESOURCES (-5) on cpu");
}

TEST(ClError, UnknownCodesKeepTheirNumber) { EXPECT_EQ(openclErrorName(-9999), "CL error (-9999)"); }

}  // namespace
}  // namespace rooflab
