// `rooflab ceilings`' terminal table (ceilingsTable): it reads only the report.
#include "reports/text/ceilings_table.hpp"

#include <sstream>
#include <string>
#include <vector>

#include "analyzer/support/format.hpp"
#include "reports/text/host_sentences.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/ceilings_sentences.hpp"

namespace rooflab::reports {
namespace {

// Pads to `width` columns; a UTF-8 sequence (the table's ±) takes one.
std::string ceilingsPadRight(std::string text, std::size_t width) {
  std::size_t columns = 0;
  for (unsigned char c : text)
    if ((c & 0xC0) != 0x80) ++columns;
  if (columns < width) text.append(width - columns, ' ');
  return text;
}

std::string ceilingsRateText(const std::optional<double>& rate, const std::string& unit) {
  return rate ? formatFixedAsWritten(*rate, 1) + " " + unit : "-";
}

// "±0.3%": the relative half-width of the median's 95% interval; "-" with too few runs to say.
std::string ceilingsNoiseText(const CeilingBenchmark& benchmark) {
  if (!benchmark.spread || !benchmark.spread->noise) return "-";
  return "±" + formatFixedAsWritten(100 * *benchmark.spread->noise, 1) + "%";
}

std::string ceilingsPercentText(double fraction) { return formatNumber(100 * fraction) + "%"; }

// How the benchmarks were repeated, as measureCeilings applied it (analyzer/stats/stopping_rule.hpp).
std::string ceilingsRepetitionText(const CeilingsReport& report) {
  if (!report.repetition_rule)
    return "best of " + std::to_string(report.fp32_fma.repetitions) + " timed runs per benchmark";
  const NoiseTarget& rule = *report.repetition_rule;
  std::string text = "each benchmark: one warm-up, then at least " + std::to_string(rule.min_repetitions) +
                     " timed runs, until its median is known to ±" + ceilingsPercentText(rule.max_noise) + " (" +
                     ceilingsPercentText(rule.confidence) + " interval) or " + formatNumber(rule.max_time_s) +
                     " s is spent";
  if (rule.max_repetitions > 0) text += " (at most " + std::to_string(rule.max_repetitions) + " runs)";
  return text + "; the best run is reported";
}

// Whether the benchmark stopped with its median still less certain than the target.
bool ceilingStoppedNoisy(const CeilingBenchmark& benchmark) {
  return benchmark.spread && benchmark.spread->stopped == StopDecision::budget_exhausted;
}

struct CeilingsRow {
  const CeilingBenchmark& benchmark;
  const char* label;
  std::optional<double> datasheet_rate;
};

std::vector<CeilingsRow> ceilingsRows(const CeilingsReport& report, const std::optional<DeviceModel>& datasheet) {
  std::optional<double> sheet_dram, sheet_peak, sheet_local;
  if (datasheet) {
    sheet_dram = datasheet->dram_gbps;
    sheet_peak = datasheet->peak_gflops;
    sheet_local = datasheet->local_gbps;
  }
  std::vector<CeilingsRow> rows = {{report.dram_copy, "DRAM copy (read+write)", sheet_dram},
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
bool writeCeilingsRoofTable(std::ostringstream& out, const std::vector<CeilingsRow>& rows,
                            const std::optional<DeviceModel>& datasheet) {
  const std::string sheet_header = datasheet ? "datasheet (" + datasheet->key + ")" : "datasheet";
  out << ceilingsPadRight("benchmark", 24) << ceilingsPadRight("measured", 20) << ceilingsPadRight("±noise", 9)
      << ceilingsPadRight(sheet_header, 24) << ceilingsPadRight("measured/datasheet", 24) << "kernel\n";
  bool above_datasheet = false;
  for (const CeilingsRow& row : rows) {
    std::string ratio = "-";
    if (row.benchmark.best_rate && row.datasheet_rate && *row.datasheet_rate > 0) {
      const double value = *row.benchmark.best_rate / *row.datasheet_rate;
      ratio = formatFixedAsWritten(value, 2);
      if (value > 1.0) {
        ratio += " (above datasheet)";
        above_datasheet = true;
      }
    }
    out << ceilingsPadRight(row.label, 24)
        << ceilingsPadRight(ceilingsRateText(row.benchmark.best_rate, row.benchmark.unit), 20)
        << ceilingsPadRight(ceilingsNoiseText(row.benchmark), 9)
        << ceilingsPadRight(ceilingsRateText(row.datasheet_rate, row.benchmark.unit), 24) << ceilingsPadRight(ratio, 24)
        << (row.benchmark.kernel.empty() ? "-" : row.benchmark.kernel) << "\n";
  }
  out << "\n";
  for (const CeilingsRow& row : rows) {
    const CeilingBenchmark& benchmark = row.benchmark;
    out << "  " << ceilingsPadRight(benchmark.name, 11) << " ";
    if (benchmark.error) {
      out << "FAILED: " << *benchmark.error;
    } else {
      out << benchmarkGeometryText(benchmark) << "; median " << ceilingsRateText(benchmark.median_rate, benchmark.unit);
      if (benchmark.spread)
        out << " of " << benchmark.repetitions << " runs, " << toString(benchmark.spread->stopped) << " after "
            << formatFixedAsWritten(benchmark.spread->measured_seconds, 3) << " s";
    }
    out << "\n";
  }
  return above_datasheet;
}

void writeCeilingsCandidates(std::ostringstream& out, const CeilingsReport& report,
                             const std::vector<CeilingsRow>& rows) {
  if (report.candidates.empty()) return;
  out << "\nEvery kernel measured (* set its row's figure):\n";
  for (const CeilingBenchmark& candidate : report.candidates) {
    bool winner = false;
    for (const CeilingsRow& row : rows)
      winner = winner || (row.benchmark.name == candidate.name && row.benchmark.kernel == candidate.kernel);
    out << (winner ? " * " : "   ") << ceilingsPadRight(candidate.kernel, 38);
    if (candidate.error) out << "FAILED: " << *candidate.error << "\n";
    else
      out << ceilingsPadRight(ceilingsRateText(candidate.best_rate, candidate.unit), 20)
          << ceilingsPadRight(ceilingsNoiseText(candidate), 9) << candidate.repetitions << " runs\n";
  }
}

}  // namespace

std::string ceilingsTable(const CeilingsReport& report, const std::optional<DeviceModel>& datasheet) {
  // The link and launch alone (datasheet roofs): no roof table to show.
  if (report.dram_copy.name.empty() && report.fp32_fma.name.empty()) return linkCeilingsTable(report);
  std::ostringstream out;
  const DeviceInfo& info = report.device;
  out << "Ceilings of " << info.name << " (" << info.platform << ", driver " << info.driver_version << "), measured "
      << report.measured_at << "\n";
  out << ceilingsRepetitionText(report) << ", timed with OpenCL profiling events\n\n";

  const std::vector<CeilingsRow> rows = ceilingsRows(report, datasheet);
  const bool above_datasheet = writeCeilingsRoofTable(out, rows, datasheet);
  if (const CeilingBenchmark* dram = report.dramCeiling(); dram && report.dram_write)
    out << "\nDRAM roof: " << dram->name << (dram->kernel.empty() ? "" : " (" + dram->kernel + ")")
        << ", the best of copy, read and write.\n";

  if (report.l2_not_measured) out << "\nL2 not measured: " << *report.l2_not_measured << ".\n";

  writeCeilingsCandidates(out, report, rows);

  std::string noisy;
  for (const CeilingsRow& row : rows)
    if (ceilingStoppedNoisy(row.benchmark))
      noisy += (noisy.empty() ? "" : ", ") + row.benchmark.name + " (" + ceilingsNoiseText(row.benchmark) + ")";
  if (!noisy.empty() && report.repetition_rule)
    out << "\nStill noisier than ±" << ceilingsPercentText(report.repetition_rule->max_noise) << " when their "
        << formatNumber(report.repetition_rule->max_time_s) << " s were spent: " << noisy << ".\n";
  if (report.noisy_host)
    out << "\nWarning: noisy host: " << hostNoiseText(*report.noisy_host) << ". The figures may vary between runs.\n";

  if (!datasheet) {
    out << "\nNo datasheet model in configs/devices matches '" << info.name << "': measured figures only.\n";
  } else {
    out << "\nDatasheet: " << datasheet->display_name << " (configs/devices/" << datasheet->key << ".toml).\n";
    if (above_datasheet)
      out << "Figures above the datasheet are reported as measured: boost clocks can run faster than the clock the "
             "datasheet figure assumes.\n";
  }
  if (!report.model) out << "No device model: the FP32 benchmark or every DRAM benchmark failed.\n";
  out << linkCeilingsTable(report);
  return out.str();
}

}  // namespace rooflab::reports
