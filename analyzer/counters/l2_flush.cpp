#include "analyzer/counters/l2_flush.hpp"

#include <algorithm>
#include <cstdint>

#include "analyzer/counters/cuda_driver.hpp"

namespace rooflab::counters {
namespace {

// Every thread XORs a strided share of the 32-bit words of `data`; the result goes to `sink` only if
// it equals a value the zeroed buffer never gives, so the loads cannot be dropped and nothing is written.
constexpr const char* kFlushPtx = R"(
.version 7.0
.target sm_70
.address_size 64

.visible .entry rooflab_l2_flush(
	.param .u64 data,
	.param .u64 words,
	.param .u64 sink
)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<7>;
	.reg .b64 	%rd<10>;

	ld.param.u64 	%rd1, [data];
	ld.param.u64 	%rd2, [words];
	ld.param.u64 	%rd3, [sink];
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %ntid.x;
	mov.u32 	%r3, %tid.x;
	mov.u32 	%r4, %nctaid.x;
	cvt.u64.u32 	%rd4, %r3;
	mad.wide.u32 	%rd5, %r1, %r2, %rd4;
	mul.wide.u32 	%rd6, %r4, %r2;
	mov.u32 	%r5, 0;
	setp.ge.u64 	%p1, %rd5, %rd2;
	@%p1 bra 	$L_done;
$L_loop:
	shl.b64 	%rd7, %rd5, 2;
	add.s64 	%rd8, %rd1, %rd7;
	ld.global.u32 	%r6, [%rd8];
	xor.b32 	%r5, %r5, %r6;
	add.s64 	%rd5, %rd5, %rd6;
	setp.lt.u64 	%p2, %rd5, %rd2;
	@%p2 bra 	$L_loop;
$L_done:
	setp.ne.s32 	%p1, %r5, 1592745557;
	@%p1 bra 	$L_end;
	st.global.u32 	[%rd3], %r5;
$L_end:
	ret;
}
)";

}  // namespace

L2Flusher::L2Flusher(CUdevice device) {
  const CudaDriver& d = cudaDriver();
  int l2_bytes = 0, multiprocessors = 0;
  checkCuda(d.deviceGetAttribute(&l2_bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, device),
            "cuDeviceGetAttribute(L2_CACHE_SIZE)");
  checkCuda(d.deviceGetAttribute(&multiprocessors, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device),
            "cuDeviceGetAttribute(MULTIPROCESSOR_COUNT)");
  // Twice the L2: its replacement policy is not strict LRU.
  const std::size_t scratch_bytes = 2 * static_cast<std::size_t>(std::max(l2_bytes, 1 << 20));
  scratch_words_ = scratch_bytes / 4;
  blocks_ = static_cast<unsigned>(std::max(multiprocessors, 1) * 8);
  try {
    checkCuda(d.moduleLoadDataEx(&module_, kFlushPtx, 0, nullptr, nullptr), "cuModuleLoadDataEx (L2 flush kernel)");
    checkCuda(d.moduleGetFunction(&kernel_, module_, "rooflab_l2_flush"), "cuModuleGetFunction (L2 flush kernel)");
    checkCuda(d.memAlloc(&scratch_, scratch_bytes), "cuMemAlloc (L2 flush buffer)");
    checkCuda(d.memAlloc(&sink_, sizeof(std::uint32_t)), "cuMemAlloc (L2 flush sink)");
    checkCuda(d.memsetD8(scratch_, 0, scratch_bytes), "cuMemsetD8 (L2 flush buffer)");
    checkCuda(d.ctxSynchronize(), "cuCtxSynchronize (L2 flush set-up)");
  } catch (...) {
    release();
    throw;
  }
}

L2Flusher::~L2Flusher() { release(); }

void L2Flusher::release() noexcept {
  const CudaDriver& d = cudaDriver();
  if (sink_) d.memFree(sink_);
  if (scratch_) d.memFree(scratch_);
  if (module_) d.moduleUnload(module_);
  sink_ = scratch_ = 0;
  module_ = nullptr;
}

void L2Flusher::flush() {
  const CudaDriver& d = cudaDriver();
  std::uint64_t words = scratch_words_;
  void* params[] = {&scratch_, &words, &sink_};
  checkCuda(d.launchKernel(kernel_, blocks_, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr),
            "cuLaunchKernel (L2 flush kernel)");
  checkCuda(d.ctxSynchronize(), "cuCtxSynchronize (after the L2 flush)");
}

}  // namespace rooflab::counters
