// bridgedOccupancy: what the CUDA driver's occupancy calculator says about the bridged kernels, and the
// dynamic shared memory that would bring a kernel down to a number of blocks per SM.
#include <algorithm>
#include <set>

#include "analyzer/counters/bridge_cache.hpp"
#include "analyzer/counters/bridge_context.hpp"
#include "analyzer/counters/bridge_module.hpp"
#include "analyzer/counters/counters.hpp"
#include "analyzer/counters/ptx/ptx_rewrite.hpp"

namespace rooflab::counters {

using namespace bridge_detail;

std::vector<KernelOccupancy> bridgedOccupancy(const std::string& opencl_ptx, const std::vector<OccupancyQuery>& queries,
                                              const BridgeDevice& opencl_device) {
  const std::string ptx = ptxTextFromProgramBinary(opencl_ptx);
  const std::vector<PtxKernelSignature> kernels = parseKernelSignatures(ptx);
  // Offsets of several __local arguments do not change occupancy: zeros place them all.
  LocalArgBytesByKernel sizes;
  for (const PtxKernelSignature& k : kernels)
    if (k.localPointerCount() >= 2) sizes[k.name] = std::vector<std::size_t>(k.localPointerCount(), 0);
  if (!driver().usable()) throw BridgeError(driver().unavailable_reason);
  if (!driver().occupancyMaxActiveBlocksPerMultiprocessor)
    throw BridgeError("libcuda has no cuOccupancyMaxActiveBlocksPerMultiprocessor");

  CUdevice device = 0;
  checkCuda(driver().deviceGet(&device, chooseDeviceOrdinal(opencl_device)), "cuDeviceGet");
  CurrentPrimaryContext context(device);
  int shared_optin_bytes = 0, max_threads_per_sm = 0;
  checkCuda(
      driver().deviceGetAttribute(&shared_optin_bytes, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, device),
      "cuDeviceGetAttribute(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)");
  checkCuda(
      driver().deviceGetAttribute(&max_threads_per_sm, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, device),
      "cuDeviceGetAttribute(MAX_THREADS_PER_MULTIPROCESSOR)");
  std::set<std::string> queried;
  for (const OccupancyQuery& q : queries) queried.insert(q.kernel);
  // Kept: the same PTX is often measured next, compiled the same way (bridge_cache.hpp).
  const std::shared_ptr<LoadedModule> kept =
      keptModule(rewriteForCuda(ptx, sizes, queried).ptx, JitMode::whole_program);
  const LoadedModule& module = *kept;

  std::vector<KernelOccupancy> answers;
  for (const OccupancyQuery& q : queries) {
    if (std::none_of(kernels.begin(), kernels.end(), [&](const PtxKernelSignature& k) { return k.name == q.kernel; }))
      throw BridgeError("kernel " + q.kernel + " is not in the program's PTX (it has: " + kernelNames(kernels) + ")");
    CUfunction function = nullptr;
    checkCuda(driver().moduleGetFunction(&function, module.get(), q.kernel.c_str()),
              "cuModuleGetFunction(" + q.kernel + ")");
    KernelOccupancy answer;
    answer.resources = kernelResources(function, q.dynamic_local_bytes);
    // Padding may need all the dynamic shared memory the device allows.
    const std::int64_t dynamic_limit = shared_optin_bytes - answer.resources.static_shared_bytes;
    optInToAllDynamicShared(function, shared_optin_bytes, answer.resources.static_shared_bytes, q.kernel);
    auto blocksPerSm = [&](std::size_t dynamic_bytes) {
      int blocks = 0;
      checkCuda(driver().occupancyMaxActiveBlocksPerMultiprocessor(
                    &blocks, function, static_cast<int>(q.threads_per_block), dynamic_bytes),
                "cuOccupancyMaxActiveBlocksPerMultiprocessor(" + q.kernel + ")");
      return blocks;
    };
    const int warps_per_block = static_cast<int>((q.threads_per_block + 31) / 32);
    answer.blocks_per_sm = blocksPerSm(q.dynamic_local_bytes);
    answer.warps_per_sm = answer.blocks_per_sm * warps_per_block;
    answer.max_warps_per_sm = max_threads_per_sm / 32;
    answer.padded_blocks_per_sm = answer.blocks_per_sm;
    if (q.pad_to_blocks_per_sm && answer.blocks_per_sm > *q.pad_to_blocks_per_sm) {
      // Blocks per SM only fall as dynamic shared memory grows: bisect for the fewest extra bytes.
      std::size_t room = dynamic_limit > static_cast<std::int64_t>(q.dynamic_local_bytes)
                             ? static_cast<std::size_t>(dynamic_limit) - q.dynamic_local_bytes
                             : 0;
      if (q.pad_limit_bytes > 0) room = std::min(room, q.pad_limit_bytes);
      if (room > 0 && blocksPerSm(q.dynamic_local_bytes + room) <= *q.pad_to_blocks_per_sm) {
        std::size_t low = 0, high = room;  // blocks(low) > target, blocks(high) <= target
        while (high - low > 16) {
          const std::size_t mid = low + (high - low) / 2;
          (blocksPerSm(q.dynamic_local_bytes + mid) <= *q.pad_to_blocks_per_sm ? high : low) = mid;
        }
        answer.pad_bytes = (high + 15) / 16 * 16 <= room ? (high + 15) / 16 * 16 : high;
        answer.padded_blocks_per_sm = blocksPerSm(q.dynamic_local_bytes + *answer.pad_bytes);
      }
    }
    answers.push_back(answer);
  }
  return answers;
}

}  // namespace rooflab::counters
