// Results files are validated when read (`rooflab diff`, `rooflab report`): a time that is not a
// number or is negative, or a record present twice, is refused with exit 2, naming the file, the
// record and the field, instead of being diffed as a 100% improvement or picked at random.
#include <gtest/gtest.h>

#include "analyzer/json/json_file_io.hpp"
#include "test_support.hpp"

using rooflab::testing::contains;
using rooflab::testing::runRooflab;
using rooflab::testing::show;
using rooflab::testing::TempDir;
namespace fs = std::filesystem;

namespace {

const std::string kBase = std::string(ROOFLAB_SOURCE_DIR) + "/tests/fixtures/results/cpu-pocl-small.json";
// How the fixture's first record is named in messages.
const char* const kFirstRecord = "records[0] (vecadd/global N=1048576 (normal))";

nlohmann::json base() { return rooflab::readJsonFile(kBase); }

// `document` saved as <dir>/new.json, and `rooflab diff BASE new.json`.
rooflab::testing::BinaryOutcome diffAgainst(const TempDir& dir, const nlohmann::json& document) {
  rooflab::writeJsonAtomically(dir.path() / "new.json", document);
  return runRooflab("diff '" + kBase + "' new.json", dir.path());
}

}  // namespace

TEST(ResultsFileValidation, TheFixtureItselfDiffsCleanly) {
  TempDir dir;
  const auto o = diffAgainst(dir, base());
  EXPECT_EQ(o.exit_code, 0) << show(o);
  EXPECT_TRUE(contains(o.out, "no regression among 14 matched records")) << show(o);
}

TEST(ResultsFileValidation, TimesThatAreTheStringNaNAreRefused) {
  TempDir dir;
  nlohmann::json document = base();
  nlohmann::json& timings = document["records"][0]["timings"];
  timings["kernel_ns"]["median"] = "NaN";
  for (auto& repetition : timings["repetitions"]) repetition["kernel_ns"] = "NaN";
  const auto o = diffAgainst(dir, document);
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_FALSE(contains(o.out, "IMPROVED")) << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: new.json: " + std::string(kFirstRecord) +
                                  ": timings.repetitions[0].kernel_ns: \"NaN\" is not a number\n"))
      << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: new.json: " + std::string(kFirstRecord) +
                                  ": timings.kernel_ns.median: \"NaN\" is not a number\n"))
      << show(o);
}

TEST(ResultsFileValidation, NegativeTimesAreRefused) {
  TempDir dir;
  nlohmann::json document = base();
  nlohmann::json& timings = document["records"][0]["timings"];
  timings["kernel_ns"]["median"] = -2 * timings["kernel_ns"]["median"].get<double>();
  for (auto& repetition : timings["repetitions"])
    repetition["kernel_ns"] = -2 * repetition["kernel_ns"].get<std::int64_t>();
  const auto o = diffAgainst(dir, document);
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_FALSE(contains(o.out, "-200%")) << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: new.json: " + std::string(kFirstRecord) +
                                  ": timings.repetitions[0].kernel_ns: -2156840 is negative\n"))
      << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: new.json: " + std::string(kFirstRecord) +
                                  ": timings.kernel_ns.median: -2132696 is negative\n"))
      << show(o);
}

TEST(ResultsFileValidation, ARecordPresentTwiceIsRefused) {
  TempDir dir;
  nlohmann::json document = base();
  const std::size_t count = document["records"].size();
  nlohmann::json copy = document["records"][0];
  copy["timings"]["kernel_ns"]["median"] = 1.0;  // which of the two would a diff believe?
  document["records"].push_back(copy);
  const auto o = diffAgainst(dir, document);
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: new.json: records[" + std::to_string(count) +
                                  "] (vecadd/global N=1048576 (normal)): the same record (family, variant, params, "
                                  "mode) as records[0]\n"))
      << show(o);
}

// `rooflab report` reads through the same validation: a hostile file renders nothing.
TEST(ResultsFileValidation, ReportRefusesTheSameFile) {
  TempDir dir;
  nlohmann::json document = base();
  document["records"][1]["work"]["bytes"] = -1;
  rooflab::writeJsonAtomically(dir.path() / "hostile.json", document);
  const auto o = runRooflab("report hostile.json --out rendered", dir.path());
  EXPECT_EQ(o.exit_code, 2) << show(o);
  EXPECT_TRUE(contains(o.err, "rooflab: hostile.json: records[1] (")) << show(o);
  EXPECT_TRUE(contains(o.err, "): work.bytes: -1 is negative\n")) << show(o);
  EXPECT_FALSE(fs::exists(dir.path() / "rendered" / "report.html")) << show(o);
}
