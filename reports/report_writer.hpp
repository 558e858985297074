#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace rooflab::reports {

// The formats writeReports knows: "html", "png", "json", "csv".
std::vector<std::string> knownReportFormats();

// Renders `results` (docs/results-schema.md) into `out_dir`, creating it:
//   html -> report.html, png -> roofline-<family>.png per family, json -> results.json (pretty,
//   written atomically: rewriting the file a report was read from is safe), csv -> results.csv.
// Throws std::invalid_argument for an unknown format (naming it) or a document that is not
// schema-1 results, before anything is written; std::runtime_error when a file cannot be written.
void writeReports(const nlohmann::json& results, const std::filesystem::path& out_dir,
                  const std::vector<std::string>& formats);

}  // namespace rooflab::reports
