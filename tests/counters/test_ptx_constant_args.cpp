// The PTX bridge's rewrite of __constant pointer arguments (analyzer/counters/ptx/ptx_constant_args.hpp)
// on PTX written in the layout of NVIDIA's OpenCL: the parameter takes a device pointer, the loads
// through it read global memory, and the module's own __constant data stays in the constant bank.
#include <gtest/gtest.h>

#include "analyzer/counters/ptx/ptx_rewrite.hpp"
#include "test_support.hpp"

namespace rc = rooflab::counters;
using rooflab::testing::readPtxFixture;

namespace {

std::string lineWith(const std::string& text, const std::string& needle) {
  const std::size_t at = text.find(needle);
  if (at == std::string::npos) return "";
  const std::size_t begin = text.rfind('\n', at) + 1;
  return text.substr(begin, text.find('\n', at) - begin);
}

}  // namespace

TEST(PtxConstantArgs, AConstantPointerIsAParameterTheLaunchGivesABuffer) {
  const auto kernels = rc::parseKernelSignatures(readPtxFixture("constant-pointer-arg.ptx"));
  ASSERT_EQ(kernels.size(), 2u);
  ASSERT_EQ(kernels[0].params.size(), 4u);
  EXPECT_EQ(kernels[0].params[0].kind, rc::PtxParamKind::global_pointer);
  EXPECT_EQ(kernels[0].params[1].kind, rc::PtxParamKind::constant_pointer);
  EXPECT_EQ(kernels[0].params[1].size_bytes, 8u);
  EXPECT_EQ(kernels[1].params[0].kind, rc::PtxParamKind::constant_pointer);
}

TEST(PtxConstantArgs, LoadsThroughTheParameterReadGlobalMemoryAndTheModulesConstantsStay) {
  const std::string ptx = rc::rewriteForCuda(readPtxFixture("constant-pointer-arg.ptx")).ptx;
  EXPECT_EQ(ptx.find(".ptr .const"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("\t.param .u64 weighted_param_1,\n"), std::string::npos) << ptx;
  EXPECT_EQ(lineWith(ptx, "%f2, [%rd7]"), "\tld.global.nc.f32 \t%f2, [%rd7];");
  EXPECT_EQ(lineWith(ptx, "%f3, [%rd9]"), "\tld.const.f32 \t%f3, [%rd9];");  // the module's table
  EXPECT_NE(ptx.find(".const .align 4 .b8 table[64];"), std::string::npos);
  // Through a loop's moves and an offset, a vector load.
  EXPECT_EQ(lineWith(ptx, "{%f4, %f5}"), "\tld.global.nc.v2.f32 \t{%f4, %f5}, [%rd7+4];");
  EXPECT_EQ(ptx.find("ld.const.v2"), std::string::npos) << ptx;
}

TEST(PtxConstantArgs, AParameterUsedOtherThanByLdParamIsRefusedByName) {
  std::string ptx = readPtxFixture("constant-pointer-arg.ptx");
  const std::string load = "ld.param.u64 \t%rd3, [dot_weights_param_0];";
  ptx.replace(ptx.find(load), load.size(), "mov.u64 \t%rd3, dot_weights_param_0;");
  try {
    rc::rewriteForCuda(ptx);
    FAIL() << "rewritten";
  } catch (const rc::PtxRewriteError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("kernel dot_weights"), std::string::npos) << message;
    EXPECT_NE(message.find("__constant pointer parameter dot_weights_param_0 is used other than by 'ld.param.u64"),
              std::string::npos)
        << message;
  }
}

TEST(PtxConstantArgs, APointerToPrivateMemoryIsStillRefusedNamingIt) {
  const std::string ptx = ".version 9.0\n.target sm_90\n.address_size 64\n\n"
                          ".entry k(\n\t.param .u64 .ptr .local .align 4 k_param_0\n)\n{\n\tret;\n\n}\n";
  try {
    rc::parseKernelSignatures(ptx);
    FAIL() << "parsed";
  } catch (const rc::PtxRewriteError& e) {
    EXPECT_NE(std::string(e.what()).find("pointer parameter k_param_0 points to .local memory"), std::string::npos)
        << e.what();
  }
}
