#pragma once
// The roofs of one device, as typed values (the TOML files of configs/devices/). roofline/device_models.hpp
// reads and writes them as TOML; json/ as JSON.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/data/roofline.hpp"

namespace rooflab {

// When and where a model's numbers were measured (`rooflab ceilings`); absent for datasheet models.
struct MeasurementStamp {
  std::string at;      // UTC, ISO 8601 ("2026-11-22T13:00:00Z")
  std::string device;  // CL_DEVICE_NAME
  std::string driver;  // CL_DRIVER_VERSION

  bool operator==(const MeasurementStamp& other) const {
    return at == other.at && device == other.device && driver == other.driver;
  }
};

// The roofs of one device: what a roofline places kernels against. The file format is documented
// at the top of configs/devices/gtx670.toml; every number carries a source in `sources`, keyed by
// the field's TOML/JSON name ("peak_gflops", ...).
struct DeviceModel {
  std::string key;  // file stem of configs/devices/<key>.toml; "measured" for a ceilings run
  std::string display_name;
  std::vector<std::string> match_names;    // case-insensitive substrings of CL_DEVICE_NAME
  std::vector<std::string> match_exclude;  // substrings that veto a match
  double peak_gflops = 0;                  // FP32, an FMA counting 2 flops
  double dram_gbps = 0;
  std::optional<double> local_gbps;  // aggregate over all compute units
  std::optional<double> l2_gbps;     // L2 (last-level cache) bandwidth, aggregate
  // The compute roofs of work in double and in 32-bit integers (Arithmetic), a multiply-add
  // counting 2; absent where the model gives none.
  std::optional<double> fp64_gflops;
  std::optional<double> int32_gops;
  // The host link's fastest transfer in each direction that moves data (not zero-copy), and the
  // launch latency of an empty kernel (queued -> start); absent where the model gives none.
  std::optional<double> host_to_device_gbps;
  std::optional<double> device_to_host_gbps;
  std::optional<double> launch_latency_ns;
  // Warp instructions the device issues per second, in billions: the instruction roofline's roof
  // (measured, or a datasheet's SMs x schedulers x clock).
  std::optional<double> warp_issue_gips;
  std::optional<std::uint64_t> local_mem_bytes;  // per compute unit
  std::optional<std::uint32_t> compute_units;
  std::optional<std::uint32_t> fp32_lanes_per_cu;
  std::optional<std::uint32_t> clock_mhz;  // highest (boost) clock
  std::optional<std::uint32_t> base_clock_mhz;
  std::optional<std::uint64_t> last_level_cache_bytes;
  std::map<std::string, std::string> sources;
  std::optional<MeasurementStamp> measured;
  std::string notes;

  // FLOP per DRAM byte where the compute roof meets the memory roof.
  double ridgeIntensity() const { return peak_gflops / dram_gbps; }
  // The compute roof of work in `arithmetic`: peak_gflops, fp64_gflops or int32_gops.
  std::optional<double> computePeak(Arithmetic arithmetic) const;

  bool operator==(const DeviceModel& other) const;
  bool operator!=(const DeviceModel& other) const { return !(*this == other); }
};

}  // namespace rooflab
