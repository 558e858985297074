// The report page's structure and the CSV's columns: explanations said once, per-variant
// details folded, the config as TOML, a column per param, the spread and the intensity per memory
// level, and "no gain" for a speedup under 1x. Through `rooflab report` where a user would look.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "analyzer/config/config.hpp"
#include "reports/text/config_text.hpp"
#include "analyzer/json/results_json.hpp"
#include "reports/text/csv_report.hpp"
#include "reports/html/html_report.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
namespace reports = rooflab::reports;
using rooflab::testing::contains;
using rooflab::testing::fileText;
using rooflab::testing::runRooflab;
using rooflab::testing::show;
using rooflab::testing::TempDir;

namespace {

const fs::path kGoldenDir = fs::path(ROOFLAB_SOURCE_DIR) / "tests/fixtures/report-golden";

std::size_t csvOccurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++count;
  return count;
}

// The fields of a CSV line without quoted fields (the rows these tests build quote nothing).
std::vector<std::string> splitCsvLine(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, ',')) fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  return fields;
}

std::vector<std::vector<std::string>> csvRows(const rooflab::AnalysedResults& results) {
  std::ostringstream out;
  reports::writeCsv(results, out);
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    rows.push_back(splitCsvLine(line));
  }
  return rows;
}

std::size_t columnOf(const std::vector<std::string>& header, const std::string& title) {
  const auto at = std::find(header.begin(), header.end(), title);
  EXPECT_NE(at, header.end()) << "no column " << title;
  return static_cast<std::size_t>(at - header.begin());
}

rooflab::RooflinePlacement placementAt(double intensity, rooflab::MemoryLevel level) {
  rooflab::RooflinePlacement placement;
  placement.intensity = intensity;
  placement.level = level;
  placement.attainable_gflops = intensity * 10;
  placement.fraction_of_roof = 0.5;
  placement.bound = rooflab::RooflineBound::memory;
  return placement;
}

// Two matmul records with different params (one has COL_MAJOR, one does not), placed on the device
// model at every memory level, with timings whose fastest and slowest runs differ.
rooflab::AnalysedResults twoRecordsWithLevels() {
  rooflab::AnalysedResults results;
  rooflab::AnalysedRecord naive;
  naive.family = "matmul";
  naive.variant = "naive";
  naive.params = {{"N", 256}};
  naive.param_order = {"N"};
  naive.work.flops = 2.0 * 256 * 256 * 256;
  naive.work.bytes = 3.0 * 4 * 256 * 256;
  naive.timings = rooflab::EventTimings{};
  naive.timings->kernel_ns = {/*median=*/1000, /*min=*/900, /*max=*/1400,
                              /*mean=*/1050,   /*cv=*/0.1,  /*count=*/10};
  naive.roofline["device"] = placementAt(42.7, rooflab::MemoryLevel::dram);
  naive.roofline["device_global"] = placementAt(0.25, rooflab::MemoryLevel::global);
  naive.roofline["device_counters"] = placementAt(61.5, rooflab::MemoryLevel::dram);
  naive.roofline["device_l1"] = placementAt(0.5, rooflab::MemoryLevel::l1);
  naive.roofline["device_l2"] = placementAt(2.5, rooflab::MemoryLevel::l2);
  naive.roofline["device_local"] = placementAt(8.25, rooflab::MemoryLevel::local);
  rooflab::AnalysedRecord transposed = naive;
  transposed.variant = "naive_transposed";
  transposed.params = {{"N", 512}, {"COL_MAJOR", 1}};
  transposed.param_order = {"N", "COL_MAJOR"};
  transposed.timings.reset();
  transposed.roofline.erase("device_l1");
  results.records = {naive, transposed};
  results.models.roofline_models["device"] = {rooflab::DeviceModel{}, rooflab::RooflineModelRole::measured};
  return results;
}

}  // namespace

TEST(CsvColumns, OneColumnPerParamOfAnyRecordEmptyWhereARecordLacksIt) {
  const auto rows = csvRows(twoRecordsWithLevels());
  ASSERT_EQ(rows.size(), 3u);
  const auto& header = rows[0];
  // The packed column stays for the scripts that read it; the param columns follow it in the
  // records' order.
  const std::size_t params = columnOf(header, "params");
  EXPECT_EQ(header.at(params + 1), "param_N");
  EXPECT_EQ(header.at(params + 2), "param_COL_MAJOR");
  EXPECT_EQ(rows[1][columnOf(header, "param_N")], "256");
  EXPECT_EQ(rows[1][columnOf(header, "param_COL_MAJOR")], "");
  EXPECT_EQ(rows[2][columnOf(header, "param_N")], "512");
  EXPECT_EQ(rows[2][columnOf(header, "param_COL_MAJOR")], "1");
  EXPECT_EQ(rows[2][columnOf(header, "params")], "N=512;COL_MAJOR=1");
  for (const auto& row : rows) EXPECT_EQ(row.size(), header.size());
}

TEST(CsvColumns, SpreadIsTheFastestAndSlowestRun) {
  const auto rows = csvRows(twoRecordsWithLevels());
  const auto& header = rows[0];
  EXPECT_EQ(rows[1][columnOf(header, "median_ns")], "1000");
  EXPECT_EQ(rows[1][columnOf(header, "min_ns")], "900");
  EXPECT_EQ(rows[1][columnOf(header, "max_ns")], "1400");
  EXPECT_EQ(rows[2][columnOf(header, "min_ns")], "");  // no timings: unknown, not 0
  EXPECT_EQ(rows[2][columnOf(header, "max_ns")], "");
}

TEST(CsvColumns, EachMemoryLevelsIntensityIsThePlacements) {
  const auto rows = csvRows(twoRecordsWithLevels());
  const auto& header = rows[0];
  // One model's placements side by side, from the compulsory DRAM level to the core.
  const std::vector<std::string> intensity_columns = {"device_intensity",          "device_global_intensity",
                                                      "device_counters_intensity", "device_l1_intensity",
                                                      "device_l2_intensity",       "device_local_intensity"};
  std::size_t previous = 0;
  for (const std::string& column : intensity_columns) {
    const std::size_t at = columnOf(header, column);
    EXPECT_GT(at, previous) << column;
    previous = at;
  }
  EXPECT_EQ(rows[1][columnOf(header, "device_intensity")], "42.7");
  EXPECT_EQ(rows[1][columnOf(header, "device_global_intensity")], "0.25");
  EXPECT_EQ(rows[1][columnOf(header, "device_counters_intensity")], "61.5");
  EXPECT_EQ(rows[1][columnOf(header, "device_l1_intensity")], "0.5");
  EXPECT_EQ(rows[1][columnOf(header, "device_l2_intensity")], "2.5");
  EXPECT_EQ(rows[1][columnOf(header, "device_local_intensity")], "8.25");
  EXPECT_EQ(rows[1][columnOf(header, "device_l2_attainable_gflops")], "25");
  EXPECT_EQ(rows[2][columnOf(header, "device_l1_intensity")], "");  // no L1 placement on this record
}

// A saved GPU run: the header names a column per param, and each record's N is in param_N.
TEST(CsvColumns, ReportOfTheH100RunHasParamColumns) {
  TempDir dir;
  const auto outcome = runRooflab(
      "report '" + (kGoldenDir / "h100-default/input.json").string() + "' --out out --formats csv", dir.path());
  ASSERT_EQ(outcome.exit_code, 0) << show(outcome);
  const std::string csv = fileText(dir.path() / "out/results.csv");
  std::istringstream lines(csv);
  std::string header_line, first_row;
  std::getline(lines, header_line);
  std::getline(lines, first_row);
  const auto header = splitCsvLine(header_line.substr(0, header_line.size() - 1));
  const auto row = splitCsvLine(first_row.substr(0, first_row.size() - 1));
  EXPECT_EQ(row[columnOf(header, "variant")], "global");
  EXPECT_EQ(row[columnOf(header, "param_N")], "1048576");
  EXPECT_EQ(row[columnOf(header, "param_VPI")], "4");
  EXPECT_EQ(row[columnOf(header, "param_WG")], "256");
}

namespace {

struct RenderedReport {
  std::string html, csv, terminal;
};

// `rooflab report` on a golden run, as a user re-renders a saved run.
RenderedReport reportOf(const std::string& golden_name) {
  TempDir dir;
  const auto outcome = runRooflab(
      "report '" + (kGoldenDir / golden_name / "input.json").string() + "' --out out --formats html,csv", dir.path());
  EXPECT_EQ(outcome.exit_code, 0) << show(outcome);
  return {fileText(dir.path() / "out/report.html"), fileText(dir.path() / "out/results.csv"),
          outcome.out + outcome.err};
}

std::string unescaped(std::string html) {
  for (const auto& [entity, text] : std::vector<std::pair<std::string, std::string>>{
           {"&quot;", "\""}, {"&#39;", "'"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}}) {
    for (auto at = html.find(entity); at != std::string::npos; at = html.find(entity, at + text.size()))
      html.replace(at, entity.size(), text);
  }
  return html;
}

// The text of the first <pre class="config"> block, unescaped.
std::string configBlock(const std::string& html) {
  const std::string open = "<pre class=\"config\">";
  const auto start = html.find(open);
  if (start == std::string::npos) return "";
  const auto end = html.find("</pre>", start);
  return unescaped(html.substr(start + open.size(), end - start - open.size()));
}

}  // namespace

// The two explanations every variant's card and every family's mutants table used to repeat, and the
// margins line, are said once; each variant's evidence is folded under its verdict.
TEST(ReportPage, H100RunSaysEachExplanationOnceAndFoldsTheCards) {
  const RenderedReport report = reportOf("h100-default");
  const std::string& html = report.html;
  EXPECT_EQ(csvOccurrences(html, "<h2>How to read this</h2>"), 1u);
  EXPECT_EQ(csvOccurrences(html, "compute-only keeps the arithmetic and fakes the loads"), 1u);
  EXPECT_EQ(csvOccurrences(html, "one folded card per variant"), 1u);
  EXPECT_EQ(csvOccurrences(html, "counter_tolerance 0.05"), 1u);  // the margins: the same for every verdict
  EXPECT_EQ(csvOccurrences(html, "Margins:"), 0u);
  // 28 originals ran with both mutants on the H100: a card each, all folded (no "open").
  EXPECT_EQ(csvOccurrences(html, "<details class=\"mutation\">"), 28u);
  EXPECT_EQ(csvOccurrences(html, "<details class=\"mutation\" open"), 0u);
  EXPECT_EQ(csvOccurrences(html, "<div class=\"mutation\">"), 0u);
  EXPECT_TRUE(contains(
      html, "<summary><h4>naive_coalesced <span class=\"muted\">COL_MAJOR=0, N=256</span> <span class=\"verdict"));
  EXPECT_TRUE(contains(html, "<a href=\"#how-to-read\">"));
}

// On PoCL each mutant is validated by construction, with the same long note for all 56 of them: the
// note is stated once and each card links to it.
TEST(ReportPage, PoclRunStatesTheSharedValidationNoteOnce) {
  const std::string html = reportOf("pocl-default").html;
  const std::string note = "no counters on this device: the mutant keeps every annotated access";
  EXPECT_EQ(csvOccurrences(html, note), 1u);
  EXPECT_TRUE(contains(html, "<li id=\"reading-note-1\">" + std::string(note)));
  EXPECT_EQ(csvOccurrences(html, "checked by construction: valid <a href=\"#reading-note-1\">[note 1]</a>"), 56u);
  EXPECT_EQ(csvOccurrences(html, "compute-only keeps the arithmetic and fakes the loads"), 1u);
  EXPECT_EQ(csvOccurrences(html, "counter_tolerance 0.05"), 1u);
}

TEST(ReportPage, ConfigIsShownAsTomlKeyValueLines) {
  const std::string html = reportOf("h100-default").html;
  const std::string toml = configBlock(html);
  for (const char* line :
       {"[run]\n", "\ndevice = \"gpu\"\n", "\nrepetitions = 10\n", "\nwarmup = 2\n", "\nreference_model = \"gtx670\"\n",
        "\ncounters = \"auto\"\n", "\nmodes = [ \"normal\", \"compute-only\", \"memory-only\" ]\n", "\nseed = 20121\n",
        "\nvariant_time_limit_s = 60.0\n", "[[study]]\n", "\nfamily = \"matmul\"\n", "\nparams = { N = [ 256 ] }\n",
        "\nvariants = [ \"*\" ]\n"}) {
    EXPECT_TRUE(contains(toml, line)) << "no line " << line << " in\n" << toml;
  }
  EXPECT_EQ(csvOccurrences(toml, "[[study]]"), 4u);
  EXPECT_FALSE(contains(toml, "{\n")) << "the JSON echo, not TOML";
  // The file as given, comments and all, folded below.
  EXPECT_TRUE(contains(html, "<details class=\"config-text\"><summary>The file as given</summary>"));
  EXPECT_TRUE(contains(html, "# rooflab&#39;s embedded default batch"));
}

// A mutant slower than the original, or a rung slower than the one before, is no gain: the report
// never promises "up to 0.70× faster", and the CSV and terminal carry no speedup text.
TEST(ReportPage, SpeedupBelowOneIsNoGainEverywhere) {
  const RenderedReport report = reportOf("h100-default");
  // blocked128_8x8's compute-only mutant took longer than the original (speedup 0.70).
  EXPECT_TRUE(contains(report.html, "if arithmetic were free: no gain"));
  // A Step and a Gain cell: matmul's naive_uncoalesced ran slower than naive_coalesced, the first rung.
  EXPECT_TRUE(contains(report.html, "<td class=\"num\">no gain<br><span class=\"muted\">0."));
  for (const std::string* text : {&report.html, &report.csv, &report.terminal}) {
    EXPECT_FALSE(contains(*text, "up to 0.")) << *text;
  }
  EXPECT_FALSE(contains(report.csv, "faster"));
  EXPECT_FALSE(contains(report.terminal, "faster"));
}

// The TOML the report shows is a config rooflab reads back to the same settings.
TEST(ReportPage, ConfigTomlReadsBackAsTheSameConfig) {
  const rooflab::BatchConfig config = rooflab::defaultBatchConfig();
  const std::string toml = rooflab::configTomlText(config);
  const rooflab::BatchConfig again = rooflab::parseBatchConfig(toml, "shown.toml", ROOFLAB_SOURCE_DIR);
  EXPECT_EQ(again.run.repetitions, config.run.repetitions);
  EXPECT_EQ(again.run.modes, config.run.modes);
  EXPECT_EQ(again.run.max_noise, config.run.max_noise);
  EXPECT_EQ(again.run.kernels, config.run.kernels);
  ASSERT_EQ(again.studies.size(), config.studies.size());
  for (std::size_t i = 0; i < config.studies.size(); ++i) {
    EXPECT_EQ(again.studies[i].family, config.studies[i].family);
    EXPECT_EQ(again.studies[i].variants, config.studies[i].variants);
    EXPECT_EQ(again.studies[i].params, config.studies[i].params);
  }
}

// The page's height in headless Chromium at 1400 px wide: the H100 run's report was 27,354 px tall
// when every card repeated its explanations and every table was open; said once and folded, it is
// about 13,000 px. The bound leaves room for fonts and for the chart and table work beside this.
TEST(ReportPage, H100ReportIsNoLongerAWallOfRepeats) {
  const fs::path chromium = "/usr/bin/chromium";
  if (!fs::exists(chromium)) GTEST_SKIP() << "Debian's chromium package is not installed";
  TempDir dir;
  const auto outcome = runRooflab(
      "report '" + (kGoldenDir / "h100-default/input.json").string() + "' --out out --formats html", dir.path());
  ASSERT_EQ(outcome.exit_code, 0) << show(outcome);
  // The page reports its own height in its title once laid out.
  const fs::path page =
      dir.write("measured.html", fileText(dir.path() / "out/report.html") +
                                     "<script>window.addEventListener('load', () => { document.title = "
                                     "'height=' + document.documentElement.scrollHeight; });</script>");
  const std::string command =
      chromium.string() +
      " --headless --no-sandbox --disable-gpu --window-size=1400,1000 --virtual-time-budget=2000"
      " --dump-dom '" +
      page.string() + "' > '" + (dir.path() / "dom").string() + "' 2>/dev/null";
  ASSERT_EQ(rooflab::testing::exitCodeOf(std::system(command.c_str())), 0);
  const std::string dom = fileText(dir.path() / "dom");
  const auto at = dom.find("<title>height=");
  ASSERT_NE(at, std::string::npos) << dom.substr(0, 300);
  const int height_px = std::stoi(dom.substr(at + 14));
  EXPECT_GT(height_px, 2000);
  EXPECT_LT(height_px, 18000) << "the page grew back towards its old 27,354 px";
}

// Verdicts read with different margins (two runs' records in one file) each state their own, and a
// note only one mutant carries stays on its card.
TEST(ReportPage, MarginsThatDifferStayOnTheirCards) {
  rooflab::AnalysedResults results = twoRecordsWithLevels();
  for (rooflab::AnalysedRecord& record : results.records) record.mutation = rooflab::MutationVerdict{};
  results.records[1].mutation->margins.near = 0.9;
  rooflab::MutantValidation by_construction;
  by_construction.note_as_saved = "a note of its own";
  results.records[0].mutation->validation.memory_only = by_construction;
  const std::string html = reports::renderHtmlReport(results);
  EXPECT_EQ(csvOccurrences(html, "<p class=\"margins muted\">Margins: "), 2u);
  EXPECT_TRUE(contains(html, "near 0.9 · sum_tolerance"));
  EXPECT_FALSE(contains(html, "<li class=\"margins\">"));
  EXPECT_TRUE(contains(html, "checked by construction: valid (a note of its own)"));
  EXPECT_FALSE(contains(html, "reading-note-1"));
}
