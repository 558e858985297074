#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "analyzer/json/results_json.hpp"
#include "analyzer/batch/batch.hpp"
#include "analyzer/json/json_file_io.hpp"
#include "analyzer/run/program_builds.hpp"
#include "mutators/auto_mutation.hpp"
#include "test_support.hpp"

using namespace rooflab;
using rooflab::testing::TempDir;

namespace {

const char* kKernels = R"(
// Its parameter list holds a directive: the plan does not read it, so a wrong count is found at launch.
kernel void add_hidden_n(global const float* a, global const float* b, global float* c,
#if 1
                         int n
#endif
                         ) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}
kernel void add(global const float* a, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) RL_STORE(float, c, i, RL_ADD(RL_LOAD(float, a, i), RL_LOAD(float, b, i)));
}
// Deliberately incomplete: leaves the upper half unwritten (still poisoned).
kernel void half_only(global const float* a, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
  if (i < n / 2) c[i] = a[i] + b[i];
}
kernel void partial(global const float* a, global float* p, int n) {
  int i = get_global_id(0);
  if (i < n) p[i] = a[i];
}
kernel void finish(global const float* p, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = p[i] + b[i];
}
)";

// Deliberately wrong: subtracts instead of adding. In a file of its own without annotations.
const char* kPlainKernel = R"(
kernel void wrong(global const float* a, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] - b[i];
}
)";

const std::string kFamily = rooflab::testing::vecaddFamilyHeader("adder") + R"([[variants]]
name = "good"
source = "k.cl"
kernel = "add"
args = ["a", "b", "c", "N"]
global = ["N"]
local = ["64"]
global_accesses = "3*N"
[[variants]]
name = "wrong"
source = "plain.cl"
kernel = "wrong"
args = ["a", "b", "c", "N"]
global = ["N"]
[[variants]]
name = "half"
source = "k.cl"
kernel = "half_only"
args = ["a", "b", "c", "N"]
global = ["N"]
[[variants]]
name = "broken_build"
source = "broken.cl"
kernel = "add"
args = ["a", "b", "c", "N"]
global = ["N"]
[[variants]]
name = "too_few_args"
source = "k.cl"
kernel = "add_hidden_n"
args = ["a", "b", "c"]
global = ["N"]
[[variants]]
name = "two_launches"
source = "k.cl"
scratch = [ { name = "p", type = "float", count = "N" } ]
launches = [
  { kernel = "partial", args = ["a", "p", "N"], global = ["N"], local = ["32"] },
  { kernel = "finish", args = ["p", "b", "c", "N"], global = ["N"], local = ["32"] },
]
)";

struct BatchFixture {
  TempDir dir;
  BatchConfig config;
  BatchFixture(const std::string& modes = "[\"normal\"]") {
    dir.write("kernels/adder/k.cl", kKernels);
    dir.write("kernels/adder/plain.cl", kPlainKernel);
    dir.write(
        "kernels/adder/broken.cl",
        "kernel void add(global const float* a, global const float* b, global float* c, int n) { this is not C }\n");
    dir.write("kernels/adder/family.toml", kFamily);
    const std::string text = "[run]\ndevice = \"cpu\"\nrepetitions = 3\nwarmup = 1\nmodes = " + modes +
                             "\nceilings = \"datasheet\"\nkernels = [\"kernels\"]\nout = \"" +
                             (dir.path() / "out").string() +
                             "\"\nformats = [\"json\"]\n[[study]]\nfamily = \"adder\"\nparams = { N = [4096] }\n";
    config = parseBatchConfig(text, "cfg.toml", dir.path());
  }
};

const nlohmann::json& recordOf(const nlohmann::json& results, const std::string& variant,
                               const std::string& mode = "normal") {
  for (const auto& r : results["records"])
    if (r["variant"] == variant && r["mode"] == mode) return r;
  throw std::runtime_error("no record for " + variant);
}

}  // namespace

TEST(Runner, OneBadVariantNeverCostsTheBatch) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  BatchFixture f;
  BatchOptions options;
  options.progress = false;
  const BatchOutcome outcome = runBatch(f.config, options);
  EXPECT_EQ(outcome.exit_code, ExitCode::variant_failed);
  const nlohmann::json results = toJson(outcome.results);
  EXPECT_EQ(results["schema"], 2);
  EXPECT_EQ(results["status"], "complete");
  ASSERT_EQ(results["records"].size(), 6u);

  const auto& good = recordOf(results, "good");
  EXPECT_EQ(good["status"], "ok");
  EXPECT_EQ(good["verification"]["status"], "passed");
  EXPECT_GE(good["timings"]["repetitions"].size(), 3u);  // at least `repetitions`, then to the noise target
  EXPECT_GT(good["timings"]["kernel_ns"]["median"].get<double>(), 0);
  EXPECT_DOUBLE_EQ(good["work"]["cgma"].get<double>(), 1.0 / 3.0);
  for (const auto& rep : good["timings"]["repetitions"]) {
    EXPECT_LE(rep["queued_ns"].get<std::int64_t>(), rep["submit_ns"].get<std::int64_t>());
    EXPECT_LE(rep["submit_ns"].get<std::int64_t>(), rep["start_ns"].get<std::int64_t>());
    EXPECT_LE(rep["start_ns"].get<std::int64_t>(), rep["end_ns"].get<std::int64_t>());
  }

  const auto& wrong = recordOf(results, "wrong");
  EXPECT_EQ(wrong["status"], "ok");  // it ran; it is wrong, and flagged, not dropped
  EXPECT_EQ(wrong["verification"]["status"], "failed");
  EXPECT_GT(wrong["verification"]["wrong_elements"].get<int>(), 0);
  EXPECT_GT(wrong["verification"]["rel_l2_error"].get<double>(), 0.1);

  const auto& half = recordOf(results, "half");
  EXPECT_EQ(half["verification"]["status"], "failed");
  EXPECT_EQ(half["verification"]["non_finite"].get<int>(), 2048);  // poisoned, never written

  const auto& broken = recordOf(results, "broken_build");
  EXPECT_EQ(broken["status"], "error");
  EXPECT_NE(broken["error"].get<std::string>().find("build"), std::string::npos);
  EXPECT_NE(broken["error"].get<std::string>().find("broken_build"), std::string::npos);  // names the variant

  const auto& few = recordOf(results, "too_few_args");
  EXPECT_EQ(few["status"], "error");
  EXPECT_NE(few["error"].get<std::string>().find("takes 4 arguments but the manifest gives 3"), std::string::npos)
      << few["error"];

  const auto& two = recordOf(results, "two_launches");
  EXPECT_EQ(two["verification"]["status"], "passed");
  EXPECT_EQ(two["geometry"]["launches"].size(), 2u);

  // The file on disk is the same complete document.
  const nlohmann::json on_disk = readJsonFile(outcome.out_dir / "results.json");
  EXPECT_EQ(on_disk["records"].size(), 6u);
  EXPECT_EQ(on_disk["summary"]["verification_failed"], 2);
  EXPECT_EQ(on_disk["summary"]["failed"], 2);
}

// Every timed record carries its median's interval and whether it met the noise target; the
// repetitions never fall below `repetitions` and stop at the target once the interval exists (6 runs).
TEST(Runner, RecordsCarryTheirIntervalAndWhetherTheyConverged) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  BatchOptions options;
  options.progress = false;
  // 1e9: any finite interval meets it, however loaded the host (10, tried first, was missed once under
  // load: one slow run put the 6-run interval's upper end 10 medians away).
  constexpr double kAnyInterval = 1e9;
  for (const double max_noise : {kAnyInterval, 1e-9}) {
    BatchFixture f;
    f.config.studies[0].variants = {"good"};
    f.config.run.max_noise = max_noise;
    f.config.run.max_time_s = max_noise == kAnyInterval ? 30 : 0.05;  // the first must converge, the second cannot
    const BatchOutcome outcome = runBatch(f.config, options);
    ASSERT_EQ(outcome.results.records.size(), 1u);
    const EventTimings& timings = *outcome.results.records[0].timings;
    ASSERT_TRUE(timings.kernel_ns_interval);
    const KernelTimeInterval& interval = *timings.kernel_ns_interval;
    EXPECT_LE(interval.lower_ns, timings.kernel_ns.median);
    EXPECT_GE(interval.upper_ns, timings.kernel_ns.median);
    EXPECT_DOUBLE_EQ(interval.confidence, 0.95);
    if (max_noise == kAnyInterval) {
      ASSERT_TRUE(interval.noise);
      EXPECT_TRUE(interval.converged);
      EXPECT_EQ(timings.repetitions.size(), 6u) << "the first count whose interval reaches 95%";
    } else {
      EXPECT_GE(timings.repetitions.size(), 3u);  // never fewer than `repetitions`, however short the budget
      EXPECT_EQ(interval.converged, interval.noise && *interval.noise <= max_noise);
    }
    const nlohmann::json written = toJson(outcome.results)["records"][0]["timings"]["kernel_ns_interval"];
    EXPECT_EQ(written["converged"], interval.converged);
    EXPECT_DOUBLE_EQ(written["lower"].get<double>(), interval.lower_ns);
  }
}

// Programs built on background threads give the records a batch that builds each in turn gives,
// failed builds included.
TEST(Runner, BackgroundBuildsGiveTheSameRecords) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  BatchOptions options;
  options.progress = false;
  // Errors quote the build options, whose -I names the family folder: a different temp folder per run.
  auto withoutText = [](std::string text, const std::string& cut) {
    for (std::size_t at; (at = text.find(cut)) != std::string::npos;) text.erase(at, cut.size());
    return text;
  };
  auto statuses = [&](const char* threads) {
    BatchFixture f("[\"normal\", \"compute-only\", \"memory-only\"]");
    f.config.run.environment.build_threads = parseBuildThreads(threads);
    const nlohmann::json results = toJson(runBatch(f.config, options).results);
    EXPECT_EQ(results["build_threads"], std::atoi(threads));
    std::vector<std::string> out;
    for (const auto& r : results["records"])
      out.push_back(r["variant"].get<std::string>() + " " + r["mode"].get<std::string>() + ": " +
                    r["status"].get<std::string>() + " / " + r["verification"]["status"].get<std::string>() + " / " +
                    (r["error"].is_string() ? withoutText(r["error"].get<std::string>(), f.dir.path().string()) : ""));
    return out;
  };
  const std::vector<std::string> sequential = statuses("0");
  EXPECT_EQ(statuses("2"), sequential);
  ASSERT_EQ(sequential.size(), 18u);
}

// A compute-only program appends the run-time key to the kernels its variant launches, so two
// variants of one annotated file that launch different kernels build two programs, in turn or on
// background threads: with one, the second variant's kernel had no key.
TEST(Runner, EachComputeOnlyVariantGetsTheKeyOnTheKernelItLaunches) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  dir.write("kernels/pair/k.cl", R"(
kernel void add_first(global const float* a, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) RL_STORE(float, c, i, RL_ADD(RL_LOAD(float, a, i), RL_LOAD(float, b, i)));
}
kernel void add_second(global const float* a, global const float* b, global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) RL_STORE(float, c, i, RL_ADD(RL_LOAD(float, b, i), RL_LOAD(float, a, i)));
}
)");
  dir.write("kernels/pair/family.toml", rooflab::testing::vecaddFamilyHeader("pair") + R"([[variants]]
name = "first"
source = "k.cl"
kernel = "add_first"
args = ["a", "b", "c", "N"]
global = ["N"]
global_accesses = "3*N"
[[variants]]
name = "second"
source = "k.cl"
kernel = "add_second"
args = ["a", "b", "c", "N"]
global = ["N"]
global_accesses = "3*N"
)");
  const std::string text =
      "[run]\ndevice = \"cpu\"\nrepetitions = 3\nwarmup = 1\nmodes = [\"normal\", \"compute-only\"]\n"
      "ceilings = \"datasheet\"\nkernels = [\"kernels\"]\nout = \"" +
      (dir.path() / "out").string() +
      "\"\nformats = [\"json\"]\n[[study]]\nfamily = \"pair\"\nparams = { N = [1024] }\n";
  for (const char* threads : {"0", "2"}) {
    BatchConfig config = parseBatchConfig(text, "cfg.toml", dir.path());
    config.run.environment.build_threads = parseBuildThreads(threads);
    BatchOptions options;
    options.progress = false;
    const nlohmann::json results = toJson(runBatch(config, options).results);
    ASSERT_EQ(results["records"].size(), 4u);
    for (const auto& r : results["records"])
      EXPECT_EQ(r["status"], "ok") << threads << " build threads: " << r["variant"] << " " << r["mode"] << ": "
                                   << r["error"];
  }
}

TEST(Runner, MutantsRunButAreNeverVerified) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  BatchFixture f("[\"compute-only\", \"memory-only\"]");
  f.config.studies[0].variants = {"good", "wrong"};
  BatchOptions options;
  options.progress = false;
  const nlohmann::json results = toJson(runBatch(f.config, options).results);
  for (const auto& r : results["records"]) {
    if (r["variant"] == "good") {
      EXPECT_EQ(r["status"], "ok") << r["error"];
      EXPECT_EQ(r["verification"]["status"], "skipped");
    } else if (automaticMutantsAvailable()) {
      // No annotations: the mutant is made from the source, and the record says so.
      EXPECT_EQ(r["status"], "ok") << r["error"];
      EXPECT_EQ(r["mutant_origin"], "automatic");
      EXPECT_EQ(r["verification"]["status"], "skipped");
    } else {
      // No annotations and no libclang (not built with it, or not loadable here): the mutant cannot
      // be made, and the record says why.
      EXPECT_EQ(r["status"], "skipped");
      EXPECT_NE(r["error"].get<std::string>().find("annotations"), std::string::npos);
      EXPECT_NE(r["error"].get<std::string>().find(rooflab::automaticMutantsOffReason()), std::string::npos)
          << r["error"];
    }
  }
}

TEST(Runner, UnknownFamilyRefusesTheBatchBeforeItRuns) {
  BatchFixture f;
  f.config.studies[0].variants = {"good"};
  StudySpec missing;
  missing.family = "nope";
  f.config.studies.push_back(missing);
  BatchOptions options;
  options.progress = false;
  try {
    runBatch(f.config, options);
    FAIL() << "a batch with an unknown family ran";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'nope'"), std::string::npos) << e.what();
  }
}

TEST(Runner, SameSeedGivesTheSameInputs) {
  HostBuffer a("a", ElementType{ScalarKind::f32, 1}, 100), b("a", ElementType{ScalarKind::f32, 1}, 100),
      c("b", ElementType{ScalarKind::f32, 1}, 100);
  fillBuffer(a, BufferInit::random, 7);
  fillBuffer(b, BufferInit::random, 7);
  fillBuffer(c, BufferInit::random, 7);
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_NE(a.bytes, c.bytes);  // the name is part of the seed
}

TEST(EndToEnd, DefaultConfigVerifiesEveryVecaddRecordOnPocl) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const std::string command = std::string(ROOFLAB_BINARY) + " run --device cpu --quiet --formats json --out " +
                              (dir.path() / "out").string() + " > " + (dir.path() / "log").string() + " 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream log(dir.path() / "log");
  const std::string log_text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  ASSERT_EQ(WEXITSTATUS(status), 0) << log_text;
  const nlohmann::json results = readJsonFile(dir.path() / "out" / "results.json");
  EXPECT_EQ(results["status"], "complete");
  int vecadd_normal = 0;
  for (const auto& r : results["records"]) {
    EXPECT_EQ(r["status"],
              r["family"] == "vecadd" && r["variant"].get<std::string>().rfind("broken", 0) == 0 ? r["status"] : "ok")
        << r["error"];
    if (r["family"] == "vecadd" && r["mode"] == "normal" && r["variant"].get<std::string>().rfind("broken", 0) != 0) {
      ++vecadd_normal;
      EXPECT_EQ(r["verification"]["status"], "passed") << r["variant"];
    }
  }
  EXPECT_GE(vecadd_normal, 2);
}

TEST(Runner, AHangingKernelIsReportedAndTheBatchCompletes) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  dir.write("kernels/hang/k.cl", R"(
kernel void spin(global const int* flag, global int* out) {
  // flag[0] is 0, so this never ends (volatile: the compiler must re-read it).
  while (((volatile global const int*)flag)[0] == 0) {}
  out[get_global_id(0)] = 1;
}
)");
  dir.write("kernels/hang/family.toml", R"(name = "hang"
[params]
N = 64
[work]
flops = "0"
bytes = "4*N"
[[buffers]]
name = "flag"
type = "int"
count = "1"
init = "zero"
[[buffers]]
name = "out"
type = "int"
count = "N"
access = "write"
[[variants]]
name = "spin"
source = "k.cl"
kernel = "spin"
args = ["flag", "out"]
global = ["N"]
)");
  // 6 s, not 1: the limit restarts with each phase and names the one it ran out in, and under the
  // sanitizers on a loaded host PoCL's build of even this kernel took over a second.
  const auto config =
      dir.write("c.toml", "[run]\ndevice = \"cpu\"\nrepetitions = 1\nwarmup = 0\nceilings = \"datasheet\"\n"
                          "variant_time_limit_s = 6\nformats = [\"json\"]\nkernels = [\"kernels\"]\n"
                          "[[study]]\nfamily = \"hang\"\n");
  const auto out = dir.path() / "out";
  const std::string command = std::string(ROOFLAB_BINARY) + " run " + config.string() + " --quiet --out " +
                              out.string() + " > " + (dir.path() / "log").string() + " 2>&1";
  const int status = std::system(command.c_str());
  EXPECT_EQ(WEXITSTATUS(status), 1);
  const nlohmann::json results = readJsonFile(out / "results.json");
  // With process isolation the hung point's worker is killed and the batch completes; the record is
  // timed_out.
  EXPECT_EQ(results["status"], "complete");
  ASSERT_EQ(results["records"].size(), 1u);
  EXPECT_EQ(results["records"][0]["variant"], "spin");
  EXPECT_EQ(results["records"][0]["status"], "timed_out");
  const std::string error = results["records"][0]["error"].get<std::string>();
  EXPECT_NE(error.find("hangs"), std::string::npos) << error;
  // The driver reported the kernel running: the record does not blame the compiler.
  EXPECT_EQ(error.find("compiled"), std::string::npos) << error;
}

// The source view's start on PoCL: an original keeps its file as written, and says that per-line
// sampling needs an NVIDIA GPU, with no figure.
TEST(Runner, OriginalsKeepTheirSourceAndSayWhyNoLineWasSampled) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  BatchFixture f;
  f.config.studies[0].variants = {"good"};
  BatchOptions options;
  options.progress = false;
  const ResultsDocument results = runBatch(f.config, options).results;
  ASSERT_EQ(results.records.size(), 1u);
  const RunRecord& record = results.records[0];
  ASSERT_EQ(record.status, RecordStatus::ok) << record.status_reason;
  ASSERT_EQ(record.source_files.size(), 1u);
  EXPECT_EQ(record.source_files[0].path, "k.cl");
  ASSERT_GE(record.source_files[0].lines.size(), 13u);
  EXPECT_EQ(record.source_files[0].lines[12],
            "  if (i < n) RL_STORE(float, c, i, RL_ADD(RL_LOAD(float, a, i), RL_LOAD(float, b, i)));");
  ASSERT_TRUE(record.line_sampling);
  EXPECT_FALSE(record.line_sampling->available);
  EXPECT_NE(record.line_sampling->reason.find("per-line sampling needs an NVIDIA GPU"), std::string::npos)
      << record.line_sampling->reason;
  EXPECT_TRUE(record.line_sampling->lines.empty());
  EXPECT_EQ(record.line_sampling->total_samples, 0);
}
