#include <gtest/gtest.h>

#include "analyzer/config/config.hpp"
#include "analyzer/support/errors.hpp"
#include "test_support.hpp"

using namespace rooflab;

namespace {
std::string configError(const std::string& text) {
  try {
    parseBatchConfig(text, "test.toml", "/tmp");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Config, ParsesRunAndStudies) {
  const BatchConfig c = parseBatchConfig(R"(
[run]
device = "cpu"
repetitions = 5
warmup = 1
modes = ["normal", "memory-only"]
counters = "off"
out = "o"
formats = ["json", "csv"]
kernels = ["kernels", "/abs/mine"]
[[study]]
family = "matmul"
variants = ["naive*", "tiled"]
params = { N = [64, 128], COL_MAJOR = 1 }
[[study]]
family = "vecadd"
modes = ["normal"]
)",
                                         "t.toml", "/base");
  EXPECT_EQ(c.run.device, "cpu");
  EXPECT_EQ(c.run.repetitions, 5);
  EXPECT_EQ(c.run.warmup, 1);
  ASSERT_EQ(c.run.modes.size(), 2u);
  EXPECT_EQ(c.run.modes[1], RunMode::memory_only);
  EXPECT_EQ(toString(c.run.counters), "off");
  ASSERT_EQ(c.run.kernels.size(), 2u);
  EXPECT_EQ(c.run.kernels[0], "/base/kernels");
  EXPECT_EQ(c.run.kernels[1], "/abs/mine");
  ASSERT_EQ(c.studies.size(), 2u);
  // toml++ keeps a table's keys sorted, so sweeps expand in key order.
  ASSERT_EQ(c.studies[0].params.size(), 2u);
  EXPECT_EQ(c.studies[0].params[0].first, "COL_MAJOR");
  EXPECT_EQ(c.studies[0].params[0].second, (std::vector<double>{1}));
  EXPECT_EQ(c.studies[0].params[1].first, "N");
  EXPECT_EQ(c.studies[0].params[1].second, (std::vector<double>{64, 128}));
  EXPECT_EQ(c.studies[1].variants, (std::vector<std::string>{"*"}));
  EXPECT_EQ(c.studies[1].modes.size(), 1u);
}

TEST(Config, DefaultConfigIsEmbeddedAndValid) {
  const BatchConfig c = defaultBatchConfig();
  EXPECT_FALSE(c.studies.empty());
  EXPECT_EQ(c.run.kernels.at(0), std::filesystem::path(ROOFLAB_SOURCE_DIR) / "kernels");
}

TEST(Config, BadInputsNameKeyAndLine) {
  struct Case {
    const char* text;
    const char* expect;
  } cases[] = {
      {"[run\n", "TOML syntax error"},
      {"[run]\nrepetitions = 0\n[[study]]\nfamily = \"x\"\n", "test.toml:2: run.repetitions"},
      {"[run]\nrepetitions = \"ten\"\n[[study]]\nfamily = \"x\"\n", "must be an integer"},
      {"[run]\nmodes = [\"fast\"]\n[[study]]\nfamily = \"x\"\n", "unknown mode 'fast'"},
      {"[run]\ncounters = \"maybe\"\n[[study]]\nfamily = \"x\"\n", "auto, on or off"},
      {"[run]\nformats = [\"pdf\"]\n[[study]]\nfamily = \"x\"\n", "unknown format 'pdf'"},
      {"[run]\nrepetition = 3\n[[study]]\nfamily = \"x\"\n", "unknown key"},
      {"[run]\n", "a config needs at least one [[study]]"},
      {"[[study]]\nvariants = [\"*\"]\n", "study[0].family: missing"},
      {"[[study]]\nfamily = \"x\"\nparams = { N = \"big\" }\n", "must be a number or an array"},
      {"[[study]]\nfamily = \"x\"\nparams = { N = [] }\n", "at least one value"},
      {"[[study]]\nfamily = \"x\"\nvariants = []\n", "at least one variant"},
  };
  for (const auto& c : cases) {
    const std::string error = configError(c.text);
    EXPECT_NE(error.find(c.expect), std::string::npos) << "config:\n" << c.text << "\nerror: " << error;
  }
}

TEST(Config, GlobMatch) {
  EXPECT_TRUE(globMatch("*", "anything"));
  EXPECT_TRUE(globMatch("naive*", "naive_1x128"));
  EXPECT_TRUE(globMatch("t?led", "tiled"));
  EXPECT_FALSE(globMatch("tiled", "tiled16"));
  EXPECT_TRUE(globMatch("*16", "tiled16"));
}

TEST(Config, ModeNamesRoundTrip) {
  for (RunMode m : {RunMode::normal, RunMode::compute_only, RunMode::memory_only}) EXPECT_EQ(parseMode(modeName(m)), m);
  EXPECT_FALSE(parseMode("fast"));
}

TEST(Config, ParamOverridesParseNumbersAndLists) {
  const ParamOverride one = parseParamOverride("N=4096");
  EXPECT_EQ(one.name, "N");
  EXPECT_EQ(one.values, (std::vector<double>{4096}));
  EXPECT_EQ(parseParamOverride("EPS=1e-3,0.5").values, (std::vector<double>{1e-3, 0.5}));
  for (const char* bad : {"N", "=4", "N=", "N=4,", "N=four", "N=4x", "N=64,64,64"})
    EXPECT_THROW(parseParamOverride(bad), InputError) << bad;
}

// The built-in families are searched wherever the config is, after its own folders; a kernels/
// beside the config is searched only when it exists.
TEST(Config, BuiltInFamiliesAreAlwaysOnTheSearchPath) {
  rooflab::testing::TempDir dir;
  const char* text = "[[study]]\nfamily = \"vecadd\"\n";
  const BatchConfig elsewhere = parseBatchConfig(text, "c.toml", dir.path());
  EXPECT_TRUE(elsewhere.run.kernels.empty());
  EXPECT_EQ(kernelSearchPath(elsewhere.run), (std::vector<std::filesystem::path>{builtinKernelsDir()}));
  dir.write("kernels/readme.txt", "");
  const BatchConfig beside = parseBatchConfig(text, "c.toml", dir.path());
  EXPECT_EQ(kernelSearchPath(beside.run),
            (std::vector<std::filesystem::path>{dir.path() / "kernels", builtinKernelsDir()}));
  EXPECT_EQ(kernelSearchPath(defaultBatchConfig().run), (std::vector<std::filesystem::path>{builtinKernelsDir()}));
}

TEST(Config, NoiseTargetKeysParseAndValidate) {
  const BatchConfig c = parseBatchConfig(
      "[run]\nmax_noise = 0.005\nmin_time = 0.5\nmax_time = 2\n[[study]]\nfamily = \"x\"\n", "t.toml", "/base");
  EXPECT_DOUBLE_EQ(c.run.max_noise, 0.005);
  EXPECT_DOUBLE_EQ(c.run.min_time_s, 0.5);
  EXPECT_DOUBLE_EQ(c.run.max_time_s, 2);
  const BatchConfig defaults = parseBatchConfig("[[study]]\nfamily = \"x\"\n", "t.toml", "/base");
  EXPECT_GT(defaults.run.max_noise, 0);
  EXPECT_LE(defaults.run.min_time_s, defaults.run.max_time_s);

  struct Case {
    const char* text;
    const char* expect;
  } cases[] = {
      {"[run]\nmax_noise = 0\n[[study]]\nfamily = \"x\"\n",
       "test.toml:2: run.max_noise: must be a finite number above 0"},
      {"[run]\nmax_noise = nan\n[[study]]\nfamily = \"x\"\n", "test.toml:2: run.max_noise: must be a finite"},
      {"[run]\nmax_time = inf\n[[study]]\nfamily = \"x\"\n", "test.toml:2: run.max_time: must be a finite"},
      {"[run]\nmax_time = -1\n[[study]]\nfamily = \"x\"\n", "run.max_time: must be a finite number above 0"},
      {"[run]\nmin_time = -0.5\n[[study]]\nfamily = \"x\"\n", "run.min_time: must be a finite number, 0 or above"},
      {"[run]\nmin_time = 3\nmax_time = 1\n[[study]]\nfamily = \"x\"\n", "test.toml:2: run.min_time: min_time (3"},
      {"[run]\nmax_noise = \"1%\"\n[[study]]\nfamily = \"x\"\n", "run.max_noise"},
  };
  for (const auto& c : cases) {
    const std::string error = configError(c.text);
    EXPECT_NE(error.find(c.expect), std::string::npos) << "config:\n" << c.text << "\nerror: " << error;
  }
}

// [run] device lists several devices as one string or an array; device_mode says what a batch does
// with them (compare unless it says shard); a bad mode or an array element that is a list is an
// error at its line.
TEST(Config, SeveralDevicesAndTheirMode) {
  const std::string study = "[[study]]\nfamily = \"vecadd\"\n";
  const BatchConfig joined = parseBatchConfig("[run]\ndevice = \"cpu,gpu\"\n" + study, "t.toml", "/base");
  EXPECT_EQ(joined.run.device, "cpu,gpu");
  EXPECT_EQ(joined.run.device_mode, DeviceMode::compare);
  const BatchConfig listed =
      parseBatchConfig("[run]\ndevice = [\"0:0\", \"0:1\"]\ndevice_mode = \"shard\"\n" + study, "t.toml", "/base");
  EXPECT_EQ(listed.run.device, "0:0,0:1");
  EXPECT_EQ(listed.run.device_mode, DeviceMode::shard);
  const std::string bad_mode = configError("[run]\ndevice_mode = \"both\"\n" + study);
  EXPECT_NE(bad_mode.find("test.toml:2: run.device_mode: must be compare or shard"), std::string::npos) << bad_mode;
  const std::string listed_list = configError("[run]\ndevice = [\"cpu,gpu\"]\n" + study);
  EXPECT_NE(listed_list.find("test.toml:2: run.device: each element must be one selector"), std::string::npos)
      << listed_list;
}

// [run] line_sampling names the records that get the PC-sampling pass: the originals unless it says
// otherwise; a value it does not know is an error at its line, and the config as run is written back
// with it only when it is not the default.
TEST(Config, LineSamplingNamesTheRecordsThatAreSampled) {
  const std::string study = "[[study]]\nfamily = \"vecadd\"\n";
  EXPECT_EQ(parseBatchConfig(study, "t.toml", "/base").run.line_sampling, LineSamplingSetting::originals);
  const BatchConfig all = parseBatchConfig("[run]\nline_sampling = \"all\"\n" + study, "t.toml", "/base");
  EXPECT_EQ(all.run.line_sampling, LineSamplingSetting::all);
  EXPECT_EQ(parseBatchConfig("[run]\nline_sampling = \"off\"\n" + study, "t.toml", "/base").run.line_sampling,
            LineSamplingSetting::off);
  const std::string bad = configError("[run]\nline_sampling = \"mutants\"\n" + study);
  EXPECT_NE(bad.find("test.toml:2: run.line_sampling: must be originals, all or off"), std::string::npos) << bad;
}

// [capture] folder names the capture's folder relative to the config; an unknown key or a folder
// that is not there is an error at its line.
TEST(Config, CaptureFolderIsReadRelativeToTheConfig) {
  rooflab::testing::TempDir dir;
  dir.write("app/capture.log", "");
  const std::string study = "[[study]]\nfamily = \"vecadd\"\n";
  const BatchConfig config = parseBatchConfig("[capture]\nfolder = \"app\"\n" + study, "c.toml", dir.path());
  ASSERT_TRUE(config.capture.has_value());
  EXPECT_EQ(config.capture->folder, (dir.path() / "app").string());
  EXPECT_EQ(config.capture->where.str(), "c.toml:2");
  EXPECT_FALSE(parseBatchConfig(study, "c.toml", dir.path()).capture.has_value());
  auto error = [&](const std::string& text) {
    try {
      parseBatchConfig(text + study, "c.toml", dir.path());
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error("[capture]\nfolder = \"gone\"\n").find("c.toml:2: capture.folder: no capture folder at"),
            std::string::npos)
      << error("[capture]\nfolder = \"gone\"\n");
  const std::string unknown = error("[capture]\nfolder = \"app\"\nfoldr = \"x\"\n");
  EXPECT_NE(unknown.find("c.toml:3"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("foldr"), std::string::npos) << unknown;
  EXPECT_NE(error("[capture]\n").find("folder"), std::string::npos);
}
