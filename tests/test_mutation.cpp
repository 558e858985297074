#include <gtest/gtest.h>

#include "mutators/mutation_verdict.hpp"

using namespace rooflab;

namespace {
nlohmann::json record(double median_ns, const std::string& mode = "normal") {
  return {{"status", "ok"}, {"mode", mode}, {"timings", {{"kernel_ns", {{"median", median_ns}}}}},
          {"counters", {{"available", false}, {"reason", "test"}}}};
}
nlohmann::json withCounters(nlohmann::json r, double flops, double sectors) {
  r["counters"] = {{"available", true},
                   {"derived", {{"fp32_flops", flops}}},
                   {"values",
                    {{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", sectors},
                     {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 0.0}}}};
  return r;
}
std::string verdictOf(double t, double t_mem, double t_comp) {
  const auto normal = record(t), mem = record(t_mem, "memory-only"), comp = record(t_comp, "compute-only");
  return analyseMutation(normal, &mem, &comp, 1000)["verdict"];
}
}  // namespace

TEST(MutationVerdict, FollowsTheCoursesReading) {
  EXPECT_EQ(verdictOf(1e6, 0.98e6, 0.55e6), "memory-bound");   // vecadd on an H100: t_mem ~ t
  EXPECT_EQ(verdictOf(1e6, 0.45e6, 1.01e6), "compute-bound");  // tiled nbody
  EXPECT_EQ(verdictOf(1e6, 0.95e6, 0.90e6), "balanced");       // both ~ t: optimise both
  EXPECT_EQ(verdictOf(1e6, 0.55e6, 0.50e6), "latency-bound");  // t ~ t_mem + t_comp: no overlap
  EXPECT_EQ(verdictOf(1e6, 0.30e6, 0.20e6), "memory-leaning");
  EXPECT_EQ(verdictOf(1e6, 0.20e6, 0.30e6), "compute-leaning");
}

TEST(MutationVerdict, ImpactEstimates) {
  const auto normal = record(1e6), mem = record(0.8e6, "memory-only"), comp = record(0.25e6, "compute-only");
  const auto m = analyseMutation(normal, &mem, &comp, 1000);
  EXPECT_DOUBLE_EQ(m["speedup_if_memory_free"].get<double>(), 4.0);    // t / t_comp
  EXPECT_DOUBLE_EQ(m["speedup_if_compute_free"].get<double>(), 1.25);  // t / t_mem
  EXPECT_EQ(m["validation"]["memory-only"]["by"], "construction");
}

TEST(MutationVerdict, ShortKernelsAreOverheadDominated) {
  EXPECT_EQ(verdictOf(8000, 7000, 6000), "overhead-dominated");
}

TEST(MutationVerdict, AMutantThatFailsValidationIsNotUsed) {
  const auto normal = withCounters(record(1e6), 1000, 500);
  const auto mem = withCounters(record(0.9e6, "memory-only"), 0, 500);        // same sectors: valid
  const auto comp = withCounters(record(0.5e6, "compute-only"), 800, 0);      // 20% fewer FLOPs: invalid
  const auto m = analyseMutation(normal, &mem, &comp, 1000);
  EXPECT_TRUE(m["validation"]["memory-only"]["valid"].get<bool>());
  EXPECT_FALSE(m["validation"]["compute-only"]["valid"].get<bool>());
  EXPECT_TRUE(m["t_comp_ns"].is_null());
  EXPECT_EQ(m["verdict"], "unknown");
}

TEST(MutationVerdict, NoOriginalNoVerdict) {
  nlohmann::json failed = {{"status", "error"}};
  EXPECT_EQ(analyseMutation(failed, nullptr, nullptr, 1)["verdict"], "unknown");
}
