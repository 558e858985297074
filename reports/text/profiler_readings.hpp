#pragma once
#include <optional>
#include <string>
#include <vector>

#include "analyzer/data/results_document.hpp"

// The course's profiler readings of a record (branch divergence, replays, global load and store
// efficiency, L1 and L2 hit rates, bank conflicts per shared access, instructions per DRAM
// transaction): the counters' derived values that counters::profilerReadingKeys() names. Read by the
// HTML and CSV reports alike.
namespace rooflab::reports {

struct ProfilerReading {
  std::string key;  // the derived key (docs/results-schema.md, "Counters")
  std::string display_name;
  std::string unit;             // "%", "replays/inst", ...
  std::string description;      // one line: what the reading tells
  std::optional<double> value;  // nullopt: see reason
  std::string reason;           // why there is no value
};

// True when the record's counters carry at least one reading key (a record of a run before the
// readings existed, or a mutant with its validation subset, carries none).
bool hasProfilerReadings(const AnalysedRecord& record);
bool anyProfilerReadings(const AnalysedResults& results);

// Every reading, in counters::profilerReadingKeys() order, of a record (values and reasons empty
// for a record without counters).
std::vector<ProfilerReading> profilerReadings(const AnalysedRecord& record);

// A reading's value for people: "12.5%" for percentages, 3 significant digits otherwise.
std::string formatProfilerReading(const ProfilerReading& reading);

}  // namespace rooflab::reports
