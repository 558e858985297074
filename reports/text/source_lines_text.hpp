#pragma once
// A record's source lines in words: where its warp samples gather, the diagnosis's hot line, and the
// terminal's summary of each sampled original's hottest lines.
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "analyzer/data/analysis.hpp"
#include "analyzer/data/results_document.hpp"

namespace rooflab::reports {

// "matmul.cl:42".
std::string sourceLineText(const SourceLine& where);

// "matmul.cl:42, 61% of samples, long scoreboard: waiting on global loads".
std::string hotLineText(const HotLine& hot);

// The samples at lines of the program's files: what a line's share is a share of.
std::int64_t attributedSamples(const LineSampling& sampling);

// The `count` lines with the most samples, most first (as listed where they tie).
std::vector<const LineSamples*> hottestLines(const LineSampling& sampling, std::size_t count);

// The line's most sampled stall reason; nullptr when it has none.
const StallReasonSamples* dominantStall(const LineSamples& line);

// "48.2 k warp samples (one per SM every 2^5 cycles): 45.9 k at lines of the program's files, 2310
// elsewhere, 0 dropped".
std::string lineSamplingSummaryText(const LineSampling& sampling);

// "No per-line samples: <reason>" for a record that was not sampled.
std::string lineSamplingMissingText(const LineSampling& sampling);

// After the terminal's table: each sampled original's three hottest lines (file:line, share of the
// samples at its lines, most sampled stall), then its diagnosis's hot line where it names one.
void printHottestLines(const AnalysedResults& results, std::ostream& out);

}  // namespace rooflab::reports
