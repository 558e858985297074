#pragma once
// Matching a mutant's parallelism to its original's (docs/manifest.md, "Mutation annotations"): how many
// bytes of dynamic local memory pad each launch of a mutant, decided from the CUDA driver's
// occupancy of both programs (through the PTX bridge) where it can tell, else from the local memory
// each kernel declares. occupancy_padding.hpp adds the pad parameter to the mutant's source. What
// the mutant's record says about it (docs/results-schema.md, "Occupancy padding") is an OccupancyMatch.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyzer/data/counter_set.hpp"
#include "analyzer/data/occupancy_match.hpp"

namespace rooflab {

// One launch of a mutant, beside the same launch of its original.
struct OccupancyLaunch {
  std::string kernel;
  std::size_t threads_per_group = 0;    // 0: the runtime chooses the local size
  std::size_t dynamic_local_bytes = 0;  // the launch's __local arguments (the same for both kernels)
  // CL_KERNEL_LOCAL_MEM_SIZE with no argument set: what the kernel declares, the arguments not counted
  std::uint64_t original_local_bytes = 0;
  std::uint64_t original_private_bytes = 0;  // CL_KERNEL_PRIVATE_MEM_SIZE
  std::uint64_t mutant_local_bytes = 0;      // as original_local_bytes
  std::uint64_t mutant_private_bytes = 0;
};

// The occupancy of one program's kernels for these launch shapes (counters::bridgedOccupancy);
// throws with the reason when the driver cannot tell.
using OccupancyOracle =
    std::function<std::vector<counters::KernelOccupancy>(const std::vector<counters::OccupancyQuery>&)>;

// What matchOccupancy decides for a mutant: the pads of its launches, and the record of how.
struct OccupancyPadPlan {
  // One per launch: what the rebuilt mutant's launch takes. A launch of a padded kernel that needs
  // no pad still takes 16 bytes (the kernel has the parameter); match.launches says what it needed.
  std::vector<std::size_t> pad_bytes;
  std::set<std::string> pad_kernels;  // the kernels that take the pad parameter; empty: no padding
  OccupancyMatch match;               // the mutant record's occupancy_padding
  std::vector<counters::KernelOccupancy> original_occupancy;  // byOccupancy(): one per launch
  bool padded() const { return !pad_kernels.empty(); }
  // Decided from the driver's occupancy, not from local memory.
  bool byOccupancy() const { return match.method == OccupancyMatchMethod::driver_occupancy; }
};

// Decides the pads. `original` and `mutant` answer for the two programs; empty oracles (no bridge
// on this device) compare local memory instead. device_local_bytes caps what a pad may take: OpenCL
// limits a work-group's local memory (48 KiB on NVIDIA, whatever the SM could hold).
OccupancyPadPlan matchOccupancy(const std::vector<OccupancyLaunch>& launches, std::uint64_t device_local_bytes,
                                const OccupancyOracle& original, const OccupancyOracle& mutant);

// Once the mutant is rebuilt with its pads, records the padded program's occupancy (`padded`
// answers for it) and whether it now matches the original's. Does nothing unless by_occupancy.
void confirmPaddedOccupancy(OccupancyPadPlan& plan, const std::vector<OccupancyLaunch>& launches,
                            const OccupancyOracle& padded);

}  // namespace rooflab
