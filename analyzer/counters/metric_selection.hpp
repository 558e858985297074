#pragma once
// What a record's counters are for, and so what the bridge does for it (docs/cost.md, "Counters"):
// an original needs the whole metric table (its placement at every memory level, the profiler
// readings, a what-if's expectation), its bridged time (rates from counters, the bridged-to-OpenCL
// check) and its bridged outputs (compared with OpenCL's); a mutant needs only what validates it
// (FP32 instructions and global sectors, against its original's) and its occupancy: fewer metrics,
// so fewer passes, and no timed runs or read-back at all.
#include <string>
#include <vector>

namespace rooflab::counters {

enum class CounterNeed {
  full_table,         // an original (normal mode) or a what-if
  mutant_validation,  // a compute-only or memory-only mutant
};

struct MetricSelection {
  std::vector<std::string> metrics;  // raw names, the table's order first, then the extra ones, no duplicate
  std::string description;           // CounterSet::metric_set: "full table", "mutant validation (...)"
  bool timing = true;                // bridged timed runs
  bool read_back = true;             // one bridged run copied back
};

// `extra`: ROOFLAB_EXTRA_METRICS, parsed; collected for every record (on mutants, FP64 and integer
// instruction counts among them extend the validation).
MetricSelection selectMetrics(CounterNeed need, const std::vector<std::string>& extra);

}  // namespace rooflab::counters
