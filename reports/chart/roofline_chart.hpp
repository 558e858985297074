#pragma once
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/data/results_document.hpp"

// The roofline chart of one kernel family in data coordinates (FLOP/byte, GFLOP/s): axis ranges,
// every ceiling of every model clipped to those ranges, and one point per normal-mode record. The
// SVG and PNG drawers both draw this through the same layout (chart_scene.hpp), so they agree.
namespace rooflab::reports {

struct DataPoint {
  double intensity_flop_per_byte = 0;
  double gflops = 0;
  MemoryLevel level = MemoryLevel::dram;  // whose bytes the intensity counts
};

enum class ModelRole { reference, measured_device, other };
// fp32_peak is every chart's flat roof (the FP64, int32 or issue-rate one too); l1_bandwidth only the
// instruction roofline's (reports/chart/instruction_roofline.hpp); launch_floor the rate-versus-size
// chart's floor, a size's work over the time of an empty kernel.
enum class CeilingKind { dram_bandwidth, local_bandwidth, fp32_peak, l2_bandwidth, l1_bandwidth, launch_floor };

struct ChartModel {
  std::string key;
  std::string short_name;
  ModelRole role = ModelRole::other;
  std::string role_text;  // for the legend: "reference model", "device that ran (measured)"
};

// A straight piece of a roof: a bandwidth slope (GFLOP/s = GB/s x FLOP/byte) or the flat FP32 peak.
struct Ceiling {
  std::size_t model_index = 0;  // into RooflineChart::models
  CeilingKind kind = CeilingKind::fp32_peak;
  double value = 0;  // GB/s for a bandwidth, GFLOP/s for the peak
  DataPoint from;
  DataPoint to;
  std::string label;        // "DRAM 192.3 GB/s · GeForce GTX 670"; "": a piece of a roof labelled elsewhere
  std::string short_label;  // "DRAM 192.3 GB/s", for where the full label does not fit
};

// A log10 axis: ranges are padded around the data, ticks sit on the decades inside the range.
struct LogAxis {
  double min_value = 1;
  double max_value = 10;
  std::vector<double> decade_ticks;
  std::string title;
};

struct VariantSeries {
  std::string variant;
};

// A performance bar, GFLOP/s, at the point's intensity.
struct GflopsRange {
  double low = 0;
  double high = 0;
};

// The same record at another memory level: the same rate, the intensity of that level's bytes.
struct LevelMarker {
  DataPoint at;                      // at.level says which level
  std::vector<std::string> details;  // tooltip lines
};

// A mutant of the point's variant (compute-only or memory-only), drawn on request at the point's
// intensity and at the rate the original would reach in the mutant's time: the height between the
// two is the most that removing the other part could win.
struct MutantMarker {
  RunMode mode = RunMode::compute_only;
  double gflops = 0;
  std::vector<std::string> details;  // tooltip lines
};

// The instruction roofline's walls and their readings (reports/chart/instruction_roofline.hpp): a vertical
// line where an access pattern puts a load or store instruction per transaction, and the loads and
// stores of one kind at their own instructions per transaction and rate.
struct ChartWall {
  double x = 0;
  std::string label;        // "1/32: 32 sectors per request (stride of 8 words or more) · 32-way bank conflict"
  std::string short_label;  // where the label does not fit
  std::string legend;       // "1/32: 32 per request"
};
enum class AccessKind { global_load, global_store, shared_load, shared_store };
struct AccessMarker {
  AccessKind kind = AccessKind::global_load;
  DataPoint at;
  std::vector<std::string> details;  // tooltip lines
};

struct VariantPoint {
  DataPoint at;
  std::size_t series_index = 0;      // into RooflineChart::series: one colour/marker per variant
  std::string short_label;           // the params that vary within the family ("N=1024"), or ""
  std::vector<std::string> details;  // tooltip lines: variant, params, time, GFLOP/s, intensity, bound
  // For records measured to a noise target (older results have neither): the GFLOP/s of the median
  // kernel time's confidence interval, and of the fastest and slowest repetition.
  std::optional<GflopsRange> median_interval;
  std::optional<GflopsRange> min_max;
  bool missed_noise_target = false;       // drawn hollow, and told once in the legend
  std::vector<LevelMarker> levels;        // the hierarchical roofline's other levels, when placed
  std::optional<std::string> above_roof;  // the point stands above its roof: why (analyzer/place/roof_excess.hpp)
  std::vector<MutantMarker> mutants;      // only when the chart was asked for them (ChartOptions)
  // A launch-bound point (its diagnosis): the rate its work would reach in its launches' time alone,
  // the floor launches put under a short kernel's time drawn as a roof over the point.
  std::optional<double> launch_floor_gflops;
  std::vector<AccessMarker> accesses;  // the instruction roofline's load and store markers
};

// A normal-mode record with no place on log-log axes (an error, no FLOPs, unknown intensity).
struct UnplacedRecord {
  std::string variant;
  std::string params_text;
  std::string reason;
};

// A mark of a series that is not one of its points: drawn as a cross in its colour.
struct SeriesMark {
  std::size_t series_index = 0;
  DataPoint at;
  std::vector<std::string> details;  // tooltip lines
};

struct RooflineChart {
  std::string family;
  std::string title;
  LogAxis x_axis;
  LogAxis y_axis;
  std::vector<ChartModel> models;
  std::vector<Ceiling> ceilings;
  std::vector<VariantSeries> series;
  std::vector<VariantPoint> points;
  std::vector<UnplacedRecord> unplaced;
  // True when a point has markers at several memory levels: the marker's shape then says the level
  // and its colour the variant (chart_scene.cpp).
  bool hierarchical = false;
  // The instruction roofline's: its walls, the levels' names in its legend where they are not
  // levelDisplayName's, and what its unplaced records lack.
  std::vector<ChartWall> walls;
  std::map<MemoryLevel, std::string> level_names;
  std::string unplaced_note = "(errors, no FLOPs): see the table";
  std::string dotted_roof_note = "local-memory roof";  // the legend's words for the dotted roofs
  // What the page's caption adds: where the points' work comes from when not the manifest's.
  std::string caption_note;
  // The rate-versus-size chart: each series' points joined in the order of x, and a mark per series
  // (where it reaches half its plateau).
  bool join_series = false;
  std::vector<SeriesMark> marks;
};

// "global (CGMA)", "DRAM", "L1", "L2", "local memory": how the chart's legend names a level.
std::string levelDisplayName(MemoryLevel level);
// "global loads", ...: how the instruction roofline's legend names an access kind.
std::string accessDisplayName(AccessKind kind);

// Only normal-mode records are placed: the mutants' rates measure the mutation, not the kernel.
// The roofs drawn are the reference model's and the device model's (another model when a run has
// no "device" one): two sets of roofs stay readable, and the tables list every model.
// What a reader asked the chart to add: the mutants' markers (`rooflab run|report --show-mutants`).
struct ChartOptions {
  bool show_mutants = false;
};

RooflineChart buildRooflineChart(const AnalysedResults& results, std::string_view family,
                                 const ChartOptions& options = {});

// Text for a decade tick: "0.001", "1", "100000", "10⁶".
std::string decadeTickLabel(double decade_value);

}  // namespace rooflab::reports
