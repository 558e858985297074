#include "reports/text/profiler_readings.hpp"

#include <algorithm>

#include "analyzer/data/counter_set.hpp"
#include "analyzer/data/counter_metrics.hpp"
#include "reports/text/known_value.hpp"
#include "reports/text/number_format.hpp"

namespace rooflab::reports {

bool hasProfilerReadings(const AnalysedRecord& record) {
  const counters::CounterSet& set = record.counters;
  if (set.not_attempted) return false;
  const auto& keys = counters::profilerReadingKeys();
  return std::any_of(keys.begin(), keys.end(), [&](const std::string& key) { return set.derived.count(key) > 0; });
}

bool anyProfilerReadings(const AnalysedResults& results) {
  return std::any_of(results.records.begin(), results.records.end(),
                     [](const AnalysedRecord& record) { return hasProfilerReadings(record); });
}

std::vector<ProfilerReading> profilerReadings(const AnalysedRecord& record) {
  const auto& table = counters::derivedCounterTable();
  const bool readable = hasProfilerReadings(record);
  std::vector<ProfilerReading> readings;
  for (const std::string& key : counters::profilerReadingKeys()) {
    ProfilerReading reading;
    reading.key = key;
    const auto entry =
        std::find_if(table.begin(), table.end(), [&](const counters::CounterMetric& m) { return key == m.raw_name; });
    if (entry != table.end()) {
      reading.display_name = entry->display_name;
      reading.unit = entry->unit;
      reading.description = entry->description;
    }
    if (readable) {
      const auto value = record.counters.derived.find(key);
      if (value != record.counters.derived.end()) reading.value = known(value->second);
      const auto reason = record.counters.derived_reasons.find(key);
      if (reason != record.counters.derived_reasons.end()) reading.reason = reason->second;
    }
    readings.push_back(std::move(reading));
  }
  return readings;
}

std::string formatProfilerReading(const ProfilerReading& reading) {
  if (!reading.value) return "–";
  if (reading.unit == "%") return formatFixed(*reading.value, 1) + "%";
  return formatSignificant(*reading.value, 3);
}

}  // namespace rooflab::reports
