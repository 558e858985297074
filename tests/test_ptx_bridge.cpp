// The PTX bridge's text rewrite (analyzer/counters/ptx_rewrite.hpp) on NVIDIA's OpenCL PTX: a sample
// NVIDIA's OpenCL produced, and fixtures written by hand in its layout (tests/fixtures/ptx/).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "analyzer/counters/ptx_rewrite.hpp"

namespace rc = rooflab::counters;
namespace fs = std::filesystem;

namespace {

// The in-repo copy first; shared/fixtures holds the NVIDIA-captured original.
std::string readPtxFixture(const std::string& name) {
  std::vector<fs::path> candidates;
#ifdef ROOFLAB_SOURCE_DIR
  candidates.push_back(fs::path(ROOFLAB_SOURCE_DIR) / "tests" / "fixtures" / "ptx" / name);
#endif
#ifdef ROOFLAB_SHARED_DIR
  candidates.push_back(fs::path(ROOFLAB_SHARED_DIR) / "fixtures" / name);
#endif
  for (const fs::path& path : candidates) {
    std::ifstream in(path, std::ios::binary);
    if (!in) continue;
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  ADD_FAILURE() << "PTX fixture " << name << " not found";
  return "";
}

const char* kNvidiaSample = "nvidia-opencl-tiled-and-dynlocal.ptx";

std::size_t countOf(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t pos = text.find(needle); pos != std::string::npos; pos = text.find(needle, pos + 1)) ++n;
  return n;
}

// The 1-based line of the first occurrence of needle.
int lineOf(const std::string& text, const std::string& needle) {
  const std::size_t pos = text.find(needle);
  if (pos == std::string::npos) return 0;
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
}

// The text of one `.entry` from its line to the end of its body.
std::string entryText(const std::string& ptx, const std::string& kernel) {
  const std::size_t begin = ptx.find(".entry " + kernel + "(");
  if (begin == std::string::npos) return "";
  const std::size_t end = ptx.find("\n}", begin);
  return ptx.substr(begin, end == std::string::npos ? std::string::npos : end - begin + 2);
}

std::string replaceAll(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t pos = text.find(from); pos != std::string::npos; pos = text.find(from, pos + to.size()))
    text.replace(pos, from.size(), to);
  return text;
}

std::string expectThrowMessage(const std::function<void()>& f) {
  try {
    f();
  } catch (const rc::PtxRewriteError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected PtxRewriteError";
  return "";
}

}  // namespace

TEST(PtxBridge, StopsAtTheFirstNul) {
  std::string binary = "abc";
  binary += '\0';
  binary += "garbage after the terminator";
  EXPECT_EQ(rc::ptxTextFromProgramBinary(binary), "abc");
  EXPECT_EQ(rc::ptxTextFromProgramBinary("no terminator"), "no terminator");

  std::string ptx = readPtxFixture(kNvidiaSample);
  std::string with_tail = ptx;
  with_tail += '\0';
  with_tail += ".entry bogus(";  // would be a malformed kernel if read
  EXPECT_EQ(rc::rewriteForCuda(with_tail).ptx, rc::rewriteForCuda(ptx).ptx);
}

TEST(PtxBridge, ParsesTheNvidiaSampleSignatures) {
  const auto kernels = rc::parseKernelSignatures(readPtxFixture(kNvidiaSample));
  ASSERT_EQ(kernels.size(), 2u);

  EXPECT_EQ(kernels[0].name, "mm");
  ASSERT_EQ(kernels[0].params.size(), 4u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(kernels[0].params[i].kind, rc::PtxParamKind::global_pointer) << i;
    EXPECT_EQ(kernels[0].params[i].size_bytes, 8u);
    EXPECT_EQ(kernels[0].params[i].align_bytes, 4u);
  }
  EXPECT_EQ(kernels[0].params[3].name, "mm_param_3");
  EXPECT_EQ(kernels[0].params[3].kind, rc::PtxParamKind::scalar);
  EXPECT_EQ(kernels[0].params[3].size_bytes, 4u);
  EXPECT_EQ(kernels[0].localPointerCount(), 0u);

  EXPECT_EQ(kernels[1].name, "dyn");
  ASSERT_EQ(kernels[1].params.size(), 3u);
  EXPECT_EQ(kernels[1].params[0].kind, rc::PtxParamKind::global_pointer);
  EXPECT_EQ(kernels[1].params[1].kind, rc::PtxParamKind::global_pointer);
  EXPECT_EQ(kernels[1].params[2].kind, rc::PtxParamKind::local_pointer);
  EXPECT_EQ(kernels[1].params[2].name, "dyn_param_2");
  EXPECT_EQ(kernels[1].localPointerCount(), 1u);
}

TEST(PtxBridge, RewritesTargetEnvregAndPointerAttributes) {
  const std::string original = readPtxFixture(kNvidiaSample);
  ASSERT_NE(original.find("texmode_independent"), std::string::npos);
  ASSERT_NE(original.find("%envreg"), std::string::npos);

  const std::string ptx = rc::rewriteForCuda(original).ptx;
  EXPECT_NE(ptx.find("\n.target sm_90\n"), std::string::npos) << ptx;
  EXPECT_EQ(ptx.find("texmode_independent"), std::string::npos);
  EXPECT_EQ(ptx.find("%envreg"), std::string::npos);
  EXPECT_NE(ptx.find("mov.b32 \t%r9, 0;"), std::string::npos);
  EXPECT_NE(ptx.find("mov.b32 \t%r15, 0;"), std::string::npos);
  EXPECT_EQ(ptx.find(".ptr"), std::string::npos);
  EXPECT_NE(ptx.find("\t.param .u64 mm_param_0,\n\t.param .u64 mm_param_1,\n\t.param .u64 mm_param_2,\n"
                     "\t.param .u32 mm_param_3\n)"),
            std::string::npos)
      << ptx;
  // Unrelated text is untouched.
  EXPECT_NE(ptx.find(".version 9.0\n"), std::string::npos);
  EXPECT_NE(ptx.find("fma.rn.f32 \t%f56, %f54, %f53, %f52;"), std::string::npos);
  EXPECT_NE(ptx.find("// Generated by NVIDIA NVVM Compiler"), std::string::npos);
}

TEST(PtxBridge, LocalPointerBecomesExternSharedAndStaticSharedStays) {
  const rc::CudaReadyPtx result = rc::rewriteForCuda(readPtxFixture(kNvidiaSample));
  const std::string& ptx = result.ptx;
  EXPECT_EQ(result.dynamic_local_symbol, "rooflab_dynamic_local");
  EXPECT_EQ(countOf(ptx, ".extern .shared .align 16 .b8 rooflab_dynamic_local[];"), 1u);
  // Declared at module scope, before the first kernel.
  EXPECT_LT(ptx.find(".extern .shared"), ptx.find(".entry mm("));
  EXPECT_GT(ptx.find(".extern .shared"), ptx.find(".address_size 64"));

  const std::string dyn = entryText(ptx, "dyn");
  EXPECT_NE(dyn.find(".entry dyn(\n\t.param .u64 dyn_param_0,\n\t.param .u64 dyn_param_1\n)"), std::string::npos) << dyn;
  EXPECT_EQ(ptx.find("dyn_param_2"), std::string::npos);
  EXPECT_NE(dyn.find("\tmov.u64 \t%rd3, rooflab_dynamic_local;\n"), std::string::npos) << dyn;
  EXPECT_EQ(dyn.find("add.s64 \t%rd3, %rd3"), std::string::npos) << "the first local argument sits at offset 0";

  // mm's demoted __local arrays coexist with the extern array: CUDA puts dynamic shared memory after them.
  EXPECT_NE(ptx.find(".shared .align 4 .b8 mm_$_a[1024];"), std::string::npos);
  EXPECT_NE(ptx.find(".shared .align 4 .b8 mm_$_b[1024];"), std::string::npos);
  EXPECT_NE(ptx.find("mov.u64 \t%rd16, mm_$_a;"), std::string::npos);

  // The signatures the launcher marshals against are the OpenCL ones, local argument included.
  ASSERT_EQ(result.kernels.size(), 2u);
  EXPECT_EQ(result.kernels[1].params.size(), 3u);
}

TEST(PtxBridge, TwoLocalArgumentsGetOffsetsRoundedTo16) {
  const std::string original = readPtxFixture("two-local-args.ptx");
  const auto kernels = rc::parseKernelSignatures(original);
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].localPointerCount(), 2u);

  const rc::DynamicLocalLayout layout = rc::layoutDynamicLocal(kernels[0], {40, 40});
  EXPECT_EQ(layout.offsets_bytes, (std::vector<std::size_t>{0, 48}));
  EXPECT_EQ(layout.total_bytes, 88u);
  EXPECT_EQ(rc::layoutDynamicLocal(kernels[0], {64, 8}).offsets_bytes, (std::vector<std::size_t>{0, 64}));
  EXPECT_EQ(rc::layoutDynamicLocal(kernels[0], {0, 4}).offsets_bytes, (std::vector<std::size_t>{0, 0}));

  const rc::CudaReadyPtx result = rc::rewriteForCuda(original, {{"two_local", {40, 40}}});
  const std::string body = entryText(result.ptx, "two_local");
  EXPECT_NE(body.find(".entry two_local(\n\t.param .u64 two_local_param_0,\n\t.param .u64 two_local_param_1\n)"),
            std::string::npos)
      << body;
  EXPECT_NE(body.find("\tmov.u64 \t%rd3, rooflab_dynamic_local;\n\tmov.u64 \t%rd4, rooflab_dynamic_local;\n"
                      "\tadd.s64 \t%rd4, %rd4, 48;\n"),
            std::string::npos)
      << body;
  EXPECT_EQ(body.find("two_local_param_2"), std::string::npos);
  EXPECT_EQ(body.find("two_local_param_3"), std::string::npos);
  ASSERT_EQ(result.local_layouts.count("two_local"), 1u);
  EXPECT_EQ(result.local_layouts.at("two_local").total_bytes, 88u);
}

TEST(PtxBridge, SeveralLocalArgumentsNeedTheirSizes) {
  const std::string original = readPtxFixture("two-local-args.ptx");
  const int entry_line = lineOf(original, ".entry two_local(");
  const std::string missing = expectThrowMessage([&] { rc::rewriteForCuda(original); });
  EXPECT_NE(missing.find("kernel two_local"), std::string::npos) << missing;
  EXPECT_NE(missing.find("PTX line " + std::to_string(entry_line)), std::string::npos) << missing;

  const std::string wrong_count = expectThrowMessage([&] { rc::rewriteForCuda(original, {{"two_local", {40}}}); });
  EXPECT_NE(wrong_count.find("kernel two_local"), std::string::npos) << wrong_count;
  EXPECT_NE(wrong_count.find("1 sizes"), std::string::npos) << wrong_count;

  const auto kernels = rc::parseKernelSignatures(original);
  EXPECT_THROW(rc::layoutDynamicLocal(kernels[0], {1, 2, 3}), rc::PtxRewriteError);
}

TEST(PtxBridge, LayoutHonoursAlignmentAbove16) {
  rc::PtxKernelSignature kernel;
  kernel.name = "k";
  kernel.params = {{"k_param_0", rc::PtxParamKind::local_pointer, 8, 4},
                   {"k_param_1", rc::PtxParamKind::scalar, 4, 4},
                   {"k_param_2", rc::PtxParamKind::local_pointer, 8, 64}};
  const rc::DynamicLocalLayout layout = rc::layoutDynamicLocal(kernel, {20, 8});
  EXPECT_EQ(layout.offsets_bytes, (std::vector<std::size_t>{0, 64}));
  EXPECT_EQ(layout.total_bytes, 72u);
}

TEST(PtxBridge, ScalarParametersOfSeveralSizes) {
  const std::string original = readPtxFixture("scalar-args.ptx");
  const auto kernels = rc::parseKernelSignatures(original);
  ASSERT_EQ(kernels.size(), 1u);
  const auto& params = kernels[0].params;
  ASSERT_EQ(params.size(), 9u);
  EXPECT_EQ(params[0].kind, rc::PtxParamKind::global_pointer);
  EXPECT_EQ(params[0].align_bytes, 8u);
  const std::vector<std::size_t> sizes = {8, 1, 2, 4, 8, 4, 8, 1, 16};
  for (std::size_t i = 1; i < params.size(); ++i) {
    EXPECT_EQ(params[i].kind, rc::PtxParamKind::scalar) << params[i].name;
    EXPECT_EQ(params[i].size_bytes, sizes[i]) << params[i].name;
  }
  EXPECT_EQ(params[8].align_bytes, 16u) << "float4 by value";

  // By-value parameters pass through as declared; a .u64 without .ptr (an OpenCL long) is no pointer.
  const std::string ptx = rc::rewriteForCuda(original).ptx;
  EXPECT_NE(ptx.find("\t.param .u64 scalars_param_0,\n\t.param .u8 scalars_param_1,\n\t.param .u16 scalars_param_2,\n"
                     "\t.param .u32 scalars_param_3,\n\t.param .u64 scalars_param_4,\n\t.param .f32 scalars_param_5,\n"
                     "\t.param .f64 scalars_param_6,\n\t.param .u8 scalars_param_7,\n"
                     "\t.param .align 16 .b8 scalars_param_8[16]\n)"),
            std::string::npos)
      << ptx;
  EXPECT_NE(ptx.find("ld.param.v4.f32 \t{%f2, %f3, %f4, %f5}, [scalars_param_8];"), std::string::npos);
  EXPECT_TRUE(rc::rewriteForCuda(original).dynamic_local_symbol.empty());
  EXPECT_EQ(ptx.find(".extern"), std::string::npos) << "no __local argument, no extern array";
}

TEST(PtxBridge, SeveralKernelsInOneModule) {
  const std::string original = readPtxFixture("several-kernels.ptx");
  const auto kernels = rc::parseKernelSignatures(original);
  ASSERT_EQ(kernels.size(), 3u);
  EXPECT_EQ(kernels[0].name, "fill");
  EXPECT_EQ(kernels[1].name, "static_and_dynamic");
  EXPECT_EQ(kernels[2].name, "no_args");
  EXPECT_EQ(kernels[0].params.size(), 2u);
  EXPECT_EQ(kernels[1].localPointerCount(), 1u);
  EXPECT_TRUE(kernels[2].params.empty());
  EXPECT_EQ(kernels[0].line, lineOf(original, ".entry fill("));
  EXPECT_EQ(kernels[2].line, lineOf(original, ".entry no_args("));

  const rc::CudaReadyPtx result = rc::rewriteForCuda(original);
  EXPECT_EQ(countOf(result.ptx, ".entry "), 3u);
  EXPECT_EQ(countOf(result.ptx, ".extern .shared"), 1u);
  EXPECT_EQ(countOf(result.ptx, "%envreg"), 0u);
  EXPECT_NE(result.ptx.find(".entry no_args()\n{"), std::string::npos) << result.ptx;
  EXPECT_NE(result.ptx.find(".shared .align 4 .b8 static_and_dynamic_$_tile[256];"), std::string::npos);
  EXPECT_NE(result.ptx.find("mov.u64 \t%rd2, rooflab_dynamic_local;"), std::string::npos);
  EXPECT_NE(result.ptx.find(".entry fill(\n\t.param .u64 fill_param_0,\n\t.param .f32 fill_param_1\n)"),
            std::string::npos);
}

TEST(PtxBridge, LocalPointerUsedOtherwiseIsAnErrorWithItsLine) {
  const std::string original = readPtxFixture(kNvidiaSample);
  const std::string odd = replaceAll(original, "ld.param.u64 \t%rd3, [dyn_param_2];", "ld.param.u64 \t%rd3, [dyn_param_2+8];");
  ASSERT_NE(odd, original);
  const int line = lineOf(odd, "[dyn_param_2+8]");
  const std::string message = expectThrowMessage([&] { rc::rewriteForCuda(odd); });
  EXPECT_NE(message.find("kernel dyn, PTX line " + std::to_string(line)), std::string::npos) << message;
  EXPECT_NE(message.find("dyn_param_2"), std::string::npos) << message;
}

TEST(PtxBridge, RefusesWhatItCannotBridge) {
  const std::string header = ".version 9.0\n.target sm_90, texmode_independent\n.address_size 64\n\n";
  const std::string constant = header +
                               ".entry k(\n\t.param .u64 .ptr .const .align 4 k_param_0\n)\n{\n\tret;\n\n}\n";
  const std::string message = expectThrowMessage([&] { rc::parseKernelSignatures(constant); });
  EXPECT_NE(message.find("kernel k, PTX line 6"), std::string::npos) << message;
  EXPECT_NE(message.find("__constant"), std::string::npos) << message;

  const std::string unclosed = header + ".entry k(\n\t.param .u32 k_param_0,\n";
  EXPECT_NE(expectThrowMessage([&] { rc::parseKernelSignatures(unclosed); }).find("kernel k"), std::string::npos);

  const std::string no_body_end = header + ".entry k(\n\t.param .u32 k_param_0\n)\n{\n\tret;\n";
  EXPECT_NE(expectThrowMessage([&] { rc::rewriteForCuda(no_body_end); }).find("never closes"), std::string::npos);

  const std::string bad_type = header + ".entry k(\n\t.param .pred k_param_0\n)\n{\n\tret;\n}\n";
  EXPECT_NE(expectThrowMessage([&] { rc::parseKernelSignatures(bad_type); }).find(".pred"), std::string::npos);

  EXPECT_NE(expectThrowMessage([&] { rc::rewriteForCuda("this is not PTX"); }).find("not PTX"), std::string::npos);
  EXPECT_THROW(rc::parseKernelSignatures(""), rc::PtxRewriteError);
}

TEST(PtxBridge, CommentsDirectivesAndLineEndingsDoNotConfuseIt) {
  const std::string ptx =
      "// .entry commented_out(\n"
      ".version 9.0\n"
      ".target sm_90, texmode_independent // %envreg9 in a comment stays\n"
      ".address_size 64\n"
      "/* .entry also_commented(\n"
      "   .param .u64 .ptr .shared .align 4 x ) */\n"
      ".visible .entry k(\n"
      "\t.param .u64 .ptr .global .align 16 k_param_0\n"
      ")\n"
      ".reqntid 64, 1, 1\n"
      "{\n"
      "\t.reg .b32 %r<2>;\n"
      "\tmov.b32 \t%r1, %envreg3;\n"
      "\t{ // a scope block\n"
      "\t}\n"
      "\tret;\n"
      "}\n";
  const auto kernels = rc::parseKernelSignatures(ptx);
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].name, "k");
  EXPECT_EQ(kernels[0].line, 7);
  EXPECT_EQ(kernels[0].params[0].align_bytes, 16u);

  const std::string out = rc::rewriteForCuda(ptx).ptx;
  EXPECT_NE(out.find(".target sm_90 // %envreg9 in a comment stays\n"), std::string::npos) << out;
  EXPECT_NE(out.find(".visible .entry k(\n\t.param .u64 k_param_0\n)\n.reqntid 64, 1, 1\n{"), std::string::npos) << out;
  EXPECT_NE(out.find("mov.b32 \t%r1, 0;"), std::string::npos) << out;
  EXPECT_NE(out.find("// .entry commented_out("), std::string::npos);

  // Windows line endings parse the same.
  const std::string crlf = replaceAll(readPtxFixture(kNvidiaSample), "\n", "\r\n");
  EXPECT_EQ(rc::rewriteForCuda(crlf).ptx, rc::rewriteForCuda(readPtxFixture(kNvidiaSample)).ptx);
}

TEST(PtxBridge, NumberOfGroupsComesFromTheGrid) {
  // NVIDIA's reduce7 (grid-stride loop) reads get_num_groups(0) from %envreg6 and adds %envreg0 to
  // %ctaid.x (captured on an H100, tests/fixtures/ptx/nvidia-opencl-reduce.ptx).
  const std::string out = rc::rewriteForCuda(readPtxFixture("nvidia-opencl-reduce.ptx")).ptx;
  EXPECT_EQ(out.find("%envreg"), std::string::npos);
  EXPECT_NE(out.find("mov.b32 \t%r1, %nctaid.x;"), std::string::npos);
}

TEST(PtxBridge, UnknownEnvironmentRegistersAreRefusedNotZeroed) {
  // Only %envreg0-8 are known; zeroing another one could turn a loop step into 0 and hang the GPU.
  const std::string ptx =
      ".version 9.0\n.target sm_90, texmode_independent\n.address_size 64\n"
      ".entry k(\n\t.param .u32 k_param_0\n)\n{\n\t.reg .b32 %r<2>;\n\tmov.b32 \t%r1, %envreg12;\n\tret;\n}\n";
  try {
    rc::rewriteForCuda(ptx);
    FAIL() << "rewrite accepted %envreg12";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("%envreg12"), std::string::npos) << e.what();
  }
}

// The CUDA driver JIT-compiles what ptxas compiles: when the toolkit's ptxas is here, every rewritten
// fixture must assemble for sm_90. (ptxas accepts the OpenCL originals too; what the driver refuses
// there is OpenCL's launch interface, which the rewrite removes.)
TEST(PtxBridge, RewrittenFixturesAssembleWithPtxas) {
  std::string ptxas;
  if (const char* from_env = std::getenv("ROOFLAB_PTXAS")) ptxas = from_env;
  else if (fs::exists("/usr/local/cuda/bin/ptxas")) ptxas = "/usr/local/cuda/bin/ptxas";
  else if (std::system("command -v ptxas > /dev/null 2>&1") == 0) ptxas = "ptxas";
  if (ptxas.empty()) GTEST_SKIP() << "no ptxas (CUDA Toolkit) on this machine";

  const std::vector<std::pair<std::string, rc::LocalArgBytesByKernel>> fixtures = {
      {kNvidiaSample, {}},
      {"two-local-args.ptx", {{"two_local", {40, 40}}}},
      {"scalar-args.ptx", {}},
      {"several-kernels.ptx", {}},
      {"fp32-ops.ptx", {}},
      // Captured from NVIDIA's OpenCL on an H100 (driver 580) with `rooflab run --keep-binaries`.
      {"nvidia-opencl-reduce.ptx", {}},
      {"nvidia-opencl-nbody.ptx", {}},
      {"nvidia-opencl-vecadd-two-local-args.ptx", {{"vecadd_local", {1024, 1024}}}},
  };
  const fs::path dir = fs::temp_directory_path() / ("rooflab-ptxas-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const auto& [name, sizes] : fixtures) {
    const fs::path ptx_path = dir / name;
    {
      std::ofstream out(ptx_path);
      out << rc::rewriteForCuda(readPtxFixture(name), sizes).ptx;
    }
    const fs::path log_path = dir / (name + ".log");
    const std::string command = "\"" + ptxas + "\" -arch=sm_90 \"" + ptx_path.string() + "\" -o \"" +
                                (dir / (name + ".cubin")).string() + "\" > \"" + log_path.string() + "\" 2>&1";
    const int status = std::system(command.c_str());
    std::ifstream log(log_path);
    std::stringstream log_text;
    log_text << log.rdbuf();
    EXPECT_EQ(status, 0) << name << ": " << log_text.str();
  }
  fs::remove_all(dir);
}
