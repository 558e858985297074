#include "reports/report_writer.hpp"

#include <algorithm>
#include <stdexcept>

#include "reports/atomic_file.hpp"
#include "reports/csv_report.hpp"
#include "reports/html_report.hpp"
#include "reports/png_report.hpp"
#include "reports/results_view.hpp"

namespace rooflab::reports {

std::vector<std::string> knownReportFormats() { return {"html", "png", "json", "csv"}; }

void writeReports(const nlohmann::json& results, const std::filesystem::path& out_dir,
                  const std::vector<std::string>& formats) {
  const std::vector<std::string> known = knownReportFormats();
  for (const std::string& format : formats) {
    if (std::find(known.begin(), known.end(), format) == known.end()) {
      std::string list;
      for (const std::string& name : known) list += (list.empty() ? "" : ", ") + name;
      throw std::invalid_argument("unknown report format \"" + format + "\" (known: " + list + ")");
    }
  }
  requireSupportedResults(results);
  std::filesystem::create_directories(out_dir);
  for (const std::string& format : formats) {
    if (format == "html") writeHtmlReport(results, out_dir / "report.html");
    if (format == "png") writePngReports(results, out_dir);
    if (format == "json") writeFileAtomically(out_dir / "results.json", results.dump(2) + "\n");
    if (format == "csv") writeCsvReport(results, out_dir / "results.csv");
  }
}

}  // namespace rooflab::reports
