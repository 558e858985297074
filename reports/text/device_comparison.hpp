#pragma once
// A batch run on several devices with device_mode = "compare", as every report shows it: one
// document per device (its records on its own models, so that each report section and chart reads
// like a run of its own) and the side-by-side table of every normal-mode point on each device.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "analyzer/data/results_document.hpp"

namespace rooflab::reports {

// Whether the document compares devices: compare mode, with more than one device.
bool comparesDevices(const AnalysedResults& results);

// A device's name in tables: its type ("CPU", "GPU") where no other device has that type, else its
// type and key ("GPU 0:1").
std::string deviceShortName(const AnalysedResults& results, const DeviceRun& run);

// Each device's records as a document of their own: the device, its models and ceilings, its
// records; the header (config, times, host, batch) shared. One document unless it compares devices.
std::vector<AnalysedResults> documentsPerDevice(const AnalysedResults& results);

// One point (family, variant, params) across the devices, in device order.
struct DeviceCell {
  std::optional<double> median_ns;
  std::optional<double> rate;              // GFLOP/s, or GB/s for a family without FLOPs
  std::optional<double> fraction_of_roof;  // on the device's own roof (its measured model, else its datasheet)
  std::string diagnosis;                   // the diagnosis' summary, "" without one
  std::string status;                      // "" when ok; else the status and its first line
  bool verification_failed = false;
};
struct DeviceComparisonRow {
  std::string family;
  std::string variant;
  std::string params;
  bool rate_is_flops = true;
  std::vector<DeviceCell> cells;                // one per device
  std::vector<std::optional<double>> speedups;  // device k over the first (k >= 1): first's time / k's
};
struct DeviceComparison {
  std::vector<std::string> devices;  // short names, in device order
  std::vector<DeviceComparisonRow> rows;
};

// Every normal-mode point of a comparing document, in run order, family by family.
DeviceComparison compareDevices(const AnalysedResults& results);

// The table on the terminal: per point each device's time, rate, fraction of its roof and
// diagnosis, then the speedup of each device over the first.
void printDeviceComparison(const AnalysedResults& results, std::ostream& out);

}  // namespace rooflab::reports
