#pragma once
// `rooflab ceilings`' terminal table, which a batch also logs when it measures the ceilings at its
// start: analyzer/ceilings measures the figures, this writes them for a reader.
#include <optional>
#include <string>

#include "analyzer/data/ceilings_report.hpp"

namespace rooflab::reports {

// Each measured figure with its noise and the kernel that set it, beside the matched datasheet
// model's and their ratio; then every kernel measured, the figures still noisy when their time ran
// out, and a noisy host (hostNoiseText). The header says how the benchmarks were repeated. Measured
// figures above the datasheet (boost clocks) are shown as they are, never clamped. A report of the
// link and launch alone (datasheet roofs) gives linkCeilingsTable's part only.
std::string ceilingsTable(const CeilingsReport& report, const std::optional<DeviceModel>& datasheet);

// The host-link and launch part of that table (empty when they were not measured): each strategy and
// direction with its fitted bandwidth and latency, or "zero-copy" and why; the launch figures.
std::string linkCeilingsTable(const CeilingsReport& report);

}  // namespace rooflab::reports
