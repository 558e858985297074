// A family's reference variant (`reference = "variant:..."`) judges the others, so its own output is
// checked too: a reference that writes NaN or inf fails, the records it was to judge fail naming
// it, and the batch exits 1 as for any verification failure.
#include "binary/reliability_workspace.hpp"

namespace {

const char* kReferenceSource = R"(
kernel void add(global const float* a, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}
kernel void add_nan(global const float* a, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = (i % 7 == 3) ? NAN : a[i] + b[i];
}
)";

std::string referenceFamily(const std::string& reference_kernel) {
  std::string text = replaced(rooflab::testing::vecaddFamilyHeader("refd"), "reference = \"cpu:vecadd\"",
                              "reference = \"variant:ref\"");
  for (const auto& [name, kernel] : {std::pair{"ref", reference_kernel}, std::pair{"good", std::string("add")}})
    text += "[[variants]]\nname = \"" + std::string(name) + "\"\nsource = \"k.cl\"\nkernel = \"" + kernel +
            "\"\nargs = [\"a\", \"b\", \"c\", \"N\"]\nglobal = [\"N\"]\nlocal = [\"64\"]\n";
  return text;
}

struct ReferenceWorkspace {
  TempDir dir;
  explicit ReferenceWorkspace(const std::string& reference_kernel) {
    dir.write("kernels/refd/k.cl", kReferenceSource);
    dir.write("kernels/refd/family.toml", referenceFamily(reference_kernel));
    dir.write("cfg.toml", std::string(kRun) + "[[study]]\nfamily = \"refd\"\n");
  }
  Outcome run() const { return runRooflab("run cfg.toml --quiet", dir.path()); }
  nlohmann::json verification(const std::string& variant_name) const {
    return recordOf(readJsonFile(dir.path() / "out" / "results.json"), variant_name)["verification"];
  }
};

std::string detail(const nlohmann::json& verification) {
  return verification["detail"].is_string() ? verification["detail"].get<std::string>() : "";
}

}  // namespace

TEST(ReferenceOutput, AReferenceThatWritesNaNFailsAndSoDoTheRecordsItJudges) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  const ReferenceWorkspace w("add_nan");
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 1) << show(o);
  const nlohmann::json ref = w.verification("ref"), good = w.verification("good");
  EXPECT_EQ(ref["status"], "failed") << ref.dump(1);
  EXPECT_TRUE(contains(detail(ref), "this variant is the family's reference")) << ref.dump(1);
  EXPECT_TRUE(contains(detail(ref), "c: 585 of 4096 values NaN or infinite (first at 3)")) << ref.dump(1);
  EXPECT_EQ(good["status"], "failed") << good.dump(1);
  EXPECT_TRUE(contains(detail(good), "the reference (variant:ref) is at fault, not this variant")) << good.dump(1);
  // The terminal's table: the reference's wrong values, and who is at fault for the other's failure.
  EXPECT_TRUE(contains(o.out, "FAILED (585 wrong)")) << show(o);
  EXPECT_TRUE(contains(o.out, "FAILED (reference at fault)")) << show(o);
}

// The same family with a reference that computes the right thing passes as before.
TEST(ReferenceOutput, AFiniteReferenceStillPasses) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  const ReferenceWorkspace w("add");
  const Outcome o = w.run();
  EXPECT_EQ(o.exit_code, 0) << show(o);
  EXPECT_EQ(w.verification("ref")["status"], "reference");
  EXPECT_EQ(w.verification("good")["status"], "passed");
}
