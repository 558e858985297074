#include "analyzer/counters/metric_selection.hpp"

#include <algorithm>

#include "analyzer/data/counter_metrics.hpp"

namespace rooflab::counters {

MetricSelection selectMetrics(CounterNeed need, const std::vector<std::string>& extra) {
  MetricSelection selection;
  if (need == CounterNeed::full_table) {
    for (const CounterMetric& metric : counterMetricTable()) selection.metrics.emplace_back(metric.raw_name);
    selection.description = "full table";
  } else {
    selection.metrics = mutantValidationMetrics();
    selection.description = std::string("mutant validation (FP32 instructions, global sectors, occupancy") +
                            (extra.empty() ? ")" : ", and the extra metrics)");
    selection.timing = false;
    selection.read_back = false;
  }
  // Experts can ask for any further sm_90 metric (stall reasons, pipe use), as with `ncu --metrics`;
  // each lands in "values" as it comes, or in "missing" with CUPTI's reason.
  for (const std::string& name : extra)
    if (std::find(selection.metrics.begin(), selection.metrics.end(), name) == selection.metrics.end())
      selection.metrics.push_back(name);
  return selection;
}

}  // namespace rooflab::counters
