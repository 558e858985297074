// Automatic mutants of kernels written as users write them (tests/fixtures/kernels/corpus: BLAS- and
// benchmark-suite-style families with macros, shared helpers, several kernels per file, tuning #ifs,
// doubles, float selects, floats rounded into indices, CSR bounds, async copies, CRLF files): every
// variant gets both mutants with a verdict, or a sentence that says why one is impossible; and what
// each mutant keeps, counted in its program.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "analyzer/run/program_builds.hpp"
#include "mutators/auto_mutation.hpp"
#include "binary/auto_mutation_support.hpp"

using namespace rooflab;

namespace {

const std::string kCorpus = std::string(ROOFLAB_SOURCE_DIR) + "/tests/fixtures/kernels/corpus";

AutoMutant mutateFile(const std::string& relative, AutoMutantKind kind, const std::vector<std::string>& kernels,
                      const std::string& options = "") {
  AutoMutationRequest request;
  request.source_path = kCorpus + "/" + relative;
  request.source_text = "\n#line 1 \"" + relative.substr(relative.find('/') + 1) + "\"\n" +
                        rooflab::testing::fileText(request.source_path);
  request.build_options = splitBuildOptions(options + " -I " + kCorpus + "/" + relative.substr(0, relative.find('/')));
  request.kernels = kernels;
  request.kind = kind;
  return mutateAutomatically(request);
}

// The line `line` (1-based) of a corpus file.
std::string lineOf(const std::string& relative, int line) {
  std::istringstream in(rooflab::testing::fileText(kCorpus + "/" + relative));
  std::string text;
  for (int i = 0; i < line && std::getline(in, text); ++i) {
  }
  return text;
}

}  // namespace

// All 16 families, three modes, through the binary on PoCL.
TEST(MutantCorpus, EveryVariantGetsBothMutantsOrASentenceWhyNot) {
  ROOFLAB_REQUIRE_LIBCLANG();
  ROOFLAB_REQUIRE_CPU_DEVICE();
  rooflab::testing::TempDir dir;
  const std::string out = (dir.path() / "out").string();
  std::string config = "[run]\ndevice = \"cpu\"\nrepetitions = 2\nwarmup = 1\n"
                       "modes = [\"normal\", \"compute-only\", \"memory-only\"]\nceilings = \"datasheet\"\n"
                       "kernels = [\"" +
                       kCorpus + "\"]\nout = \"" + out + "\"\nformats = [\"json\"]\n";
  for (const char* family :
       {"blas_axpy",  "blas_gemm",     "blas_ddot", "stencil2d",       "nw_dp",       "diffusion", "kmeans_assign",
        "nn_layer",   "particle_find", "scan",      "histogram",       "spmv_csr",    "seg_mean",  "copy_async",
        "saxpy_crlf", "vload_scale",   "poly_gemm", "poly_covariance", "poly_conv2d", "poly_fdtd"})
    config += "[[study]]\nfamily = \"" + std::string(family) + "\"\n";
  dir.write("corpus.toml", config);
  const std::string command = std::string(ROOFLAB_BINARY) + " run " + (dir.path() / "corpus.toml").string() +
                              " --quiet > " + (dir.path() / "log").string() + " 2>&1";
  const int status = std::system(command.c_str());
  ASSERT_EQ(WEXITSTATUS(status), 0) << rooflab::testing::fileText(dir.path() / "log");
  const nlohmann::json results = nlohmann::json::parse(rooflab::testing::fileText(out + "/results.json"));

  // Where a mutant is impossible, and the line of the user's file that makes it so.
  const std::map<std::string, std::string> impossible = {
      {"histogram/local_atomic compute-only", "histogram_atomic.cl:19"},
  };
  // Where every operation steers memory (a search), the memory-only mutant is the kernel as written.
  const std::map<std::string, std::string> same_as_original = {
      {"histogram/local_atomic memory-only", "histogram_atomic.cl:19"},
      {"particle_find/linear memory-only", "find_index.cl:9"},
      {"particle_find/binary memory-only", "find_index.cl:9"},
      {"particle_find/guess memory-only", "find_index.cl:63"},
  };
  std::map<std::string, std::set<std::string>> made;  // variant -> modes with a mutant
  int variants = 0;
  for (const auto& r : results["records"]) {
    const std::string variant = r["family"].get<std::string>() + "/" + r["variant"].get<std::string>();
    const std::string mode = r["mode"];
    SCOPED_TRACE(variant + " " + mode);
    if (mode == "normal") {
      ++variants;
      EXPECT_EQ(r["status"], "ok") << r.dump();
      EXPECT_TRUE(r["verification"]["status"] == "passed" || r["verification"]["status"] == "reference")
          << r["verification"].dump();
      continue;
    }
    if (const auto it = impossible.find(variant + " " + mode); it != impossible.end()) {
      EXPECT_EQ(r["status"], "skipped");
      const std::string error = r["error"];
      EXPECT_NE(error.find("no " + mode + " mutant is possible: every "), std::string::npos) << error;
      EXPECT_NE(error.find(it->second), std::string::npos) << error;
      continue;
    }
    ASSERT_EQ(r["status"], "ok") << r.dump();
    EXPECT_EQ(r["mutant_origin"], "automatic");
    EXPECT_EQ(r["mutant_source_check"]["original"], r["mutant_source_check"]["mutant"]) << r.dump();
    if (const auto it = same_as_original.find(variant + " " + mode); it != same_as_original.end()) {
      const std::string why = r["mutant_source_check"].value("same_as_original", "");
      EXPECT_NE(why.find("there is no arithmetic to remove, so the memory-only mutant is the kernel as written"),
                std::string::npos)
          << r.dump();
      EXPECT_NE(why.find(it->second), std::string::npos) << why;
    } else {
      EXPECT_FALSE(r["mutant_source_check"].contains("same_as_original")) << r.dump();
    }
    made[variant].insert(mode);
  }
  EXPECT_GE(variants, 47);
  EXPECT_EQ(made.size(), static_cast<std::size_t>(variants)) << "every variant has a mutant";
  for (const auto& r : results["records"]) {
    const std::string variant = r["family"].get<std::string>() + "/" + r["variant"].get<std::string>();
    const auto modes = made.find(variant);
    if (r["mode"] != "normal" || modes == made.end() || modes->second.size() != 2) continue;
    SCOPED_TRACE(variant);
    const auto& mutation = r["mutation"];
    ASSERT_TRUE(mutation.is_object()) << r.dump();
    // A verdict, or none because a mutant ran far slower than the kernel (PoCL may not vectorise it).
    EXPECT_TRUE(mutation["verdict"] != "unknown" || mutation.contains("slower_mutant")) << mutation.dump();
    for (const char* mode : {"memory-only", "compute-only"})
      EXPECT_TRUE(mutation["validation"][mode]["valid"].get<bool>()) << mutation.dump();
    // A search's verdict says that its memory-only time is the kernel's own: a note of that kind,
    // quoting the mutant's reason.
    if (same_as_original.count(variant + " memory-only") != 0) {
      bool said = false;
      for (const auto& note : mutation["notes"])
        said =
            said || (note.value("kind", "") == "mutant-same-as-original" && note.value("mutant", "") == "memory-only" &&
                     note.value("quoted", "").find("every operation decides an address") != std::string::npos);
      EXPECT_TRUE(said) << mutation.dump();
    }
  }
  // The lines the impossible mutants name are the users' own: the load, the operation.
  EXPECT_NE(lineOf("histogram/histogram_atomic.cl", 19).find("floor(data[i] * NB)"), std::string::npos);
  EXPECT_NE(lineOf("particle_find/find_index.cl", 9).find("weights[j]"), std::string::npos);
}

// The macros are expanded before the rewrite: LOAD/STORE/MAD and the vector width chosen by `#if VW`
// are rewritten as the compiler sees them; the file's other kernels, which the variant does not
// launch (a double one, one with an atomic), are left as written.
TEST(MutantCorpus, MacrosAreRewrittenAsCompiledAndUnlaunchedKernelsAreLeftAlone) {
  ROOFLAB_REQUIRE_LIBCLANG();
  ROOFLAB_REQUIRE_CPU_DEVICE();
  const AutoMutant compute = mutateFile("blas_axpy/xaxpy.cl", AutoMutantKind::compute_only, {"XaxpyFast"}, "-D VW=4");
  ASSERT_TRUE(compute.source) << compute.reason;
  EXPECT_NE(compute.source->find("rl_auto_fake_float4("), std::string::npos) << *compute.source;
  EXPECT_EQ(compute.mutant.global_loads, 0) << *compute.source;
  EXPECT_EQ(rooflab::testing::buildMutantOnPocl(compute), "");
  // XaxpyDouble is not launched: its loads stay as written.
  EXPECT_NE(compute.source->find("(ygm)[id] = (((alpha) * ((xgm)[id]) + ((ygm)[id])));"), std::string::npos)
      << *compute.source;
  const AutoMutant memory = mutateFile("blas_axpy/xaxpy.cl", AutoMutantKind::memory_only, {"XaxpyFast"}, "-D VW=4");
  ASSERT_TRUE(memory.source) << memory.reason;
  EXPECT_NE(memory.source->find("rl_auto_fold_float4("), std::string::npos) << *memory.source;
  EXPECT_EQ(memory.mutant.float_ops, 0) << *memory.source;
  EXPECT_EQ(rooflab::testing::buildMutantOnPocl(memory), "");
}

// An integer dynamic-programming kernel: compute-only keeps every integer operation (nothing
// collapses), and the loads that address its score table stay real; memory-only folds the scores'
// arithmetic and keeps the addressing.
TEST(MutantCorpus, AnIntegerKernelsComputeOnlyMutantKeepsItsWork) {
  ROOFLAB_REQUIRE_LIBCLANG();
  ROOFLAB_REQUIRE_CPU_DEVICE();
  const AutoMutant compute = mutateFile("nw_dp/nw.cl", AutoMutantKind::compute_only, {"NwWavefront"});
  ASSERT_TRUE(compute.source) << compute.reason;
  EXPECT_EQ(compute.original.float_ops, 0);
  EXPECT_GT(compute.original.int_ops, 10);
  EXPECT_EQ(compute.mutant.int_ops, compute.original.int_ops) << *compute.source;
  EXPECT_GT(compute.original.structure_loads, 0);
  EXPECT_LT(compute.original.structure_loads, compute.original.global_loads);
  EXPECT_EQ(compute.mutant.global_loads, compute.original.structure_loads) << *compute.source;
  EXPECT_EQ(rooflab::testing::buildMutantOnPocl(compute), "");
  const AutoMutant memory = mutateFile("nw_dp/nw.cl", AutoMutantKind::memory_only, {"NwWavefront"});
  ASSERT_TRUE(memory.source) << memory.reason;
  EXPECT_LT(memory.mutant.int_ops, memory.original.int_ops) << *memory.source;
  EXPECT_EQ(memory.mutant.int_ops, memory.original.structure_int_ops);
  EXPECT_NE(memory.source->find("rl_auto_fold_int("), std::string::npos) << *memory.source;
  EXPECT_EQ(rooflab::testing::buildMutantOnPocl(memory), "");
}

// A loaded integer that bounds a loop and divides: compute-only keeps those loads (a made-up 0 would
// divide by zero) and makes up the rest; a double literal in a float kernel is folded as a double.
TEST(MutantCorpus, LoadsThatBoundOrDivideStayAndDoublesAreFolded) {
  ROOFLAB_REQUIRE_LIBCLANG();
  ROOFLAB_REQUIRE_CPU_DEVICE();
  const AutoMutant segments = mutateFile("seg_mean/seg_mean.cl", AutoMutantKind::compute_only, {"SegmentMean"});
  ASSERT_TRUE(segments.source) << segments.reason;
  EXPECT_GT(segments.original.structure_loads, 0);
  EXPECT_LT(segments.original.structure_loads, segments.original.global_loads);
  EXPECT_EQ(rooflab::testing::buildMutantOnPocl(segments), "");
  const AutoMutant stencil = mutateFile("stencil2d/stencil.cl", AutoMutantKind::memory_only, {"Stencil5"});
  ASSERT_TRUE(stencil.source) << stencil.reason;
  EXPECT_TRUE(stencil.double_helpers);
  EXPECT_NE(stencil.source->find("rl_auto_fold_double("), std::string::npos) << *stencil.source;
  EXPECT_EQ(rooflab::testing::buildMutantOnPocl(stencil), "");
}

// The benchmark-suite kernels no corpus variant launches: a rank-k update in place on a triangle
// (c[i * n + j] *= beta, then += in the k loop) and a Jacobi step: both mutants keep the original's
// counts and build.
TEST(MutantCorpus, InPlaceUpdatesOfTheBenchmarkSuitesKeepTheirCounts) {
  ROOFLAB_REQUIRE_LIBCLANG();
  ROOFLAB_REQUIRE_CPU_DEVICE();
  for (const auto& [file, kernel] : {std::pair<std::string, std::string>{"poly_gemm/gemm.cl", "syrk_lower"},
                                     {"poly_conv2d/conv2d.cl", "jacobi2d_step"}}) {
    SCOPED_TRACE(kernel);
    const AutoMutant compute = mutateFile(file, AutoMutantKind::compute_only, {kernel});
    ASSERT_TRUE(compute.source) << compute.reason;
    EXPECT_EQ(compute.mutant.int_ops, compute.original.int_ops) << *compute.source;
    EXPECT_EQ(compute.mutant.float_ops, compute.original.float_ops) << *compute.source;
    EXPECT_EQ(compute.mutant.global_loads, compute.original.structure_loads) << *compute.source;
    EXPECT_EQ(rooflab::testing::buildMutantOnPocl(compute), "");
    const AutoMutant memory = mutateFile(file, AutoMutantKind::memory_only, {kernel});
    ASSERT_TRUE(memory.source) << memory.reason;
    EXPECT_EQ(memory.mutant.global_loads, memory.original.global_loads) << *memory.source;
    EXPECT_EQ(memory.mutant.float_ops, 0) << *memory.source;
    EXPECT_EQ(rooflab::testing::buildMutantOnPocl(memory), "");
  }
}
