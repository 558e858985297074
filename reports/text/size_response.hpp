#pragma once
// A family's achieved rate against its problem size (the rate-versus-size view): found in the records
// of a study that sweeps a size param, a series per variant (and per value of any other swept
// param), each with its plateau and the size where it first reaches half of it. The chart
// (reports/chart/rate_vs_size_chart.hpp), the HTML and the CSV read this.
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "analyzer/data/results_document.hpp"

namespace rooflab::reports {

struct SizePoint {
  double size = 0;
  double rate = 0;  // in SizeResponse::unit, at the median time
  const AnalysedRecord* record = nullptr;
};

struct SizeSeries {
  std::string variant;
  std::string others;             // the other params that vary ("BLOCK=128"), or ""
  std::vector<SizePoint> points;  // ascending size
  double plateau_rate = 0;        // the highest rate of the series
  // The size where the rate first reaches half the plateau, interpolated on log-log axes between the
  // sizes around it; at or below the smallest size measured when `half_below_range`.
  std::optional<double> half_plateau_size;
  bool half_below_range = false;
  // The rate still rose by more than 10% over the last step: the plateau may lie beyond the sizes run.
  bool still_rising = false;
};

struct SizeResponse {
  std::string family;
  std::string param;  // the size param
  std::string unit;   // "GFLOP/s", or "GB/s" for a family whose work is below the device's ridge
  std::vector<SizeSeries> series;
};

// Nullopt unless some variant's normal, ok records take three values or more of a param that changes
// the family's work (bytes or flops).
std::optional<SizeResponse> sizeResponse(const AnalysedResults& results, const std::string& family);
// Its records point into `results`: not to be made of a temporary.
std::optional<SizeResponse> sizeResponse(AnalysedResults&& results, const std::string& family) = delete;

// "rate-vs-size-<family>", safe as a file name.
std::string sizeResponseFileStem(const std::string& family);

// variant, others, param, size, rate, unit, median_ns, plateau_rate, half_plateau_size,
// half_below_range, still_rising: a row per point.
void writeSizeResponseCsv(const SizeResponse& response, std::ostream& out);
std::vector<std::filesystem::path> writeSizeResponseCsvReports(const AnalysedResults& results,
                                                               const std::filesystem::path& out_dir);

}  // namespace rooflab::reports
