// Device models (analyzer/device_model.hpp): the shipped configs/devices/*.toml, errors that name
// file, key and line, matching OpenCL device names, and TOML / JSON round trips.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

#include "analyzer/roofline/device_models.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/json/results_json.hpp"

namespace fs = std::filesystem;
using rooflab::DeviceInfo;
using rooflab::DeviceModel;
using rooflab::InputError;

namespace {

const std::vector<DeviceModel>& shippedModels() {
  static const std::vector<DeviceModel> models = rooflab::loadDeviceModels();
  return models;
}

const DeviceModel& shipped(const std::string& key) {
  for (const DeviceModel& model : shippedModels())
    if (model.key == key) return model;
  throw std::runtime_error("no shipped model " + key);
}

// A scratch folder per test, removed afterwards.
class ModelsTempDir {
 public:
  ModelsTempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ =
        fs::temp_directory_path() / (std::string("rooflab_models_") + info->name() + "_" + std::to_string(::getpid()));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~ModelsTempDir() { fs::remove_all(path_); }
  fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(path_ / name) << text;
    return path_ / name;
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Loading `text` must fail with a message naming the file, `key` and `line`.
void expectLoadError(const std::string& text, const std::string& key, int line) {
  ModelsTempDir dir;
  const fs::path file = dir.write("broken.toml", text);
  try {
    rooflab::loadDeviceModel(file);
    FAIL() << "loaded a bad model:\n" << text;
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(file.string()), std::string::npos) << message;
    EXPECT_NE(message.find(key), std::string::npos) << message;
    if (line > 0) {
      EXPECT_NE(message.find(":" + std::to_string(line) + ":"), std::string::npos) << message;
    }
  }
}

DeviceInfo deviceNamed(const std::string& name) {
  DeviceInfo info;
  info.name = name;
  return info;
}

// The key of the shipped model matched to a device name, or "none".
std::string matchedKey(const std::string& device_name) {
  auto model = rooflab::matchDeviceModel(deviceNamed(device_name), shippedModels());
  return model ? model->key : "none";
}

const char* kMinimalModel = "peak_gflops = 100.0\n"
                            "dram_gbps = 10.0\n"
                            "[sources]\n"
                            "peak_gflops = \"test\"\n"
                            "dram_gbps = \"test\"\n";

}  // namespace

TEST(DeviceModels, ShipsTheCourseAndDatacenterModels) {
  std::set<std::string> keys;
  for (const DeviceModel& model : shippedModels()) keys.insert(model.key);
  for (const char* key : {"gtx670", "gtx280", "tesla-k80", "h100-sxm", "h200"}) EXPECT_TRUE(keys.count(key)) << key;
}

TEST(DeviceModels, EveryShippedNumberHasASourceAndIsPositive) {
  for (const DeviceModel& model : shippedModels()) {
    SCOPED_TRACE(model.key);
    EXPECT_GT(model.peak_gflops, 0);
    EXPECT_GT(model.dram_gbps, 0);
    EXPECT_FALSE(model.display_name.empty());
    EXPECT_FALSE(model.match_names.empty());
    EXPECT_TRUE(model.local_gbps.has_value());
    for (const char* field :
         {"peak_gflops", "dram_gbps", "local_gbps", "local_mem_bytes", "compute_units", "clock_mhz"}) {
      ASSERT_TRUE(model.sources.count(field)) << field;
      EXPECT_FALSE(model.sources.at(field).empty()) << field;
    }
    EXPECT_FALSE(model.measured.has_value());
  }
}

TEST(DeviceModels, Gtx670HasTheCourseFigures) {
  const DeviceModel& gtx670 = shipped("gtx670");
  EXPECT_DOUBLE_EQ(gtx670.peak_gflops, 2460.0);
  EXPECT_DOUBLE_EQ(gtx670.dram_gbps, 192.3);
  EXPECT_EQ(gtx670.local_mem_bytes, 48u * 1024u);
  EXPECT_EQ(gtx670.compute_units, 7u);
  EXPECT_EQ(gtx670.fp32_lanes_per_cu, 192u);
  EXPECT_EQ(gtx670.base_clock_mhz, 915u);
  EXPECT_EQ(gtx670.clock_mhz, 980u);
  // The course's peak is the base-clock figure: 7 x 192 x 2 x 0.915 GHz.
  EXPECT_NEAR(gtx670.peak_gflops, 7 * 192 * 2 * 0.915, 1.0);
  EXPECT_NEAR(gtx670.ridgeIntensity(), 2460.0 / 192.3, 1e-12);
}

// The compute roofs of double and integer work, beside the course figures (unchanged above).
TEST(DeviceModels, ModelsCarryFp64AndInt32Roofs) {
  const DeviceModel& gtx670 = shipped("gtx670");
  ASSERT_TRUE(gtx670.fp64_gflops.has_value());
  EXPECT_DOUBLE_EQ(*gtx670.fp64_gflops, 102.5);  // GK104: FP64 at 1/24 of FP32
  EXPECT_NEAR(*gtx670.fp64_gflops, gtx670.peak_gflops / 24, 0.01);
  EXPECT_NEAR(*gtx670.int32_gops, 7 * 32 * 2 * 0.915, 0.01);  // 32 IMADs per clock per SMX
  EXPECT_DOUBLE_EQ(*shipped("h100-sxm").fp64_gflops, 33500.0);
  EXPECT_NEAR(*shipped("h100-sxm").int32_gops, 132 * 64 * 2 * 1.98, 0.1);
  EXPECT_DOUBLE_EQ(*shipped("h200").fp64_gflops, 34000.0);
  for (const char* key : {"gtx670", "h100-sxm", "h200"}) {
    SCOPED_TRACE(key);
    EXPECT_TRUE(shipped(key).sources.count("fp64_gflops"));
    EXPECT_EQ(shipped(key).computePeak(rooflab::Arithmetic::fp32), shipped(key).peak_gflops);
    EXPECT_EQ(shipped(key).computePeak(rooflab::Arithmetic::fp64), shipped(key).fp64_gflops);
  }
  EXPECT_FALSE(shipped("gtx280").fp64_gflops.has_value());  // no figure: placements say there is no roof
}

TEST(DeviceModels, DerivedFiguresFollowTheirStatedArithmetic) {
  // Local bandwidth: banks x bytes per bank per clock x SMs x clock, as each source string says.
  EXPECT_NEAR(*shipped("gtx670").local_gbps, 32 * 4 * 7 * 0.915, 0.1);
  EXPECT_NEAR(*shipped("gtx280").local_gbps, 16 * 4 / 2.0 * 30 * 1.296, 0.1);
  EXPECT_NEAR(*shipped("tesla-k80").local_gbps, 32 * 4 * 13 * 0.875, 0.1);
  EXPECT_NEAR(*shipped("h100-sxm").local_gbps, 32 * 4 * 132 * 1.98, 0.1);
  EXPECT_NEAR(*shipped("h200").local_gbps, 32 * 4 * 132 * 1.98, 0.1);
  // FP32 peaks: SMs x lanes x 2 flops x clock.
  EXPECT_NEAR(shipped("gtx280").peak_gflops, 30 * 8 * 2 * 1.296, 0.1);
  EXPECT_NEAR(shipped("tesla-k80").peak_gflops, 13 * 192 * 2 * 0.875, 0.1);
  EXPECT_NEAR(shipped("h100-sxm").peak_gflops, 132 * 128 * 2 * 1.98, 0.2);
  EXPECT_DOUBLE_EQ(shipped("h200").peak_gflops, shipped("h100-sxm").peak_gflops);
  EXPECT_DOUBLE_EQ(shipped("h100-sxm").dram_gbps, 3350.0);
  EXPECT_DOUBLE_EQ(shipped("h200").dram_gbps, 4800.0);
  EXPECT_EQ(shipped("h100-sxm").local_mem_bytes, 228u * 1024u);
  EXPECT_EQ(shipped("h100-sxm").last_level_cache_bytes, 50u * 1024u * 1024u);
  EXPECT_FALSE(shipped("gtx280").last_level_cache_bytes.has_value());  // GT200 has no L2
}

TEST(DeviceModels, MatchesOpenClDeviceNames) {
  EXPECT_EQ(matchedKey("NVIDIA GeForce GTX 670"), "gtx670");
  EXPECT_EQ(matchedKey("GeForce GTX 280"), "gtx280");
  EXPECT_EQ(matchedKey("geforce gtx 280"), "gtx280");  // case-insensitive
  EXPECT_EQ(matchedKey("Tesla K80"), "tesla-k80");
  EXPECT_EQ(matchedKey("NVIDIA H100 80GB HBM3"), "h100-sxm");
  EXPECT_EQ(matchedKey("NVIDIA H200"), "h200");
  // Other boards of the same names have other SM counts, clocks or memories: no model beats a wrong one.
  EXPECT_EQ(matchedKey("NVIDIA H100 PCIe"), "none");
  EXPECT_EQ(matchedKey("NVIDIA H100 NVL"), "none");
  EXPECT_EQ(matchedKey("NVIDIA GH200 480GB"), "none");
  EXPECT_EQ(matchedKey("pthread-skylake-avx512-AMD EPYC"), "none");
}

TEST(DeviceModels, LongestMatchingRuleWins) {
  DeviceModel generic = rooflab::parseDeviceModel(std::string(kMinimalModel) + "", "generic", "generic");
  generic.match_names = {"H100"};
  DeviceModel nvl = generic;
  nvl.key = "h100-nvl";
  nvl.match_names = {"H100 NVL"};
  const std::vector<DeviceModel> models = {generic, nvl};
  EXPECT_EQ(rooflab::matchDeviceModel(deviceNamed("NVIDIA H100 NVL"), models)->key, "h100-nvl");
  EXPECT_EQ(rooflab::matchDeviceModel(deviceNamed("NVIDIA H100 80GB HBM3"), models)->key, "generic");
}

TEST(DeviceModels, FindsAModelByKey) {
  EXPECT_EQ(rooflab::findDeviceModel(shippedModels(), "gtx670")->display_name, "GeForce GTX 670 (course model)");
  EXPECT_FALSE(rooflab::findDeviceModel(shippedModels(), "gtx9999").has_value());
}

TEST(DeviceModels, KeyIsTheFileStem) {
  ModelsTempDir dir;
  const DeviceModel model = rooflab::loadDeviceModel(dir.write("my-box.toml", kMinimalModel));
  EXPECT_EQ(model.key, "my-box");
  EXPECT_EQ(model.display_name, "my-box");  // defaults to the key
  EXPECT_FALSE(model.local_gbps.has_value());
}

TEST(DeviceModels, BadValueNamesFileKeyAndLine) {
  expectLoadError("dram_gbps = 10.0\npeak_gflops = -5.0\n[sources]\ndram_gbps = \"x\"\npeak_gflops = \"x\"\n",
                  "peak_gflops", 2);
  expectLoadError("peak_gflops = 100.0\ndram_gbps = \"fast\"\n[sources]\npeak_gflops = \"x\"\ndram_gbps = \"x\"\n",
                  "dram_gbps", 2);
  expectLoadError("peak_gflops = 100.0\ndram_gbps = nan\n[sources]\npeak_gflops = \"x\"\ndram_gbps = \"x\"\n",
                  "dram_gbps", 2);
  expectLoadError(std::string(kMinimalModel) + "compute_units = 7.5\n", "compute_units", 6);
}

TEST(DeviceModels, UnknownKeyNamesFileKeyAndLine) {
  expectLoadError("peak_gflops = 100.0\ndram_gbps = 10.0\npeak_gflop = 3.0\n", "peak_gflop", 3);
}

TEST(DeviceModels, NumberWithoutSourceIsAnError) {
  expectLoadError("peak_gflops = 100.0\ndram_gbps = 10.0\nlocal_gbps = 50.0\n[sources]\npeak_gflops = \"x\"\n"
                  "dram_gbps = \"x\"\n",
                  "local_gbps", 3);
  expectLoadError(std::string(kMinimalModel) + "clock_mhz = \"x\"\n", "sources.clock_mhz", 6);
}

TEST(DeviceModels, MissingRequiredNumberNamesFileAndKey) {
  expectLoadError("peak_gflops = 100.0\n[sources]\npeak_gflops = \"x\"\n", "dram_gbps", 0);
}

TEST(DeviceModels, SyntaxErrorNamesFileAndLine) {
  expectLoadError("peak_gflops = 100.0\ndram_gbps = = 3\n", "TOML syntax error", 2);
}

TEST(DeviceModels, MissingFolderIsAnInputError) {
  EXPECT_THROW(rooflab::loadDeviceModels("/nonexistent/rooflab/devices"), InputError);
}

TEST(DeviceModels, TomlRoundTripOfEveryShippedModel) {
  for (const DeviceModel& model : shippedModels()) {
    SCOPED_TRACE(model.key);
    const std::string text = rooflab::toToml(model);
    EXPECT_EQ(rooflab::parseDeviceModel(text, model.key, "round trip of " + model.key), model) << text;
  }
}

TEST(DeviceModels, TomlRoundTripOfAMeasuredModelWithAwkwardText) {
  DeviceModel model = rooflab::parseDeviceModel(kMinimalModel, "measured", "test");
  model.display_name = "Quoted \"GPU\" \\ with a tab\tand\nnewline";
  model.match_names = {"pthread-skylake-avx512-AMD EPYC"};
  model.peak_gflops = 147.37892809950213;  // not a short decimal: must survive exactly
  model.dram_gbps = 1e-3;
  model.local_gbps = 42.5;
  model.sources["local_gbps"] = "rooflab ceilings";
  model.local_mem_bytes = 524288;
  model.sources["local_mem_bytes"] = "CL_DEVICE_LOCAL_MEM_SIZE";
  model.measured = rooflab::MeasurementStamp{"2026-11-22T13:00:00Z", "pthread \"cpu\"", "3.1+debian"};
  model.notes = "ünïcode stays";
  EXPECT_EQ(rooflab::parseDeviceModel(rooflab::toToml(model), "measured", "round trip"), model)
      << rooflab::toToml(model);
}

TEST(DeviceModels, JsonHasTheSchemaShapeAndRoundTrips) {
  const DeviceModel& gtx670 = shipped("gtx670");
  const nlohmann::json json = rooflab::toJson(gtx670);
  EXPECT_EQ(json["key"], "gtx670");
  EXPECT_EQ(json["display_name"], "GeForce GTX 670 (course model)");
  EXPECT_DOUBLE_EQ(json["peak_gflops"].get<double>(), 2460.0);
  EXPECT_DOUBLE_EQ(json["dram_gbps"].get<double>(), 192.3);
  EXPECT_EQ(json["local_mem_bytes"], 49152);
  EXPECT_EQ(json["compute_units"], 7);
  EXPECT_EQ(json["clock_mhz"], 980);
  EXPECT_TRUE(json["sources"]["peak_gflops"].is_string());
  EXPECT_TRUE(json["measured"].is_null());
  EXPECT_TRUE(rooflab::toJson(shipped("gtx280"))["last_level_cache_bytes"].is_null());
  for (const DeviceModel& model : shippedModels())
    EXPECT_EQ(rooflab::deviceModelFromJson(rooflab::toJson(model)), model);
}
