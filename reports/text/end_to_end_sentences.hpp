#pragma once
// An end-to-end analysis in words, as the terminal, the CSV and the HTML quote it: where each run's
// prediction came from, what bounds a run, and the verdict's summary. An item read from a schema-1
// results file is said as that file saved it.
#include <string>

#include "analyzer/data/end_to_end.hpp"

namespace rooflab::reports {

// A strategy as the reports name a run of it: "copy", "overlap (4 chunks)".
std::string endToEndStrategyName(EndToEndStrategy strategy, int chunks);

// Where a run's prediction came from: "upload: copy 8.00 GB/s + 10.0 us a buffer x 2; launch: 7.0 us
// x 1; kernel: the kernel run's median 270.0 us; ...", or why there is none ("no prediction: ...");
// empty for a run that was not judged.
std::string endToEndPredictedFromText(const EndToEndRunPrediction& judged);

// What bounds a run: "link-bound at 7.67 GB/s host-to-device (71% of the time)"; empty when undetermined.
std::string endToEndBoundText(const EndToEndRunPrediction& judged);

// What bounds the best run, as endToEndBoundText says it.
std::string endToEndBoundText(const EndToEndVerdict& verdict);

// The best run and what it wins: "overlap (4 chunks) 23.00 ms, 4.27x faster than copy (98.30 ms)",
// "copy 12.00 ms, the fastest", or "no end-to-end run was verified".
std::string endToEndSummaryText(const EndToEndVerdict& verdict);

}  // namespace rooflab::reports
