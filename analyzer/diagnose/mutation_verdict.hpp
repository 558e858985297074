#pragma once
// The course's "code mutilation" reading of one variant: from the times of the whole kernel (t), its
// memory-only mutant (t_mem) and its compute-only mutant (t_comp), what bounds it and what an
// optimisation could still win. Works on typed records: a batch's, or a results file's read back.
#include <optional>
#include <string>

#include "analyzer/data/mutation_verdict.hpp"

namespace rooflab {

struct RunRecord;
struct DeviceModel;

// The fastest memory roof of a device: global traffic can be served from any level (caches hold a
// small working set from one launch to the next, and on a GPU L1 and local memory are one store),
// so no kernel moves the bytes it must move faster than this.
struct MemoryRoof {
  double gbps = 0;
  std::string level;  // "local memory", "L2", "DRAM"
};
// The highest of a device model's memory roofs, or nullopt when it has none.
std::optional<MemoryRoof> fastestMemoryRoof(const DeviceModel& model);

// `normal`, `memory_only` and `compute_only` are the records of one (family, variant, params). Either
// mutant may be null (not run or not annotated). `compute_roof_gflops`, the device's roof for the
// kernel's arithmetic when known: a compute-only mutant whose FLOP rate is above it (by more than
// its margin) has lost work to the compiler, and is invalid. `memory_roof`, the device's fastest
// memory roof when known: a memory-only mutant that moves the bytes it must move (the family's
// declared bytes, or fewer where the buffers its accesses reach hold fewer) over 4x faster than that
// roof and than the original moves them has lost traffic to the compiler, and is invalid.
// `cpu_device`: the device that ran them is a CPU (the notes say why a mutant runs slower there).
// A mutant slower than margins.far_slower x the original gives no verdict (slower_mutant says which).
MutationVerdict analyseMutation(const RunRecord& normal, const RunRecord* memory_only, const RunRecord* compute_only,
                                double timer_resolution_ns, const VerdictMargins& margins = {},
                                std::optional<double> compute_roof_gflops = std::nullopt,
                                std::optional<MemoryRoof> memory_roof = std::nullopt, bool cpu_device = false);

}  // namespace rooflab
