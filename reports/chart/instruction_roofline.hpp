#pragma once
#include <optional>
#include <string_view>

#include "reports/chart/roofline_chart.hpp"

// The instruction roofline of one family (docs/charts.md), for records with NVIDIA counters: each
// variant at its warp instructions per second against its warp instructions per transaction at L1
// (global sectors), L2 (sectors), DRAM (sectors) and shared memory (wavefronts); under the device's
// issue rate and each level's transaction rate (its bandwidth roof over 32 bytes, 128 for a
// wavefront); beside the walls where an access pattern puts a load or store instruction per
// transaction (1: stride 0 and conflict-free shared memory; 1/4: unit stride of 4-byte words; 1/32:
// a sector per thread and a 32-way bank conflict), with each variant's loads and stores read against
// them. A RooflineChart, so that the same scene draws it in SVG and PNG.
namespace rooflab::reports {

// nullopt when no normal record of the family has instruction counts (no counters, or results
// written before these readings): the report then shows no instruction roofline.
std::optional<RooflineChart> buildInstructionRoofline(const AnalysedResults& results, std::string_view family);

}  // namespace rooflab::reports
