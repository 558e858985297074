// The built-in transpose family, which does no arithmetic work, run on PoCL through the binary: its
// report draws every variant on the bandwidth chart, in the page and as a PNG, where its roofline
// used to stand empty.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>

#include "analyzer/json/results_json.hpp"
#include "reports/chart/bandwidth_chart.hpp"
#include "reports/chart/family_charts.hpp"
#include "test_support.hpp"

using rooflab::testing::TempDir;
namespace fs = std::filesystem;
namespace reports = rooflab::reports;

TEST(BandwidthChartRun, BuiltInTransposeIsDrawnWithEveryVariant) {
  ROOFLAB_REQUIRE_CPU_DEVICE();
  TempDir dir;
  const fs::path config = dir.path() / "transpose.toml";
  std::ofstream(config) << "[run]\ndevice = \"cpu\"\nrepetitions = 1\nwarmup = 0\nmodes = [\"normal\"]\n"
                        << "counters = \"off\"\nceilings = \"datasheet\"\nformats = [\"json\", \"html\", \"png\"]\n"
                        << "[[study]]\nfamily = \"transpose\"\nparams = { N = [64] }\n";
  const fs::path out = dir.path() / "out";
  const std::string command = std::string(ROOFLAB_BINARY) + " run " + config.string() + " --out " + out.string() +
                              " > " + (dir.path() / "log").string() + " 2>&1";
  const int status = std::system(command.c_str());
  ASSERT_EQ(WEXITSTATUS(status), 0) << rooflab::testing::fileText(dir.path() / "log");

  const rooflab::ResultsDocument results = rooflab::readResultsFile(out / "results.json");
  const reports::FamilyCharts charts = reports::buildFamilyCharts(results, "transpose");
  ASSERT_TRUE(charts.bandwidth.has_value());
  EXPECT_FALSE(charts.roofline.has_value());
  std::set<std::string> tooltip_heads;
  for (const reports::SceneItem& item : reports::layoutBandwidthChart(*charts.bandwidth).items)
    if (const auto* marker = std::get_if<reports::SceneMarker>(&item); marker && !marker->tooltip.empty())
      tooltip_heads.insert(marker->tooltip.front());
  EXPECT_EQ(tooltip_heads,
            (std::set<std::string>{"transpose / naive", "transpose / tiled", "transpose / tiled_padded"}));

  const std::string html = rooflab::testing::fileText(out / "report.html");
  EXPECT_NE(html.find("data-chart=\"bandwidth\""), std::string::npos);
  EXPECT_EQ(html.find("no variant can be placed"), std::string::npos);
#ifdef ROOFLAB_HAVE_CAIRO
  EXPECT_TRUE(fs::exists(out / "bandwidth-transpose.png"));
  EXPECT_FALSE(fs::exists(out / "roofline-transpose.png"));
#endif
}
