#pragma once
// What a mutant's record says about matching its parallelism to its original's (docs/results-schema.md,
// "Occupancy padding"), as typed values; mutators/occupancy_match.hpp decides it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rooflab {

// How the original and the mutant were compared.
enum class OccupancyMatchMethod {
  // Work-groups per compute unit, as the CUDA driver computes them for the bridged PTX.
  driver_occupancy,
  // CL_KERNEL_LOCAL_MEM_SIZE: where no driver can be asked, local memory is what limits work-groups.
  local_memory,
};
// The sentence the results carry for the method.
inline std::string describe(OccupancyMatchMethod method) {
  return method == OccupancyMatchMethod::driver_occupancy
             ? "occupancy: work-groups per compute unit from the CUDA driver, through the PTX bridge"
             : "local memory: CL_KERNEL_LOCAL_MEM_SIZE of the original and the mutant";
}

// What the CUDA driver says one kernel uses at one launch shape, and how many of its work-groups
// then fit on a compute unit.
struct DriverOccupancy {
  int registers_per_thread = 0;
  std::int64_t static_local_bytes = 0;
  std::int64_t dynamic_local_bytes = 0;
  std::int64_t private_spill_bytes_per_thread = 0;
  int work_groups_per_cu = 0;
  double occupancy_pct = 0;  // active warps over the most a compute unit holds, in percent
};

// One kernel as OpenCL built it, and as the driver sees it when it was asked.
struct KernelFootprint {
  std::uint64_t local_bytes = 0;    // CL_KERNEL_LOCAL_MEM_SIZE: what the kernel declares, not its __local arguments
  std::uint64_t private_bytes = 0;  // CL_KERNEL_PRIVATE_MEM_SIZE
  std::optional<DriverOccupancy> occupancy;  // with OccupancyMatchMethod::driver_occupancy
};

struct LaunchOccupancyMatch {
  std::string kernel;
  KernelFootprint original;
  KernelFootprint mutant;
  std::optional<DriverOccupancy> padded;  // the mutant after padding, when the driver was asked again
  std::size_t pad_bytes = 0;              // dynamic local memory added to the mutant's launch
  bool matched = true;                    // work-groups per compute unit (or local bytes) equal the original's
  std::optional<std::string> note;        // why it could not be matched
};

struct OccupancyMatch {
  OccupancyMatchMethod method = OccupancyMatchMethod::local_memory;
  bool padded = false;  // the mutant ran with the rl_occupancy_pad __local argument
  std::vector<LaunchOccupancyMatch> launches;
  std::vector<std::string> notes;
};

}  // namespace rooflab
