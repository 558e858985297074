#pragma once
// The end-to-end view in words and numbers (docs/end-to-end.md): each end-to-end run of a record with
// its parts, its predicted time and its bound; the best strategy and what it wins; the overlap what-if.
// The terminal shows it under the results table; end-to-end.csv has a row per run.
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "analyzer/data/results_document.hpp"

namespace rooflab::reports {

// "copy", "overlap (4 chunks)".
std::string endToEndRunName(const EndToEndRun& run);

// A bar of `width` characters: U upload, L launch, K kernel, D download, . gaps, each in proportion to
// its share of the parts' sum.
std::string endToEndTextBar(const EndToEndParts& parts, std::size_t width);

// "predicted 2.31 ms beside 2.40 ms measured (+4%)", or why there is no prediction.
std::string predictionText(const EndToEndRun& run, const EndToEndRunPrediction& prediction);

// "4 chunks: the pipeline predicted 12.0 ms (2.10x the one-chunk run's 25.2 ms) beside 12.6 ms measured (2.00x)".
std::string overlapWhatIfText(const OverlapWhatIf& what_if);

// Whether any record has end-to-end runs.
bool hasEndToEnd(const AnalysedResults& results);

// Under the terminal table: per record with end-to-end runs, a line per run and its verdict.
void printEndToEnd(const AnalysedResults& results, std::ostream& out);

// end-to-end.csv: one row per end-to-end run (docs/results-schema.md, "end-to-end.csv"); written only
// when some record has runs.
void writeEndToEndCsv(const AnalysedResults& results, std::ostream& out);
void writeEndToEndCsvReport(const AnalysedResults& results, const std::filesystem::path& file);

}  // namespace rooflab::reports
