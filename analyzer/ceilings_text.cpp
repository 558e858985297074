// `rooflab ceilings`' terminal table (formatCeilingsReport): it reads only the report.
#include <sstream>

#include "analyzer/ceilings.hpp"
#include "analyzer/format.hpp"

namespace rooflab {
namespace {

std::string padRight(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

std::string rateText(const std::optional<double>& rate, const std::string& unit) {
  return rate ? formatFixed(*rate, 1) + " " + unit : "-";
}

}  // namespace

std::string formatCeilingsReport(const CeilingsReport& report, const std::optional<DeviceModel>& datasheet) {
  std::ostringstream out;
  const DeviceInfo& info = report.device;
  out << "Ceilings of " << info.name << " (" << info.platform << ", driver " << info.driver_version << "), measured "
      << report.measured_at << "\n";
  out << "best of " << report.fp32_fma.repetitions << " timed runs per benchmark, OpenCL profiling events\n\n";

  struct Row {
    const CeilingBenchmark& benchmark;
    const char* label;
    std::optional<double> datasheet_rate;
  };
  std::optional<double> sheet_dram, sheet_peak, sheet_local;
  if (datasheet) {
    sheet_dram = datasheet->dram_gbps;
    sheet_peak = datasheet->peak_gflops;
    sheet_local = datasheet->local_gbps;
  }
  const Row rows[] = {
      {report.dram_copy, "DRAM copy (read+write)", sheet_dram},
      {report.dram_read, "DRAM read", sheet_dram},
      {report.fp32_fma, "FP32 multiply-add", sheet_peak},
      {report.local_read, "local memory read", sheet_local},
  };
  const std::string sheet_header = datasheet ? "datasheet (" + datasheet->key + ")" : "datasheet";
  out << padRight("benchmark", 24) << padRight("measured", 20) << padRight(sheet_header, 24) << "measured/datasheet\n";
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
        << padRight(rateText(row.datasheet_rate, row.benchmark.unit), 24) << ratio << "\n";
  }
  out << "\n";
  for (const Row& row : rows) {
    out << "  " << padRight(row.benchmark.name, 11) << " ";
    if (row.benchmark.error) out << "FAILED: " << *row.benchmark.error;
    else out << row.benchmark.geometry << "; median " << rateText(row.benchmark.median_rate, row.benchmark.unit);
    out << "\n";
  }
  if (!datasheet) {
    out << "\nNo datasheet model in configs/devices matches '" << info.name << "': measured figures only.\n";
  } else {
    out << "\nDatasheet: " << datasheet->display_name << " (configs/devices/" << datasheet->key << ".toml).\n";
    if (above_datasheet)
      out << "Figures above the datasheet are reported as measured: boost clocks can run faster than the clock the "
             "datasheet figure assumes.\n";
  }
  if (!report.model) out << "No device model: the FP32 benchmark or both DRAM benchmarks failed.\n";
  return out.str();
}

}  // namespace rooflab
