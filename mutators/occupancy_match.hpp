#pragma once
// Matching a mutant's parallelism to its original's (DESIGN.md, "Mutation annotations"): how many
// bytes of dynamic local memory pad each launch of a mutant, decided from the CUDA driver's
// occupancy of both programs (through the PTX bridge) where it can tell, else from the local memory
// each kernel declares. occupancy_padding.hpp adds the pad parameter to the mutant's source.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/counters/counters.hpp"

namespace rooflab {

// One launch of a mutant, beside the same launch of its original.
struct OccupancyLaunch {
  std::string kernel;
  std::size_t threads_per_group = 0;    // 0: the runtime chooses the local size
  std::size_t dynamic_local_bytes = 0;  // the launch's __local arguments
  std::uint64_t original_local_bytes = 0;  // CL_KERNEL_LOCAL_MEM_SIZE
  std::uint64_t original_private_bytes = 0;  // CL_KERNEL_PRIVATE_MEM_SIZE
  std::uint64_t mutant_local_bytes = 0;
  std::uint64_t mutant_private_bytes = 0;
};

// The occupancy of one program's kernels for these launch shapes (counters::bridgedOccupancy);
// throws with the reason when the driver cannot tell.
using OccupancyOracle =
    std::function<std::vector<counters::KernelOccupancy>(const std::vector<counters::OccupancyQuery>&)>;

struct OccupancyMatch {
  std::vector<std::size_t> pad_bytes;  // one per launch
  std::set<std::string> pad_kernels;   // the kernels that take the pad parameter; empty: no padding
  nlohmann::json report;               // the mutant record's "occupancy_padding"
  bool by_occupancy = false;           // decided from the driver's occupancy, not local memory
  std::vector<counters::KernelOccupancy> original_occupancy;  // by_occupancy: one per launch
  bool padded() const { return !pad_kernels.empty(); }
};

// Decides the pads. `original` and `mutant` answer for the two programs; empty oracles (no bridge
// on this device) compare local memory instead. device_local_bytes caps what a pad may take: OpenCL
// limits a work-group's local memory (48 KiB on NVIDIA, whatever the SM could hold).
OccupancyMatch matchOccupancy(const std::vector<OccupancyLaunch>& launches, std::uint64_t device_local_bytes,
                              const OccupancyOracle& original, const OccupancyOracle& mutant);

// Once the mutant is rebuilt with its pads, records the padded program's occupancy (`padded`
// answers for it) and whether it now matches the original's. Does nothing unless by_occupancy.
void confirmPaddedOccupancy(OccupancyMatch& match, const std::vector<OccupancyLaunch>& launches,
                            const OccupancyOracle& padded);

}  // namespace rooflab
