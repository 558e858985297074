// What-if gains through the binary on PoCL: a gain is shown only when both records it compares ran
// and verified; otherwise the line says which record stood in the way and in what state.
#include "binary/reliability_workspace.hpp"

namespace {

// `add` is right; `copy` is wrong (it leaves b out); `add_crashing` writes far out of bounds (a
// segfault on a CPU device) unless the what-if's define is set.
const char* kGainSource = R"(
kernel void add(global const float* a, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
#ifdef RL_WHATIF_FAST
  if (i < n) c[i] = a[i];
#else
  if (i < n) c[i] = a[i] + b[i];
#endif
}
kernel void copy(global const float* a, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i];
}
kernel void add_crashing(global const float* a, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
#ifdef RL_WHATIF_FAST
  if (i < n) c[i] = a[i];
#else
  if (i < n) c[(long)i * 100000000L] = a[i] + b[i];
#endif
}
)";

std::string gainVariant(const std::string& name, const std::string& kernel, bool with_what_if) {
  std::string text = "[[variants]]\nname = \"" + name + "\"\nsource = \"k.cl\"\nkernel = \"" + kernel +
                     "\"\nargs = [\"a\", \"b\", \"c\", \"N\"]\nglobal = [\"N\"]\nlocal = [\"64\"]\n";
  if (with_what_if)
    text += "[[variants.what_if]]\nname = \"no-add\"\ndefine = \"RL_WHATIF_FAST\"\nrealised_by = \"fast\"\n";
  return text;
}

struct GainWorkspace {
  TempDir dir;
  GainWorkspace(const std::string& original_kernel, const std::string& fast_kernel) {
    dir.write("kernels/wi/k.cl", kGainSource);
    dir.write("kernels/wi/family.toml", rooflab::testing::vecaddFamilyHeader("wi") +
                                            gainVariant("slow", original_kernel, true) +
                                            gainVariant("fast", fast_kernel, false));
    dir.write("cfg.toml", replaced(std::string(kRun), "modes = [\"normal\"]", "modes = [\"normal\", \"what-if\"]") +
                              "[[study]]\nfamily = \"wi\"\n");
  }
  Outcome run() const { return runRooflab("run cfg.toml --quiet", dir.path()); }
  nlohmann::json whatIf() const {
    const nlohmann::json results = readJsonFile(dir.path() / "out" / "results.json");
    for (const auto& r : results["records"])
      if (r["mode"] == "what-if") return r["what_if"];
    return nullptr;
  }
};

// The terminal's line for the what-if.
std::string whatIfLine(const std::string& out) {
  const auto at = out.find("what-if wi/slow no-add");
  return at == std::string::npos ? "" : out.substr(at, out.find('\n', at) - at);
}

}  // namespace

// The real optimisation computes wrong results: how fast it is says nothing.
TEST(WhatIfGains, ARealisedByVariantThatFailsVerificationShowsNoGain) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  const GainWorkspace w("add", "copy");
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 1) << show(o);  // fast fails verification
  const std::string line = whatIfLine(o.out);
  ASSERT_FALSE(line.empty()) << show(o);
  EXPECT_FALSE(contains(line, "fast (the real optimisation) measured")) << line;
  EXPECT_TRUE(contains(line, "fast (the real optimisation): no gain shown: fast failed verification (")) << line;
  const nlohmann::json what_if = w.whatIf();
  ASSERT_TRUE(what_if.is_object()) << show(o);
  EXPECT_TRUE(what_if["realised_gain"].is_null()) << what_if.dump(1);
  EXPECT_FALSE(what_if.contains("realised_gain_unavailable")) << "schema 2 saves the reason as data";
  const nlohmann::json realised = what_if.value("realised_gain_withheld", nlohmann::json());
  EXPECT_EQ(realised.value("record", ""), "realisation") << what_if.dump(1);
  EXPECT_EQ(realised.value("variant", ""), "fast") << what_if.dump(1);
  EXPECT_EQ(realised.value("because", ""), "verification_failed") << what_if.dump(1);
  // The prediction compares the original with the what-if, both of which ran: it stands.
  EXPECT_TRUE(what_if["predicted_gain"].is_number()) << what_if.dump(1);
}

// The original crashed: neither gain has a time to start from, and the line says so rather than
// asking for a study that was made.
TEST(WhatIfGains, AWhatIfOfAVariantThatCrashedSaysItCrashed) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  const GainWorkspace w("add_crashing", "add");
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 1) << show(o);  // slow crashed
  const std::string line = whatIfLine(o.out);
  ASSERT_FALSE(line.empty()) << show(o);
  EXPECT_FALSE(contains(line, "study it in normal mode")) << line;
  EXPECT_TRUE(contains(line, "predicted gain: none shown: the original (slow) crashed")) << line;
  EXPECT_TRUE(contains(line, "fast (the real optimisation): no gain shown: the original (slow) crashed")) << line;
  const nlohmann::json what_if = w.whatIf();
  ASSERT_TRUE(what_if.is_object()) << show(o);
  EXPECT_TRUE(what_if["predicted_gain"].is_null()) << what_if.dump(1);
  EXPECT_TRUE(what_if["realised_gain"].is_null()) << what_if.dump(1);
  const nlohmann::json predicted = what_if.value("predicted_gain_withheld", nlohmann::json());
  EXPECT_EQ(predicted.value("record", ""), "original") << what_if.dump(1);
  EXPECT_EQ(predicted.value("variant", ""), "slow") << what_if.dump(1);
  EXPECT_EQ(predicted.value("because", ""), "run_ended") << what_if.dump(1);
  EXPECT_EQ(predicted.value("status", ""), "crashed") << what_if.dump(1);
}
