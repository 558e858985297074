#pragma once
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "analyzer/data/results_document.hpp"

namespace rooflab::reports {

// One row per record, for spreadsheets and scripts (every column: docs/results-schema.md, "CSV").
// One "param_<name>" column per param of any record (empty where a record lacks it) beside the
// packed "params" column; the timed runs' spread (min_ns, max_ns); per roofline placement key (each
// model, and its level placements: "<model>_global", "_counters", "_l1", "_l2", "_local" where
// records have them): intensity, attainable GFLOP/s, fraction of roof and bound. RFC 4180: CRLF line ends, fields with
// a comma, quote or line break quoted, quotes doubled. Numbers round-trip (std::to_chars) and never depend on the
// locale; a value that is not known is an empty field.
std::vector<std::string> csvHeader(const AnalysedResults& results);
void writeCsv(const AnalysedResults& results, std::ostream& out);
void writeCsvReport(const AnalysedResults& results, const std::filesystem::path& file);  // atomically

// One field as RFC 4180 wants it.
std::string csvField(const std::string& text);

}  // namespace rooflab::reports
