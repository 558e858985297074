#include "reports/report_writer.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "analyzer/json/results_file.hpp"
#include "reports/text/csv_report.hpp"
#include "reports/text/end_to_end_text.hpp"
#include "reports/text/device_comparison.hpp"
#include "reports/text/size_response.hpp"
#include "reports/text/tuning_text.hpp"
#include "reports/html/html_report.hpp"
#include "reports/chart/png_report.hpp"
#ifdef ROOFLAB_HAVE_CAIRO
#include "reports/chart/png_charts.hpp"
#endif

namespace rooflab::reports {

std::vector<std::string> knownReportFormats() { return {"html", "png", "json", "csv"}; }

void writeReports(const ResultsDocument& document, const std::filesystem::path& out_dir,
                  const std::vector<std::string>& formats, const ChartOptions& chart_options) {
  const std::vector<std::string> known = knownReportFormats();
  for (const std::string& format : formats) {
    if (std::find(known.begin(), known.end(), format) == known.end()) {
      std::string list;
      for (const std::string& name : known) list += (list.empty() ? "" : ", ") + name;
      throw std::invalid_argument("unknown report format \"" + format + "\" (known: " + list + ")");
    }
  }
  std::filesystem::create_directories(out_dir);
  const AnalysedResults results(document);
  for (const std::string& format : formats) {
    if (format == "html") writeHtmlReport(results, out_dir / "report.html", chart_options);
    if (format == "png") {
#ifdef ROOFLAB_HAVE_CAIRO
      if (comparesDevices(results)) {
        // Each device's charts against its own roofs: roofline-<family>-<device>.png.
        const std::vector<AnalysedResults> documents = documentsPerDevice(results);
        for (std::size_t d = 0; d < documents.size(); ++d)
          writePngReports(documents[d], out_dir, {}, chart_options,
                          "-" + deviceShortName(results, results.device_runs[d]));
      } else {
        writePngReports(results, out_dir, {}, chart_options);
      }
      writeExtraPngReports(results, out_dir);
#else
      // Built without cairo (the GPU machine): the other formats are still written, and
      // `rooflab report results.json` on a machine with cairo draws the PNGs from the same data.
      std::fprintf(stderr, "rooflab: PNG reports skipped: this rooflab was built without cairo\n");
#endif
    }
    if (format == "json") writeResultsFile(out_dir / "results.json", document);
    if (format == "csv") {
      writeCsvReport(results, out_dir / "results.csv");
      writeTuningCsvReports(results, out_dir);
      writeSizeResponseCsvReports(results, out_dir);
    }
    if (format == "csv" && hasEndToEnd(results)) writeEndToEndCsvReport(results, out_dir / "end-to-end.csv");
  }
}

}  // namespace rooflab::reports
