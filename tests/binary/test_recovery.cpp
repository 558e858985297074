// Recovery after a run cut short: every record a killed run measured is read back from its journal
// by `rooflab report` and `rooflab diff` (a torn last line skipped with a warning), and a run that
// fills the disk keeps what it wrote and says how to recover it. Every test runs the real binary on
// PoCL.
#include "binary/reliability_workspace.hpp"
#include "binary/background_run.hpp"

#include <sys/resource.h>

#include <cerrno>
#include <cstring>
#include <set>

using rooflab::testing::BackgroundRun;
using rooflab::testing::fileText;
using rooflab::testing::journalRecordLines;
using rooflab::testing::rooflabCommand;

namespace {

// The adder family's slow variant over `points` sizes, each point timed `repetitions` times.
Workspace slowSweep(int points, int repetitions) {
  std::string values;
  for (int i = 1; i <= points; ++i) values += (values.empty() ? "" : ", ") + std::to_string(4096 + 64 * i);
  return Workspace(
      std::string(kFamily) +
          variant("slow",
                  "kernel = \"add_slowly\"\nargs = [\"a\", \"b\", \"c\", \"N\"]\nglobal = [\"N\"]\nlocal = [\"64\"]\n"),
      replaced(std::string(kRun), "repetitions = 1", "repetitions = " + std::to_string(repetitions)) +
          study("adder", "variants = [\"slow\"]\nparams = { N = [" + values + "] }\n"));
}

// The distinct record indices of a journal's lines that parse.
std::size_t journalRecords(const fs::path& journal) {
  std::ifstream in(journal);
  std::set<std::size_t> indices;
  std::string line;
  while (std::getline(in, line)) {
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (j.is_object() && j.contains("index")) indices.insert(j["index"].get<std::size_t>());
  }
  return indices.size();
}

std::size_t recordsIn(const fs::path& results) { return readJsonFile(results)["records"].size(); }

}  // namespace

// A run killed outright (SIGKILL) once its journal is ahead of results.json: `rooflab report` reads
// the journal and gets every record back; a torn last line is skipped with a warning naming the file
// and the line; `rooflab diff` reads a journal too.
TEST(Recovery, ReportAndDiffReadTheJournalOfAKilledRun) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  const Workspace w = slowSweep(200, 3);
  const fs::path out = w.dir.path() / "out", journal = out / "journal.jsonl";
  {
    BackgroundRun run(rooflabCommand() + " run cfg.toml --quiet", w.dir.path(), w.dir.path() / "log");
    ASSERT_TRUE(run.waitUntil([&] { return journalRecordLines(journal) >= 4; }, 300)) << run.text();
    run.killOutright();
  }
  const std::size_t measured = journalRecords(journal);
  ASSERT_GE(measured, 4u);
  EXPECT_LE(recordsIn(out / "results.json"), measured);

  const Outcome report = runRooflab("report out/journal.jsonl --out recovered --formats json,csv", w.dir.path());
  ASSERT_EQ(report.exit_code, 0) << show(report);
  EXPECT_EQ(recordsIn(w.dir.path() / "recovered/results.json"), measured) << show(report);
  EXPECT_TRUE(fs::exists(w.dir.path() / "recovered/results.csv"));

  std::string text = fileText(journal);
  if (!text.empty() && text.back() != '\n') text += "\n";  // the kill itself may have torn a line
  const int torn_line = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
  w.dir.write("torn.jsonl", text + "{\"index\":" + std::to_string(measured) + ",\"record\":{\"fam");
  const Outcome torn_report = runRooflab("report torn.jsonl --out torn-report --formats json", w.dir.path());
  ASSERT_EQ(torn_report.exit_code, 0) << show(torn_report);
  EXPECT_TRUE(contains(torn_report.err,
                       "rooflab: warning: torn.jsonl:" + std::to_string(torn_line) + ": a torn last line skipped"))
      << show(torn_report);
  EXPECT_EQ(recordsIn(w.dir.path() / "torn-report/results.json"), measured);

  const Outcome diff = runRooflab("diff out/journal.jsonl recovered/results.json", w.dir.path());
  EXPECT_EQ(diff.exit_code, 0) << show(diff);
  EXPECT_TRUE(contains(diff.out, std::to_string(measured) + " matched records")) << show(diff);
}

// A disk that fills while the batch runs. A file size limit stands in for it, with no root needed:
// set on the running batch alone (prlimit), once its journal holds two records, so that the point
// worker's OpenCL compiler (LLVM writes files larger than the limit) is not limited with it; rooflab
// itself must keep SIGXFSZ from ending it. Exit 4, the message names the error, says where the records
// measured so far are and how to read them back; following it gets every one of them.
TEST(Recovery, AFullDiskKeepsTheRecordsSoFarAndSaysHowToRecoverThem) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  const Workspace w = slowSweep(60, 1);
  const fs::path out = w.dir.path() / "out", journal = out / "journal.jsonl";
  BackgroundRun run(rooflabCommand() + " run cfg.toml --quiet", w.dir.path(), w.dir.path() / "log");
  ASSERT_TRUE(run.waitUntil([&] { return journalRecordLines(journal) >= 2; }, 300)) << run.text();
  // A little room past the journal's end: its next line is cut off there, as on a disk that fills.
  std::error_code ec;
  const rlim_t room = static_cast<rlim_t>(fs::file_size(journal, ec)) + 1000;
  const rlimit limit{room, room};
  ASSERT_EQ(::prlimit(run.pid(), RLIMIT_FSIZE, &limit, nullptr), 0) << std::strerror(errno);
  const int code = run.wait(300);
  const std::string said = run.text();
  EXPECT_EQ(code, 4) << said;
  EXPECT_TRUE(contains(said, "rooflab: I/O error: cannot write ")) << said;
  EXPECT_TRUE(contains(said, "File too large")) << said;
  const std::string hint = "`rooflab report " + journal.string() + " --out DIR` reads them back";
  EXPECT_TRUE(contains(said, hint)) << said;
  const std::size_t in_journal = journalRecords(journal);
  EXPECT_GE(in_journal, 2u) << said;
  if (fs::exists(out / "results.json")) EXPECT_LE(recordsIn(out / "results.json"), in_journal);
  const Outcome report = runRooflab("report out/journal.jsonl --out recovered --formats json", w.dir.path());
  ASSERT_EQ(report.exit_code, 0) << show(report);
  const nlohmann::json recovered = readJsonFile(w.dir.path() / "recovered/results.json");
  EXPECT_EQ(recovered["records"].size(), in_journal);
  for (const auto& record : recovered["records"]) EXPECT_EQ(record["status"], "ok") << record["error"];
}
