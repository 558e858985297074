#pragma once
#include <vector>

namespace rooflab {

// Robust summary of repeated measurements. cv is the coefficient of variation (sample standard
// deviation over mean); 0 for a single sample.
struct SampleSummary {
  double median = 0;
  double min = 0;
  double max = 0;
  double mean = 0;
  double cv = 0;
  std::size_t count = 0;
};

SampleSummary summarize(std::vector<double> samples);  // throws std::invalid_argument when empty

}  // namespace rooflab
