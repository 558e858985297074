// `rooflab ceilings`' terminal table (formatCeilingsReport): it reads only the report.
#include <sstream>
#include <string>
#include <vector>

#include "analyzer/ceilings/ceilings.hpp"
#include "analyzer/support/format.hpp"

namespace rooflab {
namespace {

// Pads to `width` columns; a UTF-8 sequence (the table's ±) takes one.
std::string padRight(std::string text, std::size_t width) {
  std::size_t columns = 0;
  for (unsigned char c : text)
    if ((c & 0xC0) != 0x80) ++columns;
  if (columns < width) text.append(width - columns, ' ');
  return text;
}

std::string rateText(const std::optional<double>& rate, const std::string& unit) {
  return rate ? formatFixed(*rate, 1) + " " + unit : "-";
}

// "±0.3%": the relative half-width of the median's 95% interval; "-" with too few runs to say.
std::string noiseText(const CeilingBenchmark& benchmark) {
  if (!benchmark.spread || !benchmark.spread->noise) return "-";
  return "±" + formatFixed(100 * *benchmark.spread->noise, 1) + "%";
}

std::string percentText(double fraction) { return formatNumber(100 * fraction) + "%"; }

// How the benchmarks were repeated, as measureCeilings applied it (analyzer/stats/stopping_rule.hpp).
std::string repetitionText(const CeilingsReport& report) {
  if (!report.repetition_rule)
    return "best of " + std::to_string(report.fp32_fma.repetitions) + " timed runs per benchmark";
  const NoiseTarget& rule = *report.repetition_rule;
  std::string text = "each benchmark: one warm-up, then at least " + std::to_string(rule.min_repetitions) +
                     " timed runs, until its median is known to ±" + percentText(rule.max_noise) + " (" +
                     percentText(rule.confidence) + " interval) or " + formatNumber(rule.max_time_s) + " s is spent";
  if (rule.max_repetitions > 0) text += " (at most " + std::to_string(rule.max_repetitions) + " runs)";
  return text + "; the best run is reported";
}

// Whether the benchmark stopped with its median still less certain than the target.
bool stoppedNoisy(const CeilingBenchmark& benchmark) {
  return benchmark.spread && benchmark.spread->stopped == StopDecision::budget_exhausted;
}

struct Row {
  const CeilingBenchmark& benchmark;
  const char* label;
  std::optional<double> datasheet_rate;
};

std::vector<Row> ceilingRows(const CeilingsReport& report, const std::optional<DeviceModel>& datasheet) {
  std::optional<double> sheet_dram, sheet_peak, sheet_local;
  if (datasheet) {
    sheet_dram = datasheet->dram_gbps;
    sheet_peak = datasheet->peak_gflops;
    sheet_local = datasheet->local_gbps;
  }
  std::vector<Row> rows = {{report.dram_copy, "DRAM copy (read+write)", sheet_dram},
                           {report.dram_read, "DRAM read", sheet_dram}};
  if (report.dram_write) rows.push_back({*report.dram_write, "DRAM write", sheet_dram});
  rows.push_back({report.fp32_fma, "FP32 multiply-add", sheet_peak});
  rows.push_back({report.local_read, "local memory read", sheet_local});
  if (report.l2_read) rows.push_back({*report.l2_read, "L2 read", datasheet ? datasheet->l2_gbps : std::nullopt});
  if (report.fp64_fma)
    rows.push_back({*report.fp64_fma, "FP64 multiply-add", datasheet ? datasheet->fp64_gflops : std::nullopt});
  if (report.int32_mad)
    rows.push_back({*report.int32_mad, "int32 multiply-add", datasheet ? datasheet->int32_gops : std::nullopt});
  if (report.warp_issue)
    rows.push_back(
        {*report.warp_issue, "warp instruction issue", datasheet ? datasheet->warp_issue_gips : std::nullopt});
  return rows;
}

// The table of roofs, then each one's geometry and median. Returns whether a roof beat its datasheet
// figure, which the closing lines then explain.
bool writeRoofTable(std::ostringstream& out, const std::vector<Row>& rows,
                    const std::optional<DeviceModel>& datasheet) {
  const std::string sheet_header = datasheet ? "datasheet (" + datasheet->key + ")" : "datasheet";
  out << padRight("benchmark", 24) << padRight("measured", 20) << padRight("±noise", 9) << padRight(sheet_header, 24)
      << padRight("measured/datasheet", 24) << "kernel\n";
  bool above_datasheet = false;
  for (const Row& row : rows) {
    std::string ratio = "-";
    if (row.benchmark.best_rate && row.datasheet_rate && *row.datasheet_rate > 0) {
      const double value = *row.benchmark.best_rate / *row.datasheet_rate;
      ratio = formatFixed(value, 2);
      if (value > 1.0) {
        ratio += " (above datasheet)";
        above_datasheet = true;
      }
    }
    out << padRight(row.label, 24) << padRight(rateText(row.benchmark.best_rate, row.benchmark.unit), 20)
        << padRight(noiseText(row.benchmark), 9) << padRight(rateText(row.datasheet_rate, row.benchmark.unit), 24)
        << padRight(ratio, 24) << (row.benchmark.kernel.empty() ? "-" : row.benchmark.kernel) << "\n";
  }
  out << "\n";
  for (const Row& row : rows) {
    const CeilingBenchmark& benchmark = row.benchmark;
    out << "  " << padRight(benchmark.name, 11) << " ";
    if (benchmark.error) {
      out << "FAILED: " << *benchmark.error;
    } else {
      out << benchmark.geometry << "; median " << rateText(benchmark.median_rate, benchmark.unit);
      if (benchmark.spread)
        out << " of " << benchmark.repetitions << " runs, " << toString(benchmark.spread->stopped) << " after "
            << formatFixed(benchmark.spread->measured_seconds, 3) << " s";
    }
    out << "\n";
  }
  return above_datasheet;
}

void writeCandidates(std::ostringstream& out, const CeilingsReport& report, const std::vector<Row>& rows) {
  if (report.candidates.empty()) return;
  out << "\nEvery kernel measured (* set its row's figure):\n";
  for (const CeilingBenchmark& candidate : report.candidates) {
    bool winner = false;
    for (const Row& row : rows)
      winner = winner || (row.benchmark.name == candidate.name && row.benchmark.kernel == candidate.kernel);
    out << (winner ? " * " : "   ") << padRight(candidate.kernel, 38);
    if (candidate.error) out << "FAILED: " << *candidate.error << "\n";
    else
      out << padRight(rateText(candidate.best_rate, candidate.unit), 20) << padRight(noiseText(candidate), 9)
          << candidate.repetitions << " runs\n";
  }
}

}  // namespace

std::string formatCeilingsReport(const CeilingsReport& report, const std::optional<DeviceModel>& datasheet,
                                 const HostNoiseText& host_noise_text) {
  // The link and launch alone (datasheet roofs): no roof table to show.
  if (report.dram_copy.name.empty() && report.fp32_fma.name.empty()) return formatLinkCeilings(report);
  std::ostringstream out;
  const DeviceInfo& info = report.device;
  out << "Ceilings of " << info.name << " (" << info.platform << ", driver " << info.driver_version << "), measured "
      << report.measured_at << "\n";
  out << repetitionText(report) << ", timed with OpenCL profiling events\n\n";

  const std::vector<Row> rows = ceilingRows(report, datasheet);
  const bool above_datasheet = writeRoofTable(out, rows, datasheet);
  if (const CeilingBenchmark* dram = report.dramCeiling(); dram && report.dram_write)
    out << "\nDRAM roof: " << dram->name << (dram->kernel.empty() ? "" : " (" + dram->kernel + ")")
        << ", the best of copy, read and write.\n";

  if (report.l2_not_measured) out << "\nL2 not measured: " << *report.l2_not_measured << ".\n";

  writeCandidates(out, report, rows);

  std::string noisy;
  for (const Row& row : rows)
    if (stoppedNoisy(row.benchmark))
      noisy += (noisy.empty() ? "" : ", ") + row.benchmark.name + " (" + noiseText(row.benchmark) + ")";
  if (!noisy.empty() && report.repetition_rule)
    out << "\nStill noisier than ±" << percentText(report.repetition_rule->max_noise) << " when their "
        << formatNumber(report.repetition_rule->max_time_s) << " s were spent: " << noisy << ".\n";
  if (report.noisy_host && host_noise_text)
    out << "\nWarning: noisy host: " << host_noise_text(*report.noisy_host) << ". The figures may vary between runs.\n";

  if (!datasheet) {
    out << "\nNo datasheet model in configs/devices matches '" << info.name << "': measured figures only.\n";
  } else {
    out << "\nDatasheet: " << datasheet->display_name << " (configs/devices/" << datasheet->key << ".toml).\n";
    if (above_datasheet)
      out << "Figures above the datasheet are reported as measured: boost clocks can run faster than the clock the "
             "datasheet figure assumes.\n";
  }
  if (!report.model) out << "No device model: the FP32 benchmark or every DRAM benchmark failed.\n";
  out << formatLinkCeilings(report);
  return out.str();
}

}  // namespace rooflab
