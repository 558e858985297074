#pragma once
// The PTX bridge, text half: NVIDIA's OpenCL program binary is PTX that the CUDA driver refuses as is.
// These functions turn it into PTX that cuModuleLoadDataEx accepts (docs/cost.md, "Counters"), so
// the kernel can run under CUPTI, which does not see OpenCL launches. Pure text: no CUDA headers, built
// with or without the CUDA Toolkit, tested on CPU-only machines.
#include <cstddef>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rooflab::counters {

// Malformed or unsupported PTX. The message names the kernel and the PTX line (1-based, in the text
// that was given) where it can.
class PtxRewriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class PtxParamKind {
  global_pointer,  // `.param .u64 .ptr .global .align N` (an OpenCL __global pointer)
  // `.param .u64 .ptr .const .align N` (an OpenCL __constant pointer): becomes a __global one, read
  // through the read-only path (rewrite 6)
  constant_pointer,
  local_pointer,  // `.param .u64 .ptr .shared .align N` (an OpenCL __local pointer): becomes dynamic shared memory
  scalar,         // passed by value: .u8 ... .f64, or `.align N .b8 name[size]` for vectors and structs
};

struct PtxParam {
  std::string name;  // e.g. mm_param_3
  PtxParamKind kind = PtxParamKind::scalar;
  std::size_t size_bytes = 0;   // bytes the launch passes; 8 for pointers
  std::size_t align_bytes = 0;  // `.align N` when given (pointee alignment for pointers), else size_bytes
};

// One `.entry`: its parameters in OpenCL argument order (local pointers included, so argument i of
// clSetKernelArg is params[i]).
struct PtxKernelSignature {
  std::string name;
  std::vector<PtxParam> params;
  int line = 0;  // line of `.entry` in the PTX text

  std::size_t localPointerCount() const;
};

// Where each __local argument of one launch sits in the dynamic shared memory the launch passes.
struct DynamicLocalLayout {
  std::vector<std::size_t> offsets_bytes;  // one per local pointer parameter, in parameter order
  std::size_t total_bytes = 0;             // sharedMemBytes for cuLaunchKernel
};

// Per kernel name: the byte size of each __local argument, in parameter order.
using LocalArgBytesByKernel = std::map<std::string, std::vector<std::size_t>>;

// The result of rewriteForCuda.
struct CudaReadyPtx {
  std::string ptx;                          // NUL-free text for cuModuleLoadDataEx
  std::vector<PtxKernelSignature> kernels;  // the OpenCL signatures (what the launcher marshals against)
  std::string dynamic_local_symbol;         // the `.extern .shared` array; empty when no kernel has __local args
  std::map<std::string, DynamicLocalLayout> local_layouts;  // the offsets baked in, per kernel with __local args
  // Per kernel whose __local arrays were laid out as NVIDIA's OpenCL does (rewrite 5): their bytes,
  // reserved bytes included, which is the shared memory OpenCL's ptxas reports for the kernel.
  std::map<std::string, std::size_t> opencl_static_local_bytes;
};

// CL_PROGRAM_BINARIES holds a NUL-terminated string (and the buffer may be larger): the text up to the
// first NUL.
std::string ptxTextFromProgramBinary(std::string_view binary);

// Every `.entry` of the module, in text order. Throws PtxRewriteError on a malformed or unsupported
// parameter list (e.g. a pointer to `.local` memory).
std::vector<PtxKernelSignature> parseKernelSignatures(std::string_view ptx);

// Offsets of the __local arguments of one launch: each starts at the sum of the preceding ones' sizes,
// rounded up to 16 bytes (or to the pointer's `.align` if larger). Throws when the number of sizes is not
// the kernel's number of local pointer parameters.
DynamicLocalLayout layoutDynamicLocal(const PtxKernelSignature& kernel,
                                      const std::vector<std::size_t>& local_arg_bytes);

// The rewrites:
//  1. drop `, texmode_independent` from `.target`;
//  2. replace each `%envreg<N>` (OpenCL's global work offset; the bridge launches with none) with 0;
//  3. drop `.ptr .global .align N` from `.param .u64` kernel parameters;
//  4. remove each `.ptr .shared` (__local) parameter, declare one module-scope
//     `.extern .shared .align 16 .b8 <sym>[];` and turn its `ld.param.u64 %rdX, [name];` into
//     `mov.u64 %rdX, <sym>;` plus `add.s64 %rdX, %rdX, <offset>;` for every local argument after the first.
//  5. lay a kernel's statically declared `.shared` arrays (OpenCL's demoted __local arrays) out as NVIDIA's
//     OpenCL compiler does: 4 reserved bytes at address 0, then each array at its alignment, in
//     declaration order, inside one `.shared` array; references become that array plus the
//     offset. A kernel whose arrays are declared or used in another form keeps them as they are.
//  6. declare each `.ptr .const` (__constant) parameter a plain `.param .u64`, the launch passing the
//     buffer's device pointer, and read it with `ld.global.nc` where NVIDIA's OpenCL reads the constant
//     bank with `ld.const` (each load whose address derives from the parameter; `cvta.const` and
//     `cvta.to.const` of such an address become their .global forms). Loads of the module's own
//     `.const` variables stay. A parameter used other than by `ld.param.u64` is refused.
// CUDA places dynamic shared memory after the static arrays, so <sym> never overlaps them.
// Offsets depend on sizes known only at launch, so they come in: local_arg_bytes must name every kernel
// with two or more __local arguments (a kernel with one needs no size: its offset is 0). Kernels that
// will not be launched may be given zeros. Throws PtxRewriteError with the kernel and line otherwise, or
// when a local pointer parameter is used in any way but the `ld.param` above.
// keep_kernels: when not empty, only these entries are kept (the JIT then compiles what runs; a program
// such as matmul.cl holds nine kernels).
CudaReadyPtx rewriteForCuda(std::string_view opencl_ptx, const LocalArgBytesByKernel& local_arg_bytes = {},
                            const std::set<std::string>& keep_kernels = {});

// Registers per thread of each kernel from NVIDIA's OpenCL build log with -cl-nv-verbose ("ptxas info :
// Compiling entry function 'k' ..." then "... Used 32 registers, ..."): {k: 32}. Empty without such lines.
std::map<std::string, int> ptxasRegistersFromBuildLog(const std::string& log);

}  // namespace rooflab::counters
