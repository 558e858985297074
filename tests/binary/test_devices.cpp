// A batch on several devices, on PoCL: POCL_DEVICES makes one PoCL offer two devices ("basic
// pthread": two drivers of one CPU; "pthread pthread": two identical ones). compare runs every point
// on each device, each against its own ceilings, and the report sets them side by side; shard splits
// the points over identical devices, one worker each at once; a device listed twice is refused.
#include <algorithm>
#include <map>
#include <set>

#include "analyzer/data/run_record.hpp"
#include "binary/parts_workspace.hpp"

using namespace rooflab;
using namespace rooflab::testing;
namespace fs = std::filesystem;

namespace {

const char* const kTwoDrivers = "POCL_DEVICES='basic pthread' ";
const char* const kTwoIdentical = "POCL_DEVICES='pthread pthread' ";

}  // namespace

// The same device twice, by one selector or two, is an input error: exit 2, before anything is run
// or written, naming the device.
TEST(Devices, ADeviceListedTwiceForCompareIsRefused) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  PartsWorkspace w;
  for (const char* list : {"cpu,cpu", "all,cpu"}) {
    const BinaryOutcome o = w.run(std::string("run cfg.toml --quiet --device-mode compare --device ") + list);
    EXPECT_EQ(o.exit_code, 2) << show(o);
    EXPECT_TRUE(contains(o.err, "rooflab: device list '" + std::string(list) + "' (compare): 0:0 ")) << o.err;
    EXPECT_TRUE(contains(o.err, "is listed twice; compare runs every point once on each device: list each device once"))
        << o.err;
    EXPECT_FALSE(fs::exists(w.dir.path() / "out")) << list;
  }
}

// compare: every point on each device, each record tagged with its device and placed on its own
// device's measured roofs; the terminal, the HTML page and the CSV set the devices side by side, and
// `rooflab report` renders the same page from the results alone.
TEST(Devices, CompareRunsEveryPointOnEachDeviceAgainstItsOwnRoofs) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  PartsWorkspace w("\"json\", \"html\", \"csv\"", "measure");
  const BinaryOutcome o = w.run("run cfg.toml --quiet --device 0:0,0:1 --set N=4096 --out both", kTwoDrivers);
  ASSERT_EQ(o.exit_code, 0) << show(o);
  const ResultsDocument both = w.results("both");
  ASSERT_EQ(both.device_mode, DeviceMode::compare);
  ASSERT_EQ(both.device_runs.size(), 2u);
  EXPECT_EQ(both.device_runs[0].info.name.rfind("basic", 0), 0u) << both.device_runs[0].info.name;
  EXPECT_EQ(both.device_runs[1].info.name.rfind("pthread", 0), 0u) << both.device_runs[1].info.name;
  ASSERT_EQ(both.records.size(), 8u);  // 2 variants x 2 modes, on each device
  for (const std::string key : {"0:0", "0:1"}) {
    const auto on =
        std::count_if(both.records.begin(), both.records.end(), [&](const RunRecord& r) { return r.device == key; });
    EXPECT_EQ(on, 4) << key;
  }
  for (const RunRecord& record : both.records)
    if (record.mode == RunMode::normal)
      EXPECT_EQ(record.verification.status, VerificationStatus::passed) << record.label();
  // Each device measured: its own roofs, and its records placed on them.
  for (const DeviceRun& run : both.device_runs) {
    ASSERT_TRUE(run.models.roofline_models.count("device")) << run.key;
    EXPECT_EQ(run.models.roofline_models.at("device").role, RooflineModelRole::measured) << run.key;
  }
  const AnalysedResults analysed(both);
  for (const AnalysedRecord& record : analysed.records) {
    if (record.mode != RunMode::normal) continue;
    const DeviceRun& run = record.device == "0:0" ? both.device_runs[0] : both.device_runs[1];
    ASSERT_TRUE(record.roofline.count("device")) << record.label();
    const auto attainable = record.roofline.at("device").attainable_gflops;
    const double roof_gbps = run.models.roofline_models.at("device").model.dram_gbps;
    ASSERT_TRUE(attainable && record.roofline.at("device").intensity);
    EXPECT_NEAR(*attainable, *record.roofline.at("device").intensity * roof_gbps, 1e-6 * *attainable) << record.label();
  }

  EXPECT_TRUE(contains(o.out, "Devices side by side")) << o.out;
  EXPECT_TRUE(contains(o.out, "CPU 0:1 vs CPU 0:0")) << o.out;
  EXPECT_TRUE(contains(o.out, "adder/plain @0:1")) << o.out;
  const std::string page = fileText(w.dir.path() / "both" / "report.html");
  EXPECT_TRUE(contains(page, "<h2>Devices side by side</h2>"));
  EXPECT_TRUE(contains(page, "CPU 0:1 over CPU 0:0"));
  EXPECT_TRUE(contains(page, "id=\"d0-family-0\"") && contains(page, "id=\"d1-family-0\""));
  EXPECT_TRUE(contains(page, "<h2>On CPU 0:0: basic"));
  const std::string csv = fileText(w.dir.path() / "both" / "results.csv");
  EXPECT_TRUE(contains(csv.substr(0, csv.find('\n')), ",device\r")) << csv.substr(0, 300);

  const BinaryOutcome again = w.run("report both/results.json --out rerendered --formats html");
  ASSERT_EQ(again.exit_code, 0) << show(again);
  EXPECT_TRUE(contains(again.out, "CPU 0:1 vs CPU 0:0")) << again.out;
  EXPECT_TRUE(contains(fileText(w.dir.path() / "rerendered" / "report.html"), "<h2>Devices side by side</h2>"));
}

// shard over two identical devices: both run at once, the records equal one run's point for point and
// come in its order, each tagged with the device that ran it; devices that differ are refused (exit 2).
TEST(Devices, ShardSplitsThePointsOverIdenticalDevices) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  PartsWorkspace w;
  const BinaryOutcome single = w.run("run cfg.toml --quiet --out single");
  ASSERT_EQ(single.exit_code, 0) << show(single);
  const BinaryOutcome o = w.run("run cfg.toml --quiet --device all --device-mode shard --out shard", kTwoIdentical);
  ASSERT_EQ(o.exit_code, 0) << show(o);
  ResultsDocument sharded = w.results("shard");
  ASSERT_EQ(sharded.device_mode, DeviceMode::shard);
  ASSERT_EQ(sharded.device_runs.size(), 2u);
  // Each device ran whole groups (a point's normal and memory-only records together): dealt three
  // each, a device that is done first takes what waits on the other.
  std::map<std::string, int> per_device;
  for (const RunRecord& record : sharded.records) ++per_device[record.device.value_or("none")];
  EXPECT_EQ(per_device["0:0"] + per_device["0:1"], 12);
  EXPECT_GE(per_device["0:0"], 2);
  EXPECT_GE(per_device["0:1"], 2);
  EXPECT_EQ(per_device["0:0"] % 2, 0);
  std::map<std::string, std::set<std::string>> devices_of_point;
  for (const RunRecord& record : sharded.records)
    devices_of_point[record.family + "/" + record.variant + " " + paramsLabel(record.params, record.param_order)]
        .insert(record.device.value_or("none"));
  for (const auto& [point, on] : devices_of_point) EXPECT_EQ(on.size(), 1u) << point;
  // As merged, the records are those of one run, in its order, though the devices ran them at once;
  // the device each ran on aside.
  for (RunRecord& record : sharded.records) record.device.reset();
  EXPECT_EQ(pointsAndStatuses(sharded), pointsAndStatuses(w.results("single")));

  const BinaryOutcome differ = w.run("run cfg.toml --quiet --device all --device-mode shard --out differ", kTwoDrivers);
  EXPECT_EQ(differ.exit_code, 2) << show(differ);
  EXPECT_TRUE(contains(differ.err, "shard splits the points over identical devices")) << differ.err;
}

// A kernel that crashes its worker, sharded over two devices: its record is `crashed`, the good
// kernels on both devices keep theirs, and the batch completes (exit 1).
TEST(Devices, ACrashOnOneDeviceCostsItsRecordOnly) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const fs::path fixtures = fs::path(ROOFLAB_SOURCE_DIR) / "tests" / "fixtures" / "kernels";
  dir.write("cfg.toml",
            "[run]\ndevice = \"all\"\ndevice_mode = \"shard\"\nrepetitions = 2\nwarmup = 0\n"
            "modes = [\"normal\"]\ncounters = \"off\"\nceilings = \"datasheet\"\nformats = [\"json\"]\n"
            "kernels = [\"" +
                fixtures.string() +
                "\"]\nout = \"out\"\n"
                "[[study]]\nfamily = \"faults\"\nvariants = [\"good_before\", \"out_of_bounds\", \"good_after\"]\n");
  const BinaryOutcome o = runRooflab("run cfg.toml --quiet", dir.path(), kTwoIdentical);
  EXPECT_EQ(o.exit_code, 1) << show(o);
  const ResultsDocument results = readResultsFile(dir.path() / "out" / "results.json");
  ASSERT_EQ(results.records.size(), 3u);
  for (const RunRecord& record : results.records) {
    EXPECT_EQ(record.status, record.variant == "out_of_bounds" ? RecordStatus::crashed : RecordStatus::ok)
        << record.label();
    EXPECT_TRUE(record.device) << record.label();
  }
  EXPECT_EQ(results.status, BatchStatus::complete);
}

// A list that names one device (`all` where PoCL offers one) is an ordinary run: its worker opens that
// device, and the results have no device list and untagged records, as a run with --device cpu.
TEST(Devices, AListOfOneDeviceIsAnOrdinaryRun) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  PartsWorkspace w;
  const BinaryOutcome o = w.run("run cfg.toml --quiet --device all --set N=1024 --out one", "POCL_DEVICES=pthread ");
  ASSERT_EQ(o.exit_code, 0) << show(o);
  const ResultsDocument one = w.results("one");
  EXPECT_FALSE(one.device_mode);
  EXPECT_TRUE(one.device_runs.empty());
  ASSERT_EQ(one.records.size(), 4u);
  for (const RunRecord& record : one.records) EXPECT_FALSE(record.device) << record.label();
}
