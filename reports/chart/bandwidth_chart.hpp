#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reports/chart/chart_scene.hpp"
#include "reports/chart/roofline_chart.hpp"

// The bandwidth chart of one family (docs/charts.md): for kernels that do no arithmetic work (a
// copy, a transpose, a gather), which the FLOP roofline cannot place, the bandwidth each record
// achieved at each memory level as a fraction of that level's measured roof. One column per level
// (global: the bytes the manifest declares the code asks for; DRAM: the counters' bytes, else the
// compulsory ones; L2 and L1: the counters'; local: the counters' shared wavefronts, else the
// declared local accesses), one dot per record in ladder order within each column. Drawn through the
// same scene primitives as the roofline, so the SVG and the PNG agree, with the same tooltips
// (diagnosis included) and, in the page, the same zoom and variant filter.
namespace rooflab::reports {

struct BandwidthColumn {
  MemoryLevel level = MemoryLevel::dram;
  std::string name;       // "DRAM", "global (declared)"
  double roof_gbps = 0;   // the device model's roof for this level
  std::string roof_text;  // "3280 GB/s"
};

struct BandwidthDot {
  std::size_t column = 0;        // into BandwidthChart::columns
  std::size_t slot = 0;          // the record's place in ladder order, into BandwidthChart::slots
  std::size_t series_index = 0;  // into BandwidthChart::series: the variant's colour and shape
  double fraction = 0;           // achieved GB/s over the level's roof
  bool missed_noise_target = false;
  std::vector<std::string> details;  // tooltip lines
};

struct BandwidthChart {
  std::string family;
  std::string title;
  std::string model_name;  // whose roofs: the device that ran
  std::vector<BandwidthColumn> columns;
  std::vector<VariantSeries> series;  // one per variant, in ladder order
  std::vector<std::string> slots;     // one per record drawn: "naive N=1024", in ladder order
  std::vector<BandwidthDot> dots;
  std::vector<UnplacedRecord> unplaced;  // records with no dot, and why
  double y_max_fraction = 1.0;           // the y axis' top: 100% or the highest dot
};

// The family's records that declare no arithmetic work (flops 0), on the device's roofs; nullopt
// when none of its normal records is such a record.
std::optional<BandwidthChart> buildBandwidthChart(const AnalysedResults& results, std::string_view family);

ChartScene layoutBandwidthChart(const BandwidthChart& chart, const ChartStyle& style = {});

}  // namespace rooflab::reports
