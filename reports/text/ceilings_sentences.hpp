#pragma once
// The ceilings' measurement notes in words: how each benchmark was launched, why a host-link
// strategy moved no data, and the source note each measured roof keeps in the device model.
// analyzer/ceilings measures them as counts and figures.
#include <string>

#include "analyzer/data/ceilings_report.hpp"

namespace rooflab::reports {

// A benchmark's launch and sizes, the benchmark's name choosing the words ("global 4096 x local 256,
// 16 chains of float4, 2000 iterations x 8 multiply-adds per chain"); as saved for an older file.
std::string benchmarkGeometryText(const CeilingBenchmark& benchmark);

// Why a strategy moved no data, with the sweep's figures; as saved for an older file; "" without
// a finding.
std::string zeroCopyEvidenceText(const LinkCeiling& ceiling);

// The source note of the measured roof `roof_key` (a DeviceModel field such as "peak_gflops"): the
// benchmark that set it, how often it ran, its noise and its launch. "" for a roof no benchmark of
// the report set. The measured model keeps it (RoofSourceText).
std::string measuredRoofSource(const CeilingsReport& report, const std::string& roof_key);

}  // namespace rooflab::reports
