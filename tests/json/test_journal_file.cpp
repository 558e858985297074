// Reading a batch's journal (analyzer/json/journal_file.hpp) without a device: its header and its
// record lines, the last line of an index winning, a torn last line skipped with a warning, and
// every other bad line refused at file:line.
#include <gtest/gtest.h>

#include <string>

#include "analyzer/json/journal_file.hpp"
#include "analyzer/json/results_json.hpp"
#include "analyzer/json/results_json_lines.hpp"
#include "analyzer/support/errors.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace rooflab;
using rooflab::testing::contains;
using rooflab::testing::fileText;

namespace {

const fs::path kGoldenPocl = fs::path(ROOFLAB_SOURCE_DIR) / "tests/fixtures/report-golden/pocl-default/input.json";

// The golden run as its batch would have journaled it: the header, then one line per record.
std::string journalOf(const ResultsDocument& document) {
  std::string text = journalHeaderLine(document);
  for (std::size_t i = 0; i < document.records.size(); ++i)
    text += journalLine(i, document.records[i], document.analysis.records[i]);
  return text;
}

ResultsDocument golden() { return resultsDocumentFromJson(json::parse(fileText(kGoldenPocl))); }

std::string inputError(const fs::path& path) {
  try {
    readResultsOrJournal(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(JournalFile, ReadsBackTheDocumentItJournals) {
  const ResultsDocument document = golden();
  ASSERT_GE(document.records.size(), 2u);
  rooflab::testing::TempDir dir;
  const fs::path journal = dir.write("journal.jsonl", journalOf(document));
  const ReadResults read = readResultsOrJournal(journal);
  EXPECT_TRUE(read.warnings.empty());
  EXPECT_EQ(toJson(read.document), toJson(document));
}

TEST(JournalFile, TheLastLineOfAnIndexWins) {
  ResultsDocument document = golden();
  RunRecord concluded = document.records[0];
  concluded.status_reason = "concluded later";
  rooflab::testing::TempDir dir;
  const fs::path journal =
      dir.write("journal.jsonl", journalOf(document) + journalLine(0, concluded, document.analysis.records[0]));
  const ReadResults read = readResultsOrJournal(journal);
  ASSERT_EQ(read.document.records.size(), document.records.size());
  EXPECT_EQ(read.document.records[0].status_reason, "concluded later");
}

TEST(JournalFile, ATornLastLineIsSkippedWithAWarningAtItsLine) {
  const ResultsDocument document = golden();
  const std::string text = journalOf(document);
  const std::string torn =
      journalLine(document.records.size(), document.records[0], document.analysis.records[0]).substr(0, 100);
  rooflab::testing::TempDir dir;
  const fs::path journal = dir.write("run.log", text + torn);  // told apart by its first line, not its name
  const ReadResults read = readResultsOrJournal(journal);
  EXPECT_EQ(read.document.records.size(), document.records.size());
  ASSERT_EQ(read.warnings.size(), 1u);
  const std::string line = std::to_string(document.records.size() + 2);
  EXPECT_TRUE(contains(read.warnings[0], journal.string() + ":" + line + ": a torn last line skipped"))
      << read.warnings[0];
}

TEST(JournalFile, ABadLineBeforeTheLastIsAnErrorAtItsLine) {
  const ResultsDocument document = golden();
  rooflab::testing::TempDir dir;
  const fs::path journal =
      dir.write("journal.jsonl", journalHeaderLine(document) + "{\"index\":0,\"rec\n" +
                                     journalLine(0, document.records[0], document.analysis.records[0]));
  EXPECT_TRUE(contains(inputError(journal), journal.string() + ":2: not valid JSON, and not the last line"))
      << inputError(journal);
}

TEST(JournalFile, AJournalWithoutItsHeaderIsRefusedSayingWhy) {
  const ResultsDocument document = golden();
  rooflab::testing::TempDir dir;
  const fs::path old = dir.write("journal.jsonl", journalLine(0, document.records[0], document.analysis.records[0]));
  EXPECT_TRUE(contains(inputError(old), old.string() + ":1: a record before the journal's header line"))
      << inputError(old);
  const fs::path empty = dir.write("empty.jsonl", "");
  EXPECT_TRUE(contains(inputError(empty), empty.string() + ": a journal without its header line")) << inputError(empty);
}

TEST(JournalFile, AResultsFileIsReadAsOne) {
  const ReadResults read = readResultsOrJournal(kGoldenPocl);
  EXPECT_TRUE(read.warnings.empty());
  EXPECT_EQ(toJson(read.document), toJson(golden()));
}
