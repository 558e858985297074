// Typed roofs: a family whose work is in double (or declared in integers) stands under that type's
// compute roof, on every model, and a batch that studies one measures that roof; a float family's
// batch measures none of them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "analyzer/roofline/roofline.hpp"
#include "analyzer/place/place_record.hpp"
#include "analyzer/roofline/device_models.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/manifest/manifest.hpp"
#include "analyzer/roofline/roofline_models.hpp"
#include "reports/text/roofline_sentences.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using rooflab::Arithmetic;
using rooflab::RunRecord;
using namespace rooflab::testing;

namespace {

rooflab::DeviceModel gtx670() { return *rooflab::findDeviceModel(rooflab::loadDeviceModels(), "gtx670"); }

RunRecord recordOf(Arithmetic arithmetic, double flops, double bytes) {
  RunRecord record;
  record.work.flops = flops;
  record.work.bytes = bytes;
  record.work.arithmetic = arithmetic;
  return record;
}

}  // namespace

TEST(TypedRoofs, DoubleWorkStandsUnderTheFp64RoofOfTheCourseModel) {
  rooflab::RooflineModels models{gtx670(), std::nullopt, std::nullopt, std::nullopt};
  // 10 FLOP/B: right of the FP64 ridge (102.5 / 192.3 = 0.53), far left of the FP32 one (12.8).
  const auto dgemm_like = rooflab::placeRecord(recordOf(Arithmetic::fp64, 10e6, 1e6), models);
  const auto& placement = dgemm_like.at("gtx670");
  ASSERT_TRUE(placement.attainable_gflops.has_value())
      << rooflab::reports::placementReasonsText(placement).value_or("");
  EXPECT_DOUBLE_EQ(*placement.attainable_gflops, 102.5);
  EXPECT_NEAR(placement.ridge_intensity, 102.5 / 192.3, 1e-12);

  const auto in_float = rooflab::placeRecord(recordOf(Arithmetic::fp32, 10e6, 1e6), models);
  EXPECT_NEAR(*in_float.at("gtx670").attainable_gflops, 1923.0, 1e-9);  // 10 x 192.3, under 2460

  const auto integer = rooflab::placeRecord(recordOf(Arithmetic::int32, 10e6, 1e6), models);
  EXPECT_NEAR(*integer.at("gtx670").attainable_gflops, 409.92, 1e-9);
}

TEST(TypedRoofs, AModelWithoutTheTypesPeakSaysSo) {
  rooflab::DeviceModel model = gtx670();
  model.key = "bare";
  model.fp64_gflops.reset();
  rooflab::RooflineInput input;
  input.flops = 2e6;
  input.dram_bytes = 1e6;
  input.arithmetic = Arithmetic::fp64;
  const auto placement = rooflab::placeOnRoofline(model, input);
  EXPECT_FALSE(placement.attainable_gflops.has_value());
  EXPECT_DOUBLE_EQ(*placement.intensity, 2.0);
  EXPECT_EQ(rooflab::reports::placementReasonsText(placement), "model 'bare' has no fp64 peak: no roof for this work");
}

// Through the binary, as a user runs it: the daxpy fixture (double buffers) on PoCL, ceilings
// measured. Its records say fp64, stand under 102.5 GFLOP/s on the GTX 670, and the device's
// measured model and the ceilings carry the FP64 roof.
TEST(TypedRoofs, DoubleFamilyIsPlacedAndMeasuredAgainstFp64) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  fs::create_directories(dir.path() / "kernels");
  fs::copy(fs::path(ROOFLAB_SOURCE_DIR) / "tests/fixtures/kernels/daxpy", dir.path() / "kernels" / "daxpy",
           fs::copy_options::recursive);
  std::ofstream(dir.path() / "batch.toml")
      << replaced(kQuickCpuRun, "ceilings = \"datasheet\"", "ceilings = \"measure\"")
      << "[[study]]\nfamily = \"daxpy\"\nvariants = [\"*\"]\n";
  const BinaryOutcome run = runRooflab("run batch.toml", dir.path());
  ASSERT_EQ(run.exit_code, 0) << show(run);
  EXPECT_TRUE(contains(run.err, "FP64 multiply-add")) << show(run);
  const auto results = nlohmann::json::parse(fileText(dir.path() / "out" / "results.json"));

  const auto& ceilings = results.at("models").at("ceilings");
  ASSERT_TRUE(ceilings.contains("fp64_fma")) << ceilings.dump(1);
  EXPECT_GT(ceilings.at("fp64_fma").at("gflops").get<double>(), 0.0);
  EXPECT_FALSE(ceilings.contains("int32_mad"));  // no family declares integer work
  EXPECT_TRUE(ceilings.contains("l2_read"));
  const double device_fp64 = results.at("models").at("device").at("fp64_gflops").get<double>();
  EXPECT_DOUBLE_EQ(device_fp64, ceilings.at("fp64_fma").at("gflops").get<double>());

  ASSERT_EQ(results.at("records").size(), 2u);
  for (const auto& record : results.at("records")) {
    SCOPED_TRACE(record.at("variant").get<std::string>());
    EXPECT_EQ(record.at("work").at("arithmetic"), "fp64");
    const auto& on_course = record.at("roofline").at("gtx670");
    EXPECT_LE(on_course.at("attainable_gflops").get<double>(), 102.5);
    EXPECT_NEAR(on_course.at("ridge_intensity").get<double>(), 102.5 / 192.3, 1e-9);
    EXPECT_NEAR(record.at("roofline").at("device").at("ridge_intensity").get<double>(),
                device_fp64 / results.at("models").at("device").at("dram_gbps").get<double>(), 1e-9);
  }
}

// A float family's batch measures no FP64 or integer roof: they cost time only where needed.
TEST(TypedRoofs, FloatFamilyMeasuresNoTypedRoof) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  fs::create_directories(dir.path() / "kernels");
  std::ofstream(dir.path() / "batch.toml")
      << replaced(kQuickCpuRun, "ceilings = \"datasheet\"", "ceilings = \"measure\"")
      << "[[study]]\nfamily = \"vecadd\"\nvariants = [\"global\"]\n"
         "params = { N = [4096] }\n";
  const BinaryOutcome run = runRooflab("run batch.toml", dir.path());
  ASSERT_EQ(run.exit_code, 0) << show(run);
  const auto results = nlohmann::json::parse(fileText(dir.path() / "out" / "results.json"));
  const auto& ceilings = results.at("models").at("ceilings");
  EXPECT_FALSE(ceilings.contains("fp64_fma") || ceilings.contains("int32_mad")) << ceilings.dump(1);
  EXPECT_FALSE(results.at("records").at(0).at("work").contains("arithmetic"));
}

// [work] type declares the type a family computes in; a float first buffer with no declaration is
// FP32 work, a bad type names the file, the key and the line.
TEST(TypedRoofs, ManifestWorkTypeDeclaresTheArithmetic) {
  TempDir dir;
  const std::string variant =
      "[[variants]]\nname = \"v\"\nsource = \"k.cl\"\nkernel = \"add\"\nargs = [\"a\", \"b\", \"c\"]\n"
      "global = [\"N\"]\n";
  dir.write("fam/k.cl", "kernel void add(global const float* a, global const float* b, global float* c) {}\n");
  const std::string header = vecaddFamilyHeader("fam");
  dir.write("fam/family.toml", replaced(header, "bytes = \"12*N\"\n", "bytes = \"12*N\"\ntype = \"int\"\n") + variant);
  EXPECT_EQ(rooflab::loadFamilyManifest(dir.path() / "fam/family.toml").work_type->scalar, rooflab::ScalarKind::i32);

  dir.write("fam/family.toml", header + variant);
  EXPECT_FALSE(rooflab::loadFamilyManifest(dir.path() / "fam/family.toml").work_type.has_value());

  dir.write("fam/family.toml", replaced(header, "bytes = \"12*N\"\n", "bytes = \"12*N\"\ntype = \"quad\"\n") + variant);
  try {
    rooflab::loadFamilyManifest(dir.path() / "fam/family.toml");
    ADD_FAILURE() << "a bad [work] type must be an input error";
  } catch (const rooflab::InputError& error) {
    const std::string message = error.what();
    EXPECT_TRUE(contains(message, "family.toml:7")) << message;
    EXPECT_TRUE(contains(message, "unknown type 'quad'")) << message;
  }
}
