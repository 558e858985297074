// The automatic mutants' source rewriter (mutators/auto_mutation.*): on kernels written without
// annotations, each mutant's text builds on PoCL, a compute-only mutant reads no global memory and
// keeps every operation, a memory-only mutant keeps every global access and no operation, and what
// the rewriter cannot do gives no mutant, with the reason.
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <set>

#include "analyzer/run/program_builds.hpp"
#include "analyzer/run/variant_programs.hpp"
#include "embedded_kernel_prelude.hpp"
#include "mutators/auto_mutation.hpp"
#include "mutators/mutant_key.hpp"
#include "binary/auto_mutation_support.hpp"

using namespace rooflab;

namespace {

const std::string kFixtures = std::string(ROOFLAB_SOURCE_DIR) + "/tests/fixtures/kernels/unannotated/";

AutoMutant mutate(const std::string& path, const std::string& text, AutoMutantKind kind,
                  const std::string& options = "") {
  AutoMutationRequest request;
  request.source_text = text;
  request.source_path = path;
  request.build_options = splitBuildOptions(options);
  request.kind = kind;
  return mutateAutomatically(request);
}

struct Case {
  const char* file;
  const char* options;
  int loads, stores, float_ops;
};

}  // namespace

TEST(AutoMutation, UnannotatedLibraryKernelsGetBothMutants) {
  ROOFLAB_REQUIRE_LIBCLANG();
  ROOFLAB_REQUIRE_CPU_DEVICE();
  // Static counts: each access or operation written once in the source.
  for (const Case& c : {Case{"gemm_plain/gemm.cl", "-D TS=16", 4, 2, 3}, Case{"sum_plain/sum.cl", "-D WG=64", 1, 1, 2},
                        Case{"axpy_plain/axpy.cl", "", 6, 3, 6}}) {
    SCOPED_TRACE(c.file);
    const std::string path = kFixtures + c.file;
    const std::string text = rooflab::testing::fileText(path);
    const AutoMutant compute = mutate(path, text, AutoMutantKind::compute_only, c.options);
    ASSERT_TRUE(compute.source) << compute.reason;
    EXPECT_EQ(compute.original.global_loads, c.loads);
    EXPECT_EQ(compute.original.global_stores, c.stores);
    EXPECT_EQ(compute.original.float_ops, c.float_ops);
    EXPECT_EQ(compute.mutant.global_loads, 0) << *compute.source;
    EXPECT_EQ(compute.mutant.global_stores, c.stores);
    EXPECT_EQ(compute.mutant.float_ops, c.float_ops);
    EXPECT_EQ(compute.mutant.int_ops, compute.original.int_ops) << *compute.source;
    EXPECT_EQ(rooflab::testing::buildMutantOnPocl(compute, c.options), "");

    const AutoMutant memory = mutate(path, text, AutoMutantKind::memory_only, c.options);
    ASSERT_TRUE(memory.source) << memory.reason;
    EXPECT_EQ(memory.mutant.global_loads, c.loads) << *memory.source;
    EXPECT_EQ(memory.mutant.global_stores, c.stores);
    EXPECT_EQ(memory.mutant.float_ops, 0) << *memory.source;
    EXPECT_EQ(rooflab::testing::buildMutantOnPocl(memory, c.options), "");
  }
}

TEST(AutoMutation, ComputeOnlyStoresSitBehindARuntimeFalseCondition) {
  ROOFLAB_REQUIRE_LIBCLANG();
  const std::string text =
      "kernel void k(global float* y, global const float* x) {\n"
      "  int i = get_global_id(0);\n  if (i > 2) y[i] += 2.0f * x[i];\n  else y[i] = x[i + 1];\n}\n";
  const AutoMutant m = mutate("/tmp/k.cl", text, AutoMutantKind::compute_only);
  ASSERT_TRUE(m.source) << m.reason;
  // The condition and the made-up values read the run-time key (a kernel argument), never a constant.
  EXPECT_NE(
      m.source->find("if (rl_auto_bits_float(rl_auto_v) == rl_mutant_key) y[i] = rl_auto_v; } while (0);\n  else"),
      std::string::npos)
      << *m.source;
  EXPECT_NE(m.source->find("rl_auto_fake_float(rl_auto_seed((ulong)(&(x[i + 1]))), rl_mutant_key)"), std::string::npos)
      << *m.source;
  EXPECT_EQ(m.source->find("RL_NEVER_BITS"), std::string::npos) << *m.source;
  EXPECT_EQ(m.original.global_loads, 3);  // y[i] of +=, x[i], x[i + 1]
}

// Helpers load and store through global pointers: the key reaches them as a last parameter, and every
// call passes it on; a kernel the variant does not launch passes prelude.cl's constant of that name.
// The rewriter also says which kernel arguments the loads, the kept loads and the stores reach.
TEST(AutoMutation, TheRuntimeKeyIsThreadedThroughHelpers) {
  ROOFLAB_REQUIRE_LIBCLANG();
  ROOFLAB_REQUIRE_CPU_DEVICE();
  const std::string text =
      "float load_scaled(global const float* p, int i, float s) { return p[i] * s; }\n"
      "void store(global uchar* q, int i, float v) { q[i] = (uchar)(v * 255.0f); }\n"
      "int pick(void) { return 1; }\n"
      "kernel void launched(global const int* idx, global const float* x, global uchar* out) {\n"
      "  const int i = get_global_id(0);\n"
      "  store(out, i, load_scaled(x, idx[i], 0.5f) + pick());\n}\n"
      "kernel void other(global const float* x, global uchar* out) { store(out, 0, x[pick()]); }\n";
  AutoMutationRequest request;
  request.source_text = text;
  request.source_path = "/tmp/helpers.cl";
  request.kernels = {"launched"};
  request.kind = AutoMutantKind::compute_only;
  const AutoMutant m = mutateAutomatically(request);
  ASSERT_TRUE(m.source) << m.reason;
  const std::string& s = *m.source;
  EXPECT_NE(s.find("float load_scaled(global const float* p, int i, float s, const uint rl_mutant_key)"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("int pick(const uint rl_mutant_key)"), std::string::npos) << s;
  EXPECT_NE(s.find("rl_auto_fake_float(rl_auto_seed((ulong)(&(p[i]))), rl_mutant_key)"), std::string::npos) << s;
  EXPECT_NE(s.find("if (rl_auto_bits_uchar(rl_auto_v) == rl_mutant_key) q[i] = rl_auto_v;"), std::string::npos) << s;
  EXPECT_NE(s.find("store(out, i, load_scaled(x, idx[i], 0.5f, rl_mutant_key) + pick(rl_mutant_key), rl_mutant_key);"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("store(out, 0, x[pick(rl_mutant_key)], rl_mutant_key);"), std::string::npos) << s;
  EXPECT_EQ(rooflab::testing::buildMutantOnPocl(m), "");
  // idx decides an address (kept), x is made up, out is stored (argument indices of `launched`).
  ASSERT_EQ(m.traffic.count("launched"), 1u) << m.traffic_untraced;
  const KernelArgumentTraffic& t = m.traffic.at("launched");
  EXPECT_EQ(t.loaded, (std::set<int>{0, 1}));
  EXPECT_EQ(t.kept_loaded, (std::set<int>{0}));
  EXPECT_EQ(t.stored, (std::set<int>{2}));
  // The program as built: the launched kernel takes the key after its own arguments.
  const std::string built = addMutantKeyParameter(automaticMutantProgram(m), {"launched"});
  EXPECT_NE(built.find("global uchar* out, const uint rl_mutant_key) {"), std::string::npos) << built;
}

TEST(AutoMutation, WhatItCannotRewriteGivesNoMutantWithTheReason) {
  ROOFLAB_REQUIRE_LIBCLANG();
  // The only load picks the address the atomic updates: nothing can be made up.
  const std::string atomic =
      "kernel void k(global int* h, global const int* v) { atomic_inc(&h[v[get_global_id(0)]]); }\n";
  const AutoMutant a = mutate("/tmp/atomic.cl", atomic, AutoMutantKind::compute_only);
  EXPECT_FALSE(a.source);
  EXPECT_NE(a.reason.find("no compute-only mutant is possible: every global load decides an address, a branch, a loop "
                          "bound or a divisor (the first at atomic.cl:1)"),
            std::string::npos)
      << a.reason;

  // Memory-only: whether y[i] is stored depends on v, so all the arithmetic is the structure; there is
  // nothing to remove, and the mutant is the kernel as written, saying so.
  const std::string branchy = "kernel void k(global float* y, global const float* x) {\n  int i = get_global_id(0);\n"
                              "  float v = x[i] * 2.0f;\n  if (v > 1.0f) y[i] = v;\n}\n";
  const AutoMutant b = mutate("/tmp/branchy.cl", branchy, AutoMutantKind::memory_only);
  ASSERT_TRUE(b.source) << b.reason;
  EXPECT_NE(b.source->find("float v = x[i] * 2.0f;"), std::string::npos) << *b.source;
  EXPECT_NE(
      b.same_as_original.find("every operation decides an address, a branch, a loop bound or a divisor (the first "
                              "floating-point one at branchy.cl:3): there is no arithmetic to remove"),
      std::string::npos)
      << b.same_as_original;
  // Compute-only guards every store anyway: the made-up v changes no traffic there.
  EXPECT_TRUE(mutate("/tmp/branchy.cl", branchy, AutoMutantKind::compute_only).source);

  const AutoMutant broken =
      mutate("/tmp/broken.cl", "kernel void k(global float* y) { y[0] = undeclared; }\n", AutoMutantKind::compute_only);
  EXPECT_FALSE(broken.source);
  EXPECT_NE(broken.reason.find("libclang cannot parse broken.cl"), std::string::npos) << broken.reason;
}

TEST(AutoMutation, BuiltWithoutLibclangSaysSo) {
#ifdef ROOFLAB_HAVE_LIBCLANG
  GTEST_SKIP() << "built with libclang (" << (automaticMutantsAvailable() ? "loaded" : automaticMutantsOffReason())
               << ")";
#endif
  const AutoMutant m =
      mutate("/tmp/k.cl", "kernel void k(global float* y) { y[0] = 1.0f; }\n", AutoMutantKind::compute_only);
  EXPECT_FALSE(m.source);
  EXPECT_EQ(m.reason, "automatic mutants off: built without libclang");
}

// Through the binary: library-style kernels without annotations (naive and tiled SGEMM, a two-stage
// sum, float4 and vload4 axpy) get automatic mutants that run, pass their source check and give a verdict.
TEST(AutoMutation, UnannotatedFamiliesGetVerdictsThroughTheBinary) {
  ROOFLAB_REQUIRE_LIBCLANG();
  ROOFLAB_REQUIRE_CPU_DEVICE();
  rooflab::testing::TempDir dir;
  const std::string out = (dir.path() / "out").string();
  dir.write("cfg.toml",
            "[run]\ndevice = \"cpu\"\nrepetitions = 2\nwarmup = 1\n"
            "modes = [\"normal\", \"compute-only\", \"memory-only\"]\nceilings = \"datasheet\"\n"
            "kernels = [\"" +
                kFixtures + "\"]\nout = \"" + out +
                "\"\nformats = [\"json\"]\n"
                "[[study]]\nfamily = \"gemm_plain\"\nparams = { N = 128 }\n"
                "[[study]]\nfamily = \"sum_plain\"\nparams = { N = 262144 }\n"
                "[[study]]\nfamily = \"axpy_plain\"\nvariants = [\"float4\", \"vload4\"]\nparams = { N = 1048576 }\n");
  const std::string command = std::string(ROOFLAB_BINARY) + " run " + (dir.path() / "cfg.toml").string() +
                              " --quiet > " + (dir.path() / "log").string() + " 2>&1";
  const int status = std::system(command.c_str());
  ASSERT_EQ(WEXITSTATUS(status), 0) << rooflab::testing::fileText(dir.path() / "log");
  const nlohmann::json results = nlohmann::json::parse(rooflab::testing::fileText(out + "/results.json"));
  std::set<std::string> verdicts;
  for (const auto& r : results["records"]) {
    SCOPED_TRACE(r["variant"].get<std::string>() + " " + r["mode"].get<std::string>());
    ASSERT_EQ(r["status"], "ok") << r["error"];
    if (r["mode"] != "normal") {
      EXPECT_EQ(r["mutant_origin"], "automatic");
      EXPECT_EQ(r["mutant_source_check"]["original"], r["mutant_source_check"]["mutant"]);
      continue;
    }
    EXPECT_FALSE(r.contains("mutant_origin"));
    EXPECT_TRUE(r["verification"]["status"] == "passed") << r["verification"].dump();
    const auto& mutation = r["mutation"];
    ASSERT_TRUE(mutation.is_object());
    // A verdict, or none because a mutant ran far slower than the kernel (PoCL may not vectorise it).
    EXPECT_TRUE(mutation["verdict"] != "unknown" || mutation.contains("slower_mutant")) << mutation.dump();
    for (const char* mode : {"memory-only", "compute-only"}) {
      EXPECT_TRUE(mutation["validation"][mode]["valid"].get<bool>()) << mutation.dump();
      EXPECT_NE(mutation["validation"][mode]["quantity"].get<std::string>().find("in the source"), std::string::npos);
    }
    verdicts.insert(r["variant"].get<std::string>());
  }
  EXPECT_EQ(verdicts, (std::set<std::string>{"naive", "tiled", "two_stage", "float4", "vload4"}));
}

// Read-modify-writes of a global element as library code writes them: whatever the operator and
// the target (an element with a computed index, a member, a vector lane, a cast vector, an element
// of an array member `s->a[k]`, an index with a side effect), both mutants keep the original's
// counts (the index is evaluated once) and build on PoCL.
TEST(AutoMutation, EveryReadModifyWriteFormKeepsTheOriginalsCounts) {
  ROOFLAB_REQUIRE_LIBCLANG();
  ROOFLAB_REQUIRE_CPU_DEVICE();
  const std::string head =
      "typedef struct { float x; float y; } Point;\ntypedef struct { float a[64]; } Rows;\n"
      "kernel void k(global float* c, global int* m, global float4* v, global Point* p, global Rows* s,"
      " float beta, int bits) {\n  int i = get_global_id(0);\n  int j = 2 * i;\n  ";
  for (const char* statement : {"c[2*i+1] *= beta;",    "c[2*i+1] += beta;",   "c[2*i+1] -= beta;",
                                "c[2*i+1] /= beta;",    "m[2*i+1] |= bits;",   "m[2*i+1] &= bits;",
                                "m[2*i+1] ^= bits;",    "m[2*i+1] <<= 1;",     "m[2*i+1] += bits;",
                                "m[2*i+1]++;",          "++m[2*i+1];",         "m[2*i+1]--;",
                                "--m[2*i+1];",          "c[2*i+1]++;",         "p[2*i+1].x += beta;",
                                "v[2*i+1].s0 += beta;", "v[2*i+1].y *= beta;", "((global float4*)c)[2*i+1].y *= beta;",
                                "c[j++] += beta;",      "c[i] += beta;",       "s->a[2*i+1] += beta;",
                                "s[i].a[j] *= beta;"}) {
    SCOPED_TRACE(statement);
    const std::string text = head + statement + "\n}\n";
    const AutoMutant compute = mutate("/tmp/rmw.cl", text, AutoMutantKind::compute_only);
    ASSERT_TRUE(compute.source) << compute.reason;
    EXPECT_EQ(compute.mutant.global_loads, compute.original.structure_loads) << *compute.source;
    EXPECT_EQ(compute.mutant.global_stores, compute.original.global_stores) << *compute.source;
    EXPECT_EQ(compute.mutant.float_ops, compute.original.float_ops) << *compute.source;
    EXPECT_EQ(compute.mutant.int_ops, compute.original.int_ops) << *compute.source;
    EXPECT_EQ(rooflab::testing::buildMutantOnPocl(compute), "");
    const AutoMutant memory = mutate("/tmp/rmw.cl", text, AutoMutantKind::memory_only);
    ASSERT_TRUE(memory.source) << memory.reason;
    EXPECT_EQ(memory.mutant.global_loads, memory.original.global_loads) << *memory.source;
    EXPECT_EQ(memory.mutant.global_stores, memory.original.global_stores) << *memory.source;
    EXPECT_EQ(memory.mutant.float_ops, memory.original.structure_float_ops) << *memory.source;
    EXPECT_EQ(memory.mutant.int_ops, memory.original.structure_int_ops) << *memory.source;
    EXPECT_EQ(rooflab::testing::buildMutantOnPocl(memory), "");
    // A side effect in the index happens once in either mutant.
    if (std::string(statement).find("j++") != std::string::npos) {
      for (const std::string* source : {&*compute.source, &*memory.source})
        EXPECT_EQ(source->find("j++"), source->rfind("j++")) << *source;
    }
  }
}

// The idiom of peak-throughput benchmarks: chains of mad on a scalar argument and the work-item's id,
// never reading memory. The memory-only mutant drops that arithmetic instead of folding it (a fold
// per operation made it run longer than the original on a GPU); arithmetic on a loaded value stays
// folded so that the load is still needed, and only its operands that came from memory are kept.
TEST(AutoMutation, MemoryOnlyDropsArithmeticOnValuesNeverReadFromMemory) {
  ROOFLAB_REQUIRE_LIBCLANG();
  ROOFLAB_REQUIRE_CPU_DEVICE();
  const std::string text = "kernel void peak(global float* out, float seed) {\n"
                           "  float x = seed;\n"
                           "  float y = (float)get_local_id(0);\n"
                           "  for (int r = 0; r < 64; ++r) {\n"
                           "    x = mad(y, x, y);\n"
                           "    y = mad(x, y, x);\n"
                           "    x = x * y + 0.5f;\n"
                           "  }\n"
                           "  out[get_global_id(0)] = y;\n"
                           "}\n"
                           "kernel void scaled(global const float* in, global float* out, float alpha) {\n"
                           "  int i = get_global_id(0);\n"
                           "  float v = in[i];\n"
                           "  float w = alpha * 2.0f;\n"
                           "  float acc = 0.0f;\n"
                           "  acc += v * w + v;\n"
                           "  out[i] = acc;\n"
                           "}\n"
                           "kernel void bins(global const float* in, global int* out) {\n"
                           "  int counts[4] = {0, 0, 0, 0};\n"
                           "  int i = get_global_id(0);\n"
                           "  counts[min((int)(in[i] * 4.0f), 3)] += 1;\n"
                           "  out[i] = counts[0];\n"
                           "}\n";
  const AutoMutant memory = mutate("/tmp/peak.cl", text, AutoMutantKind::memory_only);
  ASSERT_TRUE(memory.source) << memory.reason;
  EXPECT_EQ(memory.original.float_ops, 9);
  // Only the bin's scaling, which decides an address, stays.
  EXPECT_EQ(memory.original.structure_float_ops, 1);
  EXPECT_EQ(memory.mutant.float_ops, 1) << *memory.source;
  EXPECT_EQ(memory.mutant.global_loads, 2) << *memory.source;
  EXPECT_EQ(memory.mutant.global_stores, 3) << *memory.source;
  const std::string& source = *memory.source;
  const std::string peak = source.substr(0, source.find("kernel void scaled"));
  const std::string scaled = source.substr(source.find("kernel void scaled"),
                                           source.find("kernel void bins") - source.find("kernel void scaled"));
  // An element updated by a value from registers (a histogram's private count) keeps its fold: as a
  // copy of itself the update, and the load only its index needs, could be deleted.
  EXPECT_NE(source.find("rl_auto_fold_int(", source.find("kernel void bins")), std::string::npos) << source;
  EXPECT_EQ(peak.find("rl_auto_fold_"), std::string::npos) << peak;
  // v * w + v: the product keeps v alone, the sum folds v with it, and acc += that folds acc in.
  std::size_t folds = 0;
  for (std::size_t at = scaled.find("rl_auto_fold_float("); at != std::string::npos;
       at = scaled.find("rl_auto_fold_float(", at + 1))
    ++folds;
  EXPECT_EQ(folds, 2u) << scaled;
  EXPECT_EQ(rooflab::testing::buildMutantOnPocl(memory), "");
}
