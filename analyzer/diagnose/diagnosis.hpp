#pragma once
// One diagnosis per original variant: what bounds it, read from every signal rooflab has (the
// roofline position at each memory level, the mutants' times, the hardware counters), with the
// evidence listed and, where two signals point to different bounds, which one is trusted and why.
// A pure function of a record with its placements and mutation verdict (docs/results-schema.md,
// "Diagnosis").
#include <optional>

#include "analyzer/data/diagnosis.hpp"

namespace rooflab {

struct AnalysedRecord;

// The placements read are those on the device model ("device", "device_<level>",
// "device_counters"): placements on the reference model are decided by intensity alone. With the
// device's launch latency (measured by the ceilings), a kernel that runs within 2x of its launches'
// cost is diagnosed launch-bound. With the record's line sampling, the hot line (hot_line.hpp), unless
// the variant failed verification.
Diagnosis diagnose(const AnalysedRecord& original, std::optional<double> launch_latency_ns = std::nullopt);
// The diagnosis from the roofline, counters and mutants alone, without the launch floor.
Diagnosis diagnoseSignals(const AnalysedRecord& original);

}  // namespace rooflab
