#pragma once
// A tuning search in words and as CSV: the terminal's summary of each search, and the whole space,
// a row per configuration (docs/results-schema.md, "Tuning").
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "analyzer/data/results_document.hpp"

namespace rooflab::reports {

// "tune-<family>-<variant>": the stem of the search's CSV and PNG files, safe as a file name.
std::string tuningFileStem(const TuningResult& result);

// One paragraph: the best configuration with its interval and rate, against the variant as written,
// how many configurations ran and why the search ended.
void printTuningSummary(const TuningResult& result, std::ostream& out);
// The best configuration as "A=1 B=2"; "" when the search found none.
std::string bestConfigurationText(const TuningResult& result);

// The line a search prints after each evaluation (TuneProgressText): "rooflab: tune matmul/tiled [3/12]
// TILE=16: 1.234 ms, 2750.1 GFLOP/s".
std::string tuneProgressText(const TuningResult& result, std::size_t configuration, std::size_t budget);

// A column per dimension, then outcome, order, resumed, median_ns, lower_ns, upper_ns, rate,
// rate_unit, best, reason: every configuration of the space, invalid ones included.
void writeTuningCsv(const TuningResult& result, std::ostream& out);
// tune-<family>-<variant>.csv per search, atomically; returns the files written.
std::vector<std::filesystem::path> writeTuningCsvReports(const AnalysedResults& results,
                                                         const std::filesystem::path& out_dir);

}  // namespace rooflab::reports
