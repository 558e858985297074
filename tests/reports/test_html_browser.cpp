// The HTML report in a real browser: headless Chromium renders it to a screenshot, and nothing in
// the page makes its console complain. Skipped where Debian's chromium package is not installed.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analyzer/json/results_json.hpp"
#include "reports/html/html_report.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path kChromium = "/usr/bin/chromium";
const fs::path kBrowserFixtureDir = ROOFLAB_SOURCE_DIR "/tests/fixtures/results";

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

// Width of a PNG from its IHDR chunk (bytes 16..19, big-endian), without an image library.
std::uint32_t pngWidth(const std::string& png) {
  if (png.size() < 24) return 0;
  std::uint32_t width = 0;
  for (int i = 16; i < 20; ++i) width = width << 8 | static_cast<unsigned char>(png[i]);
  return width;
}

// Single-quoted for /bin/sh; the paths are ours, but a temp dir may hold anything.
std::string shellQuoted(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// Lines where Chromium reports a page script or resource error ("CONSOLE(12)] Uncaught ...").
std::vector<std::string> consoleErrors(const std::string& browser_log) {
  std::vector<std::string> errors;
  std::istringstream lines(browser_log);
  for (std::string line; std::getline(lines, line);) {
    const bool console = line.find("CONSOLE") != std::string::npos;
    if (console && (line.find("Uncaught") != std::string::npos || line.find("Error") != std::string::npos)) {
      errors.push_back(line);
    }
  }
  return errors;
}

class HtmlBrowser : public ::testing::TestWithParam<const char*> {};

}  // namespace

TEST_P(HtmlBrowser, RendersWithoutConsoleErrors) {
  if (!fs::exists(kChromium)) GTEST_SKIP() << kChromium << " is not installed (apt-get install chromium)";

  const fs::path scratch = fs::temp_directory_path() / ("rooflab-browser-" + std::to_string(::getpid()) + "-" +
                                                        fs::path(GetParam()).stem().string());
  fs::remove_all(scratch);
  fs::create_directories(scratch);
  std::ifstream in(kBrowserFixtureDir / GetParam());
  ASSERT_TRUE(in) << GetParam();
  const fs::path html = scratch / "report.html";
  rooflab::reports::writeHtmlReport(rooflab::resultsDocumentFromJson(nlohmann::json::parse(in)), html);

  const fs::path screenshot = scratch / "screenshot.png";
  const fs::path browser_log = scratch / "chromium.log";
  // A fresh profile, and nothing that reaches the network: the page must stand on its own.
  const std::string command =
      "timeout 120 " + shellQuoted(kChromium.string()) +
      " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking"
      " --disable-component-update --disable-sync --user-data-dir=" +
      shellQuoted((scratch / "profile").string()) +
      " --enable-logging=stderr --v=0 --screenshot=" + shellQuoted(screenshot.string()) + " --window-size=1600,1200 " +
      shellQuoted("file://" + html.string()) + " >" + shellQuoted(browser_log.string()) + " 2>&1";
  const int status = std::system(command.c_str());
  const std::string log = readFile(browser_log);
  EXPECT_EQ(status, 0) << command << "\n" << log;

  ASSERT_TRUE(fs::exists(screenshot)) << log;
  const std::string png = readFile(screenshot);
  ASSERT_GE(png.size(), 8u);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(png.substr(12, 4), "IHDR");
  EXPECT_EQ(pngWidth(png), 1600u);

  const std::vector<std::string> errors = consoleErrors(log);
  EXPECT_TRUE(errors.empty()) << errors.size() << " console errors, first: " << (errors.empty() ? "" : errors[0]);

  std::error_code ignored;
  fs::remove_all(scratch, ignored);
}

// The test names, by index: a brace list would split the macro's arguments at its commas.
const char* const kBrowserRunNames[] = {"CpuRun", "GpuRun", "SourceViewRun"};

INSTANTIATE_TEST_SUITE_P(Fixtures, HtmlBrowser,
                         ::testing::Values("cpu-pocl-small.json", "gpu-h100-modes.json", "source-view-sampled.json"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           return std::string(kBrowserRunNames[info.index]);
                         });
