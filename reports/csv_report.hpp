#pragma once
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "analyzer/results_document.hpp"

namespace rooflab::reports {

// One row per record, for spreadsheets and scripts. Per roofline placement key (each model, and its
// "<model>_counters" twin where counters measured the intensity): intensity, attainable GFLOP/s,
// fraction of roof and bound. RFC 4180: CRLF line ends, fields with a comma,
// quote or line break quoted, quotes doubled. Numbers round-trip (std::to_chars) and never depend
// on the locale; a value that is not known is an empty field.
std::vector<std::string> csvHeader(const ResultsDocument& results);
void writeCsv(const ResultsDocument& results, std::ostream& out);
void writeCsvReport(const ResultsDocument& results, const std::filesystem::path& file);  // atomically

// One field as RFC 4180 wants it.
std::string csvField(const std::string& text);

}  // namespace rooflab::reports
